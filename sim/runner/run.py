"""The chunk loop: play (here or on a Dask cluster), reduce, write and report an experiment, or
the several experiments of a study on the same deals, chunk by chunk, in deal order."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Callable, Iterable, Sequence

from sim.experiment import Experiment
from sim.plugin.pystrategy import is_python
from sim.runner.chunks import play_chunk
from sim.runner.files import _prepare_output, iter_chunk_stats, parts_dir
from sim.runner.keep import check_keep
from sim.runner.loop import CellLoop
from sim.runner.results import ChunkInfo, ExperimentResult, RunError, RunInterrupted, StudyRun, StudyStep
from sim.runner.signals import _StopOnSigint
from sim.runner.sources import open_source

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
    study = run_study([exp], outs=[out], threads=threads, resume=resume, force=force, keep_plays=keep_plays,
                      progress=progress, on_chunk=on_chunk, check_strategies=check_strategies, backend=backend,
                      scheduler=scheduler, workers=workers, keep=keep, shard=shard)
    result = study.runs[0]
    if study.stopped_by == "interrupt":
        raise RunInterrupted(result, study.parts[0])
    return result


def run_study(
    exps: Sequence[Experiment],
    *,
    outs: Sequence[str | Path | None] | None = None,
    plan: list[tuple[int, int]] | None = None,
    between: Callable[[StudyStep], Iterable[int] | None] | None = None,
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
    desc: str | None = None,
) -> StudyRun:
    """The one chunk loop: play the experiments ``exps`` (the cells of a study; one for a plain run)
    chunk by chunk on the same deals, chunk k of every cell before chunk k + 1 of any.

    Each cell is an ordinary run (its own results file ``outs[i]``, resumable, kept as ``keep``
    says, its chunks played here or on Dask): the options are :func:`run_experiment`'s.
    ``plan`` is the chunks to play (default: the experiments' own, which must then agree).
    ``between(step)`` (sim.runner.results.StudyStep), called after every chunk with the chunk's
    statistics of the cells still playing, returns the cells to stop (a study's stopping rule:
    an adaptive run's eliminations); the loop ends when none is left or the plan is done. A cell
    stopped early ends with ``stopped_by`` "study". On --resume the finished chunks (and the
    finished files of cells stopped before) are read back and passed to ``between`` as they
    were, so the study takes the same decisions. Interrupted (Ctrl-C, ``on_chunk`` True), the
    result's ``stopped_by`` is "interrupt" and every cell keeps its finished chunks."""
    t_start = time.perf_counter()
    exps = list(exps)
    outs = [None] * len(exps) if outs is None else [None if o is None else Path(o) for o in outs]
    if not exps or len(outs) != len(exps):
        raise RunError("a study needs at least one experiment and one output (or None) per experiment")
    _check_options(threads, backend, scheduler, workers, keep, keep_plays)
    shard = parse_shard(shard)
    plan = _study_plan(exps, outs, plan, between, shard, resume, keep)
    finished = _finished_cells(exps, outs, resume, force, keep_plays)
    if len(finished) == len(exps) and between is None:
        runs = [finished[i] for i in range(len(exps))]
        return StudyRun(runs, "deals", time.perf_counter() - t_start, [None] * len(exps))
    if progress is None:
        progress = _interactive()
    loops = {i: CellLoop(exp, parts_dir(out) if out is not None else None, threads, keep_plays, check_strategies,
                         keep, shard, plan, diffs=between is not None)
             for i, (exp, out) in enumerate(zip(exps, outs)) if i not in finished}
    replays = {i: iter_chunk_stats(r.out, r.experiment, r.meta.get("keep", "plays")) for i, r in finished.items()}
    total = sum(b - a for a, b in plan)
    first = next(iter(loops.values()), None)
    done_before = sum(b - a for a, b in plan if all((a, b) in lp.existing for lp in loops.values()))
    what = desc or exps[0].kind
    bar = _progress_bar(total, done_before, what if backend == "local" else f"{what} (dask)", progress)
    status: dict[int, str] = {}
    stopped_by = "deals"
    source = None
    _warn_before_slow(bar, [exps[i] for i in loops], total - done_before)
    with _StopOnSigint(lambda msg: bar.write(f"rummy-sim: {msg}", file=sys.stderr)) as stop_flag:
        try:
            todo = {i: [c for c in plan if c not in lp.existing] for i, lp in loops.items()}
            source = open_source(backend, loops, todo, scheduler, workers)
            live = list(range(len(exps)))
            for k, (start, stop) in enumerate(plan):
                t0 = time.perf_counter()
                stats, fresh = _play_chunk(live, loops, replays, finished, source, start, stop)
                if fresh:
                    bar.update(stop - start)
                last = k + 1 == len(plan)
                ended = _ended_cells(live, loops, between, StudyStep(k, start, stop, stats, last))
                if len(loops) == 1:
                    _postfix(bar, first.totals)
                totals = next((loops[i].totals for i in live if i in loops), None)
                info = ChunkInfo(k, start, stop, k + 1, len(plan), not fresh, time.perf_counter() - t0, totals)
                want_stop = bool(on_chunk(info)) if on_chunk is not None else False
                for i, why in ended.items():
                    status[i] = why
                    source.drop(i)
                live = [i for i in live if i not in ended]
                if not live:
                    stopped_by = "sprt" if "sprt" in ended.values() else ("deals" if last else "study")
                    break
                if (want_stop or stop_flag.requested) and not last:
                    stopped_by = "interrupt"
                    break
            for i in live:
                status[i] = "interrupt" if stopped_by == "interrupt" else "deals"
            source.close()
            source = None
            runs = [finished[i] if i in finished else
                    loops[i].result(status[i], outs[i], time.perf_counter() - t_start) for i in range(len(exps))]
        except BaseException:
            for lp in loops.values():
                lp.abort()  # the chunk in flight is kept; the unfinished final file is not
            raise
        finally:
            if source is not None:
                source.close()
            bar.close()
    seconds = time.perf_counter() - t_start
    for r in runs:
        if r.stopped_by != "interrupt" and not any(r is f for f in finished.values()):
            r.seconds = seconds
    parts = [loops[i].parts if i in loops else None for i in range(len(exps))]
    return StudyRun(runs, stopped_by, seconds, parts)


def _study_plan(exps, outs, plan, between, shard, resume, keep) -> list[tuple[int, int]]:
    """Check that the cells can be played together and return the chunks to play (``plan``,
    else the experiments' own, which must agree)."""
    if shard is not None and (len(exps) > 1 or between is not None or plan is not None):
        raise RunError("--shard splits one experiment's chunks; a study plays its experiments together")
    if between is not None and any(e.sprt is not None for e in exps):
        raise RunError("a study has its own stopping rule: leave out sprt")
    for exp, out in zip(exps, outs):
        _check_output(exp, out, resume, keep, shard)
    if plan is None:
        plan = shard_plan(exps[0], shard)
        if any(e.chunks() != plan for e in exps[1:]):
            raise RunError("the experiments of a study must have the same deals and chunks")
    return plan


def _finished_cells(exps, outs, resume, force, keep_plays) -> dict:
    """Prepare every cell's output; the cells whose results file is already complete (on
    --resume), by index, as their finished runs."""
    finished = {}
    for i, (exp, out) in enumerate(zip(exps, outs)):
        if out is not None:
            done = _prepare_output(exp, out, parts_dir(out), resume, force, keep_plays)
            if done is not None:
                finished[i] = done
    return finished


def _progress_bar(total: int, done_before: int, desc: str, progress: bool):
    """The deals bar on stderr (disabled when not ``progress``), starting at the deals done before."""
    return _tqdm()(total=total, initial=done_before, unit="deal", unit_scale=True, file=sys.stderr,
                   disable=not progress, **_bar_width(), mininterval=0.5, smoothing=0.2, desc=desc)


def _ended_cells(live, loops, between, step: StudyStep) -> dict[int, str]:
    """The cells that stop after this chunk and why: their SPRT decided ("sprt"), or the
    study's ``between`` stopped them ("study"; "deals" at the plan's last chunk)."""
    ended = {i: "sprt" for i in live if i in loops and loops[i].sprt_decided()}
    if between is not None:
        for i in between(step) or ():
            if i in live and i not in ended:
                ended[i] = "deals" if step.last else "study"
    return ended


def _play_chunk(live, loops, replays, finished, source, start, stop) -> tuple[dict, bool]:
    """Chunk [start, stop) of every live cell: read back (a finished cell's file, a chunk file
    kept from before) or played by ``source``; (statistics per cell, whether any was played)."""
    stats, fresh = {}, False
    for i in live:
        if i in replays:
            stats[i] = _replayed(replays[i], finished[i], start, stop)
            continue
        lp = loops[i]
        reused = (start, stop) in lp.existing
        chunk = lp.read(start, stop) if reused else source.get(i, start, stop)
        lp.accept(chunk, reused)
        stats[i] = chunk.stats
        fresh = fresh or not reused
    return stats, fresh


def _python_strategies(exps) -> list[str]:
    """The plain-Python strategies (sim.plugin.pystrategy) seated in ``exps``."""
    names = {spec.name for exp in exps for team in exp.teams for spec in team.members
             if is_python(spec.info.function)}
    return sorted(names)


SLOW_SECONDS = 60.0  # a run with a Python strategy expected to take longer gets a note


PROBE_DEALS = 8  # deal indices a run with a Python strategy plays first to time itself
PROBE_FROM = 500  # ... when it has at least this many deals to play


def _warn_before_slow(bar, exps, left: int) -> None:
    """Before a run with a plain-Python strategy seated: time its experiments on PROBE_DEALS deal
    indices (after one to load the kernels; the rows are thrown away) and say how long the run
    will take when that is long (_warn_if_slow). A strategy that fails in the probe is left to
    fail in the run itself, where the chunks before are kept."""
    python = [e for e in exps if _python_strategies([e])]
    if not python or left < PROBE_FROM:
        return
    try:
        seconds = 0.0
        for exp in python:
            first, n = exp.first_deal, min(PROBE_DEALS, exp.last_deal - exp.first_deal)
            play_chunk(exp, first, first + 1)
            t0 = time.perf_counter()
            play_chunk(exp, first, first + n)
            seconds += time.perf_counter() - t0
    except Exception:
        return
    _warn_if_slow(bar, python, seconds, min(PROBE_DEALS, left), left)


def _warn_if_slow(bar, exps, first_seconds: float, played: int, left: int) -> None:
    """A note on stderr with the time the run will take, when a plain-Python strategy is seated
    (one thread, ~1,000 times slower than compiled) and that time is long: ``played`` deals took
    ``first_seconds``, ``left`` are to play."""
    names = _python_strategies(exps)
    per_deal = first_seconds / max(1, played)
    if names and per_deal * left > SLOW_SECONDS:
        bar.write(f"rummy-sim: note: {', '.join(names)} is plain Python and plays on one thread: about "
                  f"{per_deal * left / 60:.0f} min for the {left:,} deals to play", file=sys.stderr)


def _check_options(threads, backend, scheduler, workers, keep, keep_plays) -> None:
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


def _check_output(exp: Experiment, out: Path | None, resume: bool, keep: str, shard) -> None:
    if shard is not None and exp.sprt is not None:
        raise RunError("--shard: a sequential test (--sprt) decides chunk after chunk in order; it cannot be sharded")
    if shard is not None and out is None:
        raise RunError("--shard needs --out: a shard's result is a file to merge with the others")
    if out is None and resume:
        raise RunError("--resume needs --out: only a run that writes its chunks can be resumed")
    if out is None and keep != "plays":
        raise RunError(f"keep={keep!r} says what the output file keeps: it needs --out")


def _replayed(chunks, finished: ExperimentResult, start: int, stop: int):
    """The next chunk's statistics of a cell whose results file was finished before (--resume)."""
    c = next(chunks, None)
    if c is None or (c.start, c.stop) != (start, stop):
        raise RunError(f"--resume: {finished.out} was finished after other chunks than this study plays "
                       f"(it needs {start}..{stop}); pass --force to play the study again")
    return c


def _postfix(bar, totals) -> None:
    if bar.disable or len(totals.exp.pairings) != 1 or totals.sets.n < 2:
        return
    row = totals.summary().iloc[0]
    bar.set_postfix_str(f"A-B {row['mean_diff']:+.2f} [{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]", refresh=False)


def _bar_width() -> dict:
    """tqdm's size options: follow the terminal, or 80 x 24 on one that reports no size (tqdm
    read 0 rows there as no room for any bar, and showed nothing)."""
    try:
        size = os.get_terminal_size(sys.stderr.fileno())
    except (AttributeError, OSError, ValueError):
        return {"dynamic_ncols": True}
    return {"dynamic_ncols": True} if size.columns > 0 and size.lines > 0 else {"ncols": 80, "nrows": 24}


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
