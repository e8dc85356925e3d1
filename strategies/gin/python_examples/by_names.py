"""`by_names`: a Gin Rummy strategy written on the readable view (issue 27), for copying.

It reads card names and Move objects only (sim.plugin.readable, docs/strategies.md): knocks
whenever a knock is legal (G4), takes the upcard when it pairs with a card of the same rank in
hand, lays every meld and lay-off it is offered, and discards the highest card without a
same-rank partner. Load it with ``--load strategies/gin/python_examples/by_names.py`` and seat
``by_names``.
"""

from collections import Counter

from sim.plugin.readable import Move, View
from sim.plugin.registry import register_readable_strategy

RANKS = "A23456789TJQK"


def by_names(view: View) -> Move:
    moves = list(view.moves)
    for kind in ("knock", "meld", "layoff"):
        if view.moves_of(kind):
            return view.moves_of(kind)[0]
    ranks = Counter(card[0] for card in view.hand)
    if view.moves_of("upcard") and ranks[view.pile[0][0]] >= 1:
        return view.moves_of("upcard")[0]
    if view.moves_of("stock") or (view.moves_of("pass") and not view.moves_of("discard")):
        return (view.moves_of("stock") or view.moves_of("pass"))[0]
    discards = view.moves_of("discard")
    if not discards:
        return moves[0]
    return max(discards, key=lambda m: (ranks[m.cards[0][0]] == 1, RANKS.index(m.cards[0][0])))


register_readable_strategy("by_names", by_names, game="gin")
