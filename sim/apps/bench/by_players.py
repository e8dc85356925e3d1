"""The bench of a game benched at several table sizes (plan with ``players``; Indian Rummy):
``rummy-sim bench --game NAME``.

Deals/s of every strategy of the plan (the searches on a small sample) at each table size, on
one thread and on all threads, each cell ``repeat`` times round robin; the game's own figures
(Indian: the deadwood solver's hands/s); first-call times: the cold compile of every game
(engine + greedy; the other built-ins compile on first use), of this game alone, and its first
call from the cache. ``assemble_game`` and ``format_game`` do no measuring.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numba
import numpy as np

from sim.apps.bench.cells import check_deals, players_cells, select_specs
from sim.apps.bench.figures import figure_rows, measure_figures, rounded
from sim.apps.bench.fresh import first_call_seconds
from sim.apps.bench.machine import format_machine, load_average, machine_info, utc_now
from sim.apps.bench.repeat import check_repeat, nest, round_robin, spread
from sim.apps.bench.table import Row, format_range, rate, repeat_note, table_lines
from sim.apps.bench.targets import target_mark
from sim.plugin.game import Game
from sim.plugin.registry import game_names, get_game


def run_by_players(game: Game, deals: int | None = None, quick: bool = False,
                   progress: Callable[[str], None] | None = None, repeat: int = 1,
                   specs: Sequence[str] | None = None) -> dict:
    """Take every measurement (see the module docstring) of ``specs`` (default: every strategy of
    the plan) and return the assembled result (``assemble_game``)."""
    say = progress or (lambda msg: None)
    plan = game.bench_plan()
    check_deals(deals)
    check_repeat(repeat)
    chosen = select_specs(plan.all_specs, specs, game.name)
    n = plan.quick_deals if quick else deals or plan.deals
    search_n = plan.search_quick_deals if quick else plan.search_deals
    threads = numba.config.NUMBA_NUM_THREADS
    started, load_before = utc_now(), load_average()
    say("first call in fresh processes (cold compile of every game, then from cache) ...")
    compile_s, _ = first_call_seconds(tuple(game_names()))
    game_compile_s, first_s = first_call_seconds((game.name,))
    loads: list[float | None] = []
    runs = round_robin(players_cells(game, plan, chosen, n, search_n, threads), repeat, say, loads)
    figures = measure_figures(plan, quick, say)
    searched = [s for s in chosen if s in plan.search_specs]
    machine = machine_info(threads, load_before, load_average(), started, utc_now(), loads)
    return assemble_game(game.name, nest(runs), first_s, compile_s, game_compile_s, list(game_names()), threads, n,
                         search_n if searched else None, figures, machine)


def assemble_game(game: str, speeds: dict, first_call_s: float, compile_s: float, game_compile_s: float,
                  compile_games: list[str], threads: int, deals: int, search_deals: int | None,
                  figures: dict[str, dict[str, float]] | None, machine: dict | None = None) -> dict:
    """The ``bench --game NAME --json`` object (no measuring). ``speeds[spec][players]["1" |
    "all"]`` holds a cell's runs (or one number); see ``sim.apps.bench.repeat.spread`` for the
    deals/s keys. The game's own ``figures`` (``{key: {variant: value}}``) come last."""
    return {"game": game, **spread(speeds), "first_call_s": round(first_call_s, 3), "compile_s": round(compile_s, 3),
            "game_compile_s": round(game_compile_s, 3),
            "compile_games": list(compile_games), "threads": int(threads), "deals": deals,
            **({"search_deals": search_deals} if search_deals is not None else {}),
            "numba": numba.__version__, "numpy": np.__version__,
            "machine": dict(machine) if machine is not None else machine_info(threads, None, None),
            **rounded(figures or {})}


def _cell_rows(result: dict, targets) -> list[Row]:
    """Two rows per strategy and table size (1 thread, all threads), the latter with its target."""
    th = result["threads"]
    ranged = result.get("repeat", 1) > 1
    rows: list[Row] = []
    for spec, by_players in result["deals_per_s"].items():
        for players, by in by_players.items():
            for key, what in (("1", "1 thread"), ("all", f"{th} threads")):
                span = format_range(result, (spec, players, key), rate) if ranged else ""
                rows.append((f"{spec} x{players}, {what}", f"{rate(by[key])} deals/s", span,
                             *(target_mark(result, f"{spec}_{players}_all", targets) if key == "all" else ("", ""))))
    return rows


def format_game(result: dict) -> str:
    """An aligned table of a game's figures, with its targets and PASS/MISS marks."""
    plan = get_game(result["game"]).bench_plan()
    targets = plan.targets

    def mark(key: str) -> tuple[str, str]:
        return target_mark(result, key, targets)

    rows = _cell_rows(result, targets) + figure_rows(result, plan, targets)
    rows.append((f"cold compile ({', '.join(result['compile_games'])})", f"{result['compile_s']:.2f} s", "",
                 *mark("compile_s")))
    if "game_compile_s" in result:
        rows.append((f"cold compile ({result['game']} alone)", f"{result['game_compile_s']:.2f} s", "", "", ""))
    rows.append(("first call, from cache", f"{result['first_call_s']:.2f} s", "", *mark("first_call_s")))
    th = result["threads"]
    lines = [f"rummy-sim bench --game {result['game']}: numba {result['numba']}, numpy {result['numpy']}, "
             f"{th} threads, {result['deals']:,} deals per run"
             + (f" ({result['search_deals']:,} for {', '.join(plan.search_specs)})"
                if "search_deals" in result else "")]
    header = ("measurement", "median", "range", "target", "") if result.get("repeat", 1) > 1 else None
    lines += table_lines(rows, header)
    lines += repeat_note(result)
    machine = format_machine(result)
    return "\n".join(lines + ([machine] if machine else [])) + "\n"
