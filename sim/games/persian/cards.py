"""Card names, bitmasks and display helpers for Persian Rummy (pure Python).

The engine works on card ids (``suit * 13 + rank``, jokers 52..55, see
``sim.games.persian.enums``) and int64 bitmasks; people and the ``rummy-log/1`` format
(docs: LOG_FORMAT.md) use two-character names such as ``"TD"``, ``"AS"`` and
``"JK"``. This module converts between the two and renders cards for a terminal.
"""

from __future__ import annotations

from collections.abc import Iterable

from sim.games.persian.enums import JOKER0, N_CARDS, N_RANKS, N_SUITS

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
JOKER_NAME = "JK"
JOKER_PRETTY = "Jk"  # ASCII-width on purpose: the 🃏 emoji is double width in most terminals
_RED = "\x1b[31m"
_MAGENTA = "\x1b[35m"
_RESET = "\x1b[0m"


def _check_id(card_id: int) -> int:
    """Return ``card_id`` as an int, or raise ValueError if it is not a card id 0..55."""
    if isinstance(card_id, bool) or not isinstance(card_id, int):
        try:
            card_id = int(card_id)  # numpy integers
        except (TypeError, ValueError):
            raise ValueError(f"not a card id: {card_id!r}") from None
    if not 0 <= card_id < N_CARDS:
        raise ValueError(f"card id out of range 0..{N_CARDS - 1}: {card_id}")
    return card_id


def is_joker(card_id: int) -> bool:
    """True for the four joker ids 52..55."""
    return _check_id(card_id) >= JOKER0


def suit_of(card_id: int) -> int:
    """Suit 0..3 (C D H S) of a French card; ValueError for a joker."""
    c = _check_id(card_id)
    if c >= JOKER0:
        raise ValueError(f"a joker has no suit: {c}")
    return c // N_RANKS


def rank_of(card_id: int) -> int:
    """Rank 0..12 (2..A) of a French card; ValueError for a joker."""
    c = _check_id(card_id)
    if c >= JOKER0:
        raise ValueError(f"a joker has no rank: {c}")
    return c % N_RANKS


def card_name(card_id: int) -> str:
    """Two-character log name of a card: rank then suit (``"TD"``, ``"AS"``), ``"JK"`` for a joker."""
    return _NAMES[_check_id(card_id)]


_NAMES = tuple(RANK_CHARS[c % N_RANKS] + SUIT_CHARS[c // N_RANKS] if c < JOKER0 else JOKER_NAME
               for c in range(N_CARDS))  # card_name of every id


def parse_card(name: str) -> int:
    """Card id of a log name (case-insensitive; ``"10D"`` is accepted for ``"TD"``).

    ``"JK"`` gives the lowest joker id 52; use ``names_to_mask`` to map several
    jokers to distinct ids.
    """
    if not isinstance(name, str):
        raise ValueError(f"card name must be a string, got {type(name).__name__}: {name!r}")
    s = name.strip().upper()
    if s == JOKER_NAME:
        return JOKER0
    if s.startswith("10"):
        s = "T" + s[2:]
    if len(s) != 2 or s[0] not in RANK_CHARS or s[1] not in SUIT_CHARS:
        raise ValueError(
            f"bad card name {name!r}: expected rank {' '.join(RANK_CHARS)} then suit "
            f"{' '.join(SUIT_CHARS)} (e.g. 'TD', 'AS'), or 'JK' for a joker"
        )
    return SUIT_CHARS.index(s[1]) * N_RANKS + RANK_CHARS.index(s[0])


def mask_to_ids(mask: int) -> list[int]:
    """Card ids whose bits are set in ``mask``, ascending."""
    m = int(mask)
    if m < 0 or m >> N_CARDS:
        raise ValueError(f"card mask has bits outside 0..{N_CARDS - 1}: {m:#x}")
    ids = []
    while m:
        low = m & -m
        ids.append(low.bit_length() - 1)
        m ^= low
    return ids


def mask_to_names(mask: int) -> list[str]:
    """Log names of the cards in ``mask``, in ascending id order (mask_to_ids checks the bits; the
    names come from a table: plain-Python strategies read a hand's names at every decision)."""
    return [_NAMES[c] for c in mask_to_ids(mask)]


def ids_to_mask(ids: Iterable[int]) -> int:
    """Bitmask of distinct card ids; ValueError on a repeated id."""
    mask = 0
    for c in ids:
        c = _check_id(c)
        if mask >> c & 1:
            raise ValueError(f"card {card_name(c)} (id {c}) appears twice")
        mask |= 1 << c
    return mask


def names_to_mask(names: Iterable[str]) -> int:
    """Bitmask of named cards; successive ``"JK"`` take joker ids 52, 53, ... in turn.

    Raises ValueError for a bad name, a repeated French card or more than 4 jokers
    (there is one deck, P1).
    """
    mask = 0
    next_joker = JOKER0
    for name in names:
        c = parse_card(name)
        if c == JOKER0:
            if next_joker >= N_CARDS:
                raise ValueError(f"more than {N_CARDS - JOKER0} jokers (there is one deck, P1)")
            c = next_joker
            next_joker += 1
        elif mask >> c & 1:
            raise ValueError(f"card {card_name(c)} appears twice")
        mask |= 1 << c
    return mask


def card_value(card_id: int) -> int:
    """Point value (P4): joker 20, ace 15, K Q J and ten 10, 2-9 face value."""
    c = _check_id(card_id)
    if c >= JOKER0:
        return 20
    r = c % N_RANKS
    if r == N_RANKS - 1:
        return 15
    if r >= 8:  # T J Q K
        return 10
    return r + 2


def pretty(card_id: int, color: bool = False) -> str:
    """Terminal form of a card: ``"10♦"``, ``"A♠"``, ``"Jk"``; red ♦ ♥ (and magenta jokers) if ``color``."""
    c = _check_id(card_id)
    if c >= JOKER0:
        return f"{_MAGENTA}{JOKER_PRETTY}{_RESET}" if color else JOKER_PRETTY
    suit, rank = divmod(c, N_RANKS)
    rank_s = "10" if RANK_CHARS[rank] == "T" else RANK_CHARS[rank]
    text = rank_s + SUIT_SYMBOLS[suit]
    if color and suit in (1, 2):
        return f"{_RED}{text}{_RESET}"
    return text


def sort_key(card_id: int) -> tuple[int, int]:
    """Key for showing a hand: by suit (C D H S), then rank, jokers last."""
    c = _check_id(card_id)
    if c >= JOKER0:
        return (N_SUITS, c)
    return divmod(c, N_RANKS)
