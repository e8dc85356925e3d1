"""Per-rule tests of the pure-Python Indian Rummy reference (RULES.md Part 2, I1-I9).

Every rule id has legal and illegal examples; the group/declaration/deadwood
brute force is also checked against a second, even plainer enumeration (every
sub-multiset of the hand classified by ``group_interpretations``).
"""
from __future__ import annotations

import os
import random
import sys
from collections import Counter
from itertools import product

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

from naive_indian import (  # noqa: E402
    DEFAULT_RULES, DROP_FIRST, DROP_MIDDLE, IN, JOKER, MV_DECLARE, MV_DISCARD, MV_DROP,
    MV_PILE, MV_STOCK, WRONG, Deal, IllegalMove, can_declare, can_declare_after_discard,
    candidate_groups, card_kind, card_name, card_value, decks_for, group_interpretations,
    is_valid_declaration, min_deadwood, physical_kind, shoe_and_rng, shoe_kinds, wild_rank_of,
)


def H(s: str) -> list[int]:
    """Kinds of a space-separated list of card names."""
    return [card_kind(x) for x in s.split()]


def R(rank: str) -> int:
    """Rank index of a rank character."""
    return "23456789TJQKA".index(rank)


def group(s, wild="3", **kw):
    """Interpretations of a group (wild rank '3' by default: no 3 below is wild unless said)."""
    return group_interpretations(H(s), R(wild), kw.get("mj_run", 1), kw.get("mj_set", 1),
                                 kw.get("triple", False))


def make_deal(hands, pile="KH", stock="2C 2D 2H 4C", cut="4C", players=None, dealer=None,
              decks=2, rules=None, rng=None):
    """A hand-made deal: ``hands`` as strings, pile/stock top first."""
    hands = [H(h) for h in hands]
    players = players or len(hands)
    dealer = players - 1 if dealer is None else dealer
    return Deal(hands, H(pile), H(stock), players, dealer, card_kind(cut), decks, rules, rng)


# A 13-card hand with a valid declaration under wild rank 3 ("3" wild, no 3 in it):
# pure 4-run, impure run (JK), set, set.
VALID13 = "4S 5S 6S 7S 8H 9H JK QC QD QH KC KD KH"
# The same with the pure run broken: no valid declaration.
NOPURE13 = "4S 5S 6S 8S 8H 9H JK QC QD QH KC KD KH"


# --------------------------------------------------------------------- I1
def test_I1_shoe_sizes_by_player_count():
    assert decks_for(2) == decks_for(3) == 2
    assert decks_for(4) == decks_for(6) == 3
    assert sum(shoe_kinds(2).values()) == 108 and shoe_kinds(2)[JOKER] == 4
    assert sum(shoe_kinds(3).values()) == 162 and shoe_kinds(3)[JOKER] == 6
    assert shoe_kinds(3)[card_kind("7S")] == 3  # identical cards exist
    assert physical_kind(103, 2) == 51 and physical_kind(104, 2) == JOKER


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_I1_a_deal_holds_the_whole_shoe(players):
    d = Deal.from_seed(7, 3, players)
    assert d.all_cards() == shoe_kinds(decks_for(players))


def test_I1_illegal_player_counts_and_decks():
    for bad in (1, 7):
        with pytest.raises(ValueError):
            decks_for(bad)
    with pytest.raises(ValueError):
        decks_for(5, 1)  # 5 x 13 + 2 cards do not fit in one 54-card deck
    assert decks_for(3, 1) == 1


# --------------------------------------------------------------------- I2
def test_I2_dealing_order_pile_cut_joker_and_stock():
    shoe = list(range(108))  # unshuffled: kinds 0..51, 0..51, then 4 jokers
    d = Deal.from_shoe(shoe, players=3, dealer=1, decks=2)
    # card i*3 + j goes to seat (dealer + 1 + j) % 3: seat 2 gets cards 0, 3, 6 ...
    assert d.dealt[2] == [physical_kind(3 * i, 2) for i in range(13)]
    assert sorted(d.hands[2].elements()) == sorted(physical_kind(3 * i, 2) for i in range(13))
    assert sorted(d.hands[0].elements()) == sorted(physical_kind(3 * i + 1, 2) for i in range(13))
    assert sorted(d.hands[1].elements()) == sorted(physical_kind(3 * i + 2, 2) for i in range(13))
    assert d.pile == [39]  # card 39 starts the pile
    assert d.cut_joker == 40 and d.stock[-1] == 40  # cut joker at the bottom of the stock
    assert d.stock[:-1] == [physical_kind(p, 2) for p in range(41, 108)]
    assert d.wild_rank == 40 % 13  # every card of the cut joker's rank is wild
    assert d.seat == 2  # left of the dealer starts (I3)


def test_I2_printed_joker_cut_makes_aces_wild():
    assert wild_rank_of(JOKER) == R("A")
    assert wild_rank_of(card_kind("7D")) == R("7")
    assert card_value(card_kind("AS"), wild_rank_of(JOKER)) == 0


def test_I2_deal_is_a_function_of_seed_and_deal_and_rotates():
    a, b = Deal.from_seed(11, 4, 4), Deal.from_seed(11, 4, 4)
    assert a.hands == b.hands and a.stock == b.stock and a.pile == b.pile
    c = Deal.from_seed(11, 5, 4)
    assert c.hands != a.hands
    assert [Deal.from_seed(11, k, 4).dealer for k in range(5)] == [0, 1, 2, 3, 0]


def test_I2_engine_shoe_is_the_stream0_shuffle():
    shoe, state = shoe_and_rng(123, 9, 3)  # raises if deal_nb disagrees with the rebuild
    assert sorted(shoe) == list(range(162))
    assert state.dtype == np.uint64


# --------------------------------------------------------------------- I3
def test_I3_draw_moves_and_only_the_top_of_the_pile():
    d = make_deal(["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"] * 2, pile="KH 9C")
    assert d.legal_moves() == [(MV_STOCK, 0, 0, 0), (MV_PILE, card_kind("KH"), 0, 0), (MV_DROP, 0, 0, 0)]
    with pytest.raises(IllegalMove):
        d.apply((MV_PILE, card_kind("9C"), 0, 0))  # only the top card can be taken
    with pytest.raises(IllegalMove):
        d.apply((MV_DISCARD, card_kind("2S"), 0, 0))  # must draw first
    d.apply((MV_PILE, card_kind("KH"), 0, 0))
    assert d.pile == [card_kind("9C")] and d.pickups[0] == 1


def test_I3_discard_decision_lists_discards_then_declares_ascending():
    d = make_deal(["KS 2C 2C 5D 6D 7D 8D 9D TD JD QD KD AD", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"])
    d.apply((MV_STOCK, 0, 0, 0))  # draws 2C
    held = sorted(set(H("KS 2C 5D 6D 7D 8D 9D TD JD QD KD AD")))
    assert d.legal_moves() == [(MV_DISCARD, k, 0, 0) for k in held] + [(MV_DECLARE, k, 0, 0) for k in held]
    with pytest.raises(IllegalMove):
        d.apply((MV_DISCARD, card_kind("AS"), 0, 0))  # not held
    with pytest.raises(IllegalMove):
        d.apply((MV_STOCK, 0, 0, 0))  # one draw per turn
    d.apply((MV_DISCARD, card_kind("2C"), 0, 0))
    assert d.pile[0] == card_kind("2C") and d.seat == 1  # clockwise


def test_I3_turn_order_skips_seats_out_of_the_deal():
    hand = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    d = make_deal([hand] * 4, stock="2C 2D 2H 4C 5C 6C", dealer=3)
    assert d.seat == 0
    d.apply((MV_DROP, 0, 0, 0))
    assert d.seat == 1
    d.apply((MV_STOCK, 0, 0, 0))
    d.apply((MV_DISCARD, card_kind("2C"), 0, 0))
    d.apply((MV_DROP, 0, 0, 0))  # seat 2
    assert d.seat == 3
    d.apply((MV_STOCK, 0, 0, 0))
    d.apply((MV_DISCARD, card_kind("2D"), 0, 0))
    assert d.seat == 1  # seats 0 and 2 are out


# --------------------------------------------------------------------- I4
@pytest.mark.parametrize("cards", ["4S 5S 6S", "AS 2S 3S", "QH KH AH", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"])
def test_I4_pure_runs(cards):
    assert (True, True, len(cards.split())) in group(cards)


@pytest.mark.parametrize("cards", ["KS AS 2S", "QS KS AS 2S", "4S 5S 6H", "4S 5S 7S", "4S 4S 5S 6S", "4S 5S"])
def test_I4_not_runs(cards):
    assert not any(i[0] for i in group(cards))


@pytest.mark.parametrize("cards", ["4S 5S JK", "2S 3S JK 5S", "JK QS KS", "AS 2S JK", "JK KS AS"])
def test_I4_impure_runs_one_joker_anywhere(cards):
    assert (True, False, len(cards.split())) in group(cards)


def test_I4_wild_card_is_a_joker_or_its_natural_self():
    # sevens wild: 7H stands in a run of spades, or as itself in 6H 7H 8H (pure)
    assert group("4S 5S 7H", wild="7") == {(True, False, 3)}
    assert (True, True, 3) in group("6H 7H 8H", wild="7")
    assert group("7S 7H 7D", wild="7") == {(False, False, 3)}  # a set with no joker
    assert group("7S 7S 7H", wild="7") == {(False, False, 3)}  # one 7S acts as the joker
    assert group("7S 7S 7H") == set()  # not wild: two 7S never share a set


def test_I4_at_most_one_joker_per_run_and_set_by_default():
    assert group("4S JK JK") == set() and group("4S 5S JK JK") == set()
    assert (True, False, 4) in group("4S 5S JK JK", mj_run=2)
    assert group("9S 9H JK JK") == set()
    assert (False, False, 4) in group("9S 9H JK JK", mj_set=2)
    assert group("JK JK JK", mj_run=3, mj_set=3) == set()  # every group holds a natural card


def test_I4_sets():
    assert group("9S 9H 9D") == {(False, False, 3)}
    assert group("9S 9H 9D 9C") == {(False, False, 4)}
    assert group("9S 9H JK") == {(False, False, 3)}
    assert group("9S 9H 9D JK") == {(False, False, 4)}
    assert group("9S 9H 9D 9C JK") == set()  # 5 cards
    assert group("9S 9S 9D") == set()  # same suit twice
    assert group("9S 9H 8D") == set()


def test_I4_three_identical_cards_with_three_decks():
    assert group("9S 9S 9S", triple=True) == {(True, True, 3)}
    assert group("9S 9S 9S") == set()  # two decks: not a group
    assert group("9S 9S JK", triple=True) == set()  # no joker in a triple


def test_I4_candidate_groups_equal_plain_enumeration():
    """The constructive group generator finds exactly the sub-multisets that classify."""
    rng = random.Random(5)
    shoe = [k for k in range(52) for _ in range(3)] + [JOKER] * 6
    for _ in range(25):
        hand = Counter(rng.sample(shoe, 9))
        wild = rng.randrange(13)
        for opts in ((1, 1, True), (2, 1, False)):
            got = candidate_groups(hand, wild, *opts)
            kinds = sorted(hand)
            want = {}
            for take in product(*(range(hand[k] + 1) for k in kinds)):
                g = tuple(sorted(k for k, n in zip(kinds, take) for _ in range(n)))
                interps = group_interpretations(g, wild, *opts)
                if interps:
                    want[g] = interps
            assert got == want


# --------------------------------------------------------------------- I5
def test_I5_valid_and_invalid_declarations_as_shown():
    w = R("3")
    ok = [H("4S 5S 6S 7S"), H("8H 9H JK"), H("QC QD QH"), H("KC KD KH")]
    assert is_valid_declaration(ok, w)
    assert can_declare(H(VALID13), w)
    # the long run impure, the pure run short: valid
    assert is_valid_declaration([H("4S 5S JK 7S"), H("8H 9H TH"), H("QC QD QH"), H("KC KD KH")], w)
    # no pure run
    assert not is_valid_declaration([H("4S 5S JK 7S"), H("8H 9H JK"), H("QC QD QH"), H("KC KD KH")], w)
    # no run of four or more
    assert not is_valid_declaration([H("4S 5S 6S"), H("8H 9H JK"), H("QC QD QH KH"), H("KC KD 7S")], w)
    # only one run
    assert not is_valid_declaration([H("4S 5S 6S 7S"), H("QC QD QH"), H("KC KD KH"), H("8H 8C JK")], w)
    # a card outside the groups: the groups shown are not a group
    assert not is_valid_declaration([H("4S 5S 6S 7S"), H("8H 9H JK"), H("QC QD QH"), H("KC KD")], w)
    assert not can_declare(H(NOPURE13), w)


def test_I5_three_identical_cards_count_as_pure_but_not_as_the_long_run():
    w = R("3")
    # triple (pure) + impure 4-run + sets: valid with three decks only
    groups = [H("9S 9S 9S"), H("4D 5D JK 7D"), H("QC QD QH"), H("KC KD KH")]
    assert is_valid_declaration(groups, w, 1, 1, True)
    assert not is_valid_declaration(groups, w, 1, 1, False)
    # triple + pure 3-run + sets: no run of four
    groups = [H("9S 9S 9S"), H("4D 5D 6D"), H("QC QD QH KH"), H("KC KD JK")]
    assert not is_valid_declaration(groups, w, 1, 1, True)


def test_I5_valid_declaration_ends_the_deal():
    d = make_deal([VALID13.replace("JK", "2D"), "2S 2S 4D 5D 6D 8C 9C TC JC QS KS AS 2H"],
                  pile="JK", cut="3C")
    # seat 0 holds the valid hand with 2D instead of JK; it takes the JK and discards 2D
    d.apply((MV_PILE, JOKER, 0, 0))
    d.apply((MV_DECLARE, card_kind("2D"), 0, 0))
    assert d.end == "declare" and d.winner == 0 and d.decision == "over"
    assert d.pile[0] == card_kind("2D")
    # seat 1: 8C-JC, 4D-6D and QS-AS are pure runs; 2S 2S 2H (not wild) are left
    assert d.points() == [0, 6]
    assert d.gains() == [6, 0] and d.net() == [6, -6]
    assert d.legal_moves() == []


def test_I5_wrong_declaration_costs_80_and_the_deal_goes_on():
    hand = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    d = make_deal([NOPURE13, hand, hand], pile="2C", cut="3C", stock="2H 2D 4C 5C")
    d.apply((MV_PILE, card_kind("2C"), 0, 0))
    d.apply((MV_DECLARE, card_kind("2C"), 0, 0))
    assert d.end is None and d.status[0] == WRONG and d.points()[0] == 80
    assert sum(d.hands[0].values()) == 0  # its 13 cards leave play
    assert d.pile[0] == card_kind("2C")  # its discard stays on the pile
    assert d.seat == 1


# --------------------------------------------------------------------- I6
def test_I6_card_values():
    w = R("7")
    assert [card_value(card_kind(c), w) for c in ["AS", "KD", "QH", "JC", "TS", "9S", "2D"]] == [10] * 5 + [9, 2]
    assert card_value(JOKER, w) == 0 and card_value(card_kind("7H"), w) == 0


def test_I6_min_deadwood():
    w = R("3")
    assert min_deadwood(H(VALID13), w) == 0
    # no arrangement meets the condition: every card counts (jokers 0)
    no_pure = H(NOPURE13)
    assert min_deadwood(no_pure, w) == sum(card_value(k, w) for k in no_pure)
    # a pure 4-run, an impure run, a set; 9C 9D and 4C left: 22 (2S wild with wild rank 2)
    hand = H("2S 3S 4S 5S 6H 7H JK 9C 9D 9H KD KC 4C")
    assert min_deadwood(hand, R("2")) == 22
    # the same with 3D for 4C: 9C 9D and 3D left
    assert min_deadwood(H("2S 3S 4S 5S 6H 7H JK 9C 9D 9H KD KC 3D"), R("2")) == 21


def test_I6_losers_capped_and_winner_gains_the_sum():
    w3 = "2S 5S 8S JS 2H 5H 8H JH 2D 5D 8D JD KC"  # no run: all 13 count (85)
    loser = "5H 6H 7H 8H 9D 9C TC JC QC KC 4D 4S 5D"  # 5H-8H and 9C-KC pure: 9D 4D 4S 5D left
    d = make_deal([VALID13.replace("JK", "2D"), loser, w3], pile="JK", cut="3C")
    d.apply((MV_PILE, JOKER, 0, 0))
    d.apply((MV_DECLARE, card_kind("2D"), 0, 0))
    lost1 = min_deadwood(H(loser), R("3"))
    assert lost1 == 9 + 4 + 4 + 5 and min_deadwood(H(w3), R("3")) == 85
    lost2 = 80  # capped (I6)
    assert d.points() == [0, lost1, lost2]
    assert d.gains()[0] == lost1 + lost2 and sum(d.net()) == 0


# --------------------------------------------------------------------- I7
def test_I7_first_and_middle_drop_and_last_player():
    hand = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    d = make_deal([hand] * 3, stock="2C 2D 2H 4C 5C")
    d.apply((MV_DROP, 0, 0, 0))  # seat 0, before drawing: first drop
    assert d.status[0] == DROP_FIRST and d.points()[0] == 20 and not d.hands[0]
    d.apply((MV_STOCK, 0, 0, 0))
    d.apply((MV_DISCARD, card_kind("2C"), 0, 0))
    d.apply((MV_STOCK, 0, 0, 0))  # seat 2
    d.apply((MV_DISCARD, card_kind("2D"), 0, 0))
    d.apply((MV_DROP, 0, 0, 0))  # seat 1 has drawn: middle drop
    assert d.status[1] == DROP_MIDDLE and d.points() == [20, 40, 0]
    assert d.end == "last_player" and d.winner == 2
    assert d.gains() == [0, 0, 60] and d.net() == [-20, -40, 60]


def test_I7_drop_is_only_a_draw_decision_move_and_options_apply():
    hand = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    d = make_deal([hand] * 3, rules={"first_drop": 25, "middle_drop": 50})
    d.apply((MV_STOCK, 0, 0, 0))
    with pytest.raises(IllegalMove):
        d.apply((MV_DROP, 0, 0, 0))  # not after drawing
    d.apply((MV_DISCARD, card_kind("2C"), 0, 0))
    d.apply((MV_DROP, 0, 0, 0))
    assert d.points() == [0, 25, 0] and d.status == [IN, DROP_FIRST, IN]


def test_turn_cap_ends_the_deal_without_winner():
    hand = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    d = make_deal([hand] * 3, rules={"turn_cap": 3})
    d.apply((MV_DROP, 0, 0, 0))
    for _ in range(2):
        d.apply((MV_STOCK, 0, 0, 0))
        d.apply((MV_DISCARD, d.legal_moves()[0][1], 0, 0))
    assert d.end == "cap" and d.winner is None and d.points() == [20, 0, 0] and d.gains() == [0, 0, 0]


# --------------------------------------------------------------------- I8
def test_I8_reshuffle_with_the_continued_stream0_generator():
    from sim.core.rng_nb import shuffle_inplace
    hand = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    state = np.array([12345], dtype=np.uint64)
    d = make_deal([hand] * 2, pile="2C 2D 2H 4C 5C", stock="9D", cut="9D", rng=state.copy())
    d.apply((MV_STOCK, 0, 0, 0))
    d.apply((MV_DISCARD, card_kind("AS"), 0, 0))
    # stock empty before seat 1's draw: the pile below AS, bottom first, is shuffled
    expect = np.array(H("5C 4C 2H 2D 2C"), dtype=np.int64)
    shuffle_inplace(expect, state)
    assert d.stock == [int(k) for k in expect] and d.pile == [card_kind("AS")]
    assert d.reshuffles == [d.stock]
    assert (MV_STOCK, 0, 0, 0) in d.legal_moves()


def test_I8_two_card_pile_reshuffles_its_bottom_card_single_card_pile_does_not():
    hand = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    d = make_deal([hand] * 2, pile="KH", stock="9D", cut="9D", rng=np.array([1], dtype=np.uint64))
    d.apply((MV_PILE, card_kind("KH"), 0, 0))
    d.apply((MV_DISCARD, card_kind("AS"), 0, 0))
    d.apply((MV_STOCK, 0, 0, 0))
    d.apply((MV_DISCARD, card_kind("9D"), 0, 0))
    # seat 0 to draw, stock empty, pile [9D, AS]: AS becomes the stock, 9D stays
    assert d.stock == [card_kind("AS")] and d.pile == [card_kind("9D")]
    assert d.reshuffles == [[card_kind("AS")]]
    # an empty stock and a pile of one card: nothing to reshuffle, no stock draw
    e = make_deal([hand] * 2, pile="KH", stock="", cut="9D", rng=np.array([1], dtype=np.uint64))
    assert e.stock == [] and e.reshuffles == []
    assert e.legal_moves() == [(MV_PILE, card_kind("KH"), 0, 0), (MV_DROP, 0, 0, 0)]
    with pytest.raises(IllegalMove):
        e.apply((MV_STOCK, 0, 0, 0))


# --------------------------------------------------------------------- I9
def test_I9_legal_moves_depend_only_on_public_state_and_own_hand():
    rng = random.Random(3)
    base = Deal.from_seed(5, 1, 3)
    for _ in range(5):
        other = Deal.from_seed(5, 1, 3)
        # hide: shuffle the stock below its top and swap the other seats' hands
        tail = other.stock[1:]
        rng.shuffle(tail)
        other.stock = other.stock[:1] + tail
        s = other.seat
        o1, o2 = [x for x in range(3) if x != s]
        other.hands[o1], other.hands[o2] = other.hands[o2], other.hands[o1]
        assert other.legal_moves() == base.legal_moves()


# --------------------------------------------------------------------- whole deals
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_random_deals_keep_cards_and_end_consistently(players):
    rng = random.Random(players)
    for deal in range(6):
        d = Deal.from_seed(99, deal, players, {"turn_cap": 200})
        total = d.all_cards()
        out = Counter()  # cards that left play (drops, wrong declarations)
        while d.end is None:
            seat, hand = d.seat, Counter(d.hands[d.seat])
            moves = d.legal_moves()
            if d.decision == "draw":
                pool = moves if rng.random() < 0.03 else [m for m in moves if m[0] != MV_DROP]
            else:
                pool = moves if rng.random() < 0.02 else [m for m in moves if m[0] == MV_DISCARD]
            move = rng.choice(pool)
            d.apply(move)
            if move[0] == MV_DROP:
                out += hand
            elif move[0] == MV_DECLARE and d.status[seat] == WRONG:
                out += hand - Counter([move[1]])
            assert d.all_cards() + out == total
            assert all(sum(h.values()) in (0, 13) for s, h in enumerate(d.hands) if s != d.seat or d.end)
        assert d.end in ("declare", "last_player", "cap")
        assert (d.winner is None) == (d.end == "cap")
        assert all(0 <= p <= 80 for p in d.points())
        if d.winner is not None:
            assert d.points()[d.winner] == 0 and sum(d.net()) == 0


def test_I4_I6_agree_with_the_solver_reference():
    """Two independent brute forces (this module's and the solver engineer's
    ``naive_indian_solver``) give the same deadwood and declarability."""
    other = pytest.importorskip("naive_indian_solver")
    rng = random.Random(8)
    shoe = [k for k in range(52) for _ in range(3)] + [JOKER] * 6
    for i in range(60):
        hand = rng.sample(shoe, 13)
        if i % 2:  # bias towards hands with groups: a 4-run and a joker
            s, r = rng.randrange(4), rng.randrange(9)
            hand = hand[:8] + [s * 13 + r + j for j in range(4)] + [JOKER]
        wild, triple = rng.randrange(13), i % 3 == 0
        for opts in ((1, 1, triple), (2, 2, triple)):
            assert min_deadwood(hand, wild, *opts) == other.min_deadwood(hand, wild, *opts), (hand, wild, opts)
            assert can_declare(hand, wild, *opts) == other.can_declare(hand, wild, *opts), (hand, wild, opts)
