"""Tests for card names (cards.py), the rummy-log/1 builder and files (log.py) and the replay (show.py).

One hand-made deal covers every kind of turn: stock draws, a take at depth 2
(whose card order must come from the discard pile), melds, lay-offs, discards,
a pass on the empty stock and going out by lay-offs. Its log is checked field
by field against /work/shared/LOG_FORMAT.md.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from sim.games.persian.cards import (
    card_name, card_value, mask_to_ids, mask_to_names, names_to_mask, parse_card, pretty, sort_key,
)
from sim.games.persian.enums import (
    END_OUT, EV_DECISION, EV_DISCARD, EV_END, EV_LAYOFF, EV_LEGAL, EV_MELD, EV_PASS, EV_STOCK,
    EV_TAKE, JOKER0,
)
from sim.games.persian.log import (
    TOP_KEYS, build_deal_log, read_deal, read_jsonl, validate_log, write_jsonl,
)
from sim.games.persian.show import render_deal

P = parse_card
RULES = {"last_card": "meld", "out_bonus": 25, "four_of_a_kind_double": True, "deals_per_game": 2}
STRATS = ["greedy", "random", "greedy(depth=2)", "random"]


def m(*names: str) -> int:
    return names_to_mask(names)


# --- cards.py --------------------------------------------------------------------------------


def test_card_names_round_trip() -> None:
    assert card_name(P("TD")) == "TD" and P("TD") == 1 * 13 + 8
    assert P("AS") == 51 and card_name(0) == "2C"
    assert [card_name(c) for c in range(JOKER0, 56)] == ["JK"] * 4
    assert P("JK") == 52 and P("10d") == P("TD")
    for c in range(52):
        assert P(card_name(c)) == c
    for bad in ("", "1D", "TX", "ZS", "JKK", "11H"):
        with pytest.raises(ValueError, match="bad card name"):
            P(bad)
    with pytest.raises(ValueError):
        card_name(56)


def test_masks_values_pretty() -> None:
    assert names_to_mask(["JK", "JK", "2C"]) == (1 << 52) | (1 << 53) | 1
    assert mask_to_ids(m("AS", "2C", "JK")) == [0, 51, 52]
    assert mask_to_names(m("AS", "2C", "JK", "JK")) == ["2C", "AS", "JK", "JK"]
    with pytest.raises(ValueError, match="twice"):
        names_to_mask(["2C", "2C"])
    with pytest.raises(ValueError, match="jokers"):
        names_to_mask(["JK"] * 5)
    assert [card_value(P(n)) for n in ("JK", "AS", "KD", "QH", "JC", "TS", "9S", "2C")] == [
        20, 15, 10, 10, 10, 10, 9, 2]
    assert pretty(P("TD")) == "10♦" and pretty(P("AS")) == "A♠" and pretty(53) == "Jk"
    assert "\x1b[31m" in pretty(P("TH"), color=True)
    hand = sorted([P("2S"), 53, P("AC"), P("3D"), P("2C")], key=sort_key)
    assert [card_name(c) for c in hand] == ["2C", "AC", "3D", "2S", "JK"]


# --- the hand-made deal ----------------------------------------------------------------------------


def make_deal() -> dict:
    """Dealer 3, so seat 0 plays first. Returns the keyword arguments of build_deal_log.

    T1  s0 draws 7H, melds 5H 6H 7H (meld 0), discards 9C      pile TC 9C
    T2  s1 draws 8C, melds KD KH KS (1) and 7S 8S 9S (2), discards 8C   pile TC 9C 8C
    T3  s2 takes depth 2 = 8C 9C TC (target TC), melds 8C..QC (3), lays 4H onto 0, discards 2S
    T4..T28  each seat draws the stock top and discards it (T28: s3, the last card JS)
    T29 s0 passes;  T30 s1 takes JS at depth 0, lays TS and JS onto meld 2 and goes out.
    """
    s0 = [P(n) for n in ("5H", "6H", "9C")]
    s1 = [P(n) for n in ("KS", "KH", "KD", "7S", "8S", "9S", "TS")]
    s2 = [P(n) for n in ("JC", "QC", "4H", "2S")]
    discard = P("TC")
    named = set(s0 + s1 + s2) | {discard, P("7H"), P("8C"), P("JS")}
    rest = [c for c in range(56) if c not in named]  # 38 filler cards
    s0 += rest[:4]
    s2 += rest[4:7]
    s3 = rest[7:14]
    stock = [P("7H"), P("8C")] + rest[14:38] + [P("JS")]
    assert len(stock) == 27

    ev: list[tuple[int, int, int, int, int]] = []
    ev += [(EV_DECISION, 0, 0, 2, 0), (EV_LEGAL, 0, 0, 0, 0), (EV_STOCK, 0, P("7H"), 0, 0)]
    ev += [(EV_MELD, 0, m("5H", "6H", "7H"), 0, 0), (EV_DISCARD, 0, P("9C"), 0, 0)]
    ev += [(EV_STOCK, 1, P("8C"), 0, 0), (EV_MELD, 1, m("KS", "KH", "KD"), 0, 0),
           (EV_MELD, 1, m("7S", "8S", "9S"), 0, 0), (EV_DISCARD, 1, P("8C"), 0, 0)]
    ev += [(EV_TAKE, 2, 2, m("8C", "9C", "TC"), 0), (EV_MELD, 2, m("8C", "9C", "TC", "JC", "QC"), 0, 0),
           (EV_LAYOFF, 2, P("4H"), 0, 0), (EV_DISCARD, 2, P("2S"), 0, 0)]
    for i, card in enumerate(stock[2:]):
        seat = (3 + i) % 4
        ev += [(EV_STOCK, seat, card, 0, 0), (EV_DISCARD, seat, card, 0, 0)]
    ev += [(EV_PASS, 0, 0, 0, 0)]
    ev += [(EV_TAKE, 1, 0, m("JS"), 0), (EV_LAYOFF, 1, P("TS"), 2, 0), (EV_LAYOFF, 1, P("JS"), 2, 0)]
    ev += [(EV_END, 1, END_OUT, 0, 0)]

    table = [18 + 47 + 4, 30 + 24 + 10 + 10]
    hand = [sum(card_value(c) for c in rest[:4] + rest[4:7]), sum(card_value(c) for c in s3)]
    bonus = [0, 25]
    result = {"end": "out", "out_seat": 1, "table": table, "hand": hand, "bonus": bonus,
              "total": [table[t] - hand[t] + bonus[t] for t in range(2)]}
    return dict(seed=12345, deal=7, dealer=3, rules=RULES, strategies=STRATS,
                hands=[s0, s1, s2, s3], discard=discard, stock=stock,
                events=np.array(ev, dtype=np.int64), result=result)


def test_build_deal_log_fields() -> None:
    kw = make_deal()
    d = build_deal_log(**kw)
    assert list(d) == list(TOP_KEYS)
    assert d["format"] == "rummy-log/1" and d["game"] == "persian"
    assert d["rules"] == RULES and d["seed"] == 12345 and d["deal"] == 7 and d["dealer"] == 3
    assert d["strategies"] == STRATS
    assert d["hands"][1] == ["KS", "KH", "KD", "7S", "8S", "9S", "TS"]
    assert all(len(h) == 7 for h in d["hands"])
    assert d["discard"] == ["TC"]
    assert d["stock"][:2] == ["7H", "8C"] and d["stock"][-1] == "JS" and len(d["stock"]) == 27

    turns = d["turns"]
    assert len(turns) == 30
    assert all(list(t) == ["seat", "draw", "plays", "discard"] for t in turns)
    assert turns[0] == {"seat": 0, "draw": {"stock": "7H"}, "plays": [{"meld": ["5H", "6H", "7H"]}],
                        "discard": "9C"}
    assert turns[1] == {"seat": 1, "draw": {"stock": "8C"},
                        "plays": [{"meld": ["KD", "KH", "KS"]}, {"meld": ["7S", "8S", "9S"]}],
                        "discard": "8C"}
    assert turns[2] == {"seat": 2, "draw": {"depth": 2, "cards": ["8C", "9C", "TC"]},
                        "plays": [{"meld": ["8C", "9C", "TC", "JC", "QC"]}, {"layoff": "4H", "onto": 0}],
                        "discard": "2S"}
    for t, turn in enumerate(turns[3:28], 3):
        assert turn["seat"] == t % 4 and turn["plays"] == []
        assert turn["draw"] == {"stock": d["stock"][t - 1]} and turn["discard"] == d["stock"][t - 1]
    assert turns[28] == {"seat": 0, "draw": "pass", "plays": [], "discard": None}
    assert turns[29] == {"seat": 1, "draw": {"depth": 0, "cards": ["JS"]},
                         "plays": [{"layoff": "TS", "onto": 2}, {"layoff": "JS", "onto": 2}],
                         "discard": None}
    assert d["end"] == "out" and d["out_seat"] == 1
    r = kw["result"]
    assert d["score"] == {"table": r["table"], "hand": r["hand"], "bonus": [0, 25], "total": r["total"]}
    assert list(d["score"]) == ["table", "hand", "bonus", "total"]
    validate_log(d)
    # plain JSON: serialises without numpy types and comes back identical
    assert json.loads(json.dumps(d)) == d


def test_take_mask_must_match_pile() -> None:
    kw = make_deal()
    ev = kw["events"].copy()
    row = np.flatnonzero(ev[:, 0] == EV_TAKE)[0]
    ev[row, 3] = m("8C", "9C", "2C")  # not the three top cards of the pile
    with pytest.raises(ValueError, match="pile"):
        build_deal_log(**{**kw, "events": ev})
    ev = kw["events"].copy()
    ev[row, 2] = 1  # depth 1 takes only 8C 9C, but the mask also has TC
    with pytest.raises(ValueError, match="depth 1"):
        build_deal_log(**{**kw, "events": ev})


def test_other_disagreements_raise() -> None:
    kw = make_deal()
    ev = kw["events"].copy()
    row = np.flatnonzero(ev[:, 0] == EV_STOCK)[0]
    ev[row, 2] = P("AC")  # not the stock top
    with pytest.raises(ValueError, match="stock top"):
        build_deal_log(**{**kw, "events": ev})
    with pytest.raises(ValueError, match="end"):
        build_deal_log(**{**kw, "result": {**kw["result"], "end": "passes", "out_seat": None}})
    ev = kw["events"][:-3]  # drop the final lay-offs: seat 1 never went out
    with pytest.raises(ValueError):
        build_deal_log(**{**kw, "events": ev})


def test_jsonl_round_trip_and_read_deal(tmp_path) -> None:
    kw = make_deal()
    logs = [build_deal_log(**{**kw, "deal": i}) for i in range(3)]
    path = tmp_path / "deals.jsonl"
    write_jsonl(path, logs)
    assert len(path.read_text(encoding="utf-8").splitlines()) == 3
    assert read_jsonl(path) == logs
    assert read_deal(path, 2) == logs[2]
    with pytest.raises(ValueError, match=r"deal 9 not in .*3 deals, numbered 0\.\.2"):
        read_deal(path, 9)


def test_validate_log_rejects_bad_fields() -> None:
    d = build_deal_log(**make_deal())
    bad = json.loads(json.dumps(d))
    del bad["turns"][4]["discard"]
    with pytest.raises(ValueError, match=r"turns\[4\]\.discard"):
        validate_log(bad)
    bad = json.loads(json.dumps(d))
    bad["turns"][2]["draw"]["cards"][1] = "XX"
    with pytest.raises(ValueError, match=r"turns\[2\]\.draw\.cards\[1\]"):
        validate_log(bad)
    bad = json.loads(json.dumps(d))
    del bad["score"]
    with pytest.raises(ValueError, match="score"):
        validate_log(bad)
    bad = json.loads(json.dumps(d))
    bad["end"] = "declare"
    with pytest.raises(ValueError, match="end"):
        validate_log(bad)


def test_render_deal() -> None:
    d = build_deal_log(**make_deal())
    text = render_deal(d)
    for sym in "♣♦♥♠":
        assert sym in text
    assert "seed 12345" in text and "deal 7" in text and "dealer seat 3" in text
    lines = text.splitlines()
    for t, turn in enumerate(d["turns"], 1):
        line = next(x for x in lines if x.startswith(f"T{t} "))
        assert f"seat {turn['seat']} ({STRATS[turn['seat']]})" in line
    assert "takes from pile at depth 2: 8♣ 9♣ 10♣" in text
    assert "lays off 4♥ onto meld 0" in text and "passes" in text and "GOES OUT" in text
    tot = d["score"]["total"]
    assert any(x.split() == ["total", str(tot[0]), str(tot[1])] for x in lines)
    assert "seat 1 (team 1) went out" in text
    assert "\x1b[" in render_deal(d, color=True) and "\x1b[" not in text
