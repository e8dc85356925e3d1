"""A compact compiled play-out of a Persian Rummy deal from a full state, with one fast
policy in every seat (for search strategies such as mc_search).

It follows engine_nb.play_deal turn by turn with the same state_nb kernels (draw,
plays, discard, passes, going out, the P7 turn cap), but it may start in the middle
of a turn (at the phase in ``st[O_DECISION]``), calls the policy directly (greedy or
random, never through dispatch_nb) and may stop early after ``max_turns`` more
turns; a deal stopped that way is scored like a capped deal (no out bonus).

The state array ``st`` doubles as the policy's observation: its first OBS_SIZE slots
are the public part, and the play-out writes the mover's hand into ``O_HAND`` before
each decision. A policy reads only O_* slots, so it sees what its seat may see (P10).
Forced moves (a single legal move) are played without asking, as in the engine.
"""

import numpy as np
from numba import njit

from sim.games.persian.cards_nb import mask_value
from sim.games.persian.enums import (
    D_DISCARD,
    D_DRAW,
    D_PLAY,
    END_CAP,
    END_OUT,
    END_PASSES,
    MAX_MOVES,
    MOVE_COLS,
    MV_STOP,
    N_RESULT_COLS,
    N_SEATS,
    O_DECISION,
    O_HAND,
    O_PASSES,
    O_RULES,
    O_SEAT,
    O_TEAM_TABLE,
    O_TURN,
    R_OUT_BONUS,
    R_TURN_CAP,
    S_HANDS,
)
from sim.games.persian.state_nb import (
    apply_discard,
    apply_draw,
    apply_play,
    discard_moves,
    draw_moves,
    next_turn,
    play_moves,
)
from sim.rng_nb import rand_below
from strategies.persian.greedy_nb import greedy_decide

POLICY_GREEDY = 0
POLICY_RANDOM = 1
POLICY_NAMES = ("greedy", "random")
GOING_ON = -1  # apply_move: the deal goes on


@njit(cache=True)
def legal_moves(st, decision, moves):
    """The legal moves of the seat to move at ``decision``; returns how many."""
    if decision == D_DRAW:
        return draw_moves(st, moves)
    if decision == D_PLAY:
        return play_moves(st, moves)
    return discard_moves(st, moves)


@njit(cache=True)
def apply_move(st, decision, moves, idx, res):
    """Apply legal move ``moves[idx]`` at ``decision`` as the engine does and set
    ``st[O_DECISION]`` to the next phase. Returns GOING_ON, END_OUT (the mover went
    out: ``st[O_SEAT]`` is still the mover) or END_PASSES (four passes, P7)."""
    kind = moves[idx, 0]
    if decision == D_DRAW:
        if apply_draw(st, kind, moves[idx, 1], res):
            if st[O_PASSES] >= N_SEATS:
                return END_PASSES
            next_turn(st)
            return GOING_ON
        st[O_DECISION] = D_PLAY
        return GOING_ON
    if decision == D_PLAY:
        if kind == MV_STOP:
            st[O_DECISION] = D_DISCARD
            return GOING_ON
        if apply_play(st, kind, moves[idx, 1], moves[idx, 2], res):
            return END_OUT
        return GOING_ON
    if apply_discard(st, moves[idx, 1], res):
        return END_OUT
    next_turn(st)
    return GOING_ON


@njit(cache=True)
def policy_move(policy, decision, st, moves, n, gparams, rng):
    """The rollout policy's choice among ``n`` >= 2 legal moves."""
    if policy == POLICY_RANDOM:
        return rand_below(rng, n)
    st[O_HAND] = st[S_HANDS + st[O_SEAT]]
    st[O_DECISION] = decision
    return greedy_decide(decision, st, moves, n, gparams, rng)


@njit(cache=True)
def team_totals(st, end, out_seat):
    """(team 0, team 1) deal scores of a finished deal (P8)."""
    t0 = st[O_TEAM_TABLE] - mask_value(st[S_HANDS]) - mask_value(st[S_HANDS + 2])
    t1 = st[O_TEAM_TABLE + 1] - mask_value(st[S_HANDS + 1]) - mask_value(st[S_HANDS + 3])
    if end == END_OUT:
        if out_seat % 2 == 0:
            t0 += st[O_RULES + R_OUT_BONUS]
        else:
            t1 += st[O_RULES + R_OUT_BONUS]
    return t0, t1


@njit(cache=True)
def play_out(st, policy, max_turns, gparams, rng, moves, res):
    """Play the deal in ``st`` to its end from phase ``st[O_DECISION]``.

    Every seat uses ``policy`` (POLICY_GREEDY with parameters ``gparams``, or
    POLICY_RANDOM drawing from ``rng``). Stops at the rules' turn cap (P7) or after
    ``max_turns`` more turns (<= 0: no extra limit). ``moves`` and ``res`` are scratch
    buffers (MAX_MOVES x MOVE_COLS, N_RESULT_COLS). Returns (end, out_seat).
    """
    cap = st[O_RULES + R_TURN_CAP]
    if max_turns > 0 and st[O_TURN] + max_turns < cap:
        cap = st[O_TURN] + max_turns
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
        end = apply_move(st, decision, moves, idx, res)
        if end != GOING_ON:
            out_seat = st[O_SEAT] if end == END_OUT else -1
            return end, out_seat


@njit(cache=True)
def rollout(st, policy, max_turns, gparams, rng):
    """Play ``st`` out in place (see play_out); returns (team 0 total, team 1 total)."""
    moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
    res = np.zeros(N_RESULT_COLS, np.int64)
    end, out_seat = play_out(st, policy, max_turns, gparams, rng, moves, res)
    return team_totals(st, end, out_seat)
