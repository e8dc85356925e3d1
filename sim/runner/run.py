"""The chunk loop: play, reduce, write and report an experiment chunk by chunk."""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
from tqdm import tqdm

from sim import stats
from sim.aggregate import Totals, json_ready
from sim.experiment import Experiment
from sim.frames import Block, Schema, plays_frame
from sim.runner.chunks import play_chunk, stats_of_frame
from sim.runner.files import (
    _atomic_write_text,
    _existing_chunks,
    _prepare_output,
    _read_chunk,
    _table,
    _Writer,
    chunk_name,
    parts_dir,
)
from sim.runner.metadata import base_metadata
from sim.runner.results import FINAL_TMP, MANIFEST, RUN_FORMAT, ChunkInfo, ExperimentResult, RunError, RunInterrupted
from sim.runner.signals import _StopOnSigint


def run_experiment(
    exp: Experiment,
    *,
    out: str | Path | None = None,
    threads: int | None = None,
    resume: bool = False,
    force: bool = False,
    keep_plays: bool = False,
    progress: bool | None = None,
    on_chunk: Callable[[ChunkInfo], bool | None] | None = None,
    check_strategies: bool = False,
) -> ExperimentResult:
    """Play ``exp`` chunk by chunk (see module doc) and return its result.

    ``progress`` None shows a tqdm bar when stderr is a terminal. ``keep_plays`` keeps
    the per-play DataFrame in memory (small runs only; otherwise read ``out``).
    Raises RunError (a ValueError) for an existing output without ``force``/``resume``
    or a resume against another experiment, and RunInterrupted on Ctrl-C.
    ``check_strategies`` plays user strategies with numba's bounds checks (sim.games.runs).
    """
    t_start = time.perf_counter()
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise RunError(f"threads must be a positive integer, got {threads!r}")
    out = Path(out) if out is not None else None
    parts = parts_dir(out) if out is not None else None
    if out is None and resume:
        raise RunError("--resume needs --out: only a run that writes its chunks can be resumed")
    if out is not None:
        finished = _prepare_output(exp, out, parts, resume, force, keep_plays)
        if finished is not None:
            return finished
    if progress is None:
        progress = sys.stderr.isatty()
    loop = _ChunkLoop(exp, parts, threads, keep_plays, check_strategies)
    plan = exp.chunks()
    done_before = sum(stop - start for start, stop in plan if (start, stop) in loop.existing)
    bar = tqdm(total=exp.deals, initial=done_before, unit="deal", unit_scale=True, file=sys.stderr,
               disable=not progress, dynamic_ncols=True, mininterval=0.5, smoothing=0.2,
               desc=exp.kind)
    stopped_by = "deals"
    with _StopOnSigint(lambda msg: bar.write(f"rummy-sim: {msg}", file=sys.stderr)) as stop_flag:
        try:
            for k, (start, stop) in enumerate(plan):
                t0 = time.perf_counter()
                reused = loop.chunk(start, stop)
                if not reused:
                    bar.update(stop - start)
                if loop.sprt_decided():
                    stopped_by = "sprt"
                _postfix(bar, loop.totals)
                info = ChunkInfo(k, start, stop, k + 1, len(plan), reused, time.perf_counter() - t0)
                want_stop = bool(on_chunk(info)) if on_chunk is not None else False
                if stopped_by == "sprt":
                    break
                if (want_stop or stop_flag.requested) and k + 1 < len(plan):
                    stopped_by = "interrupt"
                    break
            result = loop.result(stopped_by, out, time.perf_counter() - t_start)
        except BaseException:
            loop.abort()  # the chunk in flight is kept; the unfinished final file is not
            raise
        finally:
            bar.close()
    if stopped_by == "interrupt":
        raise RunInterrupted(result, parts)
    result.seconds = time.perf_counter() - t_start
    return result


class _ChunkLoop:
    """What the chunk loop of one run keeps: its schema, statistics, writer and timings.

    ``chunk`` plays a chunk (or reads it back from the parts folder of an interrupted
    run), reduces it to statistics and hands it to the writer; ``result`` closes the
    run (final file, or the parts kept for --resume after an interrupt)."""

    def __init__(self, exp: Experiment, parts: Path | None, threads: int | None, keep_plays: bool,
                 check_strategies: bool):
        self.exp, self.parts, self.threads = exp, parts, threads
        self.keep_plays, self.check = keep_plays, check_strategies
        self.schema = Schema(exp)
        no_rows = np.zeros((0, self.schema.result.n_result_cols), dtype=np.int64)
        self.arrow_schema = pa.Schema.from_pandas(plays_frame(self.schema, [Block(0, 0, no_rows)]),
                                                  preserve_index=False)
        self.meta = base_metadata(exp)
        self.existing = _start_parts(exp, parts, self.meta) if parts is not None else {}
        self.totals = Totals(exp)
        self.sprt = stats.SPRT(exp.sprt.delta, exp.sprt.alpha, exp.sprt.beta) if exp.sprt else None
        self.kept: list[pd.DataFrame] = []
        self.finished: list[tuple[int, int]] = []
        self.timings = {"engine": 0.0, "frames": 0.0, "stats": 0.0, "write": 0.0, "write_wait": 0.0, "read": 0.0}
        self.writer = _Writer(parts / FINAL_TMP, self.timings) if parts is not None else None
        self._last = None

    def chunk(self, start: int, stop: int) -> bool:
        """Play or reuse deals ``start .. stop-1``; True when the chunk was read back."""
        t0 = time.perf_counter()
        path = self.parts / chunk_name(start, stop) if self.parts is not None else None
        reused = (start, stop) in self.existing
        if reused:
            table, frame, cstats = _read_chunk(self.exp, path, start, stop, self.keep_plays)
            self.writer.submit(table.cast(self.arrow_schema.with_metadata(table.schema.metadata)), None)
            del table
            self.timings["read"] += time.perf_counter() - t0
        else:
            frame = play_chunk(self.exp, start, stop, self.threads, self.schema, self.timings, self.check)
            t1 = time.perf_counter()
            cstats = stats_of_frame(self.exp, start, stop, frame)
            self.timings["stats"] += time.perf_counter() - t1
            if self.writer is not None:
                self.writer.submit(_table(frame, {**self.meta, "deal_range": [start, stop]}), path)
        if self.keep_plays:
            self.kept.append(frame)
        del frame
        self.totals.add(cstats)
        self.finished.append((start, stop))
        self._last = cstats
        return reused

    def sprt_decided(self) -> bool:
        """Whether the sequential test, updated with the last chunk's deal sets, has decided."""
        return self.sprt is not None and self.sprt.update(self._last.set_diffs[0]) != "continue"

    def result(self, stopped_by: str, out: Path | None, seconds: float) -> ExperimentResult:
        result = _result(self.exp, self.totals, self.meta, self.finished, stopped_by, self.sprt, self.kept, out,
                         seconds)
        result.timings = self.timings
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
    """The finished chunks of an interrupted run in ``parts``; a new parts folder with its
    manifest when there is none."""
    if parts.is_dir():
        return _existing_chunks(parts)
    parts.mkdir()
    manifest = {"format": RUN_FORMAT, "experiment": exp.to_dict(), "experiment_hash": exp.digest(),
                "identity": exp.identity(), "versions": meta["versions"], "created": meta["created"]}
    _atomic_write_text(json.dumps(manifest, indent=2) + "\n", parts / MANIFEST)
    return {}


def _postfix(bar: tqdm, totals: Totals) -> None:
    if bar.disable or len(totals.exp.pairings) != 1 or totals.sets.n < 2:
        return
    row = totals.summary().iloc[0]
    bar.set_postfix_str(f"A-B {row['mean_diff']:+.2f} [{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]", refresh=False)


def _result(exp, totals, meta, chunks, stopped_by, sprt, kept, out, seconds) -> ExperimentResult:
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
    plays = pd.concat(kept, ignore_index=True) if kept else None
    return ExperimentResult(exp, totals, summary, meta, plays, out, stopped_by, sprt_info, seconds)
