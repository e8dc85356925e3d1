"""Gin Rummy rules on hands built by hand (RULES.md Part 3, as OpenSpiel plays them)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.gin import enums as E
from sim.games.gin.cards import card_id, mask_cards
from sim.games.gin.melds_nb import MAX_HAND_MELDS, MELD_SCRATCH
from sim.games.gin.rules import RuleOptions
from sim.games.gin.state_nb import apply_move, deal_state, legal_moves, score


def _deal(hand0, hand1, upcard, rules=None, stock=None):
    cards = [card_id(c) for c in hand0.split()] + [card_id(c) for c in hand1.split()] + [card_id(upcard)]
    rest = [c for c in range(52) if c not in cards] if stock is None else [card_id(c) for c in stock.split()]
    rest += [c for c in range(52) if c not in cards and c not in rest]
    st = np.zeros(E.ST_SIZE, np.int64)
    arr = RuleOptions.from_dict(rules).to_array(2)
    deal_state(st, np.array(cards + rest, np.int64), np.int64(0), arr)
    return st, arr


class Table:
    def __init__(self, *args, **kwargs):
        self.st, self.arr = _deal(*args, **kwargs)
        self.moves = np.zeros((E.MAX_MOVES, E.MOVE_COLS), np.int64)
        self.ids = np.zeros(MAX_HAND_MELDS, np.int64)
        self.tmp = np.zeros(MAX_HAND_MELDS, np.int64)
        self.stack = np.zeros(MELD_SCRATCH, np.int64)
        self.end = -1

    def legal(self) -> list[int]:
        n = legal_moves(self.st, self.moves, self.ids, self.stack, self.tmp)
        return [int(a) for a in self.moves[:n, 1]]

    def play(self, action) -> None:
        if isinstance(action, str):
            action = card_id(action)
        n = legal_moves(self.st, self.moves, self.ids, self.stack, self.tmp)
        i = [int(a) for a in self.moves[:n, 1]].index(action)
        r = self.moves[i]
        self.end = apply_move(self.st, r[0], r[2], r[3])

    def result(self):
        res = np.zeros(E.N_RESULT_COLS, np.int64)
        score(self.st, self.end, self.arr, res, self.ids, self.stack)
        return res


H0 = "AS 2S 3S 4H 5H 6H 7C 7D 7H KC"  # deadwood 10 (KC): may knock with the knock card 10
H1 = "9S TS JS QD KD 2C 3C 8D 9D 5C"


def test_g2_first_upcard_pass_pass_then_stock() -> None:
    t = Table(H0, H1, "QH")
    assert t.legal() == [E.A_UPCARD, E.A_PASS]
    t.play(E.A_PASS)
    assert t.st[E.O_SEAT] == 1 and t.legal() == [E.A_UPCARD, E.A_PASS]
    t.play(E.A_PASS)
    assert t.st[E.O_SEAT] == 0 and t.legal() == [E.A_STOCK]
    t.play(E.A_STOCK)
    assert t.st[E.O_OUT] >> card_id("QH") & 1  # G3: the passed upcard leaves play


def test_g4_knock_discard_melds_and_g7_score() -> None:
    for knock, legal in ((10, True), (9, False)):  # QH, KC left over: the best 10 keep 10 deadwood
        t = Table(H0, H1, "QH", {"knock_card": knock})
        t.play(E.A_UPCARD)
        assert (E.A_KNOCK in t.legal()) == legal
    t = Table(H0, H1, "7S", {"knock_card": 0})  # 7C 7D 7H 7S: deadwood KC only -> gin after the discard
    t.play(E.A_UPCARD)
    assert E.A_KNOCK in t.legal()
    t.play(E.A_KNOCK)
    assert t.legal() == [card_id("KC")]  # only the discard that keeps the knock legal (gin only)
    t.play("KC")
    legal = t.legal()
    assert E.A_PASS not in legal  # G4: lay melds until at most the knock card remains
    for meld in legal:
        assert meld >= E.A_MELD0
    while E.A_PASS not in t.legal():
        t.play(t.legal()[0])
    t.play(E.A_PASS)
    assert t.st[E.O_GIN] == 1 and t.st[E.O_DECISION] == E.D_DEFEND_MELD  # gin: no lay-offs (G5)
    while t.end < 0:
        t.play(t.legal()[-1] if len(t.legal()) > 1 else E.A_PASS)
    res = t.result()
    dd = int(res[E.C_DEADWOOD + 1])
    assert t.end == E.END_GIN and res[E.C_SCORE] == dd + 25 and res[E.C_SCORE + 1] == -(dd + 25)


@pytest.mark.parametrize("dd, kd, pts, undercut", [(20, 8, 12, 0), (8, 8, 0, 0), (5, 8, -28, 1)])
def test_g7_undercut_and_equal_deadwood(dd, kd, pts, undercut) -> None:
    st = np.zeros(E.ST_SIZE, np.int64)
    ranks = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T"}

    def hand_of(value, suit):
        cards, v = [], value
        for r in range(10, 0, -1):
            if v >= r:
                cards.append(card_id(ranks[r] + suit))
                v -= r
        return sum(1 << c for c in cards)

    st[E.S_HANDS] = hand_of(kd, "S")
    st[E.S_HANDS + 1] = hand_of(dd, "H")
    st[E.O_KNOCKER] = 0
    res = np.zeros(E.N_RESULT_COLS, np.int64)
    arr = RuleOptions().to_array(2)
    score(st, E.END_KNOCK, arr, res, np.zeros(MAX_HAND_MELDS, np.int64), np.zeros(MELD_SCRATCH, np.int64))
    assert (res[E.C_SCORE], res[E.C_SCORE + 1], res[E.C_UNDERCUT]) == (pts, -pts, undercut)


def test_g8_repeated_upcard_is_a_draw() -> None:
    t = Table(H0, H1, "QH")
    t.play(E.A_UPCARD)
    t.play("QH")  # seat 0 discards the upcard it took
    t.play(E.A_UPCARD)
    t.play("QH")  # and seat 1 does the same
    assert t.end == E.END_REPEATED and t.result()[E.C_KNOCKER] == -1


def test_g6_wall_pass_ends_the_hand_as_a_draw() -> None:
    t = Table(H0, H1, "QH")
    t.play(E.A_PASS)
    t.play(E.A_PASS)
    t.play(E.A_STOCK)
    while t.st[E.O_DECISION] != E.D_WALL:
        d = t.st[E.O_DECISION]
        if d == E.D_DISCARD:
            seat = t.st[E.O_SEAT]
            # discard the card just drawn (never a knock)
            drawn = int(t.st[E.S_STOCK + t.st[E.S_STOCK_POS] - 1])
            t.play(drawn)
        else:
            t.play(E.A_STOCK)
        assert t.end < 0
    assert t.st[E.O_STOCK_N] == E.WALL_STOCK
    assert t.legal()[0] == E.A_PASS and set(t.legal()) <= {E.A_PASS, E.A_KNOCK}
    t.play(E.A_PASS)
    assert t.end == E.END_WALL and list(t.result()[E.C_SCORE:E.C_SCORE + 2]) == [0, 0]


def test_g8_fifty_upcard_draws() -> None:
    t = Table(H0, H1, "QH")
    t.play(E.A_PASS)
    t.play(E.A_PASS)
    t.play(E.A_STOCK)
    for i in range(200):
        if t.end >= 0:
            break
        d = t.st[E.O_DECISION]
        if d == E.D_DRAW:
            t.play(E.A_UPCARD)
        else:  # discard a card other than the one just taken, so no repeated-upcard draw
            hand = mask_cards(t.st[E.S_HANDS + t.st[E.O_SEAT]])
            prev = int(t.st[E.O_PREV_UPCARD])
            t.play(next(c for c in hand if c != prev and c + 0 >= 0 and c != card_id("AS")))
    assert t.end == E.END_UPCARD_LIMIT and t.st[E.O_UPCARD_DRAWS] == E.MAX_UPCARD_DRAWS


def test_g9_oklahoma_knock_card() -> None:
    assert Table(H0, H1, "7C", {"oklahoma": True}).st[E.O_KNOCK_CARD] == 7
    assert Table(H0, H1, "AC", {"oklahoma": True}).st[E.O_KNOCK_CARD] == 0  # an ace: gin only
    assert Table(H0, H1, "KC", {"knock_card": 4}).st[E.O_KNOCK_CARD] == 4


def test_rule_options_are_checked() -> None:
    with pytest.raises(ValueError, match="knock_card"):
        RuleOptions(knock_card=11)
    with pytest.raises(ValueError, match="oklahoma"):
        RuleOptions(oklahoma=2)
    with pytest.raises(ValueError, match="no_such"):
        RuleOptions.from_dict({"no_such": 1})
