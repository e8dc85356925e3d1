"""The discard-feed helpers of defensive and expert (strategies/persian/feed_nb.py)
against their plain definitions, on random positions.

* ``pile_feed_masks`` (every card at once, bit-parallel) must give ``pile_key_feed``'s
  three outcomes (full worth, pair_weight share, nothing) for every hand card;
* ``hand_feed_chance`` (chances read by selects, inlined into careful_discard) must give
  bit for bit the value of the per-card definition written out below (the old loop over
  the cards: lowest other cards of the rank first, then the run neighbours), since
  careful_discard's pick, ties included, depends on the exact floating-point values.

Small: a few hundred random positions, three small kernels.
"""

import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from sim.games.persian import enums as E  # noqa: E402
from sim.games.persian.cards_nb import CARD_VALUES  # noqa: E402
from strategies.persian.feed_nb import (  # noqa: E402
    FEED_BASE,
    hand_feed_chance,
    pile_feed_masks,
    pile_key_feed,
)

N = E.N_CARDS


def _split(rng: np.random.Generator, sizes: tuple[int, ...]) -> list[int]:
    """Disjoint random card masks of the given sizes."""
    cards = rng.permutation(N)
    out, at = [], 0
    for k in sizes:
        out.append(sum(1 << int(c) for c in cards[at:at + k]))
        at += k
    return out


def test_pile_feed_masks_match_pile_key_feed():
    """P6.1 takes from the pile: a discard that melds with a pile card and a third card
    (in the pile, known in the next hand, or only live) is worth the full, the
    pair_weight, or no feed; the masks say which for every hand card at once."""
    rng = np.random.default_rng(14)
    checked = 0
    for _ in range(400):
        hand, pile, known, dead = _split(rng, (int(rng.integers(1, 12)), int(rng.integers(0, 25)),
                                               int(rng.integers(0, 5)), int(rng.integers(0, 20))))
        full, pair = pile_feed_masks(np.int64(pile), np.int64(known), np.int64(dead))
        assert full & pair == 0
        for c in range(N):
            if not (hand >> c) & 1:
                continue
            worth = CARD_VALUES[c] + FEED_BASE
            want = pile_key_feed(c, np.int64(pile), np.int64(known), np.int64(dead), 0.5)
            got = worth if (int(full) >> c) & 1 else (0.5 * worth if (int(pair) >> c) & 1 else 0.0)
            assert got == want, (c, hex(pile), hex(known), hex(dead))
            checked += 1
    assert checked > 1000


def _chance(x: int, sure: int, maybe: int, q: float) -> float:
    return 1.0 if (sure >> x) & 1 else (q if (maybe >> x) & 1 else 0.0)


def _hand_feed_reference(card: int, sure: int, maybe: int, q: float) -> float:
    """hand_feed_chance without bridges, card by card as it was first written."""
    if card >= E.JOKER0:
        others = [x for x in range(E.JOKER0, N) if x != card]
    else:
        others = [x for x in range(card % E.N_RANKS, E.JOKER0, E.N_RANKS) if x != card]
    pa, pb, pc = (_chance(x, sure, maybe, q) for x in others)
    total = pa * pb + pa * pc + pb * pc
    if card >= E.JOKER0:
        return min(total, 1.0)
    rank, base = card % E.N_RANKS, card - card % E.N_RANKS
    pm2 = _chance(base + rank - 2, sure, maybe, q) if rank >= 2 else 0.0
    pm1 = _chance(base + rank - 1, sure, maybe, q) if rank >= 1 else 0.0
    pp1 = _chance(base + rank + 1, sure, maybe, q) if rank <= E.TOP_RANK - 1 else 0.0
    pp2 = _chance(base + rank + 2, sure, maybe, q) if rank <= E.TOP_RANK - 2 else 0.0
    total += pm2 * pm1 + pm1 * pp1 + pp1 * pp2
    return total if total < 1.0 else 1.0


def test_hand_feed_chance_is_bit_for_bit_the_card_by_card_sum():
    rng = np.random.default_rng(15)
    obs = np.zeros(E.OBS_SIZE, np.int64)  # no melds on the table: no bridges
    for _ in range(300):
        sure, maybe = _split(rng, (int(rng.integers(0, 6)), int(rng.integers(0, 40))))
        q = float(rng.choice([rng.random(), 7 / 31, 1 / 3, 0.0, 1.0]))
        for card in range(N):
            if ((sure | maybe) >> card) & 1:
                continue
            got = hand_feed_chance(card, obs, np.int64(sure), np.int64(maybe), q, False)
            assert got == _hand_feed_reference(card, sure, maybe, q), (card, hex(sure), hex(maybe), q)
