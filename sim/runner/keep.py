"""What a run keeps of each chunk (``--keep plays|sets|summary``) and how it is read back.

* ``plays`` (default): the per-play rows (docs/results.md), as before;
* ``sets``: one row per (pairing, deal index) - the deal set's mean A - B over its rotations and
  A's and B's means (sim.runner.frames.sets_frame) - plus the chunk's summary (below) in column
  ``chunk_summary`` of the chunk's first row (null on the others);
* ``summary``: one row per chunk (``start``, ``stop``, ``chunk_summary``) and nothing else.

A chunk summary is the chunk's sufficient statistics (sim.runner.aggregate.ChunkStats: every number
``rummy-sim match`` prints) and every report section's accumulator of the chunk alone
(sim.runner.sums.chunk_parts: binned counts and exact moments), stored as exact JSON
(sim.core.codec), so statistics and reports come out of a summary file identical to those of
the per-play file of the same run. A 1,000,000-deal chunk summary takes a few kilobytes.
The per-set differences are kept only for a run with ``--sprt`` and for the experiments of a
study (``diffs``: its stopping rule or joint statistics read them back on --resume).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import pandas as pd
import pyarrow as pa
import pyarrow.feather as pf
import pyarrow.parquet as pq

from sim.core import codec
from sim.experiment import Experiment
from sim.runner.aggregate import ChunkStats
from sim.runner.chunks import play_chunk, stats_of_frame
from sim.runner.frames import Schema, sets_frame
from sim.runner.results import _CHUNK_RE
from sim.runner.sums import chunk_parts

KEEPS = ("plays", "sets", "summary")
SUMMARY_COLUMN = "chunk_summary"


def check_keep(keep: str) -> str:
    if keep not in KEEPS:
        raise ValueError(f"keep must be one of {', '.join(KEEPS)}, got {keep!r}")
    return keep


def rows_per_chunk(exp: Experiment, keep: str, start: int, stop: int) -> int:
    """Rows a chunk of deals ``start .. stop-1`` has in a file of kind ``keep``."""
    if keep == "summary":
        return 1
    if keep == "sets":
        return len(exp.pairings) * (stop - start)
    return exp.plays_per_deal * (stop - start)


@dataclass
class ChunkOutput:
    """A computed chunk: its statistics, the table its file keeps (None when nothing is
    written, or when a Dask worker wrote the chunk file itself: then ``path`` names it) and,
    when asked, its per-play rows; ``timings`` in seconds per stage."""

    start: int
    stop: int
    stats: ChunkStats
    table: pa.Table | None = None
    frame: pd.DataFrame | None = None
    timings: dict = field(default_factory=dict)
    path: str | None = None


def compute_chunk(exp: Experiment, start: int, stop: int, *, keep: str = "plays", write: bool = True,
                  want_frame: bool = False, threads: int | None = None, check: bool = False,
                  schema: Schema | None = None, diffs: bool = False) -> ChunkOutput:
    """Play deals ``start .. stop-1`` (sim.runner.play_chunk) and reduce them to what the run
    keeps: the same function on this machine and on a Dask worker (``diffs``: module doc)."""
    timings = {"engine": 0.0, "frames": 0.0, "stats": 0.0}
    frame = play_chunk(exp, start, stop, threads, schema, timings, check)
    t0 = time.perf_counter()
    cstats = stats_of_frame(exp, start, stop, frame)
    table = keep_table(exp, start, stop, frame, cstats, keep, diffs) if write else None
    timings["stats"] += time.perf_counter() - t0
    return ChunkOutput(start, stop, cstats, table, frame if want_frame else None, timings)


def chunk_summary(exp: Experiment, frame: pd.DataFrame, cstats: ChunkStats, diffs: bool = False) -> bytes:
    """The stored summary of one chunk (see module doc)."""
    scores = cstats.set_scores
    if exp.sprt is None and not diffs:
        cstats = dataclasses.replace(cstats, set_diffs=None)
    extra = {"set_scores": scores} if diffs and scores is not None else {}
    return codec.dumps({"stats": cstats, "parts": chunk_parts(exp, frame), **extra})


def read_summary(blob: bytes) -> tuple[ChunkStats, dict]:
    d = codec.loads(blob)
    if d.get("set_scores") is not None:
        d["stats"].set_scores = d["set_scores"]
    return d["stats"], d["parts"]


def keep_table(exp: Experiment, start: int, stop: int, frame: pd.DataFrame, cstats: ChunkStats,
               keep: str, diffs: bool = False) -> pa.Table:
    """The rows a chunk's file keeps (without the run's metadata)."""
    if keep == "plays":
        return pa.Table.from_pandas(frame, preserve_index=False)
    blob = chunk_summary(exp, frame, cstats, diffs)
    if keep == "summary":
        return pa.table({"start": pa.array([start], pa.int64()), "stop": pa.array([stop], pa.int64()),
                         SUMMARY_COLUMN: pa.array([blob], pa.binary())})
    sets = pa.Table.from_pandas(sets_frame(frame), preserve_index=False)
    col = pa.array([blob] + [None] * (sets.num_rows - 1), pa.binary())
    return sets.append_column(SUMMARY_COLUMN, col)


def summaries_of_table(table: pa.Table) -> list[tuple[ChunkStats, dict]]:
    """Every chunk summary in a table of a ``summary`` or ``sets`` file (in row order)."""
    col = table.column(SUMMARY_COLUMN)
    return [read_summary(b) for b in col.to_pylist() if b is not None]


def iter_summaries(path: str | Path) -> Iterator[tuple[int, int, tuple[ChunkStats, dict]]]:
    """(start, stop, (ChunkStats, section parts)) of every chunk of a ``summary`` or ``sets``
    results file, or of the chunk files of its parts folder, in deal order."""
    path = Path(path)
    if path.is_dir():
        for f in sorted(p for p in path.iterdir() if _CHUNK_RE.match(p.name)):
            for s in summaries_of_table(pf.read_table(f, columns=[SUMMARY_COLUMN])):
                yield s[0].start, s[0].stop, s
        return
    for batch in pq.ParquetFile(path).iter_batches(batch_size=65_536, columns=[SUMMARY_COLUMN]):
        for s in summaries_of_table(pa.Table.from_batches([batch])):
            yield s[0].start, s[0].stop, s
