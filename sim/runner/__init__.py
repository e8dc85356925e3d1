"""Run an experiment in chunks of deal indices: resumable, interruptible, bounded memory.

A chunk is a pure function of (experiment, deal range): :func:`play_chunk` plays every
pairing in every rotation on deals ``start .. stop-1`` and returns their per-play rows,
so another process or machine can compute any chunk later. :func:`run_experiment`
plays the chunks in order, reduces each to sufficient statistics (sim.aggregate) and,
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

Modules: ``chunks`` (one chunk), ``run`` (the chunk loop), ``files`` (chunk files, the
final parquet, resuming, reading back), ``metadata``, ``signals`` (Ctrl-C), ``results``
(formats, errors, the result object).
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
from sim.runner.run import run_experiment

__all__ = [
    "RESULTS_FORMAT", "RUN_FORMAT", "META_KEY", "ChunkInfo", "ExperimentResult", "RunError", "RunInterrupted",
    "play_chunk", "stats_of_frame", "base_metadata", "read_metadata", "versions", "chunk_name", "iter_chunks",
    "load_result", "parts_dir", "read_plays", "run_experiment",
]
