"""Run an experiment in chunks of deal indices: resumable, interruptible, bounded memory.

A chunk is a pure function of (experiment, deal range): :func:`play_chunk` plays every
pairing in every rotation on deals ``start .. stop-1`` and returns their per-play rows,
so another process or machine can compute any chunk later. :func:`run_experiment`
plays the chunks in order, reduces each to sufficient statistics (sim.runner.aggregate) and,
with an output file, writes each chunk as it finishes::

    results.parquet.parts/_manifest.json            experiment, its hash, versions
    results.parquet.parts/chunk-<start>-<stop>.arrow     one file per finished chunk (Arrow IPC)

A background thread writes each chunk file (uncompressed Arrow IPC: nearly free to
write, so the parquet encoding is paid once) and appends the same rows (one row group
per chunk) to the final parquet file under a temporary name in the parts folder, while
the engine plays the next chunk (pyarrow encodes without the GIL; at most one chunk is in
flight, so memory stays bounded). When every chunk is done the final file gets its
metadata (file key-value metadata ``rummy_sim``, JSON), is renamed to
``results.parquet`` and the parts folder is removed. Ctrl-C lets the running chunk
finish, keeps every finished chunk and raises :class:`RunInterrupted`; ``resume=True``
continues from the parts folder (after checking its manifest is the same experiment)
and ends with a file whose rows are identical to an uninterrupted run's. An existing
output is never replaced unless ``force=True``, and then only once the new one is
complete.

A chunk file that cannot be read back (cut short by a crash or a full disk) is named,
renamed ``<name>.damaged`` and computed again.

Backends (``backend=``): "local" plays the chunks in this process; "dask" sends each chunk as
one task to a ``dask.distributed`` cluster (``dask_backend``) and gathers them in deal order
through the same writer, statistics and progress bar - results are identical. ``keep=``
"plays" | "sets" | "summary" says what the files keep of each chunk (``keep``); ``shard="i/N"``
plays every N-th chunk of the same experiment, and ``merge.merge_results`` joins the shards.
:func:`run_study` is the one chunk loop under it all: several experiments (a study's cells: the
variants of a rule sweep, the pairings of an adaptive run) played chunk by chunk on the same
deals, each with its own results file, and a ``between`` callback after every chunk (a study's
stopping rule or joint statistics); :func:`run_experiment` is its one-cell case.
``background.start_experiment`` runs an experiment on a thread and returns a handle
(``.done()``, ``.result()``, ``.summary()`` so far) for notebooks.

Modules: ``chunks`` (one chunk), ``keep`` (what a chunk file keeps), ``run`` (the chunk
loop), ``loop`` (what it keeps per experiment), ``sources`` (chunks played here or on Dask),
``study_dir`` (a study's output folder), ``dask_backend``, ``files`` (chunk files, the final parquet, resuming, reading back),
``merge`` (shards), ``background``, ``metadata``, ``version`` (the code version in every
experiment's identity), ``codec`` (exact JSON of chunk summaries), ``signals`` (Ctrl-C),
``results`` (formats, errors, the result object), ``sums`` (what a chunk leaves for the report) and
``collect`` (a results file read back into statistics and report sums).

Python API (the CLI's ``--backend``, ``--scheduler``, ``--workers``, ``--keep``, ``--shard``)::

    run_experiment(exp, out="m.parquet", backend="dask", scheduler="tcp://host:8786", keep="summary")
    merge_results(["s1.parquet", "s2.parquet"], "all.parquet")
    handle = start_experiment(exp, backend="dask", scheduler=client); handle.summary(); handle.result()
"""

import importlib

# The public names and the submodule defining each, imported on first use (PEP 562): importing one
# runner module (the report's reading of a results file, a Dask worker's chunk) does not drag in Dask,
# merging and background runs. Code of the toolkit imports the submodule it needs.
_PUBLIC = {
    "play_chunk": "chunks", "stats_of_frame": "chunks",
    "chunk_name": "files", "iter_chunks": "files", "load_result": "files", "parts_dir": "files",
    "read_plays": "files",
    "base_metadata": "metadata", "read_metadata": "metadata", "versions": "metadata",
    "META_KEY": "results", "RESULTS_FORMAT": "results", "RUN_FORMAT": "results", "ChunkInfo": "results",
    "ExperimentResult": "results", "RunError": "results", "RunInterrupted": "results",
    "BACKENDS": "run", "run_experiment": "run", "run_study": "run",
    "StudyRun": "results", "StudyStep": "results",
    "KEEPS": "keep", "ChunkOutput": "keep", "compute_chunk": "keep",
    "merge_results": "merge",
    "RunHandle": "background", "start_experiment": "background",
}
_CORE = {"VersionMismatch": "sim.core.version", "code_version": "sim.core.version"}


def __getattr__(name: str):
    if name in _PUBLIC:
        value = getattr(importlib.import_module(f"{__name__}.{_PUBLIC[name]}"), name)
    elif name in _CORE:
        value = getattr(importlib.import_module(_CORE[name]), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC) | set(_CORE))


__all__ = sorted(set(_PUBLIC) | set(_CORE))
