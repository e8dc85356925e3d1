"""Rule-by-rule tests of Persian Rummy (RULES.md Part 1), run against BOTH rule
implementations: ``Position`` (the compiled engine kernels, stepped by hand) and
``NaiveDeal`` (the pure-Python reference in tests/naive_persian.py).

Every test takes the ``impl`` fixture (parametrized over the two classes) and
builds its position through ``Table``: the fixture's implementation is the one
whose behaviour the test asserts, and a twin of the OTHER implementation is
stepped alongside it, so that every legal-move set a test looks at is also
asserted to be identical in both implementations, and every move a test calls
illegal is refused by both.

Test names start with the rule id they check (test_P6_1_... checks P6.1).
"""

from __future__ import annotations

import copy
from collections import Counter

import pytest
from hypothesis import given, strategies as st

from naive_persian import JOKER, NaiveDeal
from sim.games.persian import enums as E
from sim.games.persian.cards import names_to_mask
from sim.games.persian.engine_nb import shuffled_deck
from sim.games.persian.position import Position, row_to_move

IMPLS = [Position, NaiveDeal]
# one card each for seats a test leaves empty-handed by not naming them
FILLERS = ["2S", "3S", "4S", "5S", "6S", "8C"]


@pytest.fixture(params=IMPLS, ids=lambda c: c.__name__)
def impl(request):
    return request.param


def meld(*cards: str) -> tuple:
    return ("meld", tuple(sorted(cards)))


class Table:
    """One hand-made deal in the implementation under test, with a twin in the other one."""

    def __init__(self, impl, hands, pile=(), stock=("2D",), melds=(), rules=None, to_move=0, dealer=3):
        hands = [list(h) for h in hands]
        used = [c for h in hands for c in h] + list(pile) + list(stock) + [c for _, m in melds for c in m]
        fillers = [c for c in FILLERS if c not in used]
        while len(hands) < 4:
            hands.append([fillers.pop(0)])
            used += hands[-1]
        counts = Counter(used)
        repeated = [c for c, n in counts.items() if (n > 1 and c != JOKER) or n > 4]
        assert not repeated, f"bad test set-up: {repeated} used too often (one deck, P1)"
        setup = dict(
            hands=hands,
            discard_pile=list(pile),
            stock=list(stock),
            dealer=dealer,
            rules=dict(rules or {}),
            melds=[(owner, list(cards)) for owner, cards in melds],
            to_move=to_move,
        )
        self.impl = impl
        self.d = impl(**copy.deepcopy(setup))
        twin_cls = NaiveDeal if impl is Position else Position
        self.twin = twin_cls(**copy.deepcopy(setup))

    # -- moves --------------------------------------------------------------------------
    def legal(self) -> set:
        mine, theirs = self.d.legal_moves(), self.twin.legal_moves()
        pos = self.d if self.impl is Position else self.twin
        rows = [row_to_move(r) for r in pos.legal_rows()]
        assert len(rows) == len(set(rows)), f"Position offers a move twice: {sorted(rows)}"
        assert mine == theirs, (
            f"legal move sets differ: only {type(self.d).__name__}: {sorted(mine - theirs)}; "
            f"only {type(self.twin).__name__}: {sorted(theirs - mine)}"
        )
        return mine

    def plays(self) -> set:
        """The legal melds and lay-offs (no stop/discard)."""
        return {m for m in self.legal() if m[0] in ("meld", "layoff")}

    def apply(self, *moves: tuple) -> "Table":
        for move in moves:
            self.legal()
            self.d.apply(move)
            self.twin.apply(move)
        return self

    def assert_illegal(self, move: tuple) -> None:
        assert move not in self.legal()
        for d in (self.d, self.twin):
            with pytest.raises(ValueError):
                d.apply(move)

    # -- state ----------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        assert self.d.phase == self.twin.phase
        return self.d.phase

    @property
    def seat(self) -> int:
        if self.d.phase != "over":  # at the turn cap Position has already moved the seat on
            assert self.d.seat == self.twin.seat
        return self.d.seat

    @property
    def end(self):
        assert self.d.end == self.twin.end
        return self.d.end

    @property
    def out_seat(self):
        assert self.d.out_seat == self.twin.out_seat
        return self.d.out_seat

    def score(self) -> dict:
        return self._same(lambda d: d.score())

    def hand(self, seat: int) -> list[str]:
        return self._same(lambda d: sorted(d.hand(seat) if isinstance(d, Position) else d.hands[seat]))

    def pile(self) -> list[str]:
        return self._same(lambda d: list(d.pile() if isinstance(d, Position) else d.pile))

    def melds(self) -> list[list[str]]:
        return self._same(
            lambda d: [sorted(m) for m in d.melds()] if isinstance(d, Position) else [sorted(m["cards"]) for m in d.melds]
        )

    def table_points(self) -> list[int]:
        """Team table points so far (P8)."""
        return self._same(
            lambda d: [int(d.st[E.O_TEAM_TABLE]), int(d.st[E.O_TEAM_TABLE + 1])]
            if isinstance(d, Position) else list(d.table_points)
        )

    def turns(self) -> int:
        """Turns completed so far (while the deal is still running, see test_P7_turn_count_...)."""
        return self._same(lambda d: d.turns)

    def _same(self, read):
        """``read`` of the implementation under test, checked against its twin."""
        mine, theirs = read(self.d), read(self.twin)
        assert mine == theirs, f"{type(self.d).__name__}: {mine} but {type(self.twin).__name__}: {theirs}"
        return mine


def stop_and_discard(t: Table, card: str | None = None) -> None:
    """End the current turn: stop playing and discard ``card`` (default: the first in hand)."""
    t.apply(("stop",))
    t.apply(("discard", card or t.hand(t.seat)[0]))


# =========================================================================== P1 - P4
def test_P1_P3_engine_deal_uses_56_cards_and_deals_7_7_7_7_1_27():
    """P1: 52 French cards + 4 jokers; P3: 7 cards each, one face-up card, 27 in the stock,
    seat dealer+1 moves first. (Engine only: the reference has no shuffler.)"""
    for deal in range(8):
        deck = shuffled_deck(123, deal)
        assert sorted(deck.tolist()) == list(range(56))
        pos = Position.from_deal(123, deal)
        names = [c for s in range(4) for c in pos.hand(s)] + pos.pile() + pos.stock()
        assert Counter(names)["JK"] == 4 and len(set(names)) == 53 and len(names) == 56
        assert [len(pos.hand(s)) for s in range(4)] == [7, 7, 7, 7]
        assert len(pos.pile()) == 1 and len(pos.stock()) == 27
        assert pos.seat == (deal % 4 + 1) % 4 and pos.phase == "draw"


def test_P4_card_values_in_the_hand_penalty(impl):
    """P4: joker 20, ace 15, K Q J 10 and ten 10, 2-9 face value (seen through P8's hand penalty)."""
    hands = [["JK", "AS", "TD", "9C", "2H"], ["3C", "KH"], ["QD", "JH"], ["7D"]]
    t = Table(impl, hands, pile=[], stock=[])
    for _ in range(4):
        t.apply(("pass",))
    assert t.end == "passes"
    assert t.score()["hand"] == [20 + 15 + 10 + 9 + 2 + 10 + 10, 3 + 10 + 7]


# =========================================================================== P5 melds
def test_P5_QKA_is_a_run_but_A23_and_KA2_are_not(impl):
    """P5: aces are high only: Q-K-A is a run, A-2-3 is not, nothing wraps past the ace."""
    t = Table(impl, [["QH", "KH", "AH", "2H", "3H", "9C"]], stock=["4D"])
    t.apply(("stock",))
    assert t.plays() == {meld("QH", "KH", "AH")}
    t.assert_illegal(meld("AH", "2H", "3H"))
    t.assert_illegal(meld("KH", "AH", "2H"))
    t.assert_illegal(meld("QH", "KH", "AH", "2H"))


def test_P5_A23_offered_nowhere_not_even_as_a_take(impl):
    """P5: a discard-pile ace cannot be taken for A-2-3 (P6.1 + P5); it can for Q-K-A."""
    assert ("take", 0) not in Table(impl, [["2S", "3S", "9C"]], pile=["AS"]).legal()
    assert ("take", 0) not in Table(impl, [["KS", "2S", "9C"]], pile=["AS"]).legal()
    assert ("take", 0) in Table(impl, [["QS", "KS", "9C"]], pile=["AS"]).legal()


def test_P5_longest_run_2_to_A_and_every_substretch(impl):
    """P5: the 13 cards of a suit are a run (2..A); every stretch of 3+ is offered: 66 runs."""
    diamonds = [r + "D" for r in "23456789TJQKA"]
    t = Table(impl, [diamonds], stock=["9C"])
    t.apply(("stock",))
    plays = t.plays()
    assert meld(*diamonds) in plays
    assert len(plays) == sum(14 - n for n in range(3, 14)) == 66
    t.assert_illegal(meld("2D", "3D", "5D"))  # a gap


def test_P5_sets_of_three_and_four_of_one_rank(impl):
    """P5: a set is 3 or 4 cards of one rank; 2 cards or mixed ranks are no set."""
    t = Table(impl, [["7C", "7D", "7H", "7S", "8C", "8D"]], stock=["9H"])
    t.apply(("stock",))
    assert t.plays() == {
        meld("7C", "7D", "7H", "7S"),
        meld("7C", "7D", "7H"),
        meld("7C", "7D", "7S"),
        meld("7C", "7H", "7S"),
        meld("7D", "7H", "7S"),
    }
    t.assert_illegal(meld("8C", "8D"))
    t.assert_illegal(meld("7C", "7D", "8C"))


def test_P5_joker_sets_of_three_and_four(impl):
    """P5: 3 or 4 jokers are a joker set; 2 jokers are not."""
    t = Table(impl, [["JK", "JK", "JK", "JK", "5C"]], stock=["9H"])
    t.apply(("stock",))
    assert t.plays() == {meld("JK", "JK", "JK"), meld("JK", "JK", "JK", "JK")}
    t.apply(meld("JK", "JK", "JK"))
    assert t.plays() == {("layoff", "JK", 0)}  # the fourth joker joins the joker set (P6.3)

    t = Table(impl, [["JK", "JK", "JK", "5C"]], stock=["9H"])
    t.apply(("stock",))
    assert t.plays() == {meld("JK", "JK", "JK")}
    t.assert_illegal(meld("JK", "JK", "JK", "JK"))

    t = Table(impl, [["JK", "JK", "5C"]], stock=["9H"])
    t.apply(("stock",))
    assert t.plays() == set()
    t.assert_illegal(meld("JK", "JK"))


def test_P5_joker_never_joins_a_run_or_a_set_of_another_rank(impl):
    """P5: jokers are not wild: no meld mixes jokers with other cards, and a joker cannot be
    laid off onto a run or a set."""
    t = Table(impl, [["5H", "6H", "9C", "9D", "JK", "JK"]], stock=["2C"])
    t.apply(("stock",))
    assert t.plays() == set()
    t.assert_illegal(meld("5H", "6H", "JK"))
    t.assert_illegal(meld("9C", "9D", "JK"))

    table = [(1, ["4C", "5C", "6C"]), (3, ["9S", "9H", "9D"])]
    t = Table(impl, [["JK", "3D"]], stock=["2C"], melds=table)
    t.apply(("stock",))
    assert t.plays() == set()
    t.assert_illegal(("layoff", "JK", 0))
    t.assert_illegal(("layoff", "JK", 1))
    # nor can a joker be taken from the pile for such a meld (P6.1)
    assert ("take", 0) not in Table(impl, [["5H", "6H"]], pile=["JK"], melds=table).legal()


# =========================================================================== P6.1 draw
def test_P6_1_take_takes_the_target_and_every_card_above_it(impl):
    """P6.1: taking at depth d takes d+1 cards; the deepest one is the target."""
    t = Table(impl, [["9H", "9D", "2S"]], pile=["4C", "KD", "9C", "5S"])
    assert t.legal() == {("stock",), ("take", 2)}
    t.apply(("take", 2))
    assert t.hand(0) == sorted(["9H", "9D", "2S", "4C", "KD", "9C"])
    assert t.pile() == ["5S"] and t.phase == "play"
    assert t.plays() == {meld("9C", "9D", "9H")}


def test_P6_1_take_whose_target_cannot_be_placed_is_illegal(impl):
    """P6.1: taking is legal only if the target can go on the table this turn."""
    t = Table(impl, [["9H", "2S", "3D"]], pile=["9D", "5S"])
    assert t.legal() == {("stock",)}
    t.assert_illegal(("take", 0))
    t.assert_illegal(("take", 1))


# (name, hand, pile, table melds, depth, plays that put the target down, a set-up where the take is illegal)
TAKES = [
    ("new-set", ["9H", "9D", "2S"], ["9C"], [], 0, [meld("9C", "9D", "9H")],
     (["9H", "2S"], ["9C"], [])),
    ("new-run-target-inside", ["5H", "7H", "2S"], ["6H"], [], 0, [meld("5H", "6H", "7H")],
     (["5H", "8H", "2S"], ["6H"], [])),
    ("new-run-QKA", ["QS", "KS", "2C"], ["AS"], [], 0, [meld("QS", "KS", "AS")],
     (["KS", "2S", "2C"], ["AS"], [])),
    ("layoff-on-set", ["2S"], ["7S"], [(1, ["7C", "7D", "7H"])], 0, [("layoff", "7S", 0)],
     (["2S"], ["7S"], [(1, ["8C", "8D", "8H"])])),
    ("layoff-above-run", ["2S"], ["8H"], [(1, ["5H", "6H", "7H"])], 0, [("layoff", "8H", 0)],
     (["2S"], ["8H"], [(1, ["5C", "6C", "7C"])])),
    ("layoff-below-run", ["2S"], ["4H"], [(1, ["5H", "6H", "7H"])], 0, [("layoff", "4H", 0)],
     (["2S"], ["3H"], [(1, ["5H", "6H", "7H"])])),
    ("layoff-ace-above-king", ["2S"], ["AC"], [(3, ["JC", "QC", "KC"])], 0, [("layoff", "AC", 0)],
     (["2S"], ["2C"], [(1, ["QC", "KC", "AC"])])),
    ("layoff-chain-up", ["8H", "2S"], ["9H"], [(1, ["5H", "6H", "7H"])], 0,
     [("layoff", "8H", 0), ("layoff", "9H", 0)],
     (["2S"], ["9H"], [(1, ["5H", "6H", "7H"])])),
    ("layoff-chain-down", ["4H", "2S"], ["3H"], [(1, ["5H", "6H", "7H"])], 0,
     [("layoff", "4H", 0), ("layoff", "3H", 0)],
     (["5S", "2S"], ["3H"], [(1, ["5H", "6H", "7H"])])),
    ("cards-above-target-help", ["2S"], ["7C", "7D", "7H"], [], 2, [meld("7C", "7D", "7H")],
     (["2S"], ["7C", "7D", "5H"], [])),
    ("joker-target-new-joker-set", ["JK", "JK", "5S"], ["JK"], [], 0, [meld("JK", "JK", "JK")],
     (["JK", "5S"], ["JK"], [])),
    ("joker-target-layoff-on-joker-set", ["5S"], ["JK"], [(2, ["JK", "JK", "JK"])], 0, [("layoff", "JK", 0)],
     (["5S"], ["JK"], [(2, ["5C", "6C", "7C"])])),
]


@pytest.mark.parametrize("name, hand, pile, table, depth, plays, bad", TAKES, ids=[t[0] for t in TAKES])
def test_P6_1_take_legal_via_set_run_layoff_and_layoff_chain(impl, name, hand, pile, table, depth, plays, bad):
    """P6.1: a take is legal when the target can reach the table by a new set, a new run, a
    lay-off or a chain of lay-offs (counting the cards above the target); stop is illegal
    until the target is down, and legal right after."""
    t = Table(impl, [hand], pile=pile, melds=table)
    assert ("take", depth) in t.legal()
    t.apply(("take", depth))
    for play in plays:
        assert ("stop",) not in t.legal()
        t.apply(play)
    assert ("stop",) in t.legal()
    bad_hand, bad_pile, bad_table = bad
    b = Table(impl, [bad_hand], pile=bad_pile, melds=bad_table)
    b.assert_illegal(("take", depth))


def test_P6_1_joker_target_is_satisfied_by_any_joker(impl):
    """P6.1: jokers are interchangeable: melding any three of four jokers places a joker target
    (the engine gives the pile's joker a different id than the three in hand)."""
    t = Table(impl, [["JK", "JK", "JK", "5S"]], pile=["JK"])
    t.apply(("take", 0))
    assert ("stop",) not in t.legal()
    t.apply(meld("JK", "JK", "JK"))
    assert ("stop",) in t.legal()
    assert t.hand(0) == ["5S", "JK"]


def test_P6_1_stop_is_illegal_while_the_target_is_pending(impl):
    """P6.1: the target must go on the table before the discard."""
    t = Table(impl, [["9H", "9D", "2S"]], pile=["9C"])
    t.apply(("take", 0))
    assert t.legal() == {meld("9C", "9D", "9H")}
    t.assert_illegal(("stop",))
    t.assert_illegal(("discard", "2S"))
    t.apply(meld("9C", "9D", "9H"))
    assert t.legal() == {("stop",)}
    t.apply(("stop",))
    assert t.legal() == {("discard", "2S")}


def test_P6_1_plays_that_would_strand_the_target_are_not_offered(impl):
    """P6.1: while the target is pending, a play is offered only if the target stays placeable."""
    # 8H is needed to chain 9H onto the run: melding the 8s would strand 9H
    t = Table(impl, [["8H", "8C", "8D", "2S"]], pile=["9H"], melds=[(1, ["5H", "6H", "7H"])])
    t.apply(("take", 0))
    assert t.legal() == {("layoff", "8H", 0)}
    t.assert_illegal(meld("8C", "8D", "8H"))
    t.apply(("layoff", "8H", 0))
    assert t.legal() == {("layoff", "9H", 0)}
    t.apply(("layoff", "9H", 0))
    assert t.legal() == {("stop",)}

    # laying 8H off onto the set of eights would strand 9H; onto the run it keeps the chain
    t = Table(impl, [["8H"]], pile=["9H"], melds=[(1, ["5H", "6H", "7H"]), (3, ["8C", "8D", "8S"])])
    t.apply(("take", 0))
    assert t.legal() == {("layoff", "8H", 0)}
    t.assert_illegal(("layoff", "8H", 1))

    # a set of three without the target is fine: the target can still be laid off onto it
    t = Table(impl, [["9H", "9D", "9S", "2S"]], pile=["9C"])
    t.apply(("take", 0))
    assert t.legal() == {
        meld("9C", "9D", "9H", "9S"), meld("9C", "9D", "9H"), meld("9C", "9D", "9S"),
        meld("9C", "9H", "9S"), meld("9D", "9H", "9S"),
    }
    t.apply(meld("9D", "9H", "9S"))
    assert t.legal() == {("layoff", "9C", 0)}


# =========================================================================== P6.2 empty stock
def test_P6_2_pass_is_illegal_while_the_stock_has_cards(impl):
    """P6.2: no pass while the stock has cards."""
    t = Table(impl, [["7C", "7D"]], pile=["7H"], stock=["2D"])
    assert t.legal() == {("stock",), ("take", 0)}
    t.assert_illegal(("pass",))


def test_P6_2_pass_is_legal_on_an_empty_stock_and_ends_the_turn(impl):
    """P6.2: on an empty stock the player takes (as in P6.1) or passes, even when a take is
    legal [choice]; a pass ends the turn at once: no plays, no discard."""
    t = Table(impl, [["7C", "7D"]], pile=["7H"], stock=[])
    assert t.legal() == {("pass",), ("take", 0)}
    t.apply(("pass",))
    assert t.seat == 1 and t.phase == "draw" and t.turns() == 1
    assert t.hand(0) == ["7C", "7D"] and t.pile() == ["7H"]


def test_P6_2_nothing_to_draw_means_pass(impl):
    """P6.2: a player who can neither draw nor take must pass."""
    assert Table(impl, [["7C"]], pile=[], stock=[]).legal() == {("pass",)}
    assert Table(impl, [["7C"]], pile=["9D"], stock=[]).legal() == {("pass",)}


# =========================================================================== P6.3 plays
def test_P6_3_layoff_on_a_run_below_its_lowest_and_above_its_highest_card(impl):
    """P6.3: a run takes the card directly below its lowest or above its highest card, and
    keeps growing card by card."""
    t = Table(impl, [["4H", "8H", "3H", "TH", "2C"]], stock=["QC"], melds=[(1, ["5H", "6H", "7H"])])
    t.apply(("stock",))
    assert t.plays() == {("layoff", "4H", 0), ("layoff", "8H", 0)}
    t.assert_illegal(("layoff", "3H", 0))
    t.assert_illegal(("layoff", "TH", 0))
    t.apply(("layoff", "4H", 0))
    assert t.plays() == {("layoff", "3H", 0), ("layoff", "8H", 0)}
    t.apply(("layoff", "3H", 0), ("layoff", "8H", 0))
    assert t.melds() == [sorted(["3H", "4H", "5H", "6H", "7H", "8H"])]
    assert t.plays() == set()  # 9H is missing, so TH still does not fit


def test_P6_3_no_layoff_below_2_or_above_ace(impl):
    """P6.3: nothing goes below a 2 or above an ace (aces high only, P5); a run up to the
    king takes the ace."""
    table = [(1, ["2H", "3H", "4H"]), (3, ["QS", "KS", "AS"]), (2, ["TD", "JD", "QD", "KD"])]
    t = Table(impl, [["AH", "2S", "JS", "5H", "AD"]], stock=["9C"], melds=table)
    t.apply(("stock",))
    assert t.plays() == {("layoff", "5H", 0), ("layoff", "JS", 1), ("layoff", "AD", 2)}
    t.assert_illegal(("layoff", "AH", 0))
    t.assert_illegal(("layoff", "2S", 1))
    t.apply(("layoff", "AD", 2), ("layoff", "JS", 1), ("layoff", "5H", 0))
    assert t.plays() == set()
    assert t.melds()[2] == sorted(["TD", "JD", "QD", "KD", "AD"])


def test_P6_3_layoff_on_sets_and_joker_sets(impl):
    """P6.3: a set of 3 takes the fourth card of its rank, a joker set of 3 takes a joker;
    a set of 4 takes nothing more."""
    table = [(1, ["7C", "7D", "7H"]), (2, ["JK", "JK", "JK"]), (3, ["9C", "9D", "9H", "9S"])]
    t = Table(impl, [["7S", "JK", "8S"]], stock=["6D"], melds=table)
    t.apply(("stock",))
    assert t.plays() == {("layoff", "7S", 0), ("layoff", "JK", 1)}
    t.assert_illegal(("layoff", "8S", 0))
    t.assert_illegal(("layoff", "7S", 2))
    t.apply(("layoff", "JK", 1))
    assert t.plays() == {("layoff", "7S", 0)}


@pytest.mark.parametrize("owner, seat", [(1, 0), (2, 0), (0, 0), (0, 1), (2, 3)])
def test_P6_3_layoff_scores_for_the_players_team_whoever_owns_the_meld(impl, owner, seat):
    """P6.3/P2: a card laid off onto any meld (own, partner's, opponent's) scores for the
    team of the player who puts it down."""
    t = Table(impl, [["2C"], ["3C"], ["4C"], ["5C"]], stock=["7S"], melds=[(owner, ["7C", "7D", "7H"])], to_move=seat)
    t.apply(("stock",), ("layoff", "7S", 0))
    expect = [0, 0]
    expect[seat % 2] = 7
    assert t.table_points() == expect
    assert t.melds() == [["7C", "7D", "7H", "7S"]]


# =========================================================================== P6.4 going out
def test_P6_4_going_out_by_a_meld_ends_the_deal_with_the_bonus(impl):
    """P6.4: a play that empties the hand ends the deal at once (no discard); P8: +25."""
    t = Table(impl, [["KC", "KD"], ["4D"], ["5D"], ["6D"]], pile=["KH"])
    t.apply(("take", 0), meld("KC", "KD", "KH"))
    assert t.phase == "over" and t.end == "out" and t.out_seat == 0
    assert t.legal() == set()
    t.assert_illegal(("discard", "KH"))
    assert t.score() == {"table": [30, 0], "hand": [5, 10], "bonus": [25, 0], "total": [50, -10]}


def test_P6_4_going_out_by_layoffs(impl):
    """P6.4: lay-offs can empty the hand too; only the last card ends the deal."""
    table = [(1, ["7C", "7D", "7H"]), (3, ["9S", "TS", "JS"])]
    t = Table(impl, [["7S"], ["4D"], ["5D"], ["6D"]], pile=["8S"], melds=table, to_move=0)
    t.apply(("take", 0), ("layoff", "8S", 1))
    assert t.phase == "play" and t.end is None
    assert t.plays() == {("layoff", "7S", 0), ("layoff", "7S", 1)}
    t.apply(("layoff", "7S", 1))
    assert t.end == "out" and t.out_seat == 0
    assert t.score() == {"table": [15, 0], "hand": [5, 10], "bonus": [25, 0], "total": [35, -10]}


def test_P6_4_a_play_that_leaves_cards_does_not_end_the_deal(impl):
    """P6.4: only putting the last card on the table ends the deal."""
    t = Table(impl, [["KC", "KD", "2C"]], pile=["KH"])
    t.apply(("take", 0), meld("KC", "KD", "KH"))
    assert t.phase == "play" and t.end is None
    assert t.legal() == {("stop",)}


# =========================================================================== P6.5 discard
def test_P6_5_any_card_may_be_discarded(impl):
    """P6.5: any card in hand may be discarded; it goes on top of the pile."""
    t = Table(impl, [["JK", "JK", "KD"]], pile=["9C"], stock=["3C"])
    t.apply(("stock",), ("stop",))
    assert t.legal() == {("discard", "JK"), ("discard", "KD"), ("discard", "3C")}
    t.apply(("discard", "KD"))
    assert t.pile() == ["KD", "9C"] and t.hand(0) == ["3C", "JK", "JK"]
    assert t.seat == 1 and t.phase == "draw"


def test_P6_5_emptying_the_hand_by_a_discard_does_not_end_the_deal_under_last_card_meld(impl):
    """P6.5 [choice] last_card = meld (default): the player keeps taking turns with an empty
    hand and can still go out later by putting a drawn card on the table."""
    table = [(2, ["9D", "TD", "JD"])]
    t = Table(impl, [[], ["8S"], ["6S"], ["4S"]], pile=[], stock=["AS", "3C", "4C", "5C", "QD"], melds=table)
    t.apply(("stock",), ("stop",))
    assert t.legal() == {("discard", "AS")}
    t.apply(("discard", "AS"))
    assert t.end is None and t.phase == "draw" and t.seat == 1 and t.hand(0) == []
    for _ in range(3):  # seats 1, 2, 3 draw and throw their card back
        t.apply(("stock",))
        stop_and_discard(t, sorted(set(t.hand(t.seat)) & {"3C", "4C", "5C"})[0])
    assert t.seat == 0 and t.phase == "draw"
    t.apply(("stock",))
    assert t.hand(0) == ["QD"]
    t.apply(("layoff", "QD", 0))
    assert t.end == "out" and t.out_seat == 0
    assert t.score()["bonus"] == [25, 0]


@pytest.mark.parametrize("last_card, over", [("meld", False), ("discard", True)])
def test_P6_5_last_card_option(impl, last_card, over):
    """P6.5: under last_card = discard (500 Rum style) emptying the hand by the discard ends the
    deal with the bonus; under meld it does not."""
    t = Table(impl, [[], ["8S"], ["6S"], ["4S"]], pile=["9C"], stock=["AS", "3C"], rules={"last_card": last_card})
    t.apply(("stock",), ("stop",), ("discard", "AS"))
    if over:
        assert t.phase == "over" and t.end == "out" and t.out_seat == 0
        assert t.score() == {"table": [0, 0], "hand": [6, 12], "bonus": [25, 0], "total": [19, -12]}
    else:
        assert t.phase == "draw" and t.end is None and t.seat == 1


def test_P6_5_last_card_discard_still_ends_by_a_play_too(impl):
    """P6.4 holds under either last_card option."""
    t = Table(impl, [["KC", "KD"], ["4D"], ["5D"], ["6D"]], pile=["KH"], rules={"last_card": "discard"})
    t.apply(("take", 0), meld("KC", "KD", "KH"))
    assert t.end == "out" and t.score()["bonus"] == [25, 0]


# =========================================================================== P7 end of a deal
def test_P7_four_consecutive_passes_end_the_deal(impl):
    """P7 (b): the stock is empty and four turns in a row were passes."""
    t = Table(impl, [["2S"], ["3S"], ["4S"], ["5S"]], pile=["KH"], stock=[])
    for i in range(3):
        t.apply(("pass",))
        assert t.phase == "draw" and t.end is None and t.turns() == i + 1
    t.apply(("pass",))
    assert t.phase == "over" and t.end == "passes" and t.out_seat is None
    assert t.legal() == set()
    assert t.score() == {"table": [0, 0], "hand": [6, 8], "bonus": [0, 0], "total": [-6, -8]}


def test_P7_a_non_pass_resets_the_pass_count(impl):
    """P7: only four passes IN A ROW end the deal."""
    t = Table(impl, [["2S"], ["QC", "QD", "3S"], ["4S"], ["5S"]], pile=["QH"], stock=[])
    t.apply(("pass",))
    t.apply(("take", 0), meld("QC", "QD", "QH"))
    stop_and_discard(t, "3S")
    for _ in range(3):  # seats 2, 3, 0 (seat 1 took; the count restarted)
        t.apply(("pass",))
    assert t.phase == "draw" and t.end is None and t.seat == 1
    t.apply(("pass",))
    assert t.end == "passes"
    assert t.score() == {"table": [0, 30], "hand": [6, 5], "bonus": [0, 0], "total": [-6, 25]}


@pytest.mark.parametrize("PosOrRef", [
    Position,
    NaiveDeal,
], ids=["Position", "NaiveDeal"])
def test_P7_turn_count_includes_the_turn_that_ends_the_deal(PosOrRef):
    """P7: the engine's result row counts the turn that ended the deal (C_TURNS); the
    stepping API should report the same number."""
    d = PosOrRef(hands=[["2S"], ["3S"], ["4S"], ["5S"]], discard_pile=["KH"], stock=[], dealer=3, to_move=0)
    for _ in range(4):
        d.apply(("pass",))
    assert d.turns == 4
    d = PosOrRef(hands=[["KC", "KD"], ["4D"], ["5D"], ["6D"]], discard_pile=["KH"], stock=[], dealer=3, to_move=0)
    d.apply(("take", 0))
    d.apply(meld("KC", "KD", "KH"))
    assert d.turns == 1


def test_P7_turn_cap_ends_the_deal_as_cap_without_bonus(impl):
    """P7: a deal stopped at the turn cap is marked cap and scored like one ended by passes
    (table points - hand penalty, no bonus)."""
    t = Table(impl, [["KS", "KD", "9S"], ["3S"], ["4S"], ["5S"]], pile=["KH"],
              stock=["6C", "7C", "8C", "9C"], rules={"turn_cap": 4})
    t.apply(("take", 0), meld("KD", "KH", "KS"))
    stop_and_discard(t, "9S")
    for seat, card in ((1, "6C"), (2, "7C")):
        assert t.seat == seat and t.end is None
        t.apply(("stock",))
        stop_and_discard(t, card)
    assert t.seat == 3 and t.phase == "draw" and t.end is None and t.turns() == 3
    t.apply(("stock",))
    stop_and_discard(t, "8C")
    assert t.phase == "over" and t.end == "cap" and t.out_seat is None
    assert t.legal() == set()
    assert t.score() == {"table": [30, 0], "hand": [4, 8], "bonus": [0, 0], "total": [26, -8]}


# =========================================================================== P8 scoring
def melded_points(impl, cards, rules=None):
    t = Table(impl, [list(cards) + ["2S"]], stock=["9C"], rules=rules)
    t.apply(("stock",), meld(*cards))
    return t


def test_P8_four_jacks_at_once_80_three_plus_a_fourth_laid_off_40(impl):
    """P8: four of a kind melded as one new meld counts double; a later fourth card does not."""
    jacks = ["JC", "JD", "JH", "JS"]
    assert melded_points(impl, jacks).table_points() == [80, 0]
    t = Table(impl, [jacks + ["2S"]], stock=["9C"])
    t.apply(("stock",), meld("JC", "JD", "JH"), ("layoff", "JS", 0))
    assert t.table_points() == [40, 0]
    # the fourth jack laid off later by an opponent scores 10 for the opponent's team
    t = Table(impl, [["JC", "JD", "JH", "2S"], ["JS", "3C"]], stock=["9C", "9D"])
    t.apply(("stock",), meld("JC", "JD", "JH"))
    stop_and_discard(t, "2S")
    t.apply(("stock",), ("layoff", "JS", 0))
    assert t.table_points() == [30, 10]


def test_P8_four_jokers_at_once_160(impl):
    """P8: four jokers melded at once are worth 160; three jokers 60."""
    assert melded_points(impl, ["JK"] * 4).table_points() == [160, 0]
    assert melded_points(impl, ["JK"] * 3).table_points() == [60, 0]


def test_P8_no_doubling_when_four_of_a_kind_double_is_off(impl):
    """P8 rule option four_of_a_kind_double = false: four of a kind counts face value."""
    off = {"four_of_a_kind_double": False}
    assert melded_points(impl, ["JC", "JD", "JH", "JS"], off).table_points() == [40, 0]
    assert melded_points(impl, ["JK"] * 4, off).table_points() == [80, 0]


def test_P8_runs_never_double(impl):
    """P8: a four-card run counts its face value."""
    assert melded_points(impl, ["5H", "6H", "7H", "8H"]).table_points() == [26, 0]


def test_P8_melds_already_on_the_table_score_nothing(impl):
    """P8: only cards a team's players put down score (hand-made table melds are free)."""
    t = Table(impl, [["2S"], ["3S"], ["4S"], ["5S"]], stock=[], melds=[(0, ["KC", "KD", "KH"])])
    for _ in range(4):
        t.apply(("pass",))
    assert t.score()["table"] == [0, 0]


def test_P8_hand_penalty_and_totals_can_go_negative(impl):
    """P8: table points - hand penalty (+ out bonus), per team; partners' hands add up."""
    hands = [["QC", "QD", "AS"], ["JK", "KH"], ["9H", "2D"], ["TS"]]
    t = Table(impl, hands, pile=["QH"], stock=["3D"])
    t.apply(("take", 0), meld("QC", "QD", "QH"))
    stop_and_discard(t, "AS")
    t.apply(("stock",))  # seat 1 draws the last stock card, 3D
    stop_and_discard(t, "3D")
    for _ in range(4):  # seats 2, 3, 0, 1 pass on the empty stock
        t.apply(("pass",))
    assert t.end == "passes"
    assert t.score() == {
        "table": [30, 0],
        "hand": [9 + 2, 20 + 10 + 10],
        "bonus": [0, 0],
        "total": [30 - 11, -40],
    }


@pytest.mark.parametrize("bonus", [25, 0, 40, 100])
def test_P8_out_bonus_option_sets_the_bonus(impl, bonus):
    """P8 rule option out_bonus: the team whose player went out gets it, the other nothing."""
    t = Table(impl, [["4D"], ["KC", "KD"], ["5D"], ["6D"]], pile=["KH"], to_move=1, rules={"out_bonus": bonus})
    t.apply(("take", 0), meld("KC", "KD", "KH"))
    assert t.end == "out" and t.out_seat == 1
    assert t.score() == {"table": [0, 30], "hand": [9, 6], "bonus": [0, bonus], "total": [-9, 24 + bonus]}


# =========================================================================== P10 information
def test_P10_observation_shows_own_hand_and_public_state_only():
    """P10: a strategy sees its own hand, the hand sizes and the public state; the other
    hands and the stock live after the observation part of the state. (Engine only.)"""
    hands = [["KC", "KD"], ["4D"], ["5D", "6D"], ["7D"]]
    pos = Position(hands, ["KH"], ["2C", "3C"], dealer=3, to_move=0)
    obs = pos.observation()
    assert obs.shape == (E.OBS_SIZE,) and E.OBS_SIZE <= E.S_HANDS
    assert obs[E.O_HAND] == names_to_mask(hands[0])
    assert obs[E.O_HAND_SIZES : E.O_HAND_SIZES + 4].tolist() == [2, 1, 2, 1]
    assert obs[E.O_STOCK_N] == 2 and obs[E.O_PILE_N] == 1
    values = set(obs.tolist())
    for seat in (1, 2, 3):
        assert names_to_mask(hands[seat]) not in values


# =========================================================================== property: random positions
UNIVERSE = [r + s for r in "56789T" for s in "HS"] + ["7C", "7D", "8C", "8D", "QC", "KC", "AC", "4H"]
# table melds next to the universe's cards: runs to extend up or down (chains), a set
# of 3 to complete, a joker set (the pool then keeps one joker)
TABLE_CHOICES = [
    ["2S", "3S", "4S"],
    ["JH", "QH", "KH"],
    ["6C", "6D", "6H"],
    ["JK", "JK", "JK"],
    ["9C", "TC", "JC"],
]


@given(st.data())
def test_P5_P6_random_positions_give_identical_legal_sets(data):
    """P5, P6.1-P6.5: random small positions rich in runs, sets, jokers and lay-off chains;
    both implementations must offer the same legal moves at every step of a random walk."""
    impl = data.draw(st.sampled_from(IMPLS))
    table_idx = data.draw(st.lists(st.integers(0, len(TABLE_CHOICES) - 1), unique=True, max_size=4))
    melds = [(data.draw(st.integers(0, 3)), list(TABLE_CHOICES[i])) for i in table_idx]
    jokers_left = 4 - sum(m.count("JK") for _, m in melds)
    on_table = {c for _, m in melds for c in m}
    pool = data.draw(st.permutations([c for c in UNIVERSE if c not in on_table] + ["JK"] * jokers_left))
    n_hand = data.draw(st.integers(0, 8))
    n_pile = data.draw(st.integers(0, 5))
    n_stock = data.draw(st.integers(0, 2))
    hand, pile = pool[:n_hand], pool[n_hand : n_hand + n_pile]
    stock = pool[n_hand + n_pile : n_hand + n_pile + n_stock]
    rest = pool[n_hand + n_pile + n_stock :]
    others = [[rest[0]], [rest[1]], [rest[2]]]
    t = Table(impl, [hand] + others, pile=pile, stock=stock, melds=melds,
              rules={"last_card": data.draw(st.sampled_from(["meld", "discard"]))})
    for _ in range(25):
        moves = sorted(t.legal())
        if not moves:
            break
        t.apply(moves[data.draw(st.integers(0, len(moves) - 1))])
