"""Indian deal logs: reading (``log_check.read_jsonl``/``read_deal``), the structure check
(``log_check.validate_log``), the rules replay (``naive_indian.replay_log``) and the
readable replay (``show.render_deal``), on logs made by the pure-Python reference
(``naive_indian.play_log``), so that these tests do not need the compiled engine.

One deal ends in a valid declaration: a simple chooser that keeps the cards of its
candidate groups and declares as soon as the reference finds a valid declaration.
"""
from __future__ import annotations

import copy
from collections import Counter
import json
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import naive_indian as N  # noqa: E402
from sim.games.indian.log_check import read_deal, read_jsonl, validate_log  # noqa: E402
from sim.games.indian.show import render_deal  # noqa: E402


def random_chooser(seed: int, p_drop=0.03, p_declare=0.01):
    """Uniform stock/pile draws and discards; rare drops and (wrong) declarations."""
    rng = random.Random(seed)

    def choose(ref, moves):
        if ref.decision == "draw":
            pool = moves if rng.random() < p_drop else [m for m in moves if m[0] != N.MV_DROP]
        else:
            pool = [m for m in moves if (m[0] == N.MV_DECLARE) == (rng.random() < p_declare)]
        return rng.choice(pool)

    return choose


def index_chooser(indices):
    """Replays fixed decisions (indices into the legal-move lists)."""
    it = iter(indices)

    def choose(ref, moves):
        return moves[next(it)]

    return choose


def stock_only(ref, moves):
    """Always the stock, discard the drawn card's neighbour: long deals that reshuffle."""
    if ref.decision == "draw":
        return moves[0] if moves[0][0] == N.MV_STOCK else moves[1]
    return moves[0]


@pytest.fixture(scope="module")
def logs():
    out = []
    for k, players in enumerate([2, 3, 4, 5, 6, 2, 4]):
        out.append(N.play_log(21, k, players, random_chooser(k), {"turn_cap": 300},
                              [f"rnd{s}" for s in range(players)]))
    # a long deal: stock only, never an end but the cap -> reshuffles (I8)
    out.append(N.play_log(22, 0, 2, stock_only, {"turn_cap": 200}))
    return out


@pytest.fixture(scope="module")
def declared_log():
    """A log ending in a valid declaration, found by playing until one comes."""
    for deal in range(40):
        log = N.play_log(23, deal, 2, _greedyish(deal), {"turn_cap": 120})
        if log["end"] == "declare":
            return log
    pytest.skip("no valid declaration found")


def _greedyish(seed):
    """Keep cards that sit in some candidate group; declare when the reference says so."""
    rng = random.Random(seed)

    def choose(ref, moves):
        if ref.decision == "draw":
            return moves[0] if moves[0][0] == N.MV_STOCK else moves[-1]
        hand = list(ref.hands[ref.seat].elements())
        if N.can_declare_after_discard(hand, ref.wild_rank, *ref.opts):
            for m in moves:
                if m[0] == N.MV_DECLARE:
                    rest = list((ref.hands[ref.seat] - Counter([m[1]])).elements())
                    if N.can_declare(rest, ref.wild_rank, *ref.opts):
                        return m
        groups = N.candidate_groups(ref.hands[ref.seat], ref.wild_rank, *ref.opts)
        used = {k for g in groups for k in g}
        loose = [m for m in moves if m[0] == N.MV_DISCARD and m[1] not in used]
        pool = loose or [m for m in moves if m[0] == N.MV_DISCARD]
        return max(pool, key=lambda m: (N.card_value(m[1], ref.wild_rank), rng.random()))

    return choose


# --------------------------------------------------------------------- reading
def test_read_jsonl_and_read_deal(logs, tmp_path):
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join(json.dumps(d) for d in logs) + "\n\n", encoding="utf-8")
    assert read_jsonl(path) == logs
    assert read_deal(path, 3) == logs[3]
    with pytest.raises(ValueError, match="deal 99 not in .*numbered 0..6"):
        read_deal(path, 99)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(logs[0]) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        read_jsonl(bad)


# --------------------------------------------------------------------- structure
def test_reference_logs_validate_and_replay(logs, declared_log):
    for d in logs + [declared_log]:
        validate_log(d)
        assert N.replay_log(d) == d["points"]
    ends = {d["end"] for d in logs + [declared_log]}
    assert {"declare", "last_player", "cap"} <= ends
    assert any("reshuffle" in t for t in logs[-1]["turns"])


def _mutants(d):
    """(expected message part, mutated copy) pairs of structural faults."""
    first = next(t for t, x in enumerate(d["turns"]) if "reshuffle" not in x and x["draw"] != "drop")

    def m(fn):
        x = copy.deepcopy(d)
        fn(x)
        return x

    return [
        ("format", m(lambda x: x.update(format="rummy-log/2"))),
        ("game", m(lambda x: x.update(game="persian"))),
        ("rules", m(lambda x: x.update(rules=[]))),
        ("seed", m(lambda x: x.update(seed="1"))),
        ("deal", m(lambda x: x.update(deal=-1))),
        ("players", m(lambda x: x.update(players=7))),
        ("decks", m(lambda x: x.update(decks=4))),
        ("rules.decks", m(lambda x: x["rules"].update(decks=1))),
        ("dealer", m(lambda x: x.update(dealer=x["players"]))),
        ("strategies", m(lambda x: x["strategies"].pop())),
        ("hands", m(lambda x: x["hands"].pop())),
        ("hands[1]", m(lambda x: x["hands"][1].pop())),
        ("hands[0][0]", m(lambda x: x["hands"][0].__setitem__(0, "10S"))),
        ("hands[0][1]", m(lambda x: x["hands"][0].__setitem__(1, "as"))),
        ("discard", m(lambda x: x["discard"].append("2C"))),
        ("cut_joker", m(lambda x: x.update(cut_joker="JK" if x["cut_joker"] != "JK" else "2C"))),
        ("hands/discard/stock", m(lambda x: x["stock"].__setitem__(0, "JK" if x["stock"][0] != "JK" else "2C"))),
        ("stock", m(lambda x: x.update(stock=[]))),
        ("turns", m(lambda x: x.update(turns={}))),
        (f"turns[{first}].seat", m(lambda x: x["turns"][first].update(seat=9))),
        (f"turns[{first}].draw", m(lambda x: x["turns"][first].update(draw={"pile": "2C"}))),
        (f"turns[{first}].draw.stock", m(lambda x: x["turns"][first].update(draw={"stock": "XX"}))),
        (f"turns[{first}]: a drop", m(lambda x: x["turns"][first].update(draw="drop"))),
        (f"turns[{first}]: a draw", m(lambda x: x["turns"][first].pop("discard", None)
                                      or x["turns"][first].pop("declare", None))),
        (f"turns[{first}]: unknown", m(lambda x: x["turns"][first].update(plays=[]))),
        (f"turns[{first}].declare", m(lambda x: (x["turns"][first].pop("discard", None),
                                                 x["turns"][first].update(declare={"groups": []})))),
        (f"turns[{first}]: a reshuffle", m(lambda x: x["turns"][first].update(reshuffle=["2C"]))),
        ("end", m(lambda x: x.update(end="out"))),
        ("points", m(lambda x: x["points"].append(0))),
        ("points", m(lambda x: x["points"].__setitem__(0, -5))),
        ("missing", m(lambda x: x.pop("winner"))),
    ]


def test_validate_log_names_the_bad_field(logs):
    for d in logs[:3]:
        for field, bad in _mutants(d):
            with pytest.raises(ValueError) as e:
                validate_log(bad)
            assert field in str(e.value), (field, str(e.value))


def test_validate_log_end_and_winner(logs, declared_log):
    d = copy.deepcopy(declared_log)
    d["winner"] = None
    with pytest.raises(ValueError, match="winner"):
        validate_log(d)
    d = copy.deepcopy(declared_log)
    d["points"][d["winner"]] = 3
    with pytest.raises(ValueError, match=r"points\[\d\]"):
        validate_log(d)
    d = copy.deepcopy(declared_log)
    d["turns"][-1]["declare"]["groups"].append(["2C", "3C", "4C"])
    with pytest.raises(ValueError, match=r"turns\[\d+\]\.declare\.groups"):
        validate_log(d)
    cap = next(x for x in logs if x["end"] == "cap")
    d = copy.deepcopy(cap)
    d["winner"] = 0
    with pytest.raises(ValueError, match="winner: must be null"):
        validate_log(d)
    d = copy.deepcopy(declared_log)
    d["end"] = "declare"
    d["turns"].append({"seat": 0, "draw": "drop"})
    with pytest.raises(ValueError, match="ends with the winner's declaration"):
        validate_log(d)


# --------------------------------------------------------------------- the end follows (log_follow)
def _bad_end(d, fn, match):
    x = copy.deepcopy(d)
    fn(x)
    with pytest.raises(ValueError, match=match):
        validate_log(x)


def test_a_made_up_end_is_refused(logs):
    """Issue 27: a hand-written log that stops after two turns and claims an end the turns do
    not reach (the cap, the last player) is refused, naming what is wrong (I3, I7)."""
    cap = next(x for x in logs if x["end"] == "cap")
    two_turns = lambda x: x.update(turns=x["turns"][:2])  # noqa: E731
    _bad_end(cap, two_turns, r"end: 'cap' needs the turn cap \(\d+ turns\) reached; the log has 2 turns")

    def last_player(x):
        two_turns(x)
        x.update(end="last_player", winner=x["turns"][0]["seat"])
        x["points"] = [0] * x["players"]
    _bad_end(cap, last_player, r"end: 'last_player' needs one seat left")
    ended = next(x for x in logs if x["end"] == "last_player")
    after = {"seat": ended["winner"], "draw": "drop"}
    _bad_end(ended, lambda x: x["turns"].append(after), r"the deal ended before this turn \(one seat was left\)")


def test_the_turns_must_follow_one_another(logs):
    """Seat order (I3), the stock's next card, the pile's top card, held cards, reshuffles only
    on an empty stock (I8) and what a leaving seat loses (I5, I7)."""
    d = logs[0]
    t = _first_turn(d, lambda x: "discard" in x and "stock" in x["draw"])
    seat = d["turns"][t]["seat"]
    _bad_end(d, lambda x: x["turns"][t].update(seat=(seat + 1) % x["players"]), rf"turns\[{t}\]\.seat: .* turn")
    other = "2C" if d["turns"][t]["draw"]["stock"] != "2C" else "3C"
    _bad_end(d, lambda x: x["turns"][t]["draw"].update(stock=other), rf"turns\[{t}\]\.draw\.stock: the stock's next")
    missing = next(c for c in ("AS", "KD", "2C", "7H", "JK") if c not in d["hands"][seat])
    p = _first_turn(d, lambda x: "discard" in x and x["draw"] != "drop" and x["seat"] == seat)
    if p == t or missing == d["turns"][p]["draw"].get("stock", d["turns"][p]["draw"].get("discard")):
        pytest.skip("no clean turn to plant a card not held")
    _bad_end(d, lambda x: x["turns"][p].update(discard=missing), rf"turns\[{p}\]: seat {seat} gives up {missing}")
    _bad_end(d, lambda x: x["turns"].insert(t, {"reshuffle": ["2C"]}), rf"turns\[{t}\]\.reshuffle: the stock still has")
    dropped = next(x for x in logs if any(y.get("draw") == "drop" for y in x["turns"]))
    s = next(y["seat"] for y in dropped["turns"] if y.get("draw") == "drop")
    _bad_end(dropped, lambda x: x["points"].__setitem__(s, x["points"][s] + 1), rf"points\[{s}\]: seat {s} drops")
    pile = _first_turn(d, lambda x: "discard" in x.get("draw", {}))
    _bad_end(d, lambda x: x["turns"][pile]["draw"].update(discard="JK" if x["turns"][pile]["draw"]["discard"] != "JK"
                                                          else "2C"), rf"turns\[{pile}\]\.draw\.discard: the pile's top")


# --------------------------------------------------------------------- rules replay
def _first_turn(d, pred):
    return next(t for t, x in enumerate(d["turns"]) if "reshuffle" not in x and pred(x))


def test_replay_log_rejects_rule_breaks(logs, declared_log):
    d0 = logs[0]
    t = _first_turn(d0, lambda x: "discard" in x and x["draw"] != "drop")

    def bad(d, fn, match):
        x = copy.deepcopy(d)
        fn(x)
        with pytest.raises(N.IllegalMove, match=match):
            N.replay_log(x)

    # I2: the deal must be the one of (seed, deal)
    bad(d0, lambda x: x.update(seed=x["seed"] + 1), "hands")
    bad(d0, lambda x: x.update(dealer=(x["dealer"] + 1) % x["players"]), "dealer")
    bad(d0, lambda x: x["stock"].reverse(), "stock")
    # I3: seat order, only the top card of the stock / pile, discard a held card
    bad(d0, lambda x: x["turns"][t].update(seat=(x["turns"][t]["seat"] + 1) % x["players"]), "to move")
    bad(d0, lambda x: x["turns"][t].update(draw={"discard": "JK" if x["discard"][0] != "JK" else "2C"}),
        "pile top|stock top")
    missing = next(c for c in ("AS", "KD", "2C", "7H", "JK") if c not in d0["hands"][d0["turns"][t]["seat"]])
    bad(d0, lambda x: x["turns"][t].update(discard=missing), "illegal move")
    # I5: a wrong declaration scored as a win, a valid one with its groups broken
    w = _first_turn(declared_log, lambda x: "declare" in x)
    bad(declared_log, lambda x: x["turns"][w]["declare"]["groups"].__setitem__(
        0, x["turns"][w]["declare"]["groups"][0][:-1]), "not show the 13 cards")
    def move_out(x):
        dec = x["turns"][w]["declare"]
        dec["ungrouped"] = [dec["groups"][0].pop()]
    bad(declared_log, move_out, "no card outside its groups")
    # I6/I7: wrong points
    bad(declared_log, lambda x: x["points"].__setitem__(1 - x["winner"], x["points"][1 - x["winner"]] + 1), "points")
    # end / winner
    bad(d0, lambda x: x.update(end="cap" if x["end"] != "cap" else "declare"), "end")
    # I8: the reshuffled stock must be the generator's
    long = logs[-1]
    r = next(i for i, x in enumerate(long["turns"]) if "reshuffle" in x)
    bad(long, lambda x: x["turns"][r]["reshuffle"].reverse(), "reshuffle")
    bad(long, lambda x: x["turns"].pop(r), "reshuffle")


def test_replay_log_drop_and_wrong_declaration_points(logs):
    seen = set()
    for d in logs:
        for t in d["turns"]:
            if t.get("draw") == "drop":
                seen.add("drop")
            if "declare" in t and not (d["end"] == "declare" and t is d["turns"][-1]):
                assert d["points"][t["seat"]] == 80
                seen.add("wrong")
    assert seen == {"drop", "wrong"}


# --------------------------------------------------------------------- show
def test_render_deal(logs, declared_log):
    d = declared_log
    text = render_deal(d)
    assert f"seed {d['seed']}  deal {d['deal']}" in text and "2 players" in text
    assert f"cut joker {d['cut_joker']}" in text.replace("*", "")
    assert "DECLARES" in text and "VALID" in text
    n_turns = sum("reshuffle" not in x for x in d["turns"])
    assert sum(line.startswith("T") for line in text.splitlines()) == n_turns
    assert f"End after {n_turns} turns: a valid declaration: seat {d['winner']} wins" in text
    assert "Points lost:" in text
    for x in logs:
        out = render_deal(x)
        if any(t.get("draw") == "drop" for t in x["turns"]):
            assert "DROPS (first drop" in out or "DROPS (middle drop" in out
        if any("reshuffle" in t for t in x["turns"]):
            assert "shuffled into a new stock" in out
    assert "\x1b[" in render_deal(d, color=True) and "\x1b[" not in text


def test_render_deal_rejects_an_inconsistent_log(logs):
    d = copy.deepcopy(logs[0])
    t = _first_turn(d, lambda x: "discard" in x and x["draw"] != "drop")
    seat = d["turns"][t]["seat"]
    missing = next(c for c in ("AS", "KD", "2C", "7H", "QS") if c not in d["hands"][seat])
    d["turns"][t]["discard"] = missing
    d["turns"][t]["draw"] = {"stock": "JK"}
    with pytest.raises(ValueError, match=rf"turns\[{t}\]"):
        render_deal(d)
