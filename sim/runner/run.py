"""The chunk loop: play (here or on a Dask cluster), reduce, write and report an experiment
chunk by chunk, in deal order."""

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

from sim.core import stats
from sim.core.fmt import json_ready
from sim.runner.aggregate import Totals
from sim.experiment import Experiment
from sim.runner.frames import Block, Schema, plays_frame
from sim.runner.files import (
    _atomic_write_text,
    _existing_chunks,
    _prepare_output,
    _read_chunk,
    _Writer,
    chunk_file_table,
    chunk_name,
    parts_dir,
    read_chunk_table,
)
from sim.runner.keep import ChunkOutput, check_keep, compute_chunk
from sim.runner.metadata import base_metadata
from sim.runner.results import FINAL_TMP, MANIFEST, RUN_FORMAT, ChunkInfo, ExperimentResult, RunError, RunInterrupted
from sim.runner.signals import _StopOnSigint

BACKENDS = ("local", "dask")


def parse_shard(shard) -> tuple[int, int] | None:
    """``"i/N"`` or ``(i, N)`` with 1 <= i <= N -> (i, N); None stays None."""
    if shard is None:
        return None
    try:
        i, n = (int(x) for x in (shard.split("/") if isinstance(shard, str) else shard))
    except (TypeError, ValueError):
        raise RunError(f"shard {shard!r}: expected I/N, e.g. 1/4 (the first of four shards)") from None
    if not (n >= 1 and 1 <= i <= n):
        raise RunError(f"shard {shard!r}: I/N needs 1 <= I <= N")
    return i, n


def shard_plan(exp: Experiment, shard: tuple[int, int] | None) -> list[tuple[int, int]]:
    """The chunks a shard plays: chunk k of the experiment belongs to shard k % N + 1."""
    plan = exp.chunks()
    if shard is None:
        return plan
    i, n = shard
    return [c for k, c in enumerate(plan) if k % n == i - 1]


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
    backend: str = "local",
    scheduler=None,
    workers: int | None = None,
    keep: str = "plays",
    shard=None,
) -> ExperimentResult:
    """Play ``exp`` chunk by chunk (see the package doc) and return its result.

    ``progress`` None shows a tqdm bar on a terminal or in a notebook (tqdm.auto). ``keep_plays``
    keeps the per-play DataFrame in memory (small runs only; otherwise read ``out``).
    ``backend`` "local" plays here on ``threads`` numba threads; "dask" sends every chunk as
    one task to a Dask cluster: ``scheduler`` is its address (or a ``distributed.Client``; None:
    $RUMMY_SIM_SCHEDULER, else a LocalCluster of ``workers`` single-threaded worker processes on
    this machine) and ``threads`` the numba threads of each task (default 1). Results are
    identical whatever the backend. ``keep`` is what files keep of each chunk (sim.runner.keep);
    ``shard`` "i/N" plays every N-th chunk of the same experiment (join shards with
    sim.runner.merge). Raises RunError (a ValueError) for an existing output without
    ``force``/``resume`` or a resume against another experiment, and RunInterrupted on Ctrl-C.
    ``check_strategies`` plays user strategies with numba's bounds checks (sim.plugin.runs).
    """
    t_start = time.perf_counter()
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise RunError(f"threads must be a positive integer, got {threads!r}")
    if backend not in BACKENDS:
        raise RunError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "local" and (scheduler is not None or workers is not None):
        raise RunError("--scheduler and --workers go with --backend dask")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise RunError(f"workers must be a positive integer, got {workers!r}")
    try:
        check_keep(keep)
    except ValueError as e:
        raise RunError(str(e)) from None
    if keep != "plays" and keep_plays:
        raise RunError(f"keep_plays (rows in memory) needs keep='plays', not {keep!r}")
    shard = parse_shard(shard)
    if shard is not None and exp.sprt is not None:
        raise RunError("--shard: a sequential test (--sprt) decides chunk after chunk in order; it cannot be sharded")
    if shard is not None and out is None:
        raise RunError("--shard needs --out: a shard's result is a file to merge with the others")
    out = Path(out) if out is not None else None
    parts = parts_dir(out) if out is not None else None
    if out is None and resume:
        raise RunError("--resume needs --out: only a run that writes its chunks can be resumed")
    if out is None and keep != "plays":
        raise RunError(f"keep={keep!r} says what the output file keeps: it needs --out")
    if out is not None:
        finished = _prepare_output(exp, out, parts, resume, force, keep_plays)
        if finished is not None:
            return finished
    if progress is None:
        progress = _interactive()
    plan = shard_plan(exp, shard)
    loop = _ChunkLoop(exp, parts, threads, keep_plays, check_strategies, keep, shard, plan)
    done_before = sum(stop - start for start, stop in plan if (start, stop) in loop.existing)
    bar = _tqdm()(total=sum(b - a for a, b in plan), initial=done_before, unit="deal", unit_scale=True,
               file=sys.stderr, disable=not progress, dynamic_ncols=True, mininterval=0.5, smoothing=0.2,
               desc=exp.kind if backend == "local" else f"{exp.kind} (dask)")
    stopped_by = "deals"
    source = None
    with _StopOnSigint(lambda msg: bar.write(f"rummy-sim: {msg}", file=sys.stderr)) as stop_flag:
        try:
            todo = [c for c in plan if c not in loop.existing]
            source = _source(backend, loop, todo, scheduler, workers)
            for k, (start, stop) in enumerate(plan):
                t0 = time.perf_counter()
                reused = (start, stop) in loop.existing
                loop.accept(loop.read(start, stop) if reused else source.get(start, stop), reused)
                if not reused:
                    bar.update(stop - start)
                if loop.sprt_decided():
                    stopped_by = "sprt"
                _postfix(bar, loop.totals)
                info = ChunkInfo(k, start, stop, k + 1, len(plan), reused, time.perf_counter() - t0, loop.totals)
                want_stop = bool(on_chunk(info)) if on_chunk is not None else False
                if stopped_by == "sprt":
                    break
                if (want_stop or stop_flag.requested) and k + 1 < len(plan):
                    stopped_by = "interrupt"
                    break
            if source is not None:
                source.close()
                source = None
            result = loop.result(stopped_by, out, time.perf_counter() - t_start)
        except BaseException:
            loop.abort()  # the chunk in flight is kept; the unfinished final file is not
            raise
        finally:
            if source is not None:
                source.close()
            bar.close()
    if stopped_by == "interrupt":
        raise RunInterrupted(result, parts)
    result.seconds = time.perf_counter() - t_start
    return result


def _interactive() -> bool:
    """A progress bar by default on a terminal, and in a Jupyter kernel (tqdm.auto's widget)."""
    return sys.stderr.isatty() or _in_jupyter()


def _in_jupyter() -> bool:
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def _tqdm():
    """tqdm.auto's bar in Jupyter (a widget; the text bar when ipywidgets is missing), else tqdm's."""
    if _in_jupyter():
        try:
            import ipywidgets  # noqa: F401  (tqdm's notebook bar needs it)
            from tqdm.auto import tqdm

            return tqdm
        except ImportError:
            pass
    from tqdm import tqdm

    return tqdm


def _source(backend: str, loop: "_ChunkLoop", todo: list, scheduler, workers):
    if backend == "dask" and todo:
        from sim.runner.dask_backend import DaskChunks

        return DaskChunks(loop.exp, todo, scheduler=scheduler, workers=workers, threads=loop.threads,
                          keep=loop.keep, write=loop.parts is not None, want_frame=loop.keep_plays,
                          check=loop.check, parts=loop.parts, meta=loop.meta)
    return _LocalChunks(loop)


class _LocalChunks:
    """Chunks played in this process, one at a time, when asked for."""

    def __init__(self, loop: "_ChunkLoop"):
        self.loop = loop

    def get(self, start: int, stop: int) -> ChunkOutput:
        lp = self.loop
        return compute_chunk(lp.exp, start, stop, keep=lp.keep, write=lp.parts is not None,
                             want_frame=lp.keep_plays, threads=lp.threads, check=lp.check, schema=lp.schema)

    def close(self) -> None:
        pass


class _ChunkLoop:
    """What the chunk loop of one run keeps: its schema, statistics, writer and timings.

    ``accept`` takes a computed chunk (from any backend) or one read back from the parts
    folder of an interrupted run, adds its statistics and hands its table to the writer;
    ``result`` closes the run (final file, or the parts kept for --resume after an interrupt)."""

    def __init__(self, exp: Experiment, parts: Path | None, threads: int | None, keep_plays: bool,
                 check_strategies: bool, keep: str = "plays", shard: tuple[int, int] | None = None,
                 plan: list | None = None):
        self.exp, self.parts, self.threads = exp, parts, threads
        self.keep_plays, self.check, self.keep, self.shard = keep_plays, check_strategies, keep, shard
        self.plan = plan if plan is not None else exp.chunks()
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
                self.writer.submit(out.table, None)
            elif out.path is not None:  # a Dask worker wrote the chunk file itself: read it back, no copy
                t0 = time.perf_counter()
                table = read_chunk_table(Path(out.path), out.start, out.stop, self.digest)
                self.timings["read"] += time.perf_counter() - t0
                self.writer.submit(table, None)
            else:
                self.writer.submit(chunk_file_table(out.table, self.meta, out.start, out.stop),
                                   self.parts / chunk_name(out.start, out.stop))
        if self.keep_plays:
            self.kept.append(out.frame)
        self.totals.add(out.stats)
        self.finished.append((out.start, out.stop))
        self._last = out.stats

    def sprt_decided(self) -> bool:
        """Whether the sequential test, updated with the last chunk's deal sets, has decided."""
        return self.sprt is not None and self.sprt.update(self._last.set_diffs[0]) != "continue"

    def result(self, stopped_by: str, out: Path | None, seconds: float) -> ExperimentResult:
        result = _result(self.exp, self.totals, self.meta, self.finished, stopped_by, self.sprt, self.kept, out,
                         seconds, self.shard)
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
    """The finished chunks of an interrupted run in ``parts`` (unreadable ones set aside to be
    recomputed); a new parts folder with its manifest when there is none."""
    if parts.is_dir():
        return _existing_chunks(parts, meta.get("keep", "plays"), say=_say)
    parts.mkdir()
    manifest = {"format": RUN_FORMAT, "experiment": exp.to_dict(), "experiment_hash": exp.digest(),
                "identity": exp.identity(), "versions": meta["versions"], "created": meta["created"],
                "keep": meta.get("keep", "plays"), "shard": meta.get("shard")}
    _atomic_write_text(json.dumps(manifest, indent=2) + "\n", parts / MANIFEST)
    return {}


def _say(msg: str) -> None:
    print(f"rummy-sim: {msg}", file=sys.stderr)


def _postfix(bar, totals: Totals) -> None:
    if bar.disable or len(totals.exp.pairings) != 1 or totals.sets.n < 2:
        return
    row = totals.summary().iloc[0]
    bar.set_postfix_str(f"A-B {row['mean_diff']:+.2f} [{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]", refresh=False)


def _result(exp, totals, meta, chunks, stopped_by, sprt, kept, out, seconds, shard=None) -> ExperimentResult:
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
    if shard is not None:
        meta["chunks"] = [list(c) for c in chunks]
    plays = pd.concat(kept, ignore_index=True) if kept else None
    return ExperimentResult(exp, totals, summary, meta, plays, out, stopped_by, sprt_info, seconds)
