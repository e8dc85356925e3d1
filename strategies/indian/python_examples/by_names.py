"""`by_names`: an Indian Rummy strategy written on the readable view (issue 27), for copying.

It reads card names and Move objects only (sim.plugin.readable, docs/strategies.md): declares
as soon as a declare move is marked valid (I5), takes the top discard when it is a wild card or
matches the rank of a card in hand, else the stock, and discards the highest card that shares
neither rank nor suit-neighbour with the rest of the hand. Load it with
``--load strategies/indian/python_examples/by_names.py`` and seat ``by_names``.
"""

from sim.plugin.readable import Move, View
from sim.plugin.registry import register_readable_strategy

RANKS = "23456789TJQKA"


def _useful(card: str, hand: list[str], wild: str) -> bool:
    """A joker, a wild card, or a card with a same-rank or next-rank same-suit partner in ``hand``."""
    if card == "JK" or card[0] == wild:
        return True
    r = RANKS.index(card[0])
    for other in hand:
        if other == "JK":
            continue
        if other[0] == card[0] or (other[1] == card[1] and abs(RANKS.index(other[0]) - r) == 1):
            return True
    return False


def by_names(view: View) -> Move:
    wild = view.public["wild_rank"]
    if view.decision == "draw":
        pile = view.moves_of("pile")
        if pile and _useful(pile[0].cards[0], list(view.hand), wild):
            return pile[0]
        return (view.moves_of("stock") or pile or list(view.moves))[0]
    valid = [m for m in view.moves_of("declare") if m.valid]
    if valid:
        return valid[0]
    hand = list(view.hand)

    def worth(move: Move) -> tuple:
        card = move.cards[0]
        rest = list(hand)
        rest.remove(card)
        return (not _useful(card, rest, wild), -1 if card == "JK" else RANKS.index(card[0]))

    return max(view.moves_of("discard"), key=worth)


register_readable_strategy("by_names", by_names, game="indian")
