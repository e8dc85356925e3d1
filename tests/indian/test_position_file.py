"""A player's own Indian position (issue 24, item 2): the bad-position messages, the defaults, the
command line, and a round trip from engine deals (a position's view -> file -> parsed -> the same view)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sim.apps.positions import PositionError, read_position_file, to_toml
from sim.games.indian import enums as E
from sim.games.indian.position import Position
from sim.games.indian.position_file import describe, fields_from_position, position_from_fields

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "position_indian.toml"
HAND = "2C 3C 4C 5H 6H 7H 8H 9S 9D JK KD QD 2S"
BASE = {"hand": HAND, "cut": "7H", "players": 6, "pile": "4D JS"}


def test_defaults() -> None:
    pos = position_from_fields(BASE)
    assert pos.seat == 1 and int(pos.st[E.O_DEALER]) == 0 and pos.decision == "draw" and pos.turn == 0
    assert int(pos.st[E.O_RULES + E.R_DECKS]) == 3 and int(pos.st[E.O_STOCK_N]) == 162 - 78 - 2
    assert pos.legal_moves() == [("stock",), ("pile", "4D"), ("drop",)]
    assert position_from_fields({"hand": HAND, "cut": "7H"}).players == 4


BAD = [
    ({**BASE, "hand": HAND.replace("2S", "XX")}, "hand: unknown card name 'XX'"),
    ({**BASE, "hand": HAND[3:]}, "hand: 12 cards, but at a draw decision the deciding seat holds 13"),
    ({**BASE, "players": 2, "pile": "2C 2C"}, "2C is given 3 times"),
    ({**BASE, "pile": "JK JK JK JK JK JK"}, "JK is given 7 times"),
    ({**BASE, "stock": 3}, "hand sizes 78 + stock 3 + pile 2 + 0 cards out of play"),
    ({**BASE, "hand_sizes": [13, 13, 13, 14, 13, 13]}, "hand_sizes: seat 4 holds 14, but at a draw decision"),
    ({**BASE, "hand_sizes": [13, 13]}, "hand_sizes: 6 sizes"),
    ({**BASE, "decision": "drop"}, "decision must be one of draw, discard"),
    ({**BASE, "dropped": "3: fold"}, "dropped: seat 3 out as 'fold'"),
    ({**BASE, "dropped": "1: first_drop"}, "seat 1 decides but is out of the deal"),
    ({**BASE, "pickups": "1: AS"}, "pickups: the deciding seat took AS and still holds it, but it is not in"),
    ({**BASE, "dropped": "3: middle_drop", "pickups": "3: AS"}, "pickups: seat 3 is out of the deal"),
    ({**BASE, "players": 7}, "players must be in 2..6"),
    ({"hand": HAND}, "an Indian position needs the the cut joker"),
    ({**BASE, "cut": "7H 8H"}, "cut: one card"),
    ({**BASE, "table": "0: 2H 3H 4H"}, "unknown field 'table'"),
]


@pytest.mark.parametrize("fields, message", BAD, ids=[m[:40] for _, m in BAD])
def test_a_bad_position_gets_one_line_naming_the_problem(fields, message) -> None:
    with pytest.raises(PositionError) as e:
        position_from_fields(fields)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_round_trip_from_engine_deals() -> None:
    """Positions stepped from engine deals (the first legal move each time): the view read back
    from its file has the same fields and the same legal moves."""
    n = 0
    for players in (2, 4, 6):
        for deal in range(3):
            pos = Position.from_deal(5, deal, players)
            for _ in range(40):
                if pos.decision == "over":
                    break
                fields = fields_from_position(pos)
                back = position_from_fields(tomllib.loads(to_toml(fields)))
                assert fields_from_position(back) == fields
                assert back.legal_moves() == pos.legal_moves()
                assert (back.observation()[E.O_HAND: E.O_HAND + E.N_KINDS]
                        == pos.observation()[E.O_HAND: E.O_HAND + E.N_KINDS]).all()
                n += 1
                moves = pos.legal_moves()
                pos.apply(next((m for m in moves if m[0] != "drop"), moves[0]))
    assert n > 200


def test_the_example_file_and_the_cli() -> None:
    pos = position_from_fields(read_position_file(EXAMPLE))
    assert describe(pos).startswith("# Indian position: seat 2 of 6, draw decision, wild rank 7")
    cli = [sys.executable, "-m", "sim.cli"]
    r = subprocess.run([*cli, "position", "--game", "indian", "--position", str(EXAMPLE), "--stock", "5"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "hand sizes" in r.stderr, r.stderr
    r = subprocess.run([*cli, "analyze", "--game", "indian", "--position", str(EXAMPLE), "--samples", "4",
                        "--policy", "greedy", "--no-race", "--json"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["situation"]["players"] == 6 and d["worlds"] == 4 and {"draw from the stock", "drop"} <= {
        row["move"] for row in d["rows"]}
