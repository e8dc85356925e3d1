"""The deals/s cells: one strategy in every seat, at one table size, on one thread or on all.

A cell is ``(key, label, measure)`` for ``sim.apps.bench.repeat.round_robin``: ``measure()``
plays a warm-up call and then the timed call of ``deals_per_second``. Which strategies, table
sizes and deal counts come from the game's plan (sim.plugin.bench.BenchPlan).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from sim.plugin.bench import BenchPlan
from sim.plugin.game import Game

SEED = 2026
WARMUP_DEALS = 1_000

Cell = tuple[tuple[str, ...], str, Callable[[], float]]


def deals_per_second(game: Game, spec: str, deals: int, threads: int, players: int | None = None,
                     warmup: int = WARMUP_DEALS) -> float:
    """Deals per second of ``spec`` in every seat of ``game``, after a warm-up call."""
    table = [spec] * game.check_players(players)
    game.run_deals(table, min(deals, warmup), SEED, threads=threads)
    t0 = time.perf_counter()
    game.run_deals(table, deals, SEED, threads=threads)
    return deals / (time.perf_counter() - t0)


def select_specs(available: Sequence[str], wanted: Sequence[str] | None, game: str) -> tuple[str, ...]:
    """The benched strategies: all of ``available`` (``wanted`` empty or None) or those named
    in ``wanted``, in the bench's own order; an unknown name is a ValueError listing the valid ones."""
    if not wanted:
        return tuple(available)
    unknown = [w for w in wanted if w not in available]
    if unknown:
        raise ValueError(f"--spec {unknown[0]!r}: not a benched {game} strategy; "
                         f"choose from {', '.join(available)}")
    return tuple(a for a in available if a in set(wanted))


def check_deals(deals: int | None) -> None:
    """A ValueError unless ``deals`` is None (the plan's) or a positive integer."""
    if deals is not None and (isinstance(deals, bool) or deals <= 0):
        raise ValueError(f"--deals must be a positive integer, got {deals}")


def _label(spec: str, players: int, threads: int, deals: int) -> str:
    return f"{spec} x{players} on {threads} thread{'s' if threads > 1 else ''}, {deals:,} deals"


def table_cells(game: Game, plan: BenchPlan, specs: Sequence[str], counts: dict[str, int], threads: int
                ) -> list[Cell]:
    """The cells of a game benched at its default table: each of ``specs`` on 1 thread
    (``counts["one_thread"]`` deals) and on ``threads`` (``counts["all_threads"]``), the searches
    on ``counts["search"]``; keys ``(spec, "1" | "all")``."""
    players = game.default_players
    cells = []
    for spec in specs:
        for key, th in (("1", 1), ("all", threads)):
            if spec in plan.search_specs:
                n, warm = counts["search"], plan.search_warmup
            else:
                n, warm = counts["one_thread" if key == "1" else "all_threads"], WARMUP_DEALS
            cells.append(((spec, key), _label(spec, players, th, n),
                          lambda spec=spec, n=n, th=th, warm=warm: deals_per_second(game, spec, n, th, warmup=warm)))
    return cells


def players_cells(game: Game, plan: BenchPlan, specs: Sequence[str], n: int, search_n: int, threads: int
                  ) -> list[Cell]:
    """The cells of a game benched by table size: each of ``specs`` at each of ``plan.players``
    on 1 thread and on ``threads``, ``n`` deals (the searches ``search_n``); keys
    ``(spec, str(players), "1" | "all")``."""
    cells = []
    for spec in specs:
        m, warm = (search_n, plan.search_warmup) if spec in plan.search_specs else (n, WARMUP_DEALS)
        for players in plan.players:
            for key, th in (("1", 1), ("all", threads)):
                cells.append(((spec, str(players), key), _label(spec, players, th, m),
                              lambda spec=spec, m=m, th=th, players=players, warm=warm:
                              deals_per_second(game, spec, m, th, players, warm)))
    return cells
