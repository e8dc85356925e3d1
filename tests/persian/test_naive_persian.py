"""Unit tests of the naive Persian Rummy reference (tests/naive_persian.py).

Test names cite the rule ids of RULES.md Part 1 (P1..P8)."""
import os
import random
import sys
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from naive_persian import (  # noqa: E402
    DEFAULT_RULES, FULL_DECK, JOKER, IllegalMove, NaiveDeal, can_lay_off,
    can_place, card_value, meld_kind, replay_log,
)


def position(hands, pile=("2C",), stock=("3C",), melds=None, rules=None,
             to_move=0):
    """A hand-made position; missing hands are filled with one filler card."""
    hands = [list(h) for h in hands] + [["9S"]] * (4 - len(hands))
    return NaiveDeal(hands, list(pile), list(stock), dealer=3, rules=rules,
                     melds=melds, to_move=to_move)


def meld(*cards):
    return ("meld", tuple(sorted(cards)))


# ---------------------------------------------------------------- P1 - P4
def test_p1_deck_has_56_cards_with_4_jokers():
    assert len(FULL_DECK) == 56 and FULL_DECK.count(JOKER) == 4
    assert len(set(FULL_DECK)) == 53


def test_p2_p3_first_player_is_left_of_dealer():
    hands = [["2C"], ["3C"], ["4C"], ["5C"]]
    for dealer in range(4):
        deal = NaiveDeal(hands, ["6C"], ["7C"], dealer)
        assert deal.seat == (dealer + 1) % 4 and deal.phase == "draw"


def test_p4_card_values():
    assert card_value("JK") == 20 and card_value("AS") == 15
    assert [card_value(r + "H") for r in "TJQK"] == [10, 10, 10, 10]
    assert [card_value(r + "D") for r in "23456789"] == list(range(2, 10))


# ---------------------------------------------------------------- P5 melds
@pytest.mark.parametrize("cards", [
    ["QH", "KH", "AH"],                       # aces high
    ["2S", "3S", "4S"],
    [r + "D" for r in "23456789TJQKA"],       # the longest run
    ["7C", "7D", "7H"], ["7C", "7D", "7H", "7S"],
    ["JK", "JK", "JK"], ["JK", "JK", "JK", "JK"],
])
def test_p5_valid_melds(cards):
    assert meld_kind(cards) is not None


@pytest.mark.parametrize("cards", [
    ["AH", "2H", "3H"],                       # ace is never low
    ["KH", "AH", "2H"],                       # no wrap-around
    ["5H", "6H", "JK"], ["5H", "JK", "7H"],   # joker never in a run
    ["9C", "9D", "JK"], ["JC", "JD", "JK"],   # nor in a set of another rank
    ["JK", "JK"], ["5H", "6H"], ["9C", "9D"], # too short
    ["5H", "6H", "7C"], ["5H", "6H", "8H"],   # mixed suit / gap
])
def test_p5_invalid_melds(cards):
    assert meld_kind(cards) is None


def test_p5_legal_melds_offered_from_hand():
    deal = position([["QH", "KH", "AH", "2H", "3H", "JK", "JK", "JK", "5C"]])
    deal.apply(("stock",))                    # draws 3C
    moves = deal.legal_moves()
    assert meld("QH", "KH", "AH") in moves
    assert meld("AH", "2H", "3H") not in moves
    assert meld("KH", "AH", "2H") not in moves
    assert meld("JK", "JK", "JK") in moves
    assert not any(m[0] == "meld" and "JK" in m[1] and len(set(m[1])) > 1
                   for m in moves)


# ---------------------------------------------------------------- P6.1 draw
def test_p6_1_take_takes_depth_plus_one_cards():
    deal = position([["9H", "9D", "2S"]], pile=["4C", "KD", "9C", "5S"])
    assert ("take", 2) in deal.legal_moves()     # 9C goes with 9H 9D
    deal.apply(("take", 2))
    assert sorted(deal.hands[0]) == sorted(["9H", "9D", "2S", "4C", "KD", "9C"])
    assert deal.pile == ["5S"] and deal.target == "9C"


def test_p6_1_take_illegal_when_target_cannot_be_placed():
    deal = position([["9H", "2S", "3D"]], pile=["9D", "5S"])
    moves = deal.legal_moves()
    assert ("take", 0) not in moves and ("take", 1) not in moves
    with pytest.raises(IllegalMove):
        deal.apply(("take", 0))


def test_p6_1_take_legal_through_layoff_chain():
    """Run 5H6H7H on the table, target 9H, 8H in hand: lay off 8H then 9H."""
    table = [(1, ["5H", "6H", "7H"])]
    deal = position([["8H", "2S"]], pile=["9H"], melds=table)
    assert ("take", 0) in deal.legal_moves()
    without = position([["2S"]], pile=["9H"], melds=table)
    assert ("take", 0) not in without.legal_moves()
    # the chain also works downwards, and cards above the target help
    deal = position([["4H"]], pile=["3H", "2S"], melds=table)
    assert ("take", 0) in deal.legal_moves()


def test_p6_1_cards_above_target_count_for_taking():
    deal = position([["2S"]], pile=["7C", "7D", "7H"])
    assert ("take", 2) in deal.legal_moves()
    assert ("take", 0) not in deal.legal_moves()


def test_p6_1_joker_target_is_satisfied_by_any_joker():
    deal = position([["JK", "JK", "5S"]], pile=["JK"])
    deal.apply(("take", 0))
    assert ("stop",) not in deal.legal_moves()
    deal.apply(meld("JK", "JK", "JK"))
    assert deal.target is None and ("stop",) in deal.legal_moves()
    # a joker set of 3 on the table also accepts it
    deal = position([["5S"]], pile=["JK"], melds=[(2, ["JK", "JK", "JK"])])
    assert ("take", 0) in deal.legal_moves()


def test_p6_1_stop_illegal_while_target_pending():
    deal = position([["9H", "9D", "2S"]], pile=["9C"])
    deal.apply(("take", 0))
    assert ("stop",) not in deal.legal_moves()
    with pytest.raises(IllegalMove):
        deal.apply(("stop",))
    deal.apply(meld("9C", "9D", "9H"))
    assert ("stop",) in deal.legal_moves()


def test_p6_1_play_that_strands_target_is_not_offered():
    table = [(1, ["5H", "6H", "7H"])]
    deal = position([["8H", "8C", "8D", "2S"]], pile=["9H"], melds=table)
    deal.apply(("take", 0))
    moves = deal.legal_moves()
    assert meld("8C", "8D", "8H") not in moves       # would use up the 8H
    assert ("layoff", "8H", 0) in moves
    assert ("stop",) not in moves
    deal.apply(("layoff", "8H", 0))
    assert ("layoff", "9H", 0) in deal.legal_moves()
    assert ("stop",) not in deal.legal_moves()
    deal.apply(("layoff", "9H", 0))
    assert ("stop",) in deal.legal_moves()


# ---------------------------------------------------------------- P6.2 empty stock
def test_p6_2_pass_illegal_while_stock_has_cards():
    deal = position([["2S"]], stock=["3C"])
    assert ("pass",) not in deal.legal_moves()
    with pytest.raises(IllegalMove):
        deal.apply(("pass",))


def test_p6_2_empty_stock_offers_takes_and_pass_and_pass_ends_turn():
    deal = position([["7C", "7D"]], pile=["7H"], stock=[])
    assert deal.legal_moves() == {("pass",), ("take", 0)}
    deal.apply(("pass",))
    assert deal.seat == 1 and deal.phase == "draw" and deal.turns == 1
    assert deal.pile == ["7H"] and deal.hands[0] == ["7C", "7D"]


# ---------------------------------------------------------------- P6.3 lay-offs
def test_p6_3_layoff_targets():
    assert can_lay_off("7S", ["7C", "7D", "7H"])
    assert not can_lay_off("8S", ["7C", "7D", "7H"])
    assert can_lay_off("JK", ["JK", "JK", "JK"])
    assert not can_lay_off("JK", ["JK", "JK", "JK", "JK"])
    assert not can_lay_off("JK", ["5H", "6H", "7H"])
    assert can_lay_off("4H", ["5H", "6H", "7H"])
    assert can_lay_off("8H", ["5H", "6H", "7H"])
    assert not can_lay_off("9H", ["5H", "6H", "7H"])
    assert not can_lay_off("AH", ["2H", "3H", "4H"])    # nothing below 2
    assert not can_lay_off("2H", ["QH", "KH", "AH"])    # nothing above A
    assert can_lay_off("JH", ["QH", "KH", "AH"])


def test_p6_3_layoff_on_opponents_meld_scores_for_player_team():
    deal = position([["7S", "2C"]], melds=[(1, ["7C", "7D", "7H"])])
    deal.apply(("stock",))
    deal.apply(("layoff", "7S", 0))
    assert deal.table_points == [7, 0]
    assert deal.melds[0]["cards"] == ["7C", "7D", "7H", "7S"]


# ---------------------------------------------------------------- P6.4 / P6.5
def test_p6_4_going_out_by_a_play_ends_deal_with_bonus():
    deal = position([["KC", "KD"], ["4D"], ["5D"], ["6D"]], pile=["KH"])
    deal.apply(("take", 0))
    deal.apply(meld("KC", "KD", "KH"))
    assert deal.phase == "over" and deal.end == "out" and deal.out_seat == 0
    assert deal.turns == 1
    s = deal.score()
    assert s["table"] == [30, 0] and s["bonus"] == [25, 0]
    assert s["hand"] == [5, 10] and s["total"] == [50, -10]


def test_p6_5_discarding_last_card_does_not_end_deal_under_meld():
    deal = position([[]], stock=["AS", "3C"])
    deal.apply(("stock",))
    deal.apply(("stop",))
    assert deal.legal_moves() == {("discard", "AS")}
    deal.apply(("discard", "AS"))
    assert deal.phase == "draw" and deal.seat == 1 and deal.hands[0] == []
    assert deal.end is None
    # the empty-handed player keeps taking turns
    for _ in range(3):
        deal.apply(("stock",) if deal.stock else ("pass",))
        if deal.phase == "play":
            deal.apply(("stop",))
            deal.apply(("discard", sorted(deal.hands[deal.seat])[0]))
    assert deal.seat == 0 and deal.phase == "draw"


def test_p6_5_discarding_last_card_goes_out_under_discard_option():
    deal = position([[]], stock=["AS", "3C"], rules={"last_card": "discard"})
    deal.apply(("stock",))
    deal.apply(("stop",))
    deal.apply(("discard", "AS"))
    assert deal.phase == "over" and deal.end == "out" and deal.out_seat == 0
    assert deal.score()["bonus"] == [25, 0]


def test_p6_5_discard_any_card_in_hand():
    deal = position([["2S", "KD"]])
    deal.apply(("stock",))
    deal.apply(("stop",))
    assert deal.legal_moves() == {("discard", c) for c in ["2S", "KD", "3C"]}
    deal.apply(("discard", "KD"))
    assert deal.pile[0] == "KD"


# ---------------------------------------------------------------- P7 end
def test_p7_four_consecutive_passes_end_the_deal():
    deal = position([["2S"], ["3S"], ["4S"], ["5S"]], pile=["KH"], stock=[])
    for i in range(4):
        assert deal.phase == "draw"
        deal.apply(("pass",))
    assert deal.phase == "over" and deal.end == "passes" and deal.turns == 4
    s = deal.score()
    assert s["bonus"] == [0, 0] and s["total"] == [-6, -8]


def test_p7_passes_must_be_consecutive():
    deal = position([["2S"], ["QC", "QD", "3S"], ["4S"], ["5S"]],
                    pile=["QH"], stock=[])
    deal.apply(("pass",))
    deal.apply(("take", 0))
    deal.apply(meld("QC", "QD", "QH"))
    deal.apply(("stop",))
    deal.apply(("discard", "3S"))
    for _ in range(3):
        deal.apply(("pass",))
    assert deal.phase == "draw"
    deal.apply(("pass",))
    assert deal.end == "passes"


def test_p7_turn_cap_ends_deal_without_bonus():
    deal = position([["2S"], ["3S"], ["4S"], ["5S"]], stock=["6S", "7S"],
                    rules={"turn_cap": 2})
    for _ in range(2):
        deal.apply(("stock",))
        deal.apply(("stop",))
        deal.apply(("discard", deal.hands[deal.seat][0]))
    assert deal.phase == "over" and deal.end == "cap"
    assert deal.score()["bonus"] == [0, 0]


# ---------------------------------------------------------------- P8 scoring
def _meld_and_score(cards, rules=None, melds=None):
    deal = position([list(cards) + ["2S"]], rules=rules, melds=melds)
    deal.apply(("stock",))
    deal.apply(meld(*cards))
    return deal


def test_p8_four_jacks_at_once_score_80():
    assert _meld_and_score(["JC", "JD", "JH", "JS"]).table_points == [80, 0]


def test_p8_three_jacks_then_fourth_laid_off_score_40():
    deal = _meld_and_score(["JC", "JD", "JH"])
    deal.hands[0].append("JS")        # hand-made: give the fourth jack
    deal.apply(("layoff", "JS", 0))
    assert deal.table_points == [40, 0]


def test_p8_four_jokers_at_once_score_160_and_option_off():
    assert _meld_and_score(["JK"] * 4).table_points == [160, 0]
    off = {"four_of_a_kind_double": False}
    assert _meld_and_score(["JK"] * 4, rules=off).table_points == [80, 0]
    assert _meld_and_score(["JC", "JD", "JH", "JS"], rules=off).table_points == [40, 0]


def test_p8_runs_never_double():
    assert _meld_and_score(["5H", "6H", "7H", "8H"]).table_points == [26, 0]


def test_p8_premade_table_melds_score_nothing():
    deal = position([["2S"]], melds=[(0, ["KC", "KD", "KH"])])
    assert deal.score()["table"] == [0, 0]


# ---------------------------------------------------------------- can_place
def _brute_can_place(target, hand, melds):
    """Exhaustive search over play sequences (small hands only)."""
    if target not in hand:
        return True
    hand = list(hand)
    for size in range(3, len(hand) + 1):
        for idx in _subsets(len(hand), size):
            cards = [hand[i] for i in idx]
            if meld_kind(cards) is not None:
                rest = [c for i, c in enumerate(hand) if i not in idx]
                if target in cards or _brute_can_place(
                        target, rest, melds + [cards]):
                    return True
    for i, c in enumerate(hand):
        for n, m in enumerate(melds):
            if can_lay_off(c, m):
                rest = hand[:i] + hand[i + 1:]
                new = melds[:n] + [m + [c]] + melds[n + 1:]
                if c == target or _brute_can_place(target, rest, new):
                    return True
    return False


def _subsets(n, size):
    return [set(c) for c in combinations(range(n), size)]


SMALL = [r + s for r in "789TJ" for s in "HS"] + [r + "C" for r in "89"] + ["JK"] * 4
TABLE_CHOICES = [["7H", "8H", "9H"], ["TS", "JS", "QS"], ["8C", "8D", "8S"],
                 ["JK", "JK", "JK"], ["9C", "TC", "JC"], ["6H", "7H", "8H"]]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(range(len(SMALL))), min_size=1, max_size=6,
                unique=True),
       st.lists(st.sampled_from(range(len(TABLE_CHOICES))), max_size=2,
                unique=True))
def test_p6_1_can_place_matches_exhaustive_search(hand_idx, table_idx):
    hand = [SMALL[i] for i in hand_idx]
    melds_ = [list(TABLE_CHOICES[i]) for i in table_idx]
    used = sum(melds_, [])
    if any(c != JOKER and c in used for c in hand) or \
            hand.count(JOKER) + used.count(JOKER) > 4 or \
            sum(1 for m in table_idx if m in (0, 5)) > 1:
        return
    target = hand[0]
    table = [{"owner": 1, "cards": m} for m in melds_]
    assert can_place(target, hand, table) == _brute_can_place(target, hand, melds_)


# ---------------------------------------------------------------- random play
def new_random_deal(rng, rules=None):
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hands = [deck[7 * i:7 * i + 7] for i in range(4)]
    return NaiveDeal(hands, [deck[28]], deck[29:], rng.randrange(4), rules=rules)


def play_random(deal, rng, check=None):
    """Play uniformly random legal moves; return the turns in log format."""
    turns, cur = [], None
    while deal.phase != "over":
        moves = sorted(deal.legal_moves())
        assert moves, "no legal move in phase %s" % deal.phase
        move = rng.choice(moves)
        if deal.phase == "draw":
            cur = {"seat": deal.seat, "plays": [], "discard": None}
            turns.append(cur)
            if move[0] == "stock":
                cur["draw"] = {"stock": deal.stock[0]}
            elif move[0] == "take":
                cur["draw"] = {"depth": move[1],
                               "cards": deal.pile[:move[1] + 1]}
            else:
                cur["draw"] = "pass"
        elif move[0] == "meld":
            cur["plays"].append({"meld": list(move[1])})
        elif move[0] == "layoff":
            cur["plays"].append({"layoff": move[1], "onto": move[2]})
        elif move[0] == "discard":
            cur["discard"] = move[1]
        deal.apply(move)
        if check:
            check(deal)
    return turns


def conserved(deal):
    assert Counter(deal.all_cards()) == Counter(FULL_DECK)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from(["meld", "discard"]))
def test_random_legal_play_terminates_conserves_cards_and_scores(seed, last):
    rng = random.Random(seed)
    deal = new_random_deal(rng, rules={"last_card": last})
    turns = play_random(deal, rng, check=conserved)
    assert deal.end in ("out", "passes", "cap") and deal.turns == len(turns)
    s = deal.score()
    for t in (0, 1):
        assert s["total"][t] == s["table"][t] - s["hand"][t] + s["bonus"][t]
    assert sum(s["bonus"]) == (25 if deal.end == "out" else 0)


def _log_of(seed):
    rng = random.Random(seed)
    deal = new_random_deal(rng)
    start = NaiveDeal(deal.hands, deal.pile, deal.stock, deal.dealer)
    turns = play_random(deal, rng)
    log = {"format": "rummy-log/1", "game": "persian", "rules": dict(DEFAULT_RULES),
           "dealer": start.dealer, "hands": start.hands, "discard": start.pile,
           "stock": start.stock, "turns": turns, "end": deal.end,
           "out_seat": deal.out_seat, "score": deal.score()}
    return log


@pytest.mark.parametrize("seed", range(5))
def test_replay_log_reproduces_random_deal(seed):
    log = _log_of(seed)
    deal = replay_log(log)
    assert deal.end == log["end"] and deal.out_seat == log["out_seat"]
    assert deal.score() == log["score"]


def test_replay_log_rejects_illegal_step():
    log = _log_of(1)
    first = next(i for i, t in enumerate(log["turns"]) if t["discard"])
    log["turns"][first]["discard"] = "XX"
    with pytest.raises(IllegalMove, match="turn %d" % first):
        replay_log(log)
    log = _log_of(1)
    log["turns"][0]["seat"] = (log["turns"][0]["seat"] + 1) % 4
    with pytest.raises(IllegalMove, match="turn 0"):
        replay_log(log)
