"""`by_names`: a Persian Rummy strategy written on the readable view (issue 27), for copying.

It reads card names and Move objects only (sim.plugin.readable, docs/strategies.md): takes the
top discard when it makes three of a rank with the hand (P5), puts down the meld with the most
cards (else stops), and discards the highest card that pairs with nothing in the hand. Load it
with ``--load strategies/persian/python_examples/by_names.py`` and seat ``by_names``.
"""

from collections import Counter

from sim.plugin.readable import Move, View
from sim.plugin.registry import register_readable_strategy
from sim.plugin.specs import Param

RANK_ORDER = "23456789TJQKA"


def by_names(view: View) -> Move:
    if view.decision == "draw":
        ranks = Counter(card[0] for card in view.hand)
        for move in view.moves_of("take"):
            if move.depth == 0 and move.cards[0] != "JK" and ranks[move.cards[0][0]] >= 2:
                return move
        return (view.moves_of("stock") or view.moves_of("pass") or list(view.moves))[0]
    if view.decision == "play":
        melds = view.moves_of("meld")
        if melds and (view.params["meld_early"] or view.stock < 20):
            return max(melds, key=lambda m: len(m.cards))
        return (view.moves_of("stop") or list(view.moves))[0]
    ranks = Counter(card[0] for card in view.hand)

    def worth(move: Move) -> tuple:
        card = move.cards[0]
        alone = card != "JK" and ranks[card[0]] == 1
        return (alone, RANK_ORDER.index(card[0]) if card != "JK" else -1)

    return max(view.moves_of("discard"), key=worth)


register_readable_strategy(
    "by_names", by_names,
    params=(Param("meld_early", 1, 0, 1, bool, "put melds down at once (else only once the stock is under 20)"),),
    game="persian")
