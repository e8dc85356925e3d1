"""What the chunk loop keeps for one experiment of a run (a cell): its schema, statistics,
parts folder, background writer and timings, and the result it closes with.

sim.runner.run drives one of these per experiment, chunk after chunk; a run of one
experiment has one cell, a study (rule sweep, adaptive run) several on the same deals.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from sim.core import stats
from sim.core.fmt import json_ready
from sim.experiment import Experiment
from sim.runner.aggregate import Totals
from sim.runner.files import (
    META_KEY,
    _atomic_write_text,
    _existing_chunks,
    _read_chunk,
    _Writer,
    chunk_file_table,
    chunk_name,
    read_chunk_table,
)
from sim.runner.frames import Block, Schema, plays_frame
from sim.runner.keep import ChunkOutput
from sim.runner.metadata import base_metadata
from sim.runner.results import FINAL_TMP, MANIFEST, RUN_FORMAT, ExperimentResult


class CellLoop:
    """The chunk loop's state for one experiment.

    ``accept`` takes a computed chunk (from any backend) or one read back from the parts
    folder of an interrupted run, adds its statistics and hands its table to the writer;
    ``result`` closes the run (final file, or the parts kept for --resume after an interrupt).
    ``plan`` is the chunks this cell may play: the experiment's own (``exp.chunks()``), a
    shard's, or a study's (an adaptive run cuts chunks at its looks); a results file whose
    chunks are not the experiment's own lists them in its metadata (``chunks``).
    ``diffs`` keeps the per-set differences in stored chunk summaries (``--keep sets|summary``)
    for a study, whose stopping rule or joint statistics need them on --resume."""

    def __init__(self, exp: Experiment, parts: Path | None, threads: int | None, keep_plays: bool,
                 check_strategies: bool, keep: str = "plays", shard: tuple[int, int] | None = None,
                 plan: list | None = None, diffs: bool = False):
        self.exp, self.parts, self.threads = exp, parts, threads
        self.keep_plays, self.check, self.keep, self.shard = keep_plays, check_strategies, keep, shard
        self.plan = plan if plan is not None else exp.chunks()
        self.listed = shard is not None or self.plan != exp.chunks()[:len(self.plan)]
        self.diffs = diffs
        self.schema = Schema(exp)
        no_rows = np.zeros((0, self.schema.result.n_result_cols), dtype=np.int64)
        self.arrow_schema = pa.Schema.from_pandas(plays_frame(self.schema, [Block(0, 0, no_rows)]),
                                                  preserve_index=False)
        self.meta = {**base_metadata(exp), "keep": keep}
        self.digest = exp.digest()
        if shard is not None:
            self.meta["shard"] = list(shard)
        self.existing = _start_parts(exp, parts, self.meta) if parts is not None else {}
        self.totals = Totals(exp)
        self.sprt = stats.SPRT(exp.sprt.delta, exp.sprt.alpha, exp.sprt.beta) if exp.sprt else None
        self.kept: list[pd.DataFrame] = []
        self.finished: list[tuple[int, int]] = []
        self.timings = {"engine": 0.0, "frames": 0.0, "stats": 0.0, "write": 0.0, "write_wait": 0.0, "read": 0.0,
                        "gather_wait": 0.0}
        self.writer = _Writer(parts / FINAL_TMP, self.timings) if parts is not None else None
        self._last = None
        # run time over every session of a resumed run: each chunk file this session writes notes
        # the session and its seconds so far; a resume adds each earlier session's last note
        self.session, self.started = uuid.uuid4().hex[:12], time.perf_counter()
        self.earlier: dict[str, float] = {}

    def read(self, start: int, stop: int) -> ChunkOutput:
        """A finished chunk of an interrupted run, read back from its file."""
        t0 = time.perf_counter()
        path = self.parts / chunk_name(start, stop)
        table, frame, cstats = _read_chunk(self.exp, path, start, stop, self.keep_plays, self.keep)
        if self.keep == "plays":
            table = table.cast(self.arrow_schema.with_metadata(table.schema.metadata))
        self.timings["read"] += time.perf_counter() - t0
        return ChunkOutput(start, stop, cstats, table, frame)

    def accept(self, out: ChunkOutput, reused: bool) -> None:
        """Add a chunk's statistics and write it (chunk file unless reused, and the final file)."""
        for k, v in out.timings.items():
            self.timings[k] = self.timings.get(k, 0.0) + v
        if self.writer is not None:
            if reused:
                self._note_earlier(out.table)
                self.writer.submit(out.table, None)
            elif out.path is not None:  # a Dask worker wrote the chunk file itself: read it back, no copy
                t0 = time.perf_counter()
                table = read_chunk_table(Path(out.path), out.start, out.stop, self.digest)
                self.timings["read"] += time.perf_counter() - t0
                self.writer.submit(table, None)
            else:
                note = {"session": self.session, "session_seconds": round(time.perf_counter() - self.started, 3)}
                self.writer.submit(chunk_file_table(out.table, {**self.meta, **note}, out.start, out.stop),
                                   self.parts / chunk_name(out.start, out.stop))
        if self.keep_plays:
            self.kept.append(out.frame)
        self.totals.add(out.stats)
        self.finished.append((out.start, out.stop))
        self._last = out.stats

    def _note_earlier(self, table: pa.Table | None) -> None:
        """Keep the seconds an earlier session had run when it wrote this chunk (its longest)."""
        try:
            meta = json.loads((table.schema.metadata or {})[META_KEY])
            session, seconds = meta["session"], float(meta["session_seconds"])
        except (AttributeError, KeyError, TypeError, ValueError):
            return  # written by a Dask worker or an older version: no note
        self.earlier[session] = max(self.earlier.get(session, 0.0), seconds)

    def sprt_decided(self) -> bool:
        """Whether the sequential test, updated with the last chunk's deal sets, has decided."""
        return self.sprt is not None and self.sprt.update(self._last.set_diffs[0]) != "continue"

    def result(self, stopped_by: str, out: Path | None, seconds: float) -> ExperimentResult:
        result = _result(self.exp, self.totals, self.meta, self.finished, stopped_by, self.sprt, self.kept, out,
                         seconds, self.listed)
        result.timings = self.timings
        result.meta["run_seconds"] = round(seconds + sum(self.earlier.values()), 3)
        result.meta["sessions"] = 1 + len(self.earlier)
        if self.writer is not None:
            if stopped_by == "interrupt":
                self.writer.abort()
            else:
                self.writer.finish(result.meta, out)
                shutil.rmtree(self.parts)
        return result

    def abort(self) -> None:
        if self.writer is not None:
            self.writer.abort()


def _start_parts(exp: Experiment, parts: Path, meta: dict) -> dict[tuple[int, int], Path]:
    """The finished chunks of an interrupted run in ``parts`` (unreadable ones set aside to be
    recomputed); a new parts folder with its manifest when there is none."""
    if parts.is_dir():
        return _existing_chunks(parts, meta.get("keep", "plays"), say=say)
    parts.mkdir()
    manifest = {"format": RUN_FORMAT, "experiment": exp.to_dict(), "experiment_hash": exp.digest(),
                "identity": exp.identity(), "versions": meta["versions"], "created": meta["created"],
                "keep": meta.get("keep", "plays"), "shard": meta.get("shard")}
    _atomic_write_text(json.dumps(manifest, indent=2) + "\n", parts / MANIFEST)
    return {}


def say(msg: str) -> None:
    print(f"rummy-sim: {msg}", file=sys.stderr)


def _result(exp, totals, meta, chunks, stopped_by, sprt, kept, out, seconds, listed=False) -> ExperimentResult:
    summary = totals.summary()
    sprt_info = None
    if sprt is not None:
        sprt_info = {"delta": exp.sprt.delta, "alpha": exp.sprt.alpha, "beta": exp.sprt.beta,
                     "decision": sprt.decision, "llr": sprt.llr, "lower": sprt.lower, "upper": sprt.upper,
                     "deal_sets": sprt.n}
    first = chunks[0][0] if chunks else exp.first_deal
    last = chunks[-1][1] if chunks else exp.first_deal
    meta = {**meta, "deal_range": [first, last], "deals_played": totals.deals, "stopped_by": stopped_by,
            "sprt": sprt_info, "summary": json_ready(summary.to_dict(orient="records"))}
    if listed:  # a shard's chunks, or a study's that are not the experiment's own (sim.runner.files.result_chunks)
        meta["chunks"] = [list(c) for c in chunks]
    plays = pd.concat(kept, ignore_index=True) if kept else None
    return ExperimentResult(exp, totals, summary, meta, plays, out, stopped_by, sprt_info, seconds)
