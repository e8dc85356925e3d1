"""The Gin Rummy engine's face: duplicate seatings, zero-sum scores, results, bad input (G1, G7)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.gin import enums as E
from sim.games.gin.engine import results_frame, run_deals
from sim.games.gin.game import GAME
from sim.plugin.runs import StrategyError


def test_scores_are_zero_sum_and_ends_are_named() -> None:
    run = run_deals(["greedy", "simple"], 400, 5)
    r = run.results
    assert (r[:, E.C_SCORE] == -r[:, E.C_SCORE + 1]).all()
    knocked = np.isin(r[:, E.C_END], [E.END_KNOCK, E.END_GIN])
    assert knocked.mean() > 0.9 and (r[~knocked, E.C_SCORE] == 0).all()
    assert (r[knocked, E.C_KNOCKER] >= 0).all() and (r[~knocked, E.C_KNOCKER] == -1).all()
    assert (r[:, E.C_FIRST] == r[:, E.C_DEAL] % 2).all()
    gin = r[:, E.C_END] == E.END_GIN
    kn = r[gin, E.C_KNOCKER]
    assert (r[gin, E.C_DEADWOOD + 0][kn == 0] == 0).all() and (r[gin, E.C_SCORE + 0][kn == 0] >= 25).all()
    df = results_frame(run)
    assert list(df["end"].cat.categories) == list(E.END_NAMES) and len(df) == 400


def test_duplicate_seatings_swap_the_hands() -> None:
    a, b = GAME.parse_spec("greedy"), GAME.parse_spec("simple")
    assert GAME.rotations([a], [b], 2) == 2
    s0, s1 = GAME.seating([a], [b], 0, 2), GAME.seating([a], [b], 1, 2)
    assert s0.specs == (a, b) and s1.specs == (b, a) and s0.a_sides == (0,) and s1.a_sides == (1,)
    x = GAME.record_logs(["greedy", "simple"], 4, 9)
    y = GAME.record_logs(["simple", "greedy"], 4, 9)
    assert [d["hands"] for d in x] == [d["hands"] for d in y]


def test_the_same_strategy_makes_the_same_hand() -> None:
    one = run_deals("simple", 200, 3).results
    assert np.array_equal(one, run_deals(["simple", "simple"], 200, 3, threads=2).results)


def test_bad_input_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="2 players"):
        run_deals(["simple"] * 3, 5, 1)
    with pytest.raises(ValueError, match="knock_card"):
        run_deals("simple", 5, 1, {"knock_card": 12})
    with pytest.raises(ValueError, match="unknown strategy"):
        run_deals(["simple", "nope"], 5, 1)
    with pytest.raises(ValueError, match="team A must be one strategy"):
        GAME.rotations([GAME.parse_spec("simple"), GAME.parse_spec("greedy")], [GAME.parse_spec("simple")], 2)


def test_an_illegal_answer_names_the_strategy() -> None:
    from numba import njit

    from sim.plugin.registry import register_strategy
    from sim.plugin.strategy import STRATEGY_SIG

    @njit(STRATEGY_SIG)
    def too_far(decision, obs, moves, n, params, rng):
        return n

    register_strategy("gin_too_far", too_far, game="gin")
    with pytest.raises(StrategyError, match="gin_too_far"):
        run_deals(["gin_too_far", "simple"], 3, 1)
