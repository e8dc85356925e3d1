"""Indian `dropper`: greedy, plus a first drop of a weak dealt hand and a middle drop (I7).

At its first draw decision (before it has drawn) it drops when the dealt hand is weak:
its 13-card ``min_deadwood`` is above ``first_drop_deadwood``, or (``need_pure``) it
holds no pure run of three, or (``need_joker``) it holds no joker (printed or wild).
At a later draw decision, once it has completed ``middle_drop_turn`` turns, it drops
when its 13-card deadwood is still above ``middle_drop_deadwood``. Otherwise it plays
exactly as greedy (strategies/indian/greedy_nb.py).
"""

from numba import njit

from sim.games.indian.enums import (
    D_DRAW,
    JOKER,
    MV_DROP,
    N_KINDS,
    N_RANKS,
    O_DISCARDED,
    O_HAS_DRAWN,
    O_RULES,
    O_SEAT,
    O_WILD_RANK,
    R_MAX_J_RUN,
    R_MAX_J_SET,
    R_TRIPLE_IS_RUN,
)
from sim.games.indian.solver_nb import min_deadwood
from sim.games.indian.state_nb import has_pure_run
from strategies.interface import STRATEGY_SIG
from strategies.indian.greedy_nb import greedy_decide, hand_view, row_of_kind

# parameter slots, in the order declared in strategies/indian/builtins.py
P_FIRST_DROP_DEADWOOD = 0
P_NEED_PURE = 1
P_NEED_JOKER = 2
P_MIDDLE_DROP_DEADWOOD = 3
P_MIDDLE_DROP_TURN = 4


@njit(cache=True)
def has_joker(h, wild_rank):
    if h[JOKER] > 0:
        return True
    for s in range(4):
        if h[s * N_RANKS + wild_rank] > 0:
            return True
    return False


@njit(STRATEGY_SIG, cache=True)
def dropper_decide(decision, obs, moves, n, params, rng):
    if decision == D_DRAW:
        i_drop = row_of_kind(moves, n, MV_DROP)
        if i_drop >= 0:
            seat = obs[O_SEAT]
            h = hand_view(obs)
            wild = obs[O_WILD_RANK]
            tir = obs[O_RULES + R_TRIPLE_IS_RUN]
            if obs[O_HAS_DRAWN + seat] == 0:
                if params[P_NEED_PURE] != 0.0 and not has_pure_run(h, tir):
                    return i_drop
                if params[P_NEED_JOKER] != 0.0 and not has_joker(h, wild):
                    return i_drop
                dw = min_deadwood(h, wild, obs[O_RULES + R_MAX_J_RUN], obs[O_RULES + R_MAX_J_SET], tir)
                if dw > params[P_FIRST_DROP_DEADWOOD]:
                    return i_drop
            else:
                done = 0  # turns completed = discards made
                b = O_DISCARDED + seat * N_KINDS
                for k in range(N_KINDS):
                    done += obs[b + k]
                if done >= params[P_MIDDLE_DROP_TURN]:
                    dw = min_deadwood(h, wild, obs[O_RULES + R_MAX_J_RUN], obs[O_RULES + R_MAX_J_SET], tir)
                    if dw > params[P_MIDDLE_DROP_DEADWOOD]:
                        return i_drop
    return greedy_decide(decision, obs, moves, n, params, rng)
