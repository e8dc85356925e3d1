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
``background.start_experiment`` runs an experiment on a thread and returns a handle
(``.done()``, ``.result()``, ``.summary()`` so far) for notebooks.

Modules: ``chunks`` (one chunk), ``keep`` (what a chunk file keeps), ``run`` (the chunk
loop), ``dask_backend``, ``files`` (chunk files, the final parquet, resuming, reading back),
``merge`` (shards), ``background``, ``metadata``, ``version`` (the code version in every
experiment's identity), ``codec`` (exact JSON of chunk summaries), ``signals`` (Ctrl-C),
``results`` (formats, errors, the result object).

Python API (the CLI's ``--backend``, ``--scheduler``, ``--workers``, ``--keep``, ``--shard``)::

    run_experiment(exp, out="m.parquet", backend="dask", scheduler="tcp://host:8786", keep="summary")
    merge_results(["s1.parquet", "s2.parquet"], "all.parquet")
    handle = start_experiment(exp, backend="dask", scheduler=client); handle.summary(); handle.result()
"""

from sim.runner.chunks import play_chunk, stats_of_frame
from sim.runner.files import chunk_name, iter_chunks, load_result, parts_dir, read_plays
from sim.runner.metadata import base_metadata, read_metadata, versions
from sim.runner.results import (
    META_KEY,
    RESULTS_FORMAT,
    RUN_FORMAT,
    ChunkInfo,
    ExperimentResult,
    RunError,
    RunInterrupted,
)
from sim.runner.run import BACKENDS, run_experiment
from sim.runner.keep import KEEPS, ChunkOutput, compute_chunk
from sim.runner.merge import merge_results
from sim.runner.background import RunHandle, start_experiment
from sim.core.version import VersionMismatch, code_version

__all__ = [
    "RESULTS_FORMAT", "RUN_FORMAT", "META_KEY", "ChunkInfo", "ExperimentResult", "RunError", "RunInterrupted",
    "play_chunk", "stats_of_frame", "base_metadata", "read_metadata", "versions", "chunk_name", "iter_chunks",
    "load_result", "parts_dir", "read_plays", "run_experiment", "BACKENDS", "KEEPS", "ChunkOutput", "compute_chunk",
    "merge_results", "RunHandle", "start_experiment", "VersionMismatch", "code_version",
]
