"""What a Gin Rummy seat may see (G9), for the game contract's information check.

``decision_states`` steps a deal with real strategies through the same state kernels the
engine uses (state_nb) and yields the full state before every decision with two or more
legal moves; ``hidden_variant`` builds a state the deciding seat cannot tell from it;
``view`` is what a strategy receives (observation with its own hand, the legal move rows).

Public (G9): the upcard, the cards out of play, every card a player took from the upcard
and still holds, the stock size, laid melds and lay-offs, the passes on the first upcard.
So a hidden variant keeps the other seat's publicly known cards and deals its other cards
and the stock at random into the same places.
"""

from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from sim.core.rng_nb import STREAM_SEAT0, stream_key
from sim.games.gin import enums as E
from sim.games.gin.cards import mask_cards, mask_of
from sim.games.gin.engine import kernel_args, parse_specs
from sim.games.gin.melds_nb import MAX_HAND_MELDS, MELD_SCRATCH
from sim.games.gin.state_nb import apply_move, deal_state, legal_moves, shuffled_deck
from sim.plugin.strategy import call_from_python


def _obs(st: np.ndarray) -> np.ndarray:
    obs = st[: E.OBS_SIZE].copy()
    obs[E.O_HAND] = st[E.S_HANDS + int(st[E.O_SEAT])]
    return obs


def _scratch():
    return (np.zeros((E.MAX_MOVES, E.MOVE_COLS), np.int64), np.zeros(MAX_HAND_MELDS, np.int64),
            np.zeros(MELD_SCRATCH, np.int64), np.zeros(MAX_HAND_MELDS, np.int64))


def view(state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(observation, legal move rows) a strategy deciding in ``state`` receives."""
    moves, ids, stack, tmp = _scratch()
    n = legal_moves(state.copy(), moves, ids, stack, tmp)
    return _obs(state), moves[:n].copy()


def decision_states(specs: Sequence, seed: int, deal: int, rules) -> Iterator[np.ndarray]:
    """The full state before every decision with two or more legal moves of ``deal``, played by
    ``specs`` (one per seat) as the engine plays it."""

    parsed = parse_specs(list(specs))
    sids, params, fns = kernel_args(parsed)
    st = np.zeros(E.ST_SIZE, np.int64)
    deal_state(st, shuffled_deck(np.int64(seed), np.int64(deal)), np.int64(deal), rules.to_array(2))
    rng = np.array([[stream_key(seed, deal, STREAM_SEAT0 + s)] for s in range(2)], dtype=np.uint64)
    moves, ids, stack, tmp = _scratch()
    end = -1
    while end < 0:
        n = legal_moves(st, moves, ids, stack, tmp)
        idx = 0
        if n > 1:
            yield st.copy()
            seat = int(st[E.O_SEAT])
            idx = call_from_python(fns[seat], int(st[E.O_DECISION]), _obs(st), moves[:n].copy(), n,
                                   params[seat].copy(), rng[seat])
        r = moves[idx]
        end = apply_move(st, r[0], r[2], r[3])


def hidden_variant(state: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """A state the deciding seat cannot tell from ``state`` (see the module docstring)."""
    seat = int(state[E.O_SEAT])
    other = 1 - seat
    alt = state.copy()
    hand = int(state[E.S_HANDS + other])
    known = hand & int(state[E.O_KNOWN + other])
    hidden = mask_cards(hand & ~known)
    pos = int(state[E.S_STOCK_POS])
    stock = [int(c) for c in state[E.S_STOCK + pos: E.S_STOCK + E.STOCK_AT_DEAL]]
    pool = hidden + stock
    gen.shuffle(pool)
    alt[E.S_HANDS + other] = known | mask_of(pool[: len(hidden)])
    alt[E.S_STOCK + pos: E.S_STOCK + E.STOCK_AT_DEAL] = pool[len(hidden):]
    return alt
