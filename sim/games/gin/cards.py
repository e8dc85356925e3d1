"""Gin Rummy card names for logs and replays (LOG_FORMAT.md: rank then suit, ``"TD"``, ``"AS"``).

Card ``c = suit * 13 + rank`` (enums.py; suits s c d h as OpenSpiel orders them, ranks A..K).
"""

from __future__ import annotations

from sim.games.gin.melds_nb import MELD_MASK

RANKS = "A23456789TJQK"
SUITS = "SCDH"


def card_name(c: int) -> str:
    return RANKS[c % 13] + SUITS[c // 13]


def card_id(name: str) -> int:
    """The card of ``name`` ("TD"); ValueError naming it when it is not a card."""
    if not isinstance(name, str) or len(name) != 2 or name[0] not in RANKS or name[1] not in SUITS:
        raise ValueError(f"{name!r} is not a card (rank A23456789TJQK then suit SCDH, e.g. 'TD')")
    return SUITS.index(name[1]) * 13 + RANKS.index(name[0])


def mask_cards(mask: int) -> list[int]:
    """The cards of a bitmask, ascending."""
    return [c for c in range(52) if int(mask) >> c & 1]


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def names(cards) -> list[str]:
    return [card_name(int(c)) for c in cards]


def meld_names(meld_id: int) -> list[str]:
    """The cards of OpenSpiel's meld ``meld_id`` (melds_nb.MELD_MASK), ascending."""
    return names(mask_cards(int(MELD_MASK[meld_id])))
