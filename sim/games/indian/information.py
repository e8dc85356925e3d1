"""What an Indian Rummy seat may see (I9), for the game contract's information check.

``decision_states`` steps a deal with real strategies through the same state kernels
the engine uses (sim.games.indian.state_nb: reshuffle, draws, discards, leaving the
deal) and yields the full state before every decision with two or more legal moves;
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
from sim.core.rng_nb import STREAM_SEAT0, stream_key


def _obs(st: np.ndarray) -> np.ndarray:
    seat = int(st[E.O_SEAT])
    obs = st[: E.OBS_SIZE].copy()
    b = E.S_HANDS + seat * E.N_KINDS
    obs[E.O_HAND: E.O_HAND + E.N_KINDS] = st[b: b + E.N_KINDS]
    return obs


def view(state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(observation, legal move rows) a strategy deciding in ``state`` receives."""
    from sim.games.indian.state_nb import discard_moves, draw_moves

    moves = np.zeros((E.MAX_MOVES, E.MOVE_COLS), dtype=np.int64)
    st = state.copy()
    gen = draw_moves if st[E.O_DECISION] == E.D_DRAW else discard_moves
    n = gen(st, moves)
    return _obs(state), moves[:n].copy()


def decision_states(specs: Sequence, seed: int, deal: int, rules) -> Iterator[np.ndarray]:
    """The full state before every decision with two or more legal moves of ``deal``, played
    by ``specs`` (one per seat) as the engine plays it."""
    from sim.games.indian.deal_nb import shuffle_shoe
    from sim.games.indian.engine import kernel_args, parse_specs
    from sim.games.indian.solver_nb import can_declare
    from sim.games.indian.state_nb import (discard, discard_moves, draw_moves, draw_pile, draw_stock, hand_of,
                                           init_state, leave_deal, maybe_reshuffle, next_turn)
    from strategies.indian.dispatch_nb import call_strategy

    parsed = parse_specs(list(specs))
    players = len(parsed)
    arr = rules.to_array(players)
    sids, params, fns = kernel_args(parsed)
    rs = np.empty(1, np.uint64)
    shoe = shuffle_shoe(np.int64(seed), np.int64(deal), arr[E.R_DECKS], rs)
    st = np.empty(E.ST_SIZE, np.int64)
    hands_seq = np.empty((E.MAX_SEATS, E.HAND_SIZE), np.int64)
    buf = np.empty(E.MAX_SHOE, np.int64)
    init_state(st, shoe, arr, players, deal % players, hands_seq, buf)
    rng = np.array([[stream_key(seed, deal, STREAM_SEAT0 + s)] for s in range(E.MAX_SEATS)], dtype=np.uint64)
    moves = np.zeros((E.MAX_MOVES, E.MOVE_COLS), dtype=np.int64)
    wild = st[E.O_WILD_RANK]
    mjr, mjs, tir = arr[E.R_MAX_J_RUN], arr[E.R_MAX_J_SET], arr[E.R_TRIPLE_IS_RUN]

    def choose(decision: int, n: int):
        if n == 1:
            return 0, False
        seat = int(st[E.O_SEAT])
        row = params[seat].copy()
        idx = call_strategy(sids[seat], fns[seat], decision, _obs(st), moves[:n].copy(), n, row, rng[seat])
        return int(idx), True

    while st[E.O_TURN] < arr[E.R_TURN_CAP]:
        seat = int(st[E.O_SEAT])
        maybe_reshuffle(st, rs, buf)
        st[E.O_DECISION] = E.D_DRAW
        n = draw_moves(st, moves)
        if n > 1:
            yield st.copy()
        idx, _ = choose(E.D_DRAW, n)
        kind = moves[idx, 0]
        if kind == E.MV_DROP:
            leave_deal(st, seat, E.ST_DROP_FIRST if st[E.O_HAS_DRAWN + seat] == 0 else E.ST_DROP_MIDDLE)
            if st[E.O_IN_PLAY] == 1:
                return
            next_turn(st)
            continue
        if kind == E.MV_STOCK:
            draw_stock(st)
        else:
            draw_pile(st)
        h = hand_of(st, seat)
        st[E.O_DECISION] = E.D_DISCARD
        n = discard_moves(st, moves)
        if n > 1:
            yield st.copy()
        idx, _ = choose(E.D_DISCARD, n)
        kind, k = moves[idx, 0], moves[idx, 1]
        discard(st, k)
        if kind == E.MV_DECLARE:
            if can_declare(h, wild, mjr, mjs, tir):
                return
            leave_deal(st, seat, E.ST_WRONG)
            if st[E.O_IN_PLAY] == 1:
                return
        next_turn(st)


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
