"""User strategies from the command line: ``--load FILE.py`` registers them, and
``--check-strategies`` runs them bounds-checked (issue 15)."""

from __future__ import annotations

import json
import textwrap

from sim.cli import main

STRATEGY_FILE = textwrap.dedent('''
    from numba import njit
    from sim.plugin.strategy import STRATEGY_SIG
    from sim.plugin.registry import register_strategy

    @njit(STRATEGY_SIG, cache=True)
    def cli_last(decision, obs, moves, n_moves, params, rng):
        return n_moves - 1

    @njit(STRATEGY_SIG, cache=True)
    def cli_peek(decision, obs, moves, n_moves, params, rng):
        return 0 if moves[n_moves + 1, 0] == 0 else 1

    register_strategy("cli_last", cli_last)
    register_strategy("cli_peek", cli_peek)
''')


def _file(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(STRATEGY_FILE)
    return str(path)


def test_a_loaded_user_strategy_plays_a_checked_match(tmp_path, capsys) -> None:
    code = main(["match", "cli_last", "greedy", "--deals", "4", "--seed", "3", "--load", _file(tmp_path),
                 "--check-strategies", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    summary = json.loads(out.out)
    assert summary["a"] == "cli_last" and summary["plays"] == 8


def test_check_strategies_names_the_strategy_that_reads_past_moves(tmp_path, capsys) -> None:
    path = _file(tmp_path)
    out = tmp_path / "peek.jsonl"
    code = main(["log", "cli_peek", "greedy", "--deals", "2", "--out", str(out), "--load", path,
                 "--check-strategies"])
    err = capsys.readouterr().err
    assert code == 2 and "strategy 'cli_peek' in seat 0 indexed outside its arguments" in err
    assert "Traceback" not in err


def test_a_broken_strategy_file_is_named(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("raise RuntimeError('oops')\n")
    code = main(["match", "greedy", "random", "--deals", "2", "--load", str(bad), "--json"])
    err = capsys.readouterr().err
    assert code == 2 and f"--load {bad}: RuntimeError: oops" in err
    code = main(["match", "greedy", "random", "--deals", "2", "--load", str(tmp_path / "none.py")])
    assert code == 2 and "no such file" in capsys.readouterr().err
