"""A user strategy, step by step: ``top_taker``.

Idea: take the top discard whenever the engine allows it (the target must go on the
table this turn, so a legal take is always a useful one), never dig deeper, put down
every meld and lay-off, and discard the highest card of the hand.

Step 1 - write one function with the engine's signature and compile it with it::

    @njit(STRATEGY_SIG, cache=True)
    def decide(decision, obs, moves, n_moves, params, rng) -> int

  * ``decision`` is D_DRAW, D_PLAY or D_DISCARD (sim.games.persian.enums).
  * ``obs`` is what the seat may see (P10): ``obs[O_HAND]`` is its hand as a card
    bitmask (card id = suit * 13 + rank, jokers 52..55), ``obs[O_PILE:O_PILE +
    obs[O_PILE_N]]`` the discard pile bottom first, ``obs[O_STOCK_N]`` the stock size,
    ``obs[O_MELD_MASK + k]`` the melds, ``obs[O_TAKEN + seat]`` what each seat took
    from the pile, ``obs[O_HAND_SIZES + seat]`` hand sizes, and more (enums.py).
  * ``moves[:n_moves]`` are the legal moves as rows (kind, a, b, c): MV_STOCK,
    MV_TAKE (a = depth, b = target, c = taken cards mask), MV_PASS, MV_MELD (a = mask),
    MV_LAYOFF (a = card, b = meld number), MV_STOP, MV_DISCARD (a = card).
  * ``params`` holds the parameter values in declaration order; ``rng`` is the seat's
    own random stream (sim.core.rng_nb.rand_below(rng, n), rand_float(rng)).
  * Return the index of the chosen row. Anything else stops the deal with an error.

Step 2 - use the helper kernels you need: strategies.persian.helpers_nb (meldable_mask,
partial_meld_mask, move_points, find_move, highest_card) and sim.games.persian.cards_nb
(card_value, mask_value, popcount, RANK_MASKS, SUIT_MASKS).

Step 3 - register it under a name, with typed parameters::

    register_strategy("top_taker", decide, params=(Param("max_depth", 0, 0, 0, int, "..."),))

After that, ``"top_taker"`` works everywhere a built-in name does (specs, CLI when
the module is imported, tables of four different strategies).
"""

from numba import njit

from sim.games.persian.enums import D_DRAW, D_PLAY, MV_DISCARD, MV_STOCK, MV_PASS, MV_TAKE, O_HAND
from strategies.persian.helpers_nb import highest_card, move_points
from strategies.interface import STRATEGY_SIG
from strategies.registry import Param, register_strategy


@njit(STRATEGY_SIG, cache=True)
def top_taker_decide(decision, obs, moves, n_moves, params, rng):
    """Take the top discard when legal; put everything down; discard the highest card."""
    if decision == D_DRAW:
        max_depth = params[0]
        for i in range(n_moves):
            if moves[i, 0] == MV_TAKE and moves[i, 1] <= max_depth:
                return i
        for i in range(n_moves):
            if moves[i, 0] == MV_STOCK or moves[i, 0] == MV_PASS:
                return i
        return 0
    if decision == D_PLAY:
        best = -1
        best_points = 0
        for i in range(n_moves):
            points = move_points(obs, moves, i)
            if points > best_points:
                best_points = points
                best = i
        if best >= 0:
            return best
        return 0  # only "stop" is left (the engine offers it last)
    card = highest_card(obs[O_HAND])
    for i in range(n_moves):
        if moves[i, 0] == MV_DISCARD and (moves[i, 1] == card or (moves[i, 1] >= 52 and card >= 52)):
            return i
    return 0


def register() -> None:
    """Make ``top_taker`` available by name (idempotent)."""
    register_strategy(
        "top_taker",
        top_taker_decide,
        params=(Param("max_depth", 0, 0, 55, int, "deepest discard-pile card it takes"),),
        doc="Example user strategy: takes shallow discards whenever legal, discards its highest card.",
    )


register()
