"""A compact compiled play-out of a Persian Rummy deal from a full state, with one fast
policy in every seat (for search strategies such as mc_search, and for decision analysis).

It steps the deal exactly as engine_nb.play_deal does, with the same state_nb
kernels (``apply_row`` for the chosen move: draw, plays, discard, passes, going out;
the P7 turn cap before a draw) and scores it with ``state_nb.score_deal``. It may
start in the middle of a turn (at the phase in ``st[O_DECISION]``), calls the policy
directly (never through a seat's function slot) and may stop early after ``max_turns`` more
turns; a deal stopped that way is scored like a capped deal (no out bonus).

Two policies:

* POLICY_GREEDY: strategies/persian/greedy_nb.py's choices, computed *without* writing
  the legal move list (``greedy_draw_move``, ``greedy_play_move``, ``greedy_discard_card``
  below): greedy only ever picks the first move of highest value, so the draw scans the
  pile depths once, a play is the first full set / joker set / maximal run / lay-off of
  most points, and a discard is one card chosen from the hand mask. The one case that
  needs the list is a play while a discard-pile target is pending (P6.1 filters the
  plays), where the play-out asks ``state_nb.legal_moves`` and greedy_nb as before.
  The moves are the engine's: tests/persian/test_mc_search.py replays engine deals.
* POLICY_RANDOM: uniform over ``state_nb.legal_moves``.

No allocation: ``play_out`` works in the state it is given and two scratch buffers
the caller owns, so a search makes its buffers once per decision (or per world) and
plays any number of play-outs in them (tests/persian/test_mc_search.py counts numba's
allocations to check it).

Playing a state out from a given position for M worlds in parallel (e.g. decision
analysis): see strategies/persian/mc_search_nb.py (``analyse_decision``) for the
pattern: a ``prange`` over worlds, each world with its own state copy, scratch
buffers and random stream ``sim.core.rng_nb.stream_key(seed, deal, WORLD_STREAM0 + w)``,
results written to the world's own row and reduced after the loop. Never share a
numpy Generator (or one uint64[1] stream) across prange iterations.
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from sim.games.persian.cards_nb import (
    JOKERS,
    RANK_MASKS,
    bit,
    card_value,
    mask_value,
    popcount,
    ranks_with,
    run_cards,
    suit_bits,
)
from sim.games.persian.enums import (
    C_TOTAL,
    D_DISCARD,
    D_DRAW,
    D_PLAY,
    END_CAP,
    END_OUT,
    JOKER0,
    MAX_MOVES,
    MIN_MELD,
    MOVE_COLS,
    MV_DISCARD,
    MV_LAYOFF,
    MV_MELD,
    MV_PASS,
    MV_STOCK,
    MV_STOP,
    MV_TAKE,
    N_RANKS,
    N_RESULT_COLS,
    N_SUITS,
    O_DECISION,
    O_HAND,
    O_LAYOFF_CARDS,
    O_N_MELDS,
    O_PILE,
    O_PILE_N,
    O_RULES,
    O_SEAT,
    O_STOCK_N,
    O_TARGET,
    O_TURN,
    R_FOUR_DOUBLE,
    R_TURN_CAP,
    S_HANDS,
    SET_MAX,
    TOP_RANK,
)
from sim.games.persian.melds_nb import layoff_card_for, placeable, table_reach
from sim.games.persian.state_nb import GOING_ON, apply_row, legal_moves, score_deal
from sim.core.rng_nb import rand_below
from strategies.persian.greedy_nb import P_MAX_EXTRA, greedy_decide
from strategies.persian.hand_melds_nb import highest_card, meldable_mask, partial_meld_mask

POLICY_GREEDY = 0
POLICY_RANDOM = 1


@njit(cache=True)
def policy_move(policy, decision, st, moves, n, gparams, rng):
    """The rollout policy's choice among ``n`` >= 2 legal moves written in ``moves``.

    Parameters
    ----------
    policy : POLICY_GREEDY or POLICY_RANDOM
    decision : D_* code of the decision
    st : the full state (its observation slots are the policy's observation)
    moves, n : the legal move rows, ``n`` >= 2 of them
    gparams : greedy's parameter row
    rng : uint64[1] random stream (random policy)
    """
    if policy == POLICY_RANDOM:
        return rand_below(rng, n)
    st[O_HAND] = st[S_HANDS + st[O_SEAT]]
    st[O_DECISION] = decision
    return greedy_decide(decision, st, moves, n, gparams, rng)


@njit(cache=True)
def team_totals(st, end, out_seat, res):
    """(team 0, team 1) deal scores of a finished deal (P8), by state_nb.score_deal
    (which fills the score columns of the scratch result row ``res``)."""
    score_deal(st, end, out_seat, res)
    return res[C_TOTAL], res[C_TOTAL + 1]


# ---- greedy's choices without a move list ------------------------------------------------


@njit(cache=True)
def greedy_draw_move(st, hand, max_extra):
    """greedy_nb.greedy_draw's draw for the seat to move, as (kind, depth, target):
    the first legal take (P6.1, shallowest first) of the highest score among those whose
    extra cards are worth at most ``max_extra``; else the stock, or pass on an empty
    stock (P6.2)."""
    best = -1
    best_target = -1
    best_score = -1e18
    base = 0
    have_base = False
    taken = np.int64(0)
    top = O_PILE + st[O_PILE_N] - 1
    set_ranks, joker_room, up, down = table_reach(st)  # the table, gathered once for every depth
    for depth in range(st[O_PILE_N]):
        target = st[top - depth]
        taken |= bit(target)
        h2 = hand | taken
        if not placeable(set_ranks, joker_room, up, down, h2, target):
            continue
        if not have_base:
            base = mask_value(meldable_mask(hand, st))
            have_base = True
        used = meldable_mask(h2, st)
        extra = mask_value(taken & ~used)
        if extra > max_extra:
            continue
        score = mask_value(used) - base - extra
        if score > best_score:
            best_score = score
            best = depth
            best_target = target
    if best >= 0:
        return MV_TAKE, best, best_target
    if st[O_STOCK_N] > 0:
        return MV_STOCK, 0, 0
    return MV_PASS, 0, 0


@njit(cache=True)
def greedy_play_move(st, hand):
    """greedy_nb.greedy_play's play with no discard-pile target pending, as (kind, a, b):
    the first play of the most points in state_nb.play_moves' order (P6.3, P8), or
    MV_STOP when there is none. Only the largest meld of each rank, of the jokers and
    of each run segment can be that play: every smaller one in the list is worth less
    than the larger one around it."""
    double = st[O_RULES + R_FOUR_DOUBLE] != 0
    best_v = 0
    kind = MV_STOP
    a = np.int64(0)
    b = np.int64(0)
    sets = ranks_with(hand, MIN_MELD)  # ranks with a set in hand: only those are looked at
    while sets != 0:
        rank = trailing_zeros(sets)
        sets &= sets - 1
        m = hand & RANK_MASKS[rank]
        v = mask_value(m)
        if popcount(m) == SET_MAX and double:
            v *= 2
        if v > best_v:
            best_v = v
            kind = MV_MELD
            a = m
    j = hand & JOKERS
    cj = popcount(j)
    if cj >= MIN_MELD:
        v = mask_value(j)
        if cj == SET_MAX and double:
            v *= 2
        if v > best_v:
            best_v = v
            kind = MV_MELD
            a = j
    runs = run_cards(hand)  # the cards in runs of three or more: their maximal segments are the runs
    for suit in range(N_SUITS):
        bits = suit_bits(runs, suit)
        lo = 0
        while bits != 0:
            lo = trailing_zeros(bits)
            hi = lo
            while hi < TOP_RANK and (bits >> (hi + 1)) & 1:
                hi += 1
            seg = (np.int64(1) << (hi + 1)) - (np.int64(1) << lo)
            bits &= ~seg
            m = seg << (N_RANKS * suit)
            v = mask_value(m)
            if v > best_v:
                best_v = v
                kind = MV_MELD
                a = m
    for k in range(st[O_N_MELDS] if hand & st[O_LAYOFF_CARDS] != 0 else 0):  # none: no lay-off at all
        for side in range(2):
            c = layoff_card_for(st, k, hand, side)
            if c >= 0:
                v = card_value(c)
                if v > best_v:
                    best_v = v
                    kind = MV_LAYOFF
                    a = c
                    b = k
    return kind, a, b


@njit(cache=True)
def greedy_discard_card(hand):
    """greedy_nb.greedy_discard's card: the highest-valued card in no partial meld (if
    every card is in one, the highest card); a joker stands for all, the lowest is
    discarded (state_nb.discard_moves offers that one, P6.5)."""
    loose = hand & ~partial_meld_mask(hand)
    pick = highest_card(loose) if loose != 0 else highest_card(hand)
    if pick >= JOKER0:
        return trailing_zeros(hand & JOKERS)
    return pick


@njit(cache=True)
def _greedy_play_out(st, cap, gparams, rng, moves, res):
    """play_out with POLICY_GREEDY (see there): greedy's moves without move lists."""
    max_extra = gparams[P_MAX_EXTRA]
    while True:
        decision = st[O_DECISION]
        seat = st[O_SEAT]
        hand = st[S_HANDS + seat]
        if decision == D_DRAW:
            if st[O_TURN] >= cap:
                return END_CAP, -1
            kind, a, b = greedy_draw_move(st, hand, max_extra)
        elif decision == D_PLAY:
            if st[O_TARGET] < 0:
                kind, a, b = greedy_play_move(st, hand)
            else:  # P6.1: the plays that keep the target placeable, from the engine's list
                n = legal_moves(st, D_PLAY, moves)
                if n == 0:  # cannot happen in a legal position; leave the plays rather than loop
                    st[O_DECISION] = D_DISCARD
                    continue
                idx = 0
                if n > 1:
                    idx = policy_move(POLICY_GREEDY, D_PLAY, st, moves, n, gparams, rng)
                kind, a, b = moves[idx, 0], moves[idx, 1], moves[idx, 2]
        else:
            if hand == 0:  # cannot happen in a legal position
                return END_CAP, -1
            kind, a, b = MV_DISCARD, greedy_discard_card(hand), 0
        end = apply_row(st, decision, kind, a, b, res)
        if end != GOING_ON:
            return end, (seat if end == END_OUT else -1)


@njit(cache=True)
def _listed_play_out(st, policy, cap, gparams, rng, moves, res):
    """play_out through state_nb.legal_moves and ``policy_move`` (any policy)."""
    while True:
        decision = st[O_DECISION]
        if decision == D_DRAW and st[O_TURN] >= cap:
            return END_CAP, -1
        n = legal_moves(st, decision, moves)
        if n == 0:  # cannot happen in a legal position; leave the plays rather than loop
            if decision == D_PLAY:
                st[O_DECISION] = D_DISCARD
                continue
            return END_CAP, -1
        idx = 0
        if n > 1:
            idx = policy_move(policy, decision, st, moves, n, gparams, rng)
        end = apply_row(st, decision, moves[idx, 0], moves[idx, 1], moves[idx, 2], res)
        if end != GOING_ON:
            out_seat = st[O_SEAT] if end == END_OUT else -1
            return end, out_seat


@njit(cache=True)
def play_out(st, policy, max_turns, gparams, rng, moves, res):
    """Play the deal in ``st`` to its end from phase ``st[O_DECISION]``.

    Every seat uses ``policy`` (POLICY_GREEDY with parameters ``gparams``, or
    POLICY_RANDOM drawing from ``rng``). Stops at the rules' turn cap (P7) or after
    ``max_turns`` more turns (<= 0: no extra limit). ``moves`` and ``res`` are scratch
    buffers (MAX_MOVES x MOVE_COLS, N_RESULT_COLS); nothing is allocated. Returns
    (end, out_seat).

    Parameters
    ----------
    st : the full state, played out in place from phase ``st[O_DECISION]``
    policy : POLICY_GREEDY or POLICY_RANDOM, every seat's policy
    max_turns : stop after this many more turns (<= 0: only the rules' turn cap)
    gparams : greedy's parameter row (the greedy policy)
    rng : uint64[1] random stream (the random policy)
    moves, res : scratch buffers (MAX_MOVES x MOVE_COLS, N_RESULT_COLS)
    """
    cap = st[O_RULES + R_TURN_CAP]
    if max_turns > 0 and st[O_TURN] + max_turns < cap:
        cap = st[O_TURN] + max_turns
    if policy == POLICY_GREEDY:
        return _greedy_play_out(st, cap, gparams, rng, moves, res)
    return _listed_play_out(st, policy, cap, gparams, rng, moves, res)


@njit(cache=True)
def listed_play_out(st, policy, max_turns, gparams, rng, moves, res):
    """play_out that always writes the legal move list and asks the policy through it
    (the reference the move-list-free greedy play-out is checked against)."""
    cap = st[O_RULES + R_TURN_CAP]
    if max_turns > 0 and st[O_TURN] + max_turns < cap:
        cap = st[O_TURN] + max_turns
    return _listed_play_out(st, policy, cap, gparams, rng, moves, res)


@njit(cache=True)
def rollout(st, policy, max_turns, gparams, rng):
    """Play ``st`` out in place (see play_out); returns (team 0 total, team 1 total).
    Allocates its two scratch buffers: a loop of play-outs should call play_out."""
    moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
    res = np.zeros(N_RESULT_COLS, np.int64)
    end, out_seat = play_out(st, policy, max_turns, gparams, rng, moves, res)
    return team_totals(st, end, out_seat, res)
