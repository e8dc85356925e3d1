"""Speed benchmark of the compiled Persian Rummy engine (``rummy-sim bench``).

What it measures, each in its own small function:

* deals per second of every built-in Persian strategy x4 (``SPECS``) on one thread
  and on all numba threads, timed after a warm-up call (``deals_per_second``);
  ``mc_search`` on a smaller sample (``SEARCH_DEALS``: it plays a few hundred deals a second);
* the first call in a fresh process, import included: once against an empty
  numba cache directory (cold compile) and once against that same, now filled,
  directory (load from cache) (``first_call_seconds``);
* the same code as plain Python (``NUMBA_DISABLE_JIT=1``) on a small sample, for
  the JIT speed-up ratio (``nojit_deals_per_second``);
* the cost of recording mode: time with ``record=1`` over time with ``record=0``
  (``record_overhead``).

Every deals/s cell (strategy x thread setting, and for other games x player count)
can be measured ``repeat`` times (``--repeat N``): the runs go round robin, every cell
once and then every cell again, so load that drifts during the bench hits all cells
alike (``round_robin``). A cell's figure is the median of its runs; the runs, their
minimum and maximum are kept beside it (``spread``). The machine's state (1-minute load
average before and after, CPU count, numba threads, versions) is recorded with the
figures (``load_average``, ``machine_info``), so an idle run can be told from a loaded one.
``--spec NAME`` limits the cells to some strategies (``select_specs``).

``assemble`` puts the numbers into the JSON object printed by ``--json``,
``check_targets`` compares them with the targets and ``format_human`` renders the
table. These do no measuring, so they can be tested with made-up numbers.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Hashable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import numba
import numpy as np

from sim.plugin.registry import get_game

SPECS = ("greedy", "random", "deep_taker", "quad_holder", "defensive", "expert", "mc_search")
RUNNER_SPECS = ("greedy", "random")  # the pairing of the runner benchmark
SEARCH_SPECS = ("mc_search",)  # measured on SEARCH_DEALS deals only
SEARCH_DEALS = 400  # about 2 s per thread setting at the default search (issue 14: ~200 deals/s)
SEARCH_QUICK_DEALS = 8
MULTI_DEALS = 200_000  # deals per multi-thread run
SINGLE_DEALS = 100_000  # deals per single-thread run
QUICK_DEALS = 5_000
NOJIT_DEALS = 200
RECORD_DEALS = 20_000  # at most this many deals for the recording overhead
CHUNK = 1024  # deals per run_deals call in the recording comparison (bounds the event buffer)
WARMUP_DEALS = 1_000
SEED = 2026
SUBPROCESS_TIMEOUT = 1800  # seconds; a cold compile takes well under a minute

# (key, comparison, target); key greedy_all is greedy x4 on all threads, the others are result keys
TARGETS = (
    ("greedy_all", ">=", 120_000.0),  # issue 14 (the first bench's target was 25,000)
    ("expert_all", ">=", 50_000.0),  # issue 14
    ("jit_speedup", ">=", 200.0),
    ("first_call_s", "<", 1.0),  # issue 14 (was 2 s)
)
#: the strategies x4 on all threads with a deals/s target: key ``<spec>_all`` in TARGETS
SPEC_TARGETS = tuple(k[: -len("_all")] for k, _, _ in TARGETS if k.endswith("_all"))

REPO_ROOT = Path(__file__).resolve().parent.parent

_FIRST_CALL_CODE = """
import time
t0 = time.perf_counter()
from sim.games.persian.engine import run_deals
run_deals("greedy", 1, 1, threads=1)
print(time.perf_counter() - t0)
"""

_NOJIT_CODE = """
import sys, time
from sim.games.persian.engine import run_deals
n = int(sys.argv[1])
run_deals("greedy", 1, 1, threads=1)
t0 = time.perf_counter()
run_deals("greedy", n, 1, threads=1)
print(n / (time.perf_counter() - t0))
"""


# --- measuring ----------------------------------------------------------------------------


def deals_per_second(spec: str, deals: int, threads: int, game: str = "persian",
                     players: int | None = None, warmup: int = WARMUP_DEALS) -> float:
    """Deals per second of ``spec`` in every seat of ``game``, after a warm-up call."""
    g = get_game(game)
    table = [spec] * g.check_players(players)
    g.run_deals(table, min(deals, warmup), SEED, threads=threads)
    t0 = time.perf_counter()
    g.run_deals(table, deals, SEED, threads=threads)
    return deals / (time.perf_counter() - t0)


def _chunked_seconds(table: list[str], deals: int, record: int) -> float:
    """Seconds to play Persian deals 0..deals-1 on one thread, CHUNK deals per call."""
    g = get_game("persian")
    t0 = time.perf_counter()
    for start in range(0, deals, CHUNK):
        g.run_deals(table, range(start, min(start + CHUNK, deals)), SEED, threads=1, record=record)
    return time.perf_counter() - t0


def record_overhead(deals: int) -> float:
    """Time of greedy x4 with record=1 over the time with record=0 (1 thread, same deals)."""
    table = ["greedy"] * 4
    _chunked_seconds(table, min(deals, CHUNK), 1)  # warm-up of both paths
    _chunked_seconds(table, min(deals, CHUNK), 0)
    return _chunked_seconds(table, deals, 1) / _chunked_seconds(table, deals, 0)


def _python_subprocess(code: str, env_changes: dict[str, str], args: tuple[str, ...] = (),
                       flags: tuple[str, ...] = ()) -> float:
    """Run ``code`` in a fresh interpreter at the repository root; return the number it prints last."""
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    env.update(env_changes)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH", "")) if p)
    proc = subprocess.run(
        [sys.executable, *flags, "-c", code, *args],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT,
    )
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        tail = "\n".join(proc.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"benchmark subprocess failed (exit {proc.returncode}): {tail}")
    return float(lines[-1])


def first_call_seconds() -> tuple[float, float]:
    """(cold compile, from cache): import + first 1-deal run in fresh processes sharing
    one temporary NUMBA_CACHE_DIR, empty for the first and filled for the second."""
    with tempfile.TemporaryDirectory(prefix="rummy-bench-cache-") as cache:
        cold = _python_subprocess(_FIRST_CALL_CODE, {"NUMBA_CACHE_DIR": cache})
        warm = _python_subprocess(_FIRST_CALL_CODE, {"NUMBA_CACHE_DIR": cache})
    return cold, warm


def nojit_deals_per_second(deals: int = NOJIT_DEALS) -> float:
    """Greedy x4 deals per second on one thread with the JIT disabled (plain Python)."""
    return _python_subprocess(_NOJIT_CODE, {"NUMBA_DISABLE_JIT": "1"}, (str(deals),), ("-W", "ignore"))


def load_average() -> float | None:
    """The machine's 1-minute load average now (None where the OS has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def utc_now() -> str:
    """The time now, UTC, to the second (ISO 8601)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def machine_info(threads: int, load_before: float | None, load_after: float | None,
                 started: str | None = None, finished: str | None = None,
                 load_rounds: Sequence[float | None] = ()) -> dict:
    """The ``machine`` object of the bench JSON: what a reader needs to tell an idle run
    from a loaded one. The load averages are taken by the caller before the first and
    after the last measurement (and at the start of each round of deals/s cells); the
    bench's own threads raise the later ones."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = None
    return {
        "loadavg_1m_before": load_before,
        "loadavg_1m_after": load_after,
        "cpus": os.cpu_count(),
        "cpus_usable": usable,
        "numba_threads": int(threads),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "loadavg_1m_rounds": list(load_rounds),
        "started_utc": started,
        "finished_utc": finished,
    }


def check_repeat(repeat: int) -> int:
    """``repeat`` if it is a positive integer (runs per deals/s cell), else a ValueError."""
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat <= 0:
        raise ValueError(f"--repeat must be a positive integer, got {repeat}")
    return repeat


def select_specs(available: Sequence[str], wanted: Sequence[str] | None, game: str = "persian") -> tuple[str, ...]:
    """The benched strategies: all of ``available`` (``wanted`` empty or None) or those named
    in ``wanted``, in the bench's own order; an unknown name is a ValueError listing the valid ones."""
    if not wanted:
        return tuple(available)
    unknown = [w for w in wanted if w not in available]
    if unknown:
        raise ValueError(f"--spec {unknown[0]!r}: not a benched {game} strategy; "
                         f"choose from {', '.join(available)}")
    return tuple(a for a in available if a in set(wanted))


Key = Hashable


def round_robin(cells: Sequence[tuple[Key, str, Callable[[], float]]], repeat: int,
                progress: Callable[[str], None] | None = None,
                loads: list[float | None] | None = None) -> dict[Key, list[float]]:
    """Run every cell ``(key, label, measure)`` once, then every cell again, ``repeat`` rounds
    in all; return each key's results in the order measured. Interleaving the runs of one
    cell with those of the others spreads drifting machine load over every cell alike.
    ``loads``, if given, gets the 1-minute load average at the start of each round."""
    say = progress or (lambda msg: None)
    runs: dict[Key, list[float]] = {key: [] for key, _, _ in cells}
    for r in range(check_repeat(repeat)):
        if loads is not None:
            loads.append(load_average())
        for key, label, measure in cells:
            say(label + (f" (round {r + 1} of {repeat})" if repeat > 1 else "") + " ...")
            runs[key].append(float(measure()))
    return runs


def nest(runs: dict[tuple, list[float]]) -> dict:
    """``{(a, b, c): runs}`` -> ``{a: {b: {c: runs}}}`` (keys as given, insertion order kept)."""
    out: dict = {}
    for key, values in runs.items():
        node = out
        for k in key[:-1]:
            node = node.setdefault(k, {})
        node[key[-1]] = values
    return out


def deal_counts(deals: int | None = None, quick: bool = False) -> dict[str, int]:
    """Deals per measurement: defaults, ``deals`` for every speed run, or the quick sample."""
    if deals is not None and (isinstance(deals, bool) or deals <= 0):
        raise ValueError(f"--deals must be a positive integer, got {deals}")
    multi = QUICK_DEALS if quick else deals or MULTI_DEALS
    single = QUICK_DEALS if quick else deals or SINGLE_DEALS
    return {"all_threads": multi, "one_thread": single, "nojit": NOJIT_DEALS,
            "record": min(single, RECORD_DEALS)}


def persian_cells(specs: Sequence[str], counts: dict[str, int], threads: int
                  ) -> list[tuple[tuple[str, str], str, Callable[[], float]]]:
    """The Persian deals/s cells for ``round_robin``: each of ``specs`` x4 on 1 thread and on
    ``threads`` threads; the searches (``SEARCH_SPECS``) on ``counts["search"]`` deals."""
    cells = []
    for spec in specs:
        for key, th in (("1", 1), ("all", threads)):
            if spec in SEARCH_SPECS:
                n, warm = counts["search"], 2
            else:
                n, warm = counts["one_thread" if key == "1" else "all_threads"], WARMUP_DEALS
            label = f"{spec} x4 on {th} thread{'s' if th > 1 else ''}, {n:,} deals"
            cells.append(((spec, key), label,
                          lambda spec=spec, n=n, th=th, warm=warm: deals_per_second(spec, n, th, warmup=warm)))
    return cells


def run_bench(deals: int | None = None, quick: bool = False,
              progress: Callable[[str], None] | None = None, repeat: int = 1,
              specs: Sequence[str] | None = None) -> dict:
    """Take every measurement and return the assembled result (see ``assemble``): each
    deals/s cell of ``specs`` (default: all of ``SPECS``) ``repeat`` times, round robin."""
    say = progress or (lambda msg: None)
    counts = deal_counts(deals, quick)
    counts["search"] = SEARCH_QUICK_DEALS if quick else SEARCH_DEALS
    check_repeat(repeat)
    chosen = select_specs(SPECS, specs)
    threads = numba.config.NUMBA_NUM_THREADS
    started, load_before = utc_now(), load_average()
    say("first call in fresh processes (cold compile, then from cache) ...")
    compile_s, first_s = first_call_seconds()
    say(f"JIT disabled: {counts['nojit']} greedy deals ...")
    nojit = nojit_deals_per_second(counts["nojit"])
    loads: list[float | None] = []
    runs = round_robin(persian_cells(chosen, counts, threads), repeat, say, loads)
    say("recording overhead ...")
    overhead = record_overhead(counts["record"])
    machine = machine_info(threads, load_before, load_average(), started, utc_now(), loads)
    return assemble(nest(runs), first_s, compile_s, nojit, overhead, threads, counts, machine)


# --- assembling and formatting (no measuring) ---------------------------------------------


def _runs(leaf: float | Sequence[float]) -> list[float]:
    """A cell's runs: one number is one run."""
    return [float(leaf)] if isinstance(leaf, (int, float)) else [float(x) for x in leaf]


def _map_leaves(tree: dict, fn: Callable[[list[float]], object]) -> dict:
    return {k: _map_leaves(v, fn) if isinstance(v, dict) else fn(_runs(v)) for k, v in tree.items()}


def spread(speeds: dict) -> dict:
    """The four deals/s keys of the bench JSON from a tree of cells (nested dicts whose
    leaves are a cell's runs, or one number for a single run): ``deals_per_s`` the median
    of each cell (the figure the targets use), ``deals_per_s_min`` / ``_max`` its extremes,
    ``deals_per_s_runs`` every run in the order measured; plus ``repeat``, the most runs
    of any cell. Figures rounded to 0.1 deals/s (0.01 below 100 deals/s: the searches)."""
    def r1(x: float) -> float:
        return round(float(x), 1 if abs(x) >= 100 else 2)

    counts: list[int] = []
    _map_leaves(speeds, lambda xs: counts.append(len(xs)))
    return {
        "deals_per_s": _map_leaves(speeds, lambda xs: r1(np.median(xs))),
        "deals_per_s_min": _map_leaves(speeds, lambda xs: r1(min(xs))),
        "deals_per_s_max": _map_leaves(speeds, lambda xs: r1(max(xs))),
        "deals_per_s_runs": _map_leaves(speeds, lambda xs: [r1(x) for x in xs]),
        "repeat": max(counts, default=1),
    }


def assemble(speeds: dict[str, dict[str, float | Sequence[float]]], first_call_s: float, compile_s: float,
             nojit_deals_per_s: float, record_overhead: float, threads: int,
             deals: dict[str, int], machine: dict | None = None) -> dict:
    """The ``--json`` object. ``speeds[spec]["1" | "all"]`` holds a cell's runs (or one
    number); see ``spread`` for the deals/s keys. ``jit_speedup`` = greedy's 1-thread
    median / the no-JIT speed (None when greedy was not benched)."""
    figures = spread(speeds)
    jit = figures["deals_per_s"].get("greedy", {}).get("1")
    return {
        **figures,
        "first_call_s": round(float(first_call_s), 3),
        "compile_s": round(float(compile_s), 3),
        "jit_speedup": round(jit / nojit_deals_per_s, 1) if jit is not None and nojit_deals_per_s > 0 else None,
        "nojit_deals_per_s": round(float(nojit_deals_per_s), 2),
        "record_overhead": round(float(record_overhead), 3),
        "threads": int(threads),
        "deals": dict(deals),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "machine": dict(machine) if machine is not None else machine_info(threads, None, None),
    }


def _target_value(result: dict, key: str) -> float | None:
    if key.endswith("_all"):  # a strategy x4 on all threads
        return result["deals_per_s"].get(key[: -len("_all")], {}).get("all")
    return result.get(key)


def target_label(key: str) -> str:
    """The target of ``key`` as the table prints it: ">= 120,000", "< 1 s", ">= 200x"."""
    op, t = next((op, t) for k, op, t in TARGETS if k == key)
    unit = {"first_call_s": " s", "jit_speedup": "x"}.get(key, "")
    return f"{op} {t:,g}{unit}"


def _meets(v: float | None, op: str, target: float) -> bool | None:
    """True / False against the target; None when the figure was not measured."""
    if v is None:
        return None
    return v >= target if op == ">=" else v < target


def check_targets(result: dict) -> dict[str, bool | None]:
    """PASS (True) / MISS (False) per target key of TARGETS; None: not measured (e.g.
    greedy left out by ``--spec``)."""
    return {key: _meets(_target_value(result, key), op, target) for key, op, target in TARGETS}


_MARK = {True: "PASS", False: "MISS", None: ""}


def format_range(result: dict, path: Sequence[str], fmt: Callable[[float], str]) -> str:
    """``min-max`` of the cell at ``path`` in ``deals_per_s_min`` / ``_max`` ("" if absent)."""
    lo, hi = result.get("deals_per_s_min"), result.get("deals_per_s_max")
    for k in path:
        lo = lo.get(k) if isinstance(lo, dict) else None
        hi = hi.get(k) if isinstance(hi, dict) else None
    return "" if lo is None or hi is None else f"{fmt(lo)}-{fmt(hi)}"


def format_machine(result: dict) -> str:
    """One line of the machine's state during the run ("" for a result without it)."""
    m = result.get("machine")
    if not m:
        return ""

    def load(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.2f}"

    usable = m.get("cpus_usable")
    cpus = f"{m.get('cpus')} CPUs" + (f" ({usable} usable)" if usable not in (None, m.get("cpus")) else "")
    when = f"; {m['started_utc']} to {m['finished_utc']}" if m.get("started_utc") and m.get("finished_utc") else ""
    rounds = m.get("loadavg_1m_rounds") or []
    by_round = f" (at each round: {', '.join(load(x) for x in rounds)})" if len(rounds) > 1 else ""
    return (f"  machine: {cpus}, {m.get('numba_threads')} numba threads, load average (1 min) "
            f"{load(m.get('loadavg_1m_before'))} before, {load(m.get('loadavg_1m_after'))} after{by_round}{when}")


def table_lines(rows: Sequence[tuple[str, str, str, str, str]], header: tuple[str, str, str, str, str] | None
                ) -> list[str]:
    """Aligned rows (measurement, value, range, target, mark); the range column only when
    some row has one."""
    with_range = any(r[2] for r in rows)
    cols = [0, 1, 2, 3] if with_range else [0, 1, 3]
    every = ([header] if header else []) + list(rows)
    widths = {i: max(len(r[i]) for r in every) for i in cols}

    def line(r: tuple[str, str, str, str, str]) -> str:
        text = f"  {r[0]:<{widths[0]}}  {r[1]:>{widths[1]}}"
        if with_range:
            text += f"  {r[2]:<{widths[2]}}"
        return (text + f"  {r[3]:<{widths[3]}}  {r[4]}").rstrip()

    return [line(r) for r in every]


def repeat_note(result: dict) -> list[str]:
    """The line saying what a deals/s figure is when cells ran more than once."""
    n = result.get("repeat", 1)
    if n <= 1:
        return []
    return [f"  deals/s: median of {n} runs per cell (range min-max), the cells measured round robin"]


def format_human(result: dict) -> str:
    """An aligned table of the figures, with the targets and PASS/MISS marks."""
    ok = check_targets(result)
    dps = result["deals_per_s"]
    th = result["threads"]
    rows: list[tuple[str, str, str, str, str]] = []
    for spec in dps:
        fmt = ",.1f" if dps[spec]["1"] < 100 else ",.0f"

        def rate(v: float, fmt: str = fmt) -> str:
            return f"{v:{fmt}}"

        rows.append((f"{spec} x4, 1 thread", f"{rate(dps[spec]['1'])} deals/s",
                     format_range(result, (spec, "1"), rate), "", ""))
        target = (target_label(f"{spec}_all"), _MARK[ok[f"{spec}_all"]]) if spec in SPEC_TARGETS else ("", "")
        rows.append((f"{spec} x4, {th} threads", f"{rate(dps[spec]['all'])} deals/s",
                     format_range(result, (spec, "all"), rate), *target))
    if result.get("repeat", 1) <= 1:
        rows = [(a, b, "", c, d) for a, b, _, c, d in rows]
    jit = result["jit_speedup"]
    rows += [
        ("first call, cold compile", f"{result['compile_s']:.2f} s", "", "", ""),
        ("first call, from cache", f"{result['first_call_s']:.2f} s", "", target_label("first_call_s"),
         _MARK[ok["first_call_s"]]),
        ("greedy x4, JIT disabled", f"{result['nojit_deals_per_s']:,.1f} deals/s", "", "", ""),
        ("JIT speed-up (1 thread)", "n/a" if jit is None else f"{jit:,.0f}x", "", target_label("jit_speedup"),
         _MARK[ok["jit_speedup"]]),
        ("recording overhead (record=1)", f"{result['record_overhead']:.2f}x", "", "", ""),
    ]
    n = result.get("repeat", 1)
    header = ("measurement", "value" if n <= 1 else "median", "range" if n > 1 else "", "target", "")
    d = result["deals"]
    searched = [s for s in SEARCH_SPECS if s in dps]
    out = [
        f"rummy-sim bench: numba {result['numba']}, numpy {result['numpy']}, {th} threads",
        *table_lines(rows, header),
        f"  deals per run: {d['one_thread']:,} on 1 thread, {d['all_threads']:,} on {th} threads, "
        f"{d['nojit']:,} without JIT, {d['record']:,} for the recording overhead"
        + (f", {d['search']:,} for {', '.join(searched)}" if "search" in d and searched else ""),
        *repeat_note(result),
    ]
    machine = format_machine(result)
    return "\n".join(out + ([machine] if machine else [])) + "\n"


# --- runner overhead (``rummy-sim bench --runner``) ------------------------------------------

RUNNER_DEALS = 1_000_000
RUNNER_QUICK_DEALS = 20_000
RUNNER_TARGET = 0.10  # the runner may cost at most 10% on top of the engine


def engine_seconds(exp, threads: int | None = None, chunked: bool = True) -> tuple[float, float]:
    """(wall, process CPU) seconds of the bare engine on every play of ``exp``, results thrown
    away: run_deals over each of the runner's chunks in turn (``chunked``, the default) or
    one call per pairing and rotation over all deal indices."""
    ranges = exp.chunks() if chunked else [(exp.first_deal, exp.last_deal)]
    w0, c0 = time.perf_counter(), time.process_time()
    for start, stop in ranges:
        idx = np.arange(start, stop, dtype=np.int64)
        for p in range(len(exp.pairings)):
            for r in range(exp.rotations(p)):
                exp.game_spec.run_deals(exp.seating(p, r).specs, idx, exp.seed, exp.rules, threads)
    return time.perf_counter() - w0, time.process_time() - c0


def runner_seconds(exp, out_dir: Path, threads: int | None = None) -> tuple[float, float, dict, int]:
    """(wall, process CPU, stage timings, file bytes) of the full runner on ``exp`` writing
    its parquet file (chunk files, final file, statistics; no progress bar)."""
    from sim.runner.run import run_experiment

    out = out_dir / "bench.parquet"
    out.unlink(missing_ok=True)
    w0, c0 = time.perf_counter(), time.process_time()
    result = run_experiment(exp, out=out, threads=threads, progress=False)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    size = out.stat().st_size
    out.unlink()
    return wall, cpu, dict(result.timings or {}), size


def memory_bytes_per_play(exp, threads: int | None = None, deals: int = 20_000) -> float:
    """In-memory size (pandas, deep) of the per-play rows of the first ``deals`` deals."""
    from sim.runner.chunks import play_chunk

    start = exp.first_deal
    frame = play_chunk(exp, start, min(exp.last_deal, start + deals), threads)
    return float(frame.memory_usage(deep=True).sum()) / len(frame)


def run_runner_bench(deals: int | None = None, quick: bool = False, repeats: int = 3,
                     progress: Callable[[str], None] | None = None) -> dict:
    """Engine alone vs the whole runner (chunks, frames, statistics, parquet chunk files and
    the final file) on the same deals of greedy vs random. Runs alternate E R R E ... so
    drifting machine load hits both; the overhead compares the fastest run of each, in wall
    time and in this process's CPU time (which other processes' load barely touches)."""
    from sim.experiment import match

    say = progress or (lambda msg: None)
    if deals is not None and (isinstance(deals, bool) or deals <= 0):
        raise ValueError(f"--deals must be a positive integer, got {deals}")
    n = RUNNER_QUICK_DEALS if quick else deals or RUNNER_DEALS
    exp = match(*RUNNER_SPECS, n, SEED)
    say("warm-up (compile or load the kernels) ...")
    warm = match(*RUNNER_SPECS, 2_000, SEED)
    engine_seconds(warm)
    engine, runner, timings = [], [], []
    size = 0
    with tempfile.TemporaryDirectory(prefix="rummy-bench-runner-") as tmp:
        runner_seconds(warm, Path(tmp))
        for k in range(repeats):
            for which in (("engine", "runner") if k % 2 == 0 else ("runner", "engine")):
                say(f"{which}: {n:,} deals x {exp.plays_per_deal} rotations (round {k + 1} of {repeats}) ...")
                if which == "engine":
                    engine.append(engine_seconds(exp))
                else:
                    wall, cpu, t, size = runner_seconds(exp, Path(tmp))
                    runner.append((wall, cpu))
                    timings.append(t)
    best = int(np.argmin([w for w, _ in runner]))
    return assemble_runner(n, exp.plays_per_deal, engine, runner, timings[best], size,
                           memory_bytes_per_play(exp), numba.config.NUMBA_NUM_THREADS, exp.chunk)


def assemble_runner(deals: int, plays_per_deal: int, engine: list[tuple[float, float]],
                    runner: list[tuple[float, float]], timings: dict, file_bytes: float,
                    memory_bytes_per_play: float, threads: int, chunk: int) -> dict:
    """The ``bench --runner --json`` object (no measuring: testable with made-up numbers).
    ``engine`` and ``runner`` hold (wall, cpu) seconds per run."""
    ew, ec = min(w for w, _ in engine), min(c for _, c in engine)
    rw, rc = min(w for w, _ in runner), min(c for _, c in runner)
    overhead = rw / ew - 1.0
    return {
        "deals": deals,
        "plays": deals * plays_per_deal,
        "chunk": chunk,
        "threads": threads,
        "engine_wall_s": [round(w, 3) for w, _ in engine],
        "engine_cpu_s": [round(c, 3) for _, c in engine],
        "runner_wall_s": [round(w, 3) for w, _ in runner],
        "runner_cpu_s": [round(c, 3) for _, c in runner],
        "engine_deals_per_s": round(deals / ew, 1),
        "runner_deals_per_s": round(deals / rw, 1),
        "overhead": round(overhead, 4),
        "cpu_overhead": round(rc / ec - 1.0, 4),
        "target": RUNNER_TARGET,
        "pass": bool(overhead <= RUNNER_TARGET),
        "stages_s": {k: round(v, 3) for k, v in timings.items()},
        "file_bytes_per_deal": round(file_bytes / deals, 1),
        "file_bytes_per_play": round(file_bytes / (deals * plays_per_deal), 1),
        "memory_bytes_per_play": round(memory_bytes_per_play, 1),
        "memory_bytes_per_deal": round(memory_bytes_per_play * plays_per_deal, 1),
    }


def format_runner(r: dict) -> str:
    st = r["stages_s"]

    def runs(xs: list[float]) -> str:
        return ", ".join(f"{x:.2f}" for x in xs)

    lines = [
        f"rummy-sim bench --runner: greedy vs random, {r['deals']:,} deals x {r['plays'] // r['deals']} rotations "
        f"= {r['plays']:,} plays, {r['threads']} threads, chunks of {r['chunk']:,} deals",
        f"  engine alone       {min(r['engine_wall_s']):8.2f} s wall  {r['engine_deals_per_s']:>9,.0f} deals/s"
        f"   (wall runs: {runs(r['engine_wall_s'])}; CPU {runs(r['engine_cpu_s'])})",
        f"  runner + parquet   {min(r['runner_wall_s']):8.2f} s wall  {r['runner_deals_per_s']:>9,.0f} deals/s"
        f"   (wall runs: {runs(r['runner_wall_s'])}; CPU {runs(r['runner_cpu_s'])})",
        f"  overhead           {100 * r['overhead']:+7.1f} % wall   target <= {100 * r['target']:.0f} %  "
        f"{'PASS' if r['pass'] else 'MISS'}   ({100 * r['cpu_overhead']:+.1f} % in CPU time)",
        "  runner stages (fastest run; write runs beside the engine): "
        + ", ".join(f"{k} {v:.2f} s" for k, v in st.items() if v),
        f"  results: {r['file_bytes_per_deal']:,.1f} bytes per deal on disk ({r['file_bytes_per_play']:.1f} per play), "
        f"{r['memory_bytes_per_deal']:,.1f} bytes per deal in memory ({r['memory_bytes_per_play']:.1f} per play)",
    ]
    return "\n".join(lines) + "\n"


# --- other games (``rummy-sim bench --game NAME``) -------------------------------------------

GAME_SPECS = {"indian": ("greedy", "random", "dropper", "joker_keeper", "defensive", "expert")}
"""Every built-in of the game but the searches (a test checks the list against the registry)."""
GAME_PLAYERS = {"indian": (2, 4, 6)}
GAME_DEALS = 10_000  # deals per speed run of a game other than Persian (2-8 s each for Indian Rummy)
GAME_QUICK_DEALS = 1_000
SOLVER_HANDS = 200_000
GAME_SEARCH_SPECS = {"indian": ("mc_search",)}  # measured on GAME_SEARCH_DEALS deals only (a few deals/s)
GAME_SEARCH_DEALS = 8
GAME_SEARCH_QUICK_DEALS = 2
GAME_TARGETS = {"indian": (("greedy_4_all", ">=", 2_000.0), ("first_call_s", "<", 2.0), ("compile_s", "<", 90.0),
                           ("solver_hands_per_s", ">=", 200_000.0))}

_GAME_FIRST_CALL_CODE = """
import sys, time
t0 = time.perf_counter()
from sim.plugin.registry import get_game
for name in sys.argv[1:]:
    g = get_game(name)
    g.run_deals(["greedy"] * g.default_players, 1, 1, threads=1)
print(time.perf_counter() - t0)
"""


def game_first_call_seconds(names: tuple[str, ...]) -> tuple[float, float]:
    """(cold compile, from cache) of import + a first 1-deal run of every game in ``names``."""
    with tempfile.TemporaryDirectory(prefix="rummy-bench-cache-") as cache:
        cold = _python_subprocess(_GAME_FIRST_CALL_CODE, {"NUMBA_CACHE_DIR": cache}, names)
        warm = _python_subprocess(_GAME_FIRST_CALL_CODE, {"NUMBA_CACHE_DIR": cache}, names)
    return cold, warm


def game_bench_specs(game: str) -> tuple[str, ...]:
    """Every strategy ``bench --game`` measures for ``game``, the searches last."""
    return GAME_SPECS.get(game, ("greedy", "random")) + GAME_SEARCH_SPECS.get(game, ())


def game_cells(game: str, specs: Sequence[str], n: int, search_n: int, threads: int
               ) -> list[tuple[tuple[str, str, str], str, Callable[[], float]]]:
    """The deals/s cells of ``game`` for ``round_robin``: each of ``specs`` by player count
    (``GAME_PLAYERS``) on 1 thread and on ``threads`` threads; the searches on ``search_n`` deals."""
    cells = []
    for spec in specs:
        m, warm = (search_n, 1) if spec in GAME_SEARCH_SPECS.get(game, ()) else (n, WARMUP_DEALS)
        for players in GAME_PLAYERS.get(game, (None,)):
            for key, th in (("1", 1), ("all", threads)):
                label = f"{spec} x{players} on {th} thread{'s' if th > 1 else ''}, {m:,} deals"
                cells.append(((spec, str(players), key), label,
                              lambda spec=spec, m=m, th=th, players=players, warm=warm:
                              deals_per_second(spec, m, th, game, players, warm)))
    return cells


def run_game_bench(game: str, deals: int | None = None, quick: bool = False,
                   progress: Callable[[str], None] | None = None, repeat: int = 1,
                   specs: Sequence[str] | None = None) -> dict:
    """Deals/s of every built-in of the game (``GAME_SPECS``, then the searches of
    ``GAME_SEARCH_SPECS`` on a small sample; or those of ``specs``) by player count, on one
    thread and on all threads, each cell ``repeat`` times round robin (see ``spread``); its
    solver's hands/s (when it has one); first-call times (the cold compile covers every
    game, engine + greedy; the other built-ins compile on first use)."""
    from sim.plugin.registry import game_names

    say = progress or (lambda msg: None)
    if deals is not None and (isinstance(deals, bool) or deals <= 0):
        raise ValueError(f"--deals must be a positive integer, got {deals}")
    check_repeat(repeat)
    chosen = select_specs(game_bench_specs(game), specs, game)
    n = GAME_QUICK_DEALS if quick else deals or GAME_DEALS
    search_n = GAME_SEARCH_QUICK_DEALS if quick else GAME_SEARCH_DEALS
    threads = numba.config.NUMBA_NUM_THREADS
    started, load_before = utc_now(), load_average()
    say("first call in fresh processes (cold compile of every game, then from cache) ...")
    compile_s, _ = game_first_call_seconds(tuple(game_names()))
    game_compile_s, first_s = game_first_call_seconds((game,))
    loads: list[float | None] = []
    runs = round_robin(game_cells(game, chosen, n, search_n, threads), repeat, say, loads)
    solver = None
    if game == "indian":
        from sim.games.indian.solver_bench import solver_hands_per_second

        say("deadwood solver, 1 thread ...")
        hands = GAME_QUICK_DEALS * 10 if quick else SOLVER_HANDS
        solver = {str(d): solver_hands_per_second(hands, decks=d) for d in (2, 3)}
    searched = [s for s in chosen if s in GAME_SEARCH_SPECS.get(game, ())]
    machine = machine_info(threads, load_before, load_average(), started, utc_now(), loads)
    return assemble_game(game, nest(runs), first_s, compile_s, game_compile_s, list(game_names()), threads, n,
                         search_n if searched else None, solver, machine)


def assemble_game(game: str, speeds: dict, first_call_s: float, compile_s: float, game_compile_s: float,
                  compile_games: list[str], threads: int, deals: int, search_deals: int | None,
                  solver_hands_per_s: dict[str, float] | None, machine: dict | None = None) -> dict:
    """The ``bench --game NAME --json`` object (no measuring). ``speeds[spec][players]["1" |
    "all"]`` holds a cell's runs (or one number); see ``spread`` for the deals/s keys."""
    out = {"game": game, **spread(speeds), "first_call_s": round(first_call_s, 3), "compile_s": round(compile_s, 3),
           "game_compile_s": round(game_compile_s, 3),
           "compile_games": list(compile_games), "threads": int(threads), "deals": deals,
           **({"search_deals": search_deals} if search_deals is not None else {}),
           "numba": numba.__version__, "numpy": np.__version__,
           "machine": dict(machine) if machine is not None else machine_info(threads, None, None)}
    if solver_hands_per_s is not None:
        out["solver_hands_per_s"] = {k: round(float(v), 1) for k, v in solver_hands_per_s.items()}
    return out


def _game_value(result: dict, key: str) -> float | None:
    if key.startswith("greedy_"):
        _, players, th = key.split("_")
        return result["deals_per_s"].get("greedy", {}).get(players, {}).get(th)
    if key == "solver_hands_per_s":
        return min(result["solver_hands_per_s"].values()) if result.get("solver_hands_per_s") else None
    return result.get(key)


def _rate(v: float) -> str:
    """A deals/s figure: whole numbers, two decimals for the slow searches."""
    return f"{v:,.0f}" if v >= 100 else f"{v:.2f}"


def format_game(result: dict) -> str:
    """An aligned table of a game's figures, with its targets and PASS/MISS marks."""
    targets = {k: (op, t) for k, op, t in GAME_TARGETS.get(result["game"], ())}

    def mark(key: str) -> tuple[str, str]:
        if key not in targets:
            return "", ""
        op, t = targets[key]
        return f"{op} {t:,g}", _MARK[_meets(_game_value(result, key), op, t)]

    th = result["threads"]
    ranged = result.get("repeat", 1) > 1
    rows = []
    for spec, by_players in result["deals_per_s"].items():
        for players, by in by_players.items():
            for key, what in (("1", "1 thread"), ("all", f"{th} threads")):
                span = format_range(result, (spec, players, key), _rate) if ranged else ""
                rows.append((f"{spec} x{players}, {what}", f"{_rate(by[key])} deals/s", span,
                             *(mark(f"{spec}_{players}_all") if key == "all" else ("", ""))))
    for decks, v in result.get("solver_hands_per_s", {}).items():
        rows.append((f"deadwood solver, {decks} decks, 1 thread", f"{v:,.0f} hands/s", "",
                     *mark("solver_hands_per_s")))
    rows.append((f"cold compile ({', '.join(result['compile_games'])})", f"{result['compile_s']:.2f} s", "",
                 *mark("compile_s")))
    if "game_compile_s" in result:
        rows.append((f"cold compile ({result['game']} alone)", f"{result['game_compile_s']:.2f} s", "", "", ""))
    rows.append(("first call, from cache", f"{result['first_call_s']:.2f} s", "", *mark("first_call_s")))
    lines = [f"rummy-sim bench --game {result['game']}: numba {result['numba']}, numpy {result['numpy']}, "
             f"{th} threads, {result['deals']:,} deals per run"
             + (f" ({result['search_deals']:,} for {', '.join(GAME_SEARCH_SPECS.get(result['game'], ()))})"
                if "search_deals" in result else "")]
    header = ("measurement", "median", "range", "target", "") if ranged else None
    lines += table_lines(rows, header)
    lines += repeat_note(result)
    machine = format_machine(result)
    return "\n".join(lines + ([machine] if machine else [])) + "\n"
