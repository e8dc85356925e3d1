"""A compact compiled play-out of a Persian Rummy deal from a full state, with one fast
policy in every seat (for search strategies such as mc_search).

It steps the deal exactly as engine_nb.play_deal does, with the same state_nb
kernels (``legal_moves``, then ``apply_row`` for the chosen row: draw, plays,
discard, passes, going out; the P7 turn cap before a draw) and scores it with
``state_nb.score_deal``. It may start in the middle of a turn (at the phase in
``st[O_DECISION]``), calls the policy directly (greedy or random, never through
dispatch_nb) and may stop early after ``max_turns`` more turns; a deal stopped that
way is scored like a capped deal (no out bonus).

The state array ``st`` doubles as the policy's observation: its first OBS_SIZE slots
are the public part, and the play-out writes the mover's hand into ``O_HAND`` before
each decision. A policy reads only O_* slots, so it sees what its seat may see (P10).
Forced moves (a single legal move) are played without asking, as in the engine.
"""

import numpy as np
from numba import njit

from sim.games.persian.enums import (
    C_TOTAL,
    D_DISCARD,
    D_DRAW,
    D_PLAY,
    END_CAP,
    END_OUT,
    MAX_MOVES,
    MOVE_COLS,
    N_RESULT_COLS,
    O_DECISION,
    O_HAND,
    O_RULES,
    O_SEAT,
    O_TURN,
    R_TURN_CAP,
    S_HANDS,
)
from sim.games.persian.state_nb import GOING_ON, apply_row, legal_moves, score_deal
from sim.rng_nb import rand_below
from strategies.persian.greedy_nb import greedy_decide

POLICY_GREEDY = 0
POLICY_RANDOM = 1


@njit(cache=True)
def policy_move(policy, decision, st, moves, n, gparams, rng):
    """The rollout policy's choice among ``n`` >= 2 legal moves.

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


@njit(cache=True)
def play_out(st, policy, max_turns, gparams, rng, moves, res):
    """Play the deal in ``st`` to its end from phase ``st[O_DECISION]``.

    Every seat uses ``policy`` (POLICY_GREEDY with parameters ``gparams``, or
    POLICY_RANDOM drawing from ``rng``). Stops at the rules' turn cap (P7) or after
    ``max_turns`` more turns (<= 0: no extra limit). ``moves`` and ``res`` are scratch
    buffers (MAX_MOVES x MOVE_COLS, N_RESULT_COLS). Returns (end, out_seat).

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
def rollout(st, policy, max_turns, gparams, rng):
    """Play ``st`` out in place (see play_out); returns (team 0 total, team 1 total)."""
    moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
    res = np.zeros(N_RESULT_COLS, np.int64)
    end, out_seat = play_out(st, policy, max_turns, gparams, rng, moves, res)
    return team_totals(st, end, out_seat, res)
