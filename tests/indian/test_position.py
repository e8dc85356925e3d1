"""Indian ``Position`` (sim.games.indian.position) against the engine: a deal stepped by
Position with the engine's strategies is the engine's deal (the same result row, the same
events), hand-entered positions are checked with one clear error each, and a move applied
by its readable tuple does what the rules say (I3-I8)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.indian import enums as E
from sim.games.indian.cards import kind_name
from sim.games.indian.engine import kernel_args, parse_specs, run_deals
from sim.games.indian.position import Position, check_state
from sim.plugin.strategy import call_from_python

SEED = 4242


def step_deal(specs, deal, rules=None) -> Position:
    """Play ``deal`` by Position, each seat's strategy asked as the engine asks it."""
    sids, params, fns = kernel_args(parse_specs(specs))
    pos = Position.from_deal(SEED, deal, len(specs), rules)
    while pos.decision != "over":
        obs, rows = pos.view()
        idx = 0
        if len(rows) > 1:
            idx = call_from_python(fns[pos.seat], int(pos.st[E.O_DECISION]), obs, rows.copy(), len(rows),
                                   params[pos.seat].copy(), pos.streams[pos.seat])
        pos.apply_row(rows[idx])
    return pos


TABLES = [
    ["greedy", "random", "dropper", "expert"],  # drops, wrong declarations, valid ones
    ["random", "random"],
    ["defensive", "joker_keeper", "random", "greedy", "dropper", "random"],
]


@pytest.mark.parametrize("specs", TABLES, ids=lambda t: f"x{len(t)}")
def test_stepped_deals_reproduce_the_engines_rows_and_events(specs):
    deals = 12
    run = run_deals(specs, deals, SEED, record=1)
    for i in range(deals):
        pos = step_deal(specs, i)
        assert np.array_equal(pos.result_row(), run.results[i]), f"deal {i}: result row differs"
        assert np.array_equal(pos.events(), run.deal_events(i)), f"deal {i}: events differ"
    p = len(specs)
    left = run.results[:, E.C_DROP:E.C_DROP + p].any() or run.results[:, E.C_WRONG:E.C_WRONG + p].any()
    assert left  # seats leaving the deal (I5, I7) are among the deals compared


def test_turn_cap_and_two_decks_reproduced():
    specs = ["random", "greedy", "random"]
    for rules in ({"turn_cap": 7}, {"decks": 2, "max_points": 60}):
        run = run_deals(specs, 6, SEED, rules=rules, record=1)
        for i in range(6):
            pos = step_deal(specs, i, rules)
            assert np.array_equal(pos.result_row(), run.results[i]) and np.array_equal(pos.events(), run.deal_events(i))
    assert step_deal(specs, 0, {"turn_cap": 7}).end == "cap"


def test_from_deal_is_the_dealt_position():
    pos = Position.from_deal(SEED, 5, players=4)
    assert pos.seat == (5 % 4 + 1) % 4 and pos.decision == "draw" and pos.turn == 0
    assert all(len(pos.hand(s)) == E.HAND_SIZE for s in range(4)) and len(pos.pile()) == 1
    assert len(pos.stock()) == 162 - 4 * 13 - 1  # the cut joker is the stock's bottom card (I2)
    assert pos.stock()[-1] == kind_name(int(pos.st[E.O_CUT_JOKER]))
    assert pos.legal_moves() == [("stock",), ("pile", pos.pile()[0]), ("drop",)]
    obs, rows = pos.view()
    assert np.array_equal(obs[E.O_HAND:E.O_HAND + E.N_KINDS],
                          pos.st[E.S_HANDS + pos.seat * E.N_KINDS:E.S_HANDS + (pos.seat + 1) * E.N_KINDS])


def small_position(**kw) -> Position:
    hands = [["2C", "3C", "4C", "5C", "7D", "7H", "7S", "9D", "TD", "JD", "KS", "KH", "AS"],
             ["2D", "3D", "5H", "6H", "8C", "8D", "QS", "QH", "4S", "6S", "9C", "TC", "JC"]]
    args = dict(hands=hands, discard_pile=["QC", "2H"], stock=["4D", "3H", "6C"], cut_joker="9S", dealer=1)
    args.update(kw)
    return Position(**args)


def test_I3_I5_a_hand_entered_position_steps_by_the_rules():
    pos = small_position()
    assert pos.seat == 0 and pos.decision == "draw" and pos.wild_rank == 7  # nines are wild (I2)
    pos.apply(("pile", "QC"))  # I3: only the top card of the pile
    assert pos.decision == "discard" and len(pos.hand(0)) == 14 and pos.pile() == ["2H"]
    assert ("declare", "QC") in pos.legal_moves()
    # 2-3-4-5C pure run of four, 7D 7H 7S set, 9D(wild) TD JD ... QC discarded: TD JD 9D is an impure run,
    # KS KH AS is no group: a wrong declaration (I5)
    pos.apply(("declare", "QC"))
    assert pos.end == "last_player" and pos.winner == 1 and pos.points() == [80, 0]
    assert pos.legal_rows().shape == (0, E.MOVE_COLS)
    with pytest.raises(ValueError, match="over"):
        pos.apply_row(np.array([E.MV_STOCK, 0, 0, 0]))


def test_I7_drop_and_I8_reshuffle_in_a_hand_entered_position():
    pos = small_position(stock=[], discard_pile=["QC", "2H", "6C"], seed=3)
    assert pos.stock() and pos.pile() == ["QC"]  # I8: the pile but its top card became the stock
    assert sorted(pos.stock()) == ["2H", "6C"] and pos.events()[0][0] == E.EV_RESHUFFLE
    pos = small_position(has_drawn=[False, False])
    pos.apply(("drop",))
    assert pos.end == "last_player" and pos.points() == [20, 0]  # a first drop (I7)
    pos = small_position(has_drawn=[True, True])
    pos.apply(("drop",))
    assert pos.points() == [40, 0]  # a middle drop


def test_illegal_moves_are_named():
    pos = small_position()
    with pytest.raises(ValueError, match=r"illegal move \('pile', '2H'\).*legal: \('stock',\)"):
        pos.apply(("pile", "2H"))
    with pytest.raises(ValueError, match="illegal move row"):
        pos.apply_row(np.array([E.MV_DISCARD, 0, 0, 0]))


@pytest.mark.parametrize("change, message", [
    (dict(hands=[["2C"] * 13, ["3C"] * 13]), "copies of 2C"),
    (dict(stock=["4D", "3H", "6C", "4D", "4D", "4D"]), "copies of 4D"),
    (dict(decision="discard"), "seat 0 holds 13 cards; it should hold 14"),
    (dict(to_move=2), "to_move must be a seat"),
    (dict(out={1: "first_drop"}), "seat 1 is out of the deal"),
    (dict(out={1: "asleep"}), "out of the deal as 'asleep'"),
    (dict(cut_joker="1X"), "bad card"),
    (dict(pickups=[["KD"], []]), "took KD from the pile"),
    (dict(decision="doze"), "decision must be one of"),
    (dict(stock=[], discard_pile=[]), "nothing to draw"),
    (dict(dealer=5), "dealer must be a seat"),
])
def test_inconsistent_positions_are_refused_with_one_clear_line(change, message):
    with pytest.raises(ValueError, match=message) as err:
        small_position(**change)
    assert "\n" not in str(err.value)


def test_check_state_refuses_edited_states():
    st = Position.from_deal(SEED, 1, players=3).st.copy()
    check_state(st)
    bad = st.copy()
    bad[E.O_TOP] = (bad[E.O_TOP] + 1) % 52
    with pytest.raises(ValueError, match="top slot"):
        check_state(bad)
    bad = st.copy()
    bad[E.O_WILD_RANK] = (bad[E.O_WILD_RANK] + 1) % 13
    with pytest.raises(ValueError, match="wild rank"):
        check_state(bad)
    bad = st.copy()
    bad[E.S_HANDS] += 1
    with pytest.raises(ValueError, match="hand size slot"):
        check_state(bad)
    with pytest.raises(ValueError, match="slots"):
        Position.from_state(st[:-1])


def test_from_state_wraps_a_mid_deal_state():
    """A state taken mid-deal and wrapped again is at the same decision with the same moves."""
    specs = ["greedy", "random", "dropper"]
    sids, params, fns = kernel_args(parse_specs(specs))
    for i in range(3):
        pos = Position.from_deal(SEED, i, 3)
        for _ in range(9):
            if pos.decision == "over":
                break
            obs, rows = pos.view()
            idx = 0 if len(rows) == 1 else call_from_python(fns[pos.seat], int(pos.st[E.O_DECISION]), obs,
                                                            rows.copy(), len(rows), params[pos.seat].copy(),
                                                            pos.streams[pos.seat])
            pos.apply_row(rows[idx])
        if pos.decision == "over":
            continue
        again = Position.from_state(pos.st)
        assert again.decision == pos.decision and again.legal_moves() == pos.legal_moves()
        assert again.hand(again.seat) == pos.hand(pos.seat) and np.array_equal(again.observation(), pos.observation())
