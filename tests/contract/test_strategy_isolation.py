"""A strategy sees and changes only what it must, in every game (issue 15, P10 / I9).

Adversarial user strategies, registered for every game and each compared with an
honest twin that makes the same choice without cheating; identical results mean the
cheat saw or changed nothing:

* ``shape_peeker`` chooses by ``moves.shape[0]``: the engine hands it exactly the
  legal rows (shape ``(n_moves, 4)``), so it plays exactly like ``last_move``.
* ``stale_reader`` reads the storage right after its rows without bounds checks:
  nothing of an earlier decision or another seat survives there (another seat's
  discard list would reveal its hand), so it too plays exactly like ``last_move``.
* ``forger`` rewrites its chosen row, scribbles over ``obs`` and ``params`` and
  returns 0: the engine applies its own row, so it plays exactly like ``first_move``,
  also when both partners (or every seat) forge.
* ``over_reader`` indexes ``moves`` past its end: with ``check=True``
  (``--check-strategies``) the run stops with a StrategyError naming it.
* ``out_of_range`` returns ``n_moves``: a StrategyError naming strategy, seat, seed
  and deal, with every deal's results kept.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from sim.games import game_names, get_game
from sim.plugin.runs import StrategyError
from sim.plugin.strategy import STRATEGY_SIG
from sim.plugin.registry import register_strategy

GAMES = game_names()
SEED = 1515
DEALS = 120


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
    for j in range(4):
        moves[0, j] = moves[n_moves - 1, j] + 1
    moves[0, 1] = obs[3]
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


ADVERSARIES = {"iso_last_move": last_move, "iso_shape_peeker": shape_peeker, "iso_stale_reader": stale_reader,
               "iso_first_move": first_move, "iso_forger": forger, "iso_over_reader": over_reader,
               "iso_out_of_range": out_of_range}
for _game in GAMES:
    for _name, _fn in ADVERSARIES.items():
        register_strategy(_name, _fn, game=_game)


def _table(game, *names):
    n = game.default_players
    return [names[s % len(names)] for s in range(n)]


def _rows(game, *names) -> np.ndarray:
    return game.run_deals(_table(game, *names), DEALS, SEED).results


@pytest.mark.parametrize("name", GAMES)
def test_a_strategy_gets_exactly_the_legal_moves(name) -> None:
    game = get_game(name)
    honest = _rows(game, "iso_last_move", "greedy")
    assert np.array_equal(_rows(game, "iso_shape_peeker", "greedy"), honest)
    assert np.array_equal(_rows(game, "iso_stale_reader", "greedy"), honest)


@pytest.mark.parametrize("name", GAMES)
def test_writing_to_the_arguments_changes_nothing(name) -> None:
    game = get_game(name)
    assert np.array_equal(_rows(game, "iso_forger", "greedy"), _rows(game, "iso_first_move", "greedy"))
    assert np.array_equal(_rows(game, "iso_forger"), _rows(game, "iso_first_move"))


@pytest.mark.parametrize("name", GAMES)
def test_check_mode_names_a_strategy_that_reads_past_its_arguments(name) -> None:
    game = get_game(name)
    table = _table(game, "iso_over_reader", "greedy")
    game.run_deals(table, 3, SEED)  # unchecked: it reads cleared memory, no error
    with pytest.raises(StrategyError, match=r"strategy 'iso_over_reader' in seat 0 indexed outside its "
                                            r"arguments .*seed 1515, deal 0"):
        game.run_deals(table, 3, SEED, check=True)


@pytest.mark.parametrize("name", GAMES)
def test_check_mode_plays_honest_strategies_exactly_like_the_parallel_engine(name) -> None:
    game = get_game(name)
    table = _table(game, "iso_last_move", "greedy", "iso_first_move", "random")
    plain = game.run_deals(table, 30, SEED).results
    assert np.array_equal(plain, game.run_deals(table, 30, SEED, check=True).results)


@pytest.mark.parametrize("name", GAMES)
def test_an_out_of_range_index_is_a_clear_error_that_keeps_the_other_deals(name) -> None:
    game = get_game(name)
    with pytest.raises(StrategyError) as info:
        game.run_deals(_table(game, "greedy", "iso_out_of_range"), 20, SEED)
    msg = str(info.value)
    assert "strategy 'iso_out_of_range' in seat 1" in msg and "seed 1515" in msg and "deal 0" in msg
    assert info.value.results.shape[0] == 20
