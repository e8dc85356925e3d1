"""The information test for Indian Rummy (I9; issue 15): a strategy decides from public
information and its own hand only.

* At every decision of real deals (built-ins and a user strategy), states that differ
  only in what the deciding seat cannot see (other hands' unknown cards, the stock
  order; publicly known pickups and the face-up cut joker stay) give the same
  observation and the same legal moves.
* A user strategy that chooses by a hash of everything it receives (its whole
  observation, the shapes of its arrays, every row it is given, its parameters)
  makes the same choices in the compiled engine as on the states stepped through
  ``sim.games.indian.information``: the engine shows it exactly ``view(state)``, and
  nothing more (rows beyond n_moves, another seat's hand).
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from sim.games.indian import enums as E
from sim.games.indian.engine import run_deals
from sim.games.indian.game import GAME
from sim.games.indian.rules import RuleOptions
from sim.plugin.strategy import STRATEGY_SIG
from sim.plugin.specs import MAX_PARAMS
from sim.plugin.registry import get_strategy, register_strategy, strategy_names

SEED = 9191


@njit(STRATEGY_SIG)
def hash_all(decision, obs, moves, n_moves, params, rng):
    """Chooses by a hash of everything it receives."""
    h = np.uint64(1469598103934665603)
    prime = np.uint64(1099511628211)
    for i in range(obs.shape[0]):
        h = (h ^ np.uint64(obs[i])) * prime
    h = (h ^ np.uint64(decision)) * prime
    h = (h ^ np.uint64(n_moves)) * prime
    h = (h ^ np.uint64(moves.shape[0])) * prime
    h = (h ^ np.uint64(params.shape[0])) * prime
    for i in range(moves.shape[0]):
        for j in range(moves.shape[1]):
            h = (h ^ np.uint64(moves[i, j])) * prime
    for i in range(params.shape[0]):
        h = (h ^ np.uint64(np.int64(params[i] * 1024.0))) * prime
    h ^= h >> np.uint64(29)
    # rarely drop or declare, so deals last
    idx = np.int64(h % np.uint64(n_moves))
    if moves[idx, 0] == E.MV_DROP or moves[idx, 0] == E.MV_DECLARE:
        if (h >> np.uint64(40)) % np.uint64(8) != 0:
            return 0
    return idx


register_strategy("indian_hash_all", hash_all, game="indian", doc="test: chooses by a hash of everything it receives")


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("specs", [["greedy", "random", "dropper", "joker_keeper", "defensive", "expert"],
                                   ["indian_hash_all"]], ids=["builtins", "user"])
def test_the_view_ignores_hidden_cards(players, specs) -> None:
    table = [specs[s % len(specs)] for s in range(players)]
    gen = np.random.default_rng(players)
    decisions = moved = 0
    for deal in range(5):
        for st in GAME.decision_states(table, SEED, deal, RuleOptions()):
            obs, rows = GAME.view(st)
            assert obs.shape == (E.OBS_SIZE,) and rows.shape[1] == E.MOVE_COLS
            for _ in range(3):
                alt = GAME.hidden_variant(st, gen)
                moved += not np.array_equal(alt, st)
                obs2, rows2 = GAME.view(alt)
                assert np.array_equal(obs, obs2), f"deal {deal}: the observation changed with hidden cards"
                assert np.array_equal(rows, rows2), f"deal {deal}: the legal moves changed with hidden cards"
            decisions += 1
    assert decisions > 40 and moved > 0.8 * 3 * decisions


BUILTIN_NAMES = [n for n in strategy_names("indian") if get_strategy(n, "indian").function is None]
# search strategies run with cheap settings here (the same code paths, fewer worlds)
TEST_SPECS = {"mc_search": "mc_search:worlds=2"}


@pytest.mark.parametrize("players", [2, 4, 6])
def test_builtin_choices_ignore_hidden_cards(players) -> None:
    """Every built-in (read from the registry, so new ones are covered) chooses the same move,
    advancing its random stream the same way, in states that differ only in what the deciding
    seat cannot see (I9), and writes nothing to its legal rows or parameters."""
    from sim.games.indian.engine import kernel_args, parse_specs
    from sim.plugin.strategy import call_from_python

    names = [BUILTIN_NAMES[(s + players) % len(BUILTIN_NAMES)] for s in range(players)]
    table = [TEST_SPECS.get(n, n) for n in names]
    sids, params, fns = kernel_args(parse_specs(table))
    gen = np.random.default_rng(100 + players)
    asked = {spec: 0 for spec in table}
    for deal in range(3):
        for st in GAME.decision_states(table, SEED, deal, RuleOptions()):
            seat = int(st[E.O_SEAT])
            choices = []
            for variant in (st, GAME.hidden_variant(st, gen), GAME.hidden_variant(st, gen)):
                obs, rows = GAME.view(variant)
                rows_before, prm = rows.copy(), params[seat].copy()
                rng = np.array([12345 + deal], np.uint64)
                idx = call_from_python(fns[seat], int(st[E.O_DECISION]), obs, rows, len(rows), prm, rng)
                assert np.array_equal(rows, rows_before) and np.array_equal(prm, params[seat]), table[seat]
                choices.append((int(idx), int(rng[0])))
            assert choices[0] == choices[1] == choices[2], f"{table[seat]} deal {deal}: a hidden card changed its choice"
            asked[table[seat]] += 1
    assert all(n > 0 for n in asked.values()), asked  # (a dropper may leave at once)


@pytest.mark.parametrize("players", [2, 5])
def test_engine_shows_a_strategy_exactly_the_view(players) -> None:
    table = ["indian_hash_all"] * players
    deals = 30
    run = run_deals(table, deals, SEED, record=2)
    asked = 0
    for i in range(deals):
        ev = run.deal_events(i)
        engine = [tuple(int(x) for x in e[2:5]) for e in ev if e[0] == E.EV_DECISION and e[3] > 1]
        stepped = []
        for st in GAME.decision_states(table, SEED, i, RuleOptions()):
            obs, rows = GAME.view(st)
            idx = hash_all(int(st[E.O_DECISION]), obs, rows, len(rows), np.zeros(MAX_PARAMS), np.zeros(1, np.uint64))
            stepped.append((int(st[E.O_DECISION]), len(rows), int(idx)))
        assert engine == stepped, f"deal {i}: the engine showed the strategy something else than the view"
        asked += len(engine)
    assert asked > 10 * deals


def test_the_registry_lists_user_strategies_per_game() -> None:
    assert "indian_hash_all" in strategy_names("indian")
    assert "indian_hash_all" not in strategy_names("persian")
