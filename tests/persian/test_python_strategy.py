"""Plain-Python strategies (issue 27, sim.plugin.pystrategy): the Python port of greedy gives the
compiled greedy's rows bit for bit (P1-P10, every table make-up), and a Python strategy that
raises, answers something that is not a legal move or writes to what it was given stops the run
with one line naming the strategy, seat, deal, turn and decision (exit 2 on the CLI), the chunks
finished before kept."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import strategies.persian.python_examples.greedy_py  # registers greedy_py
from sim.cli import main
from sim.games.persian import enums as E
from sim.games.persian.engine import StrategyError, run_deals
from sim.plugin.pystrategy import has_python
from sim.experiment import build
from sim.plugin.registry import get_strategy, register_python_strategy
from sim.runner.run import _warn_if_slow

MODE = {"kind": "ok", "after": 0, "calls": 0}


def _faulty(decision, obs, moves, params, rng):
    """Plays the first legal move, then fails as MODE says after MODE['after'] calls."""
    MODE["calls"] += 1
    if MODE["calls"] <= MODE["after"]:
        return 0
    kind = MODE["kind"]
    if kind == "raise":
        raise KeyError("boom")
    if kind == "index":
        return len(moves)
    if kind == "move":
        return "stock"
    if kind == "write":
        obs[0] = 7
    return 0


register_python_strategy("py_faulty", _faulty)


def _set(kind, after=0):
    MODE.update(kind=kind, after=after, calls=0)


@pytest.mark.parametrize("table", [["greedy"] * 4, ["greedy:max_extra=5", "random", "greedy", "greedy:max_extra=5"]])
def test_the_python_greedy_gives_the_compiled_rows(table):
    python = [s.replace("greedy", "greedy_py") for s in table]
    a = run_deals(table, 40, seed=11)
    b = run_deals(python, 40, seed=11)
    assert np.array_equal(a.results, b.results)


def test_a_python_seat_plays_on_one_thread():
    assert has_python([get_strategy("greedy_py").function])
    assert not has_python([get_strategy("py_faulty").function.py_func])


@pytest.mark.parametrize("kind, says", [
    ("raise", "it raised KeyError: 'boom'"),
    ("index", "not a legal move index 0.."),
    ("move", "returned 'stock', not a legal move index"),
    ("write", "changed what it was given (assignment destination is read-only)"),
])
def test_a_failing_python_strategy_is_named_with_deal_turn_and_decision(kind, says):
    _set(kind, after=50)
    with pytest.raises(StrategyError) as e:
        run_deals(["py_faulty", "greedy", "greedy", "greedy"], 6, seed=5)
    msg = str(e.value)
    assert msg.startswith("strategy 'py_faulty' in seat 0 failed at deal ") and "\n" not in msg
    assert ", turn " in msg and " decision: it " in msg and "(seed 5)" in msg
    assert says in msg
    ends = e.value.results[:, E.C_END]
    assert (ends[:2] != E.END_ERROR).all() and ends[-1] == E.END_ERROR  # the deals before it are kept


def test_the_cli_stops_with_one_line_and_keeps_the_finished_chunks(tmp_path, capsys):
    _set("raise", after=400)  # a few chunks of 4 deals play before it fails
    out = tmp_path / "r.parquet"
    code = main(["match", "py_faulty", "greedy", "--deals", "40", "--chunk", "4", "--seed", "2",
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "strategy 'py_faulty' in seat " in err and "raised KeyError" in err
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("rummy-sim: error: strategy")
    kept = sorted(p.name for p in tmp_path.rglob("chunk-*"))
    assert kept and kept[0] == "chunk-000000000000-000000000004.arrow"  # finished before the failure


def test_a_python_strategy_file_loads_and_plays_a_match(tmp_path, capsys):
    source = Path(strategies.persian.python_examples.greedy_py.__file__).read_text()
    path = tmp_path / "my_greedy.py"
    path.write_text(source.replace('"greedy_py"', '"my_greedy_py"'))
    code = main(["match", "my_greedy_py", "greedy", "--deals", "4", "--seed", "3", "--load", str(path), "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    summary = json.loads(out.out)
    assert summary["a"] == "my_greedy_py" and summary["plays"] == 8


class _Bar:
    def __init__(self):
        self.lines = []

    def write(self, text, file=None):
        self.lines.append(text)


def test_a_slow_python_run_is_announced():
    exp = build.match("greedy_py", "greedy", deals=100_000, seed=1)
    bar = _Bar()
    _warn_if_slow(bar, [exp], 1.0, 200, 99_800)  # 200 deals in 1 s: about 8 min for the rest
    assert bar.lines == ["rummy-sim: note: greedy_py is plain Python and plays on one thread: about 8 min "
                         "for the 99,800 deals to play"]
    _warn_if_slow(bar, [build.match("greedy", "random", deals=100_000, seed=1)], 1.0, 200, 99_800)
    _warn_if_slow(bar, [exp], 1.0, 200, 2_000)  # 10 s more: no note
    assert len(bar.lines) == 1


def test_the_note_comes_before_the_first_chunk(monkeypatch, capsys):
    """The run times itself on a few deals before it plays (sim.runner.run._warn_before_slow)."""
    import sim.runner.run as run

    monkeypatch.setattr(run, "SLOW_SECONDS", 0.0)
    monkeypatch.setattr(run, "PROBE_FROM", 0)
    seen = []
    exp = build.match("greedy_py", "greedy", deals=40, seed=1, chunk=20)
    run.run_experiment(exp, progress=False, on_chunk=lambda info: seen.append(capsys.readouterr().err))
    assert len(seen) == 2 and "greedy_py is plain Python and plays on one thread" in seen[0]
    assert "for the 40 deals to play" in seen[0]


def test_check_strategy_finds_agreement_and_the_first_difference(capsys):
    assert main(["check-strategy", "greedy_py", "greedy", "--deals", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("greedy_py and greedy agree on ") and "decisions (3 deals, seed 1)" in out
    assert main(["check-strategy", "greedy_py", "greedy:max_extra=0", "--deals", "3", "--seed", "1"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("greedy_py and greedy:max_extra=0 differ at decision ")
    assert "deal 0, turn " in lines[0] and "a draw decision" in lines[0]
    assert lines[1].startswith("  greedy_py plays row ") and lines[2].startswith("  greedy:max_extra=0 plays row ")


def test_a_python_strategy_plays_everywhere_a_built_in_does(tmp_path, capsys):
    """tournament, sweep (of its parameter), tune and analyze --policy seat greedy_py like a
    built-in (match, mixed tables and --load: above; Dask: tests/test_dask_backend.py)."""
    log = str(Path(__file__).parent / "fixtures" / "log_expert_greedy.jsonl")
    commands = [
        ["tournament", "greedy_py", "greedy", "random", "--deals", "3", "--seed", "1", "--no-progress"],
        ["sweep", "greedy_py", "--vary", "max_extra=0,20", "--vs", "greedy", "--deals", "3", "--no-progress"],
        ["tune", "greedy_py", "--param", "max_extra=0..30", "--vs", "greedy", "--budget", "120", "--min-deals", "6",
         "--rungs", "2", "--brackets", "1", "--out", str(tmp_path / "tune"), "--quiet"],
        ["analyze", log, "--deal", "0", "--turn", "7", "--decision", "discard", "--policy", "greedy_py",
         "--samples", "6", "--batch", "6"],
    ]
    for argv in commands:
        assert main(argv) == 0, (argv, capsys.readouterr().err)
        out = capsys.readouterr().out
        assert ("greedy_py" if argv[0] != "sweep" else "sweep of max_extra") in out, argv
