"""The engine bench of a game benched at its one table (plan without ``players``; Persian Rummy):
``rummy-sim bench``.

What it measures:

* deals per second of every strategy of the plan in every seat, on one thread and on all numba
  threads, each cell ``repeat`` times round robin (sim.apps.bench.cells, .repeat); the searches
  on the plan's small sample;
* the first call in a fresh process, import included: once against an empty numba cache
  directory (cold compile) and once against that same, now filled, directory (from cache);
* greedy as plain Python (``NUMBA_DISABLE_JIT=1``) on a small sample, for the JIT speed-up;
* the cost of recording mode: time with ``record=1`` over time with ``record=0``;
* the game's own figures, if its plan has any.

``assemble`` puts the numbers into the ``--json`` object, ``format_human`` renders the table;
neither measures, so both can be tested with made-up numbers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numba
import numpy as np

from sim.apps.bench.cells import SEED, check_deals, select_specs, table_cells
from sim.apps.bench.figures import figure_rows, measure_figures, rounded
from sim.apps.bench.fresh import first_call_seconds, nojit_deals_per_second
from sim.apps.bench.machine import format_machine, load_average, machine_info, utc_now
from sim.apps.bench.repeat import check_repeat, nest, round_robin, spread
from sim.apps.bench.table import Row, format_range, repeat_note, table_lines
from sim.apps.bench.targets import target_mark
from sim.plugin.bench import BenchPlan
from sim.plugin.game import Game

NOJIT_DEALS = 200
RECORD_DEALS = 20_000  # at most this many deals for the recording overhead
CHUNK = 1024  # deals per run_deals call in the recording comparison (bounds the event buffer)
UNITS = {"first_call_s": " s", "jit_speedup": "x"}  # after a target's value in the table


def deal_counts(plan: BenchPlan, deals: int | None = None, quick: bool = False) -> dict[str, int]:
    """Deals per measurement: the plan's, ``deals`` for every speed run, or the plan's quick sample."""
    check_deals(deals)
    multi = plan.quick_deals if quick else deals or plan.deals_all_threads or plan.deals
    single = plan.quick_deals if quick else deals or plan.deals
    return {"all_threads": multi, "one_thread": single, "nojit": NOJIT_DEALS,
            "record": min(single, RECORD_DEALS)}


def _chunked_seconds(game: Game, table: list[str], deals: int, record: int) -> float:
    """Seconds to play deals 0..deals-1 on one thread, CHUNK deals per call."""
    t0 = time.perf_counter()
    for start in range(0, deals, CHUNK):
        game.run_deals(table, range(start, min(start + CHUNK, deals)), SEED, threads=1, record=record)
    return time.perf_counter() - t0


def record_overhead(game: Game, deals: int) -> float:
    """Time of greedy in every seat with record=1 over the time with record=0 (1 thread, same deals)."""
    table = ["greedy"] * game.default_players
    _chunked_seconds(game, table, min(deals, CHUNK), 1)  # warm-up of both paths
    _chunked_seconds(game, table, min(deals, CHUNK), 0)
    return _chunked_seconds(game, table, deals, 1) / _chunked_seconds(game, table, deals, 0)


def run_one_table(game: Game, deals: int | None = None, quick: bool = False,
                  progress: Callable[[str], None] | None = None, repeat: int = 1,
                  specs: Sequence[str] | None = None) -> dict:
    """Take every measurement and return the assembled result (see ``assemble``): each
    deals/s cell of ``specs`` (default: every one of the plan) ``repeat`` times, round robin."""
    say = progress or (lambda msg: None)
    plan = game.bench_plan()
    counts = deal_counts(plan, deals, quick)
    counts["search"] = plan.search_quick_deals if quick else plan.search_deals
    check_repeat(repeat)
    chosen = select_specs(plan.all_specs, specs, game.name)
    threads = numba.config.NUMBA_NUM_THREADS
    started, load_before = utc_now(), load_average()
    say("first call in fresh processes (cold compile, then from cache) ...")
    compile_s, first_s = first_call_seconds((game.name,))
    say(f"JIT disabled: {counts['nojit']} greedy deals ...")
    nojit = nojit_deals_per_second(game.name, counts["nojit"])
    loads: list[float | None] = []
    runs = round_robin(table_cells(game, plan, chosen, counts, threads), repeat, say, loads)
    say("recording overhead ...")
    overhead = record_overhead(game, counts["record"])
    figures = measure_figures(plan, quick, say)
    machine = machine_info(threads, load_before, load_average(), started, utc_now(), loads)
    return assemble(nest(runs), first_s, compile_s, nojit, overhead, threads, counts, machine, figures)


def assemble(speeds: dict[str, dict[str, float | Sequence[float]]], first_call_s: float, compile_s: float,
             nojit_deals_per_s: float, record_overhead: float, threads: int,
             deals: dict[str, int], machine: dict | None = None, figures: dict | None = None) -> dict:
    """The ``--json`` object. ``speeds[spec]["1" | "all"]`` holds a cell's runs (or one
    number); see ``sim.apps.bench.repeat.spread`` for the deals/s keys. ``jit_speedup`` =
    greedy's 1-thread median / the no-JIT speed (None when greedy was not benched). The game's
    own ``figures`` (``{key: {variant: value}}``), if any, come last."""
    cells = spread(speeds)
    jit = cells["deals_per_s"].get("greedy", {}).get("1")
    return {
        **cells,
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
        **rounded(figures or {}),
    }


def _cell_rows(result: dict, game: Game) -> list[Row]:
    """Two rows per strategy (1 thread, all threads), the all-thread one with its target."""
    targets = game.bench_plan().targets
    dps = result["deals_per_s"]
    th = result["threads"]
    x = f"x{game.default_players}"
    rows: list[Row] = []
    for spec in dps:
        fmt = ",.1f" if dps[spec]["1"] < 100 else ",.0f"

        def rate(v: float, fmt: str = fmt) -> str:
            return f"{v:{fmt}}"

        rows.append((f"{spec} {x}, 1 thread", f"{rate(dps[spec]['1'])} deals/s",
                     format_range(result, (spec, "1"), rate), "", ""))
        rows.append((f"{spec} {x}, {th} threads", f"{rate(dps[spec]['all'])} deals/s",
                     format_range(result, (spec, "all"), rate), *target_mark(result, f"{spec}_all", targets)))
    return rows


def format_human(result: dict, game: Game) -> str:
    """An aligned table of the figures of ``game``, with its targets and PASS/MISS marks."""
    plan = game.bench_plan()
    rows = _cell_rows(result, game) + figure_rows(result, plan, plan.targets)
    if result.get("repeat", 1) <= 1:
        rows = [(a, b, "", c, d) for a, b, _, c, d in rows]
    jit = result["jit_speedup"]

    def mark(key: str) -> tuple[str, str]:
        return target_mark(result, key, plan.targets, UNITS)

    rows += [
        ("first call, cold compile", f"{result['compile_s']:.2f} s", "", "", ""),
        ("first call, from cache", f"{result['first_call_s']:.2f} s", "", *mark("first_call_s")),
        (f"greedy x{game.default_players}, JIT disabled", f"{result['nojit_deals_per_s']:,.1f} deals/s", "", "", ""),
        ("JIT speed-up (1 thread)", "n/a" if jit is None else f"{jit:,.0f}x", "", *mark("jit_speedup")),
        ("recording overhead (record=1)", f"{result['record_overhead']:.2f}x", "", "", ""),
    ]
    n = result.get("repeat", 1)
    header = ("measurement", "value" if n <= 1 else "median", "range" if n > 1 else "", "target", "")
    d = result["deals"]
    th = result["threads"]
    searched = [s for s in plan.search_specs if s in result["deals_per_s"]]
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
