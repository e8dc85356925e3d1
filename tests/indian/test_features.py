"""sim.games.indian.features: the dealt hands' features agree with the deal log and the rules (I2, I4, I6)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.indian.cards import CARD_VALUES, JOKER
from sim.games.indian.features import FEATURES, dealt_features
from sim.games.indian.log import dealt_cards
from sim.games.indian.rules import RuleOptions
from sim.games.indian.solver_nb import min_deadwood


def test_features_match_the_dealt_cards():
    """Every row is the hand the deal log says the seat was dealt (I2): its points (I6: jokers and the
    wild rank 0), jokers held, a pure run of three (I4) and the solver's deadwood."""
    players, seed = 4, 11
    f = dealt_features(seed, 12, players)
    assert list(f.columns[:4]) == ["deal", "seat", "dealer", "wild_rank"] and set(FEATURES) <= set(f.columns)
    assert len(f) == 12 * players
    decks = RuleOptions().decks_for(players)
    for _, r in f.iterrows():
        hands, _, _, cut = dealt_cards(seed, int(r["deal"]), players, decks)
        hand = hands[int(r["seat"])]
        wild = 12 if cut == JOKER else cut % 13
        assert r["wild_rank"] == wild and r["dealer"] == r["deal"] % players
        jokers = sum(1 for k in hand if k == JOKER or k % 13 == wild)
        assert r["jokers"] == jokers
        assert r["points"] == sum(int(CARD_VALUES[k]) for k in hand if k != JOKER and k % 13 != wild)
        counts = np.bincount(hand, minlength=53)
        pure = any(counts[s * 13 + a] and counts[s * 13 + b] and counts[s * 13 + c]
                   for s in range(4) for a, b, c in [(12, 0, 1)] + [(q, q + 1, q + 2) for q in range(11)])
        pure = pure or (decks == 3 and (counts[:52] >= 3).any())
        assert r["pure_run"] == int(pure)
        assert r["deadwood"] == min_deadwood(counts.astype(np.int64), wild, 1, 1, 1 if decks == 3 else 0)
        assert r["deadwood"] <= r["points"]


def test_features_take_deal_indices_and_check_input():
    a = dealt_features(3, [5, 9], 2)
    b = dealt_features(3, 10, 2)
    assert a.reset_index(drop=True).equals(b[b["deal"].isin([5, 9])].reset_index(drop=True))
    with pytest.raises(ValueError, match="2 to 6 players"):
        dealt_features(3, 2, 7)
    with pytest.raises(ValueError, match="unknown rule option"):
        dealt_features(3, 2, 4, rules={"jokers": 1})
