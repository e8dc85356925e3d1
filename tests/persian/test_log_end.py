"""Log validation checks that the recorded end is where the turns lead (issue 27, item 6; P7):
a hand-written log with a made-up end is refused with one line; every engine log passes."""

from __future__ import annotations

import copy
import json

import pytest

from sim.cli import main
from sim.games.persian.log import validate_log
from sim.games.persian.rules import RuleOptions
from sim.plugin.registry import get_game


@pytest.fixture(scope="module")
def logs():
    game = get_game("persian")
    made = game.record_logs(["random", "random", "random", "random"], 40, 3, rules=RuleOptions(turn_cap=40))
    made += game.record_logs(["greedy", "random", "greedy", "random"], 20, 4, rules=None)
    return made


def test_every_engine_log_passes(logs):
    assert {d["end"] for d in logs} == {"out", "passes", "cap"}
    for d in logs:
        validate_log(d)


def _first(logs, end):
    return copy.deepcopy(next(d for d in logs if d["end"] == end))


def test_made_up_ends_are_refused(logs):
    d = _first(logs, "out")
    d["turns"] = d["turns"][:2]
    d["end"], d["out_seat"] = "passes", None
    with pytest.raises(ValueError, match=r"'passes' needs the last four turns to be passes on an empty stock"):
        validate_log(d)
    d = _first(logs, "passes")
    d["end"], d["out_seat"] = "out", d["turns"][-1]["seat"]
    with pytest.raises(ValueError, match="'out' needs seat"):
        validate_log(d)
    d = _first(logs, "cap")
    d["turns"] = d["turns"][:-1]
    with pytest.raises(ValueError, match="'cap' needs the turn cap"):
        validate_log(d)
    d = _first(logs, "passes")
    d["turns"].append(copy.deepcopy(d["turns"][-1]))
    with pytest.raises(ValueError, match="ended before this turn"):
        validate_log(d)
    d = _first(logs, "out")
    turn = next(t for t in d["turns"] if t["discard"] is not None)
    turn["discard"] = next(c for c in ("2S", "3S", "4S", "5S") if c not in json.dumps(d["hands"][turn["seat"]]))
    with pytest.raises(ValueError, match="which it does not hold|ended before|needs"):
        validate_log(d)


def test_show_refuses_a_made_up_end_with_one_line(logs, tmp_path, capsys):
    d = _first(logs, "out")
    d["turns"] = d["turns"][:2]
    d["end"], d["out_seat"] = "passes", None
    path = tmp_path / "made_up.jsonl"
    path.write_text(json.dumps(d) + "\n")
    assert main(["show", str(path), "--deal", str(d["deal"])]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("rummy-sim: error:") and "passes" in err[0]
