"""Indian Rummy cards (RULES.md Part 2, I1, I2, I6): kinds, names, values.

A card *kind* ``k`` is an int in ``0..52``:

* naturals: ``k = suit * 13 + rank`` with suit ``0..3`` = C, D, H, S and rank
  index ``0..12`` = 2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A (the ace is rank 12;
  in runs it may also stand low, A-2-3, but a run never wraps, I4);
* ``JOKER = 52``: the printed joker.

Card strings follow the log format: rank then suit (``"TD"``, ``"AS"``), the
printed joker is ``"JK"``. A hand is a ``counts`` vector, ``int64[53]``: how
many cards of each kind it holds (identical cards exist, I1).

``CARD_VALUES`` are the I6 points of each kind *as printed*: A, K, Q, J, T
count 10, 2..9 face value, the printed joker 0. Cards of the deal's wild rank
(I2) also count 0 (I6); that depends on the deal and is applied by the solver
and by scoring, not by this table. The table is read off the one definition of
a card's points, ``cards_nb.card_value`` (its Python function: nothing compiles).
"""

import numpy as np

from sim.games.indian.cards_nb import card_value

N_KINDS = 53
JOKER = 52
RANKS = "23456789TJQKA"
SUITS = "CDHS"
ACE = 12

CARD_VALUES = np.array([getattr(card_value, "py_func", card_value)(k, -1) for k in range(N_KINDS)], dtype=np.int64)


def kind_name(k):
    """The log-format name of kind ``k`` ("TD", "AS", "JK")."""
    k = int(k)
    if k == JOKER:
        return "JK"
    if not 0 <= k < JOKER:
        raise ValueError(f"card kind out of range 0..52: {k}")
    return RANKS[k % 13] + SUITS[k // 13]


def parse_kind(s):
    """The kind of a log-format card string ("TD" -> 21, "JK" -> 52)."""
    if not isinstance(s, str):
        raise ValueError(f"card must be a string like 'TD' or 'JK', got {s!r}")
    t = s.strip().upper()
    if t == "JK":
        return JOKER
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(
            f"bad card {s!r}: expected rank in {RANKS!r} then suit in {SUITS!r}, or 'JK'"
        )
    return SUITS.index(t[1]) * 13 + RANKS.index(t[0])


def hand_counts(cards):
    """``int64[53]`` counts of a list of card strings (or kinds)."""
    counts = np.zeros(N_KINDS, dtype=np.int64)
    for c in cards:
        k = parse_kind(c) if isinstance(c, str) else int(c)
        if not 0 <= k < N_KINDS:
            raise ValueError(f"card kind out of range 0..52: {k}")
        counts[k] += 1
    return counts


_NAMES = tuple(RANKS[k % 13] + SUITS[k // 13] for k in range(JOKER)) + ("JK",)  # kind_name of every kind
_KINDS = np.arange(N_KINDS)


def counts_to_names(counts):
    """The card strings of a counts vector, in kind order (inverse of hand_counts; a count below
    zero counts as none)."""
    reps = np.maximum(np.asarray(counts[:N_KINDS], dtype=np.int64), 0)
    return [_NAMES[k] for k in np.repeat(_KINDS, reps).tolist()]
