"""The deals/s bench of a game, as its plan says (``Game.bench_plan()``): the engine bench of
``one_table`` for a plan without table sizes, the bench ``by_players`` for one with some."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sim.apps.bench.by_players import format_game, run_by_players
from sim.apps.bench.one_table import format_human, run_one_table
from sim.plugin.game import Game


def run_speed_bench(game: Game, deals: int | None = None, quick: bool = False,
                    progress: Callable[[str], None] | None = None, repeat: int = 1,
                    specs: Sequence[str] | None = None) -> dict:
    """Every measurement of ``game``'s bench; the ``rummy-sim bench [--game NAME] --json`` object."""
    run = run_by_players if game.bench_plan().players else run_one_table
    return run(game, deals, quick, progress, repeat, specs)


def format_speed(result: dict, game: Game) -> str:
    """The table ``rummy-sim bench [--game NAME]`` prints for ``result``, a bench of ``game``."""
    return format_game(result) if game.bench_plan().players else format_human(result, game)
