"""A player's own Persian position (issue 24, item 2): every bad-position message, the defaults,
the command line, and a round trip from engine deals (decision -> file -> parsed -> the same view).
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from sim.apps.positions import PositionError, read_position_file, to_toml
from sim.games import get_game
from sim.games.persian import enums as E
from sim.games.persian.decisions import decisions_in
from sim.games.persian.position_file import decision_from_fields, describe, fields_from_decision

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "position_persian.toml"
BASE = {"hand": "JK JK JK 7C 9C TC 5H KS", "pile": "4D JS", "stock": 25, "hand_sizes": [8, 7, 7, 7],
        "decision": "play"}


def test_the_issues_example_is_read_with_its_defaults() -> None:
    dec = decision_from_fields(BASE)
    o = dec.obs
    assert dec.seat == 1 and o[E.O_DEALER] == 0 and o[E.O_TURN] == 0 and o[E.O_TARGET] == -1
    assert [int(o[E.O_HAND_SIZES + s]) for s in range(4)] == [7, 8, 7, 7]  # from seat 1 on
    assert dec.labels() == ["meld JK JK JK", "stop playing, then discard"]
    assert decision_from_fields({"hand": "7C 9C TC 5H KS JK JK"}).obs[E.O_STOCK_N] == 56 - 28


BAD = [
    ({"hand": "7C 9C XX"}, "hand: unknown card name 'XX'"),
    ({"hand": "7C 9C", "pile": "9C"}, "9C is given more than once"),
    ({"hand": "JK JK JK", "pile": "JK JK"}, "pile: a fifth joker; the deck holds 4 (P1)"),
    ({**BASE, "stock": 24}, "hand sizes 29 + stock 24 + pile 2 + table 0 make 55 cards, not the deck's 56"),
    ({**BASE, "hand_sizes": [7, 7, 7, 7]}, "hand_sizes starts with the deciding seat's 7 cards, but the hand has 8"),
    ({**BASE, "hand_sizes": [8, 7, 7]}, "hand_sizes: 4 sizes >= 0"),
    ({**BASE, "decision": "meld"}, "decision must be one of draw, play, discard"),
    ({**BASE, "seat": 4}, "seat must be in 0..3, got 4"),
    ({**BASE, "colour": "red"}, "unknown field 'colour'"),
    ({"pile": "4D"}, "a position needs the deciding seat's hand"),
    ({**BASE, "stock": 18, "table": [{"seat": 0, "cards": "2H 3H 5H"}]}, "table meld 0 (2H 3H 5H) is not a set"),
    ({**BASE, "passes": 2}, "passes: 2 passes with 25 cards in the stock"),
    ({**BASE, "target": "7C", "decision": "draw"}, "target: only a play decision"),
    ({**BASE, "target": "AS"}, "target: one card of the deciding hand"),
    ({**BASE, "taken": "2: 7C"}, "taken: seat 2 took 7C, which is in the deciding hand, but the deciding seat never"),
    ({**BASE, "taken": "1: QH"}, "taken: seat 1 took QH, which is not in its hand, the pile or on the table, and no other"),
    ({**BASE, "hand_sizes": [8, 1, 7, 13], "taken": "2: QH QD"},
     "taken: seat 2 must still hold the 2 cards it took (not in view), but its hand has 1"),
    ({"hand": "", "hand_sizes": [0, 7, 7, 7], "decision": "discard"},
     "a discard decision is not legal here: the deciding hand is empty"),
    ({**BASE, "hand_sizes": "8,x"}, "hand_sizes: expected integers"),
]


@pytest.mark.parametrize("fields, message", BAD, ids=[m[:40] for _, m in BAD])
def test_a_bad_position_gets_one_line_naming_the_problem(fields, message) -> None:
    with pytest.raises(PositionError) as e:
        decision_from_fields(fields)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_bad_files(tmp_path) -> None:
    (tmp_path / "p.toml").write_text("hand = [7C\n")
    (tmp_path / "p.yaml").write_text("hand: 7C\n")
    (tmp_path / "p.json").write_text("[1, 2]")
    for name, msg in (("p.toml", "not valid TOML"), ("p.yaml", "ends in .toml or .json"),
                      ("p.json", "one table of fields"), ("none.toml", "no such position file")):
        with pytest.raises(PositionError, match=msg):
            read_position_file(tmp_path / name)


def _canonical(dec) -> np.ndarray:
    """The view with the identical jokers (P1) renumbered in the parser's order (hand, pile top
    first, table melds, then out of view) and the jokers of O_TAKEN / O_PLACED counted, not named."""
    o = dec.obs.copy()
    pile = [int(c) for c in o[E.O_PILE: E.O_PILE + o[E.O_PILE_N]][::-1]]
    order = [c for c in range(E.JOKER0, E.N_CARDS) if o[E.O_HAND] >> c & 1]
    order += [c for c in pile if c >= E.JOKER0]
    for k in range(o[E.O_N_MELDS]):
        order += [c for c in range(E.JOKER0, E.N_CARDS) if o[E.O_MELD_MASK + k] >> c & 1]
    order += [c for c in range(E.JOKER0, E.N_CARDS) if c not in order]
    new = {old: E.JOKER0 + i for i, old in enumerate(order)}

    def remap(m: int) -> int:
        out = m & ~E.JOKER_MASK
        for old, nw in new.items():
            out |= (m >> old & 1) << nw
        return out

    in_view = remap(int(o[E.O_HAND]) | int(o[E.O_TABLE_CARDS]) | sum(1 << c for c in set(pile)))
    masks = [E.O_HAND, E.O_TABLE_CARDS, E.O_LAYOFF_CARDS, E.O_BRIDGE_CARDS, E.O_RUN_UP, E.O_RUN_DOWN,
             *range(E.O_MELD_MASK, E.O_MELD_MASK + E.MAX_MELDS)]
    for i in masks:
        o[i] = remap(int(o[i]))
    for s in range(E.N_SEATS):
        placed, taken = remap(int(o[E.O_PLACED + s])), remap(int(o[E.O_TAKEN + s]))
        o[E.O_PLACED + s] = placed & ~E.JOKER_MASK | bin(placed & E.JOKER_MASK).count("1") << E.JOKER0
        keep = E.JOKER_MASK & ~in_view if s != dec.seat else 0
        o[E.O_TAKEN + s] = taken & ~E.JOKER_MASK | bin(taken & keep).count("1") << E.JOKER0
    for i in (*range(E.O_PILE, E.O_PILE + o[E.O_PILE_N]), E.O_TARGET, E.O_LAST_DISCARD):
        o[i] = new.get(int(o[i]), int(o[i]))
    if o[E.O_TARGET] >= E.JOKER0:  # any joker put on the table meets a joker target (P6.1)
        o[E.O_TARGET] = E.JOKER0
    return o


def test_round_trip_from_engine_deals() -> None:
    logs = get_game("persian").record_logs(["expert", "greedy"], 6, 5)
    n = 0
    for log in logs:
        for dec in decisions_in(log):
            text = to_toml(fields_from_decision(dec))
            back = decision_from_fields(tomllib.loads(text))
            assert back.labels() == dec.labels(), (dec.where, text)
            assert np.array_equal(_canonical(back), _canonical(dec)), (dec.where, text)
            assert fields_from_decision(back) == fields_from_decision(dec)
            n += 1
    assert n > 200


def test_the_example_file_and_the_cli(tmp_path) -> None:
    dec = decision_from_fields(read_position_file(EXAMPLE))
    assert describe(dec).startswith("# Persian position: seat 1 (team 1), draw decision, 2 legal moves")
    (tmp_path / "p.json").write_text('{"hand": "7C 9C TC 5H KS JK JK", "seat": 2}')
    cli = [sys.executable, "-m", "sim.cli"]
    r = subprocess.run([*cli, "position", "--position", str(tmp_path / "p.json"), "--dealer", "0"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and "seat = 2\ndealer = 0\n" in r.stdout, r.stderr
    r = subprocess.run([*cli, "position", "--hand", "7C 7C"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and r.stderr.strip() == ("rummy-sim: error: 7C is given more than once (hand, pile "
                                                      "and table together); the deck holds one of each card (P1)")
    r = subprocess.run([*cli, "analyze", "--game", "persian", *sum(([f"--{k.replace('_', '-')}", str(v)] for k, v in
                        {**BASE, "hand_sizes": "8,7,7,7"}.items()), []), "--samples", "40", "--policy", "greedy",
                        "--json"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert '"move": "stop playing, then discard"' in r.stdout and '"move": "meld JK JK JK"' in r.stdout
