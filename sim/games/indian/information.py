"""What an Indian Rummy seat may see (I9), for the game contract's information check.

``decision_states`` steps a deal with real strategies by ``Position`` (position.py: the
engine's own steps, turn_nb) and yields the full state before every decision with two or
more legal moves;
``hidden_variant`` builds a state the deciding seat cannot tell from it; ``view`` is
what a strategy receives in a state (observation with its own hand, legal move rows).

Public (I9): the discard pile (the whole history and the current contents), every
pickup from the pile, the cut joker (face up at the bottom of the stock until that
stock runs out), hand sizes, drops. So a hidden variant keeps, for every other seat,
the copies it is publicly known to hold (picked up from the pile and not discarded
since, as a lower bound per kind) and the stock's bottom card while it is still the
cut joker, and deals every other hidden card at random into the same places.
"""

from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from sim.games.indian import enums as E
from sim.games.indian.engine import kernel_args, parse_specs
from sim.games.indian.position import Position
from sim.plugin.strategy import call_from_python


def view(state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(observation, legal move rows) a strategy deciding in ``state`` receives (the state is
    checked for consistency first: position.check_state)."""
    return Position.from_state(state).view()


def decision_states(specs: Sequence, seed: int, deal: int, rules) -> Iterator[np.ndarray]:
    """The full state before every decision with two or more legal moves of ``deal``, played
    by ``specs`` (one per seat) as the engine plays it: a ``Position`` stepped with the
    engine's steps, each seat's strategy asked with its own stream."""

    parsed = parse_specs(list(specs))
    sids, params, fns = kernel_args(parsed)
    pos = Position.from_deal(seed, deal, len(parsed), rules)
    while pos.end is None:
        obs, rows = pos.view()
        idx = 0
        if len(rows) > 1:
            yield pos.st.copy()
            seat = pos.seat
            idx = int(call_from_python(fns[seat], int(pos.st[E.O_DECISION]), obs, rows.copy(), len(rows),
                                       params[seat].copy(), pos.streams[seat]))
        pos.apply_row(rows[idx])


def _original_stock(st: np.ndarray) -> bool:
    """True while the stock is still the one dealt (its bottom card is the face-up cut joker)."""
    players = int(st[E.O_PLAYERS])
    decks = int(st[E.O_RULES + E.R_DECKS])
    dealt_stock = 54 * decks - E.HAND_SIZE * players - 1
    draws = int(st[E.O_N_DISCARDS]) + (1 if st[E.O_DECISION] == E.D_DISCARD else 0)
    stock_draws = draws - int(st[E.O_PICKUPS: E.O_PICKUPS + players].sum())
    return stock_draws + int(st[E.O_STOCK_N]) == dealt_stock


def hidden_variant(state: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """A state the deciding seat cannot tell from ``state`` (see the module docstring)."""
    seat = int(state[E.O_SEAT])
    players = int(state[E.O_PLAYERS])
    alt = state.copy()
    pool: list[int] = []
    keep: dict[int, np.ndarray] = {}
    need: dict[int, int] = {}
    for o in range(players):
        if o == seat or state[E.O_STATUS + o] != E.ST_IN:
            continue
        b = E.S_HANDS + o * E.N_KINDS
        hand = state[b: b + E.N_KINDS]
        picked = state[E.O_PICKED + o * E.N_KINDS: E.O_PICKED + (o + 1) * E.N_KINDS]
        dropped = state[E.O_DISCARDED + o * E.N_KINDS: E.O_DISCARDED + (o + 1) * E.N_KINDS]
        known = np.minimum(hand, np.maximum(picked - dropped, 0))
        keep[o] = known
        for k in np.flatnonzero(hand - known):
            pool += [int(k)] * int(hand[k] - known[k])
        need[o] = int((hand - known).sum())
    stock_n = int(state[E.O_STOCK_N])
    fixed_bottom = stock_n > 0 and _original_stock(state)
    first = 1 if fixed_bottom else 0
    pool += [int(c) for c in state[E.S_STOCK + first: E.S_STOCK + stock_n]]
    gen.shuffle(pool)
    for o, known in keep.items():
        hand = known.copy()
        for k in pool[: need[o]]:
            hand[k] += 1
        pool = pool[need[o]:]
        alt[E.S_HANDS + o * E.N_KINDS: E.S_HANDS + (o + 1) * E.N_KINDS] = hand
    alt[E.S_STOCK + first: E.S_STOCK + stock_n] = pool
    return alt
