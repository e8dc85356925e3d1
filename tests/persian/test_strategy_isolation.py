"""A strategy sees and changes only what it must (issue 15, RULES.md P10).

Adversarial user strategies, each compared with an honest twin that makes the same
choice without cheating; identical results mean the cheat saw or changed nothing:

* ``shape_peeker`` chooses by ``moves.shape[0]`` and by a row past ``n_moves``: the
  engine hands it exactly the legal rows (shape ``(n_moves, 4)``) and nothing of
  earlier decisions survives past them, so it plays exactly like ``last_move``.
* ``forger`` rewrites its chosen row (to "meld every card of my hand"), scribbles
  over ``obs`` and ``params`` and returns 0: the engine applies its own row, so it
  plays exactly like ``first_move``.
* ``over_reader`` indexes ``moves`` past its end: with ``check=True``
  (``--check-strategies``) the run stops with a StrategyError naming it.
* ``out_of_range`` returns ``n_moves``: a StrategyError naming strategy, seat, seed
  and deal, with every finished deal's results kept.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from sim.games.persian import enums as E
from sim.games.persian.engine import StrategyError, run_deals
from strategies.interface import STRATEGY_SIG
from strategies.registry import register_strategy

SEED = 1515
DEALS = 150


@njit(STRATEGY_SIG, cache=True)
def last_move(decision, obs, moves, n_moves, params, rng):
    return n_moves - 1


@njit(STRATEGY_SIG, cache=True)
def shape_peeker(decision, obs, moves, n_moves, params, rng):
    if moves.shape[0] != n_moves:
        return 0  # a longer buffer: it would play differently from last_move
    return n_moves - 1


@njit(STRATEGY_SIG, cache=True)
def stale_reader(decision, obs, moves, n_moves, params, rng):
    """Reads the storage right after its rows (no bounds check): any earlier content there
    (another seat's discard list, a candidate meld from another hand) changes its choice."""
    seen = 0
    for i in range(n_moves, n_moves + 8):
        for j in range(4):
            seen |= moves[i, j]
    return n_moves - 1 if seen == 0 else 0


@njit(STRATEGY_SIG, cache=True)
def first_move(decision, obs, moves, n_moves, params, rng):
    return 0


@njit(STRATEGY_SIG, cache=True)
def forger(decision, obs, moves, n_moves, params, rng):
    moves[0, 0] = 3  # MV_MELD
    moves[0, 1] = obs[3]  # O_HAND: "meld the whole hand"
    moves[0, 2] = 0
    moves[0, 3] = 0
    for i in range(obs.shape[0]):
        obs[i] = -1
    for i in range(params.shape[0]):
        params[i] = 1e9
    return 0


@njit(STRATEGY_SIG, cache=True)
def over_reader(decision, obs, moves, n_moves, params, rng):
    return 0 if moves[n_moves + 2, 0] == 0 else 1


@njit(STRATEGY_SIG, cache=True)
def out_of_range(decision, obs, moves, n_moves, params, rng):
    return n_moves


for _name, _fn in (("iso_last_move", last_move), ("iso_shape_peeker", shape_peeker), ("iso_stale_reader", stale_reader),
                   ("iso_first_move", first_move), ("iso_forger", forger), ("iso_over_reader", over_reader),
                   ("iso_out_of_range", out_of_range)):
    register_strategy(_name, _fn)


def _rows(*specs) -> np.ndarray:
    return run_deals(list(specs), DEALS, SEED).results


def test_the_adversaries_are_compared_on_real_decisions() -> None:
    rows = _rows("iso_last_move", "greedy")
    assert (rows[:, E.C_END] != E.END_ERROR).all()
    assert rows[:, E.C_TURNS].sum() > 10 * DEALS


def test_a_strategy_gets_exactly_the_legal_moves() -> None:
    honest = _rows("iso_last_move", "greedy")
    assert np.array_equal(_rows("iso_shape_peeker", "greedy"), honest)
    assert np.array_equal(_rows("iso_stale_reader", "greedy"), honest)


def test_writing_to_the_arguments_changes_nothing() -> None:
    honest = _rows("iso_first_move", "greedy")
    forged = _rows("iso_forger", "greedy")
    assert np.array_equal(forged, honest)
    # the forged "meld my whole hand" never went out for it
    assert not ((forged[:, E.C_END] == E.END_OUT) & (forged[:, E.C_OUT_SEAT] % 2 == 0)).all()
    # a partner's buffer is no channel either: both seats of a team forging change nothing
    assert np.array_equal(_rows("iso_forger", "random", "iso_forger", "random"),
                          _rows("iso_first_move", "random", "iso_first_move", "random"))


def test_check_mode_names_a_strategy_that_reads_past_its_arguments() -> None:
    run_deals(["iso_over_reader", "greedy"], 3, SEED)  # unchecked: reads cleared memory, no error
    with pytest.raises(StrategyError, match=r"strategy 'iso_over_reader' in seat (0|2) indexed outside its "
                                            r"arguments .*seed 1515, deal 0"):
        run_deals(["iso_over_reader", "greedy"], 3, SEED, check=True)


def test_check_mode_plays_honest_strategies_exactly_like_the_parallel_engine() -> None:
    plain = run_deals(["iso_last_move", "greedy", "iso_first_move", "random"], 40, SEED)
    checked = run_deals(["iso_last_move", "greedy", "iso_first_move", "random"], 40, SEED, check=True)
    assert np.array_equal(plain.results, checked.results)


def test_an_out_of_range_index_is_a_clear_error_that_keeps_the_other_deals() -> None:
    with pytest.raises(StrategyError) as info:
        run_deals(["greedy", "iso_out_of_range"], 20, SEED)
    msg = str(info.value)
    assert "strategy 'iso_out_of_range' in seat 1" in msg and "seed 1515" in msg and "deal 0" in msg
    assert info.value.results.shape == (20, E.N_RESULT_COLS)
