"""Indian `dropper`: greedy, plus a first drop of a weak dealt hand and a middle drop (I7).

At its first draw decision (before it has drawn) it drops when the dealt hand is weak:
its 13-card ``min_deadwood`` is above ``first_drop_deadwood``, or (``need_pure``) it
holds no pure run of three, or (``need_joker``) it holds no joker (printed or wild).
At a later draw decision it drops when its 13-card deadwood is still above
``middle_drop_deadwood`` once it has completed ``middle_drop_turn`` turns, or above
``alarm_deadwood`` (at any turn) once an opponent still in the deal has taken
``alarm_pickups`` or more cards from the discard pile (0: never; the pickups are
public, I9). Each joker held raises both deadwood thresholds by ``joker_credit``.
Otherwise it plays exactly as greedy (strategies/indian/greedy_nb.py).

The value of a drop depends on the table size (notebook 06: a jokerless dealt hand that
holds a pure run is worth playing at 2 players and worth dropping from 3 up), so two
gates read the number of players (public, I9):

* ``pure_saves_upto``: at tables of at most this many players a jokerless dealt hand that
  holds a pure run of three is not weak for ``need_joker`` (0: never);
* ``drop_min_players``: at tables of fewer players it never drops (first or middle).
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
    O_PICKUPS,
    O_PLAYERS,
    O_RULES,
    O_SEAT,
    O_STATUS,
    O_WILD_RANK,
    R_MAX_J_RUN,
    R_MAX_J_SET,
    R_TRIPLE_IS_RUN,
    ST_IN,
)
from sim.games.indian.memo_nb import M_D13, M_KEY13, key_matches, memo_at
from sim.games.indian.solver_nb import min_deadwood
from sim.games.indian.cards_nb import jokers_in
from sim.games.indian.state_nb import has_pure_run
from strategies.indian.greedy_nb import greedy_decide, hand_view, row_of_kind
from sim.plugin.strategy import STRATEGY_SIG

# parameter slots, in the order declared in strategies/indian/builtins.py
P_FIRST_DROP_DEADWOOD = 0
P_NEED_PURE = 1
P_NEED_JOKER = 2
P_MIDDLE_DROP_DEADWOOD = 3
P_MIDDLE_DROP_TURN = 4
P_ALARM_PICKUPS = 5
P_ALARM_DEADWOOD = 6
P_JOKER_CREDIT = 7
P_PURE_SAVES_UPTO = 8
P_DROP_MIN_PLAYERS = 9


@njit(cache=True)
def has_joker(h, wild_rank):
    if h[JOKER] > 0:
        return True
    for s in range(4):
        if h[s * N_RANKS + wild_rank] > 0:
            return True
    return False


@njit(cache=True)
def max_pickups(obs):
    """The most cards any opponent still in the deal has taken from the pile (I9)."""
    seat = obs[O_SEAT]
    most = 0
    for s in range(obs[O_PLAYERS]):
        if s != seat and obs[O_STATUS + s] == ST_IN and obs[O_PICKUPS + s] > most:
            most = obs[O_PICKUPS + s]
    return most


@njit(cache=True)
def wants_drop(obs, first_dw, need_pure, need_joker, middle_dw, middle_turn, alarm_pickups, alarm_dw,
               joker_credit, pure_saves_upto, drop_min_players):
    """True when the dropper rules of the module docstring say drop now (a draw decision)."""
    players = obs[O_PLAYERS]
    if players < drop_min_players:
        return False
    seat = obs[O_SEAT]
    h = hand_view(obs)
    wild = obs[O_WILD_RANK]
    tir = obs[O_RULES + R_TRIPLE_IS_RUN]
    credit = joker_credit * jokers_in(h, wild) if joker_credit != 0.0 else 0.0
    if obs[O_HAS_DRAWN + seat] == 0:
        pure = has_pure_run(h, tir)
        if need_pure and not pure:
            return True
        if need_joker and not has_joker(h, wild) and not (pure and players <= pure_saves_upto):
            return True
        dw = min_deadwood(h, wild, obs[O_RULES + R_MAX_J_RUN], obs[O_RULES + R_MAX_J_SET], tir)
        return dw > first_dw + credit
    done = 0  # turns completed = discards made
    b = O_DISCARDED + seat * N_KINDS
    for k in range(N_KINDS):
        done += obs[b + k]
    late = done >= middle_turn
    alarm = alarm_pickups > 0 and max_pickups(obs) >= alarm_pickups
    if not late and not alarm:
        return False
    at = memo_at(obs)
    if at >= 0 and key_matches(obs, at + M_KEY13, h):
        dw = obs[at + M_D13]  # the 13 cards its last discard kept, solved then (memo_nb)
    else:
        dw = min_deadwood(h, wild, obs[O_RULES + R_MAX_J_RUN], obs[O_RULES + R_MAX_J_SET], tir)
    if late and dw > middle_dw + credit:
        return True
    return alarm and dw > alarm_dw + credit


@njit(STRATEGY_SIG, cache=True)
def dropper_decide(decision, obs, moves, n, params, rng):
    if decision == D_DRAW:
        i_drop = row_of_kind(moves, n, MV_DROP)
        if i_drop >= 0 and wants_drop(
            obs, params[P_FIRST_DROP_DEADWOOD], params[P_NEED_PURE] != 0.0, params[P_NEED_JOKER] != 0.0,
            params[P_MIDDLE_DROP_DEADWOOD], params[P_MIDDLE_DROP_TURN], params[P_ALARM_PICKUPS],
            params[P_ALARM_DEADWOOD], params[P_JOKER_CREDIT], params[P_PURE_SAVES_UPTO],
            params[P_DROP_MIN_PLAYERS],
        ):
            return i_drop
    return greedy_decide(decision, obs, moves, n, params, rng)
