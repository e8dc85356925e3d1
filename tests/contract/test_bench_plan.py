"""Every game's bench plan (``Game.bench_plan()``, sim/plugin/bench.py) is one the benchmark can run.

Parametrized over every registered game: the benched strategies are the game's own, the table
sizes are ones it allows, the deal counts are positive, and every target names a figure the
bench produces: a result assembled from made-up numbers for every cell and figure gives each
target a PASS or a MISS, never "not measured". Formatting only; nothing is timed.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from sim.apps.bench import by_players, one_table, speed
from sim.apps.bench.targets import check_targets
from sim.games import game_names, get_game
from sim.plugin.bench import BenchPlan
from sim.plugin.game import Game

GAMES = game_names()


def _made_up_result(game: Game) -> dict:
    """The bench result of ``game`` with 1,000 deals/s in every cell and 1.0 for every figure."""
    plan = game.bench_plan()
    figures = {fig.key: {"a": 1.0, "b": 2.0} for fig in plan.figures}
    if plan.players:
        speeds = {spec: {str(n): {"1": 1_000.0, "all": 1_000.0} for n in plan.players} for spec in plan.all_specs}
        return by_players.assemble_game(game.name, speeds, 0.5, 10.0, 5.0, list(GAMES), 2, plan.deals,
                                        plan.search_deals, figures)
    speeds = {spec: {"1": 1_000.0, "all": 1_000.0} for spec in plan.all_specs}
    counts = one_table.deal_counts(plan)
    return one_table.assemble(speeds, 0.5, 10.0, 4.0, 1.5, 2, counts, figures=figures)


@pytest.mark.parametrize("name", GAMES)
def test_the_plan_benches_the_games_own_strategies_at_its_table_sizes(name) -> None:
    game = get_game(name)
    plan = game.bench_plan()
    assert isinstance(plan, BenchPlan)
    known = set(game.strategies.names())
    assert plan.specs and set(plan.all_specs) <= known, set(plan.all_specs) - known
    assert len(set(plan.all_specs)) == len(plan.all_specs)  # each once; the searches are not also in specs
    assert "greedy" in plan.specs  # the first call and the JIT speed-up play greedy
    assert set(plan.players) <= set(game.seat_counts)
    for n in (plan.deals, plan.quick_deals, plan.search_deals, plan.search_quick_deals, plan.search_warmup):
        assert isinstance(n, int) and n > 0
    assert plan.deals_all_threads >= 0
    assert len({fig.key for fig in plan.figures}) == len(plan.figures)


@pytest.mark.parametrize("name", GAMES)
def test_every_target_names_a_figure_the_bench_produces(name) -> None:
    game = get_game(name)
    plan = game.bench_plan()
    result = _made_up_result(game)
    marks = check_targets(result, plan.targets)
    assert set(marks) == {key for key, _, _ in plan.targets}
    assert all(op in (">=", "<") for _, op, _ in plan.targets)
    assert None not in marks.values(), [k for k, v in marks.items() if v is None]
    text = speed.format_speed(result, game)
    assert text.count("PASS") + text.count("MISS") >= len(plan.targets)
    for fig in plan.figures:
        assert fig.row.format(variant="a") in text and fig.unit in text


def test_a_game_without_a_plan_benches_greedy_and_random_at_its_default_table() -> None:
    plan = Game.bench_plan(SimpleNamespace(default_players=3))  # the contract's default member
    assert plan.all_specs == ("greedy", "random") and plan.players == (3,)
    assert plan.targets == () and plan.figures == ()


def test_persian_and_indian_keep_their_bench_layouts_and_targets() -> None:
    """The documented JSON shapes (docs/performance.md): Persian keyed spec -> threads, Indian by players."""
    persian, indian = get_game("persian").bench_plan(), get_game("indian").bench_plan()
    assert persian.players == () and indian.players == (2, 4, 6)
    assert [k for k, _, _ in persian.targets] == ["greedy_all", "expert_all", "jit_speedup", "first_call_s"]
    assert [k for k, _, _ in indian.targets] == ["greedy_4_all", "first_call_s", "compile_s", "solver_hands_per_s"]
    assert [fig.key for fig in indian.figures] == ["solver_hands_per_s"]
