"""Card-id helpers shared by the tests, written independently of the engine's tables
(card id = suit * 13 + rank, ranks 2..A as 0..12, jokers 52..55; P1, P4)."""

from sim.games.persian import enums as E


def card_value(c: int) -> int:
    """P4: joker 20, ace 15, K/Q/J/10 10, 2-9 face value."""
    if c >= E.JOKER0:
        return 20
    rank = c % 13
    return 15 if rank == 12 else 10 if rank >= 8 else rank + 2


def cards_of(mask: int) -> list[int]:
    """The card ids in a bitmask, ascending."""
    mask = int(mask)
    return [c for c in range(E.N_CARDS) if (mask >> c) & 1]


def mask_of(cards) -> int:
    """The bitmask of some card ids."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def value_of(mask: int) -> int:
    """P4 value of every card in a bitmask."""
    return sum(card_value(c) for c in cards_of(mask))
