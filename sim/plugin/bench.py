"""What a game asks the benchmark to measure: its bench plan (``rummy-sim bench --game NAME``).

The benchmark (``sim.apps.bench``) never names a game: it asks ``Game.bench_plan()`` which
strategies to time in every seat, at which table sizes, on how many deals, against which targets,
and for the figures of the game's own beside its deals/s cells (a solver's hands per second).
A plan is plain data and callables; nothing in this module measures or imports a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

@dataclass(frozen=True)
class BenchFigure:
    """A figure of the game's own, measured once per bench run beside the deals/s cells.

    * ``key``: its key in the bench JSON, holding ``{variant: value}`` (e.g.
      ``solver_hands_per_s``: ``{"2": ..., "3": ...}``, by deck count);
    * ``progress``: the progress line printed while it is measured;
    * ``row``: the table row of one variant, ``row.format(variant=...)``;
    * ``unit``: printed after each value ("hands/s");
    * ``measure(quick)``: ``{variant: value}``; ``quick`` asks for a small sample.

    A target on ``key`` is met when the smallest variant meets it.
    """

    key: str
    progress: str
    row: str
    unit: str
    measure: Callable[[bool], dict[str, float]]


@dataclass(frozen=True)
class BenchPlan:
    """What ``rummy-sim bench`` measures for one game.

    * ``specs``: the strategies timed in every seat, in table order; ``search_specs`` after them,
      the slow searches, on ``search_deals`` deals only (``search_quick_deals`` with ``--quick``),
      after a warm-up of ``search_warmup`` deals (the others warm up on 1,000).
    * ``players``: the table sizes of the cells. Empty: the game's default table only, and the
      bench is the engine bench (cells ``deals_per_s.<spec>.<1|all>``, plus the first call, the JIT
      speed-up and the recording overhead); else every cell at each size
      (``deals_per_s.<spec>.<players>.<1|all>``, plus the cold compile with every game).
    * ``deals``: deals per timed run; ``deals_all_threads``: per all-thread run of the engine bench
      (0: ``deals``); ``quick_deals``: per run with ``--quick``.
    * ``targets``: ``(key, ">=" | "<", value)``; a key is a cell (``<spec>_all`` in the engine
      bench, ``<spec>_<players>_all`` by table size), a figure's ``key`` or a top-level key of the
      bench JSON (``first_call_s``, ``compile_s``, ``jit_speedup``).
    * ``figures``: the game's own figures (:class:`BenchFigure`).
    """

    specs: tuple[str, ...] = ("greedy", "random")
    search_specs: tuple[str, ...] = ()
    players: tuple[int, ...] = ()
    deals: int = 10_000
    deals_all_threads: int = 0
    quick_deals: int = 1_000
    search_deals: int = 8
    search_quick_deals: int = 2
    search_warmup: int = 1
    targets: tuple[tuple[str, str, float], ...] = ()
    figures: tuple[BenchFigure, ...] = ()

    @property
    def all_specs(self) -> tuple[str, ...]:
        """Every benched strategy, the searches last."""
        return self.specs + self.search_specs
