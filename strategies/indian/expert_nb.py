"""Indian `expert`: dropper's drop rules, joker_keeper's draws and hand building, and
defensive's discards in one player (strategies/indian/plan_nb.py, dropper_nb.py).

* Draw decision: drops by dropper's rules (first drop: deadwood above
  ``first_drop_deadwood``, no pure run with ``need_pure``, no joker with ``need_joker``;
  middle drop: deadwood above ``middle_drop_deadwood`` after ``middle_drop_turn`` turns, or
  above ``alarm_deadwood`` once an opponent has taken ``alarm_pickups`` cards from the
  pile; dropper's table-size gates ``pure_saves_upto`` and ``drop_min_players``); else
  joker_keeper's draw (jokers and melds always taken, connectors up to
  ``connector_max`` points, greedy's take with ``take_lowers``).
* Discard: declares whenever it validly can; jokers are kept; otherwise the least
  ``deadwood + keep + feed_weight * want - safe_weight * safe - shed_weight * value * close``
  with the keep terms ``pure_keep``, ``long_keep``, ``run_keep``, ``set_keep``; ``close`` once
  an opponent has taken ``alarm_pickups`` cards from the pile or this seat has completed
  ``middle_drop_turn`` turns.
"""

from numba import njit

from sim.games.indian.enums import D_DRAW, MV_DROP
from strategies.indian.dropper_nb import wants_drop
from strategies.indian.greedy_nb import row_of_kind
from strategies.indian.plan_nb import is_close, plan_discard, plan_draw, turns_done
from sim.plugin.strategy import STRATEGY_SIG

# parameter slots, in the order declared in strategies/indian/builtins.py
P_FIRST_DROP_DEADWOOD = 0
P_NEED_PURE = 1
P_NEED_JOKER = 2
P_MIDDLE_DROP_DEADWOOD = 3
P_MIDDLE_DROP_TURN = 4
P_ALARM_PICKUPS = 5
P_ALARM_DEADWOOD = 6
P_CONNECTOR_MAX = 7
P_TAKE_LOWERS = 8
P_PURE_KEEP = 9
P_LONG_KEEP = 10
P_RUN_KEEP = 11
P_SET_KEEP = 12
P_FEED_WEIGHT = 13
P_SAFE_WEIGHT = 14
P_SHED_WEIGHT = 15
P_PURE_SAVES_UPTO = 16
P_DROP_MIN_PLAYERS = 17


@njit(STRATEGY_SIG, cache=True)
def expert_decide(decision, obs, moves, n, params, rng):
    if decision == D_DRAW:
        i_drop = row_of_kind(moves, n, MV_DROP)
        if i_drop >= 0 and wants_drop(
            obs, params[P_FIRST_DROP_DEADWOOD], params[P_NEED_PURE] != 0.0, params[P_NEED_JOKER] != 0.0,
            params[P_MIDDLE_DROP_DEADWOOD], params[P_MIDDLE_DROP_TURN], params[P_ALARM_PICKUPS],
            params[P_ALARM_DEADWOOD], 0.0, params[P_PURE_SAVES_UPTO], params[P_DROP_MIN_PLAYERS],
        ):
            return i_drop
        return plan_draw(obs, moves, n, True, True, params[P_CONNECTOR_MAX], params[P_TAKE_LOWERS] != 0.0)
    close = False
    if params[P_SHED_WEIGHT] != 0.0:
        close = is_close(obs, params[P_ALARM_PICKUPS], params[P_MIDDLE_DROP_TURN], turns_done(obs))
    return plan_discard(obs, moves, n, True, params[P_PURE_KEEP], params[P_LONG_KEEP], params[P_RUN_KEEP],
                        params[P_SET_KEEP], params[P_FEED_WEIGHT], params[P_SAFE_WEIGHT], params[P_SHED_WEIGHT],
                        close)
