"""Indian `defensive`: greedy's draws, a discard that keeps run connectors, avoids feeding
the next seat and sheds high cards when an opponent looks close (I9 public history).

Discard (strategies/indian/plan_nb.py, declaring whenever it validly can): the least
``deadwood + keep + feed_weight * want - safe_weight * safe - shed_weight * value * close``,
where ``keep`` is ``run_keep`` per same-suit neighbour held (one rank away; half two away)
until an opponent looks close, then 0 (it stops building and sheds),
``want`` counts the links of the card to what the next seat in play took from the pile and
still holds (same rank, same suit one or two ranks away; jokers), ``safe`` its links to
what that seat discarded, and ``close`` is 1 once an opponent has taken ``close_pickups``
cards from the pile or this seat has completed ``close_turn`` turns (0: never). With
every weight 0 it is greedy. Never drops.
"""

from numba import njit

from sim.games.indian.enums import D_DRAW
from strategies.indian.greedy_nb import greedy_draw
from strategies.indian.plan_nb import is_close, plan_discard, turns_done
from sim.plugin.strategy import STRATEGY_SIG

# parameter slots, in the order declared in strategies/indian/builtins.py
P_FEED_WEIGHT = 0
P_SAFE_WEIGHT = 1
P_SHED_WEIGHT = 2
P_CLOSE_PICKUPS = 3
P_CLOSE_TURN = 4
P_RUN_KEEP = 5


@njit(STRATEGY_SIG, cache=True)
def defensive_decide(decision, obs, moves, n, params, rng):
    if decision == D_DRAW:
        return greedy_draw(obs, moves, n)
    close = False
    if params[P_SHED_WEIGHT] != 0.0:
        close = is_close(obs, params[P_CLOSE_PICKUPS], params[P_CLOSE_TURN], turns_done(obs))
    run_keep = 0.0 if close else params[P_RUN_KEEP]
    return plan_discard(obs, moves, n, False, 0.0, 0.0, run_keep, 0.0, params[P_FEED_WEIGHT],
                        params[P_SAFE_WEIGHT], params[P_SHED_WEIGHT], close)
