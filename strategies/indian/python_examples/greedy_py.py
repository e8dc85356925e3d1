"""Indian `greedy_py`: the built-in `greedy` written as a plain-Python strategy (issue 27).

The same decisions as strategies/indian/greedy_nb.py, move for move (tests/indian/
test_python_strategy.py compares every result row), written the plain way: the compiled
greedy saves work with a branch-and-bound over the discards, this one asks the solver for the
least deadwood after each discard (sim.games.indian.solver_nb.discard_deadwoods) and compares.

- Draw: the pile's top card when keeping the best 13 of the 14 lowers the least deadwood
  (I6) of the current 13, else the stock; never drops unless nothing else is legal (I3, I7).
- Discard: declares (I5), discarding the highest-valued such kind (then the higher kind), when
  the 13 left are a valid declaration; else discards the kind leaving the least deadwood
  (ties: the higher-valued card, then the higher kind).

A Python strategy gets ``(decision, obs, moves, params, rng)``: ``moves`` holds exactly the
legal rows ``(kind, a, b, c)`` (MV_* of sim.games.indian.enums), ``obs`` the seat's view (I9,
the O_* slots), both read-only; it returns the index of the row it plays.
"""

import numpy as np

from sim.games.indian.cards_nb import card_value
from sim.games.indian.enums import (
    D_DRAW, MV_DECLARE, MV_DISCARD, MV_PILE, MV_STOCK, N_KINDS, O_HAND, O_RULES, O_TOP, O_WILD_RANK,
    R_MAX_J_RUN, R_MAX_J_SET, R_TRIPLE_IS_RUN,
)
from sim.games.indian.solver_nb import can_declare, discard_deadwoods, min_deadwood
from sim.plugin.registry import register_python_strategy


def _rules(obs) -> tuple:
    """The solver's arguments after the counts: wild rank and the I5 options."""
    return (int(obs[O_WILD_RANK]), int(obs[O_RULES + R_MAX_J_RUN]), int(obs[O_RULES + R_MAX_J_SET]),
            int(obs[O_RULES + R_TRIPLE_IS_RUN]))


def _row(moves, kind: int, a: int | None = None) -> int:
    """Index of the legal move of ``kind`` (and card ``a``), or -1."""
    for i, (k, b, _c, _d) in enumerate(moves.tolist()):
        if k == kind and (a is None or b == a):
            return i
    return -1


def _after_discards(counts, rules) -> np.ndarray:
    """Least deadwood after discarding each kind (solver BIG for kinds not held)."""
    out = np.empty(N_KINDS, np.int64)
    discard_deadwoods(counts, *rules, out)
    return out


def draw(obs, moves) -> int:
    stock, pile = _row(moves, MV_STOCK), _row(moves, MV_PILE)
    if pile < 0:
        return stock if stock >= 0 else len(moves) - 1
    if stock < 0:
        return pile
    rules = _rules(obs)
    hand = np.array(obs[O_HAND:O_HAND + N_KINDS])
    now = min_deadwood(hand, *rules)
    top = int(obs[O_TOP])
    hand[top] += 1
    after = _after_discards(hand, rules)
    lowers = any(after[k] < now for k in range(N_KINDS) if hand[k] > 0 and k != top)
    return pile if lowers else stock


def _order(hand, wild: int) -> list[int]:
    """The kinds held, highest value first, then the higher kind."""
    return sorted((k for k in range(N_KINDS) if hand[k] > 0), key=lambda k: (card_value(k, wild), k), reverse=True)


def discard(obs, moves) -> int:
    rules = _rules(obs)
    hand = np.array(obs[O_HAND:O_HAND + N_KINDS])
    after = _after_discards(hand, rules)
    order = _order(hand, rules[0])
    best = min(order, key=lambda k: after[k])  # the first of the least: value, then kind, descending
    if after[best] == 0:
        for k in order:
            if after[k] != 0:
                continue
            hand[k] -= 1
            valid = can_declare(hand, *rules)
            hand[k] += 1
            if valid:
                i = _row(moves, MV_DECLARE, k)
                if i >= 0:
                    return i
                break
    i = _row(moves, MV_DISCARD, best)
    return i if i >= 0 else 0


def greedy_py(decision, obs, moves, params, rng) -> int:
    """Indian greedy in Python: the index of the chosen legal move."""
    return draw(obs, moves) if decision == D_DRAW else discard(obs, moves)


register_python_strategy("greedy_py", greedy_py, game="indian",
                         doc="Indian greedy written in plain Python (the same moves as greedy).")
