"""The game boundary as a user meets it (issue 8): ``rummy-sim games``, ``--game`` and
``--players`` on the commands, ``game = ...`` in experiment files, the game in an
experiment's identity and in every results file's metadata."""

from __future__ import annotations

import json

import pytest

from sim import experiment as X
from sim.cli import main
from sim.games import game_names, get_game
from sim.runner import read_metadata, run_experiment


def run_cli(capsys, *args):
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_games_lists_every_registered_game(capsys) -> None:
    assert {"persian", "indian"} <= set(game_names())
    code, out, _ = run_cli(capsys, "games")
    assert code == 0
    for name in game_names():
        assert f"{name}: {get_game(name).title}" in out
    assert "players: 2, 3, 4, 5, 6" in out and "each seat alone" in out
    assert "side 0 = seats 0, 2; side 1 = seats 1, 3" in out
    code, out, _ = run_cli(capsys, "games", "--json")
    games = {g["name"]: g for g in json.loads(out)}
    assert games["persian"]["players"] == [4] and games["indian"]["rule_options"]["first_drop"] == 20


def test_strategies_per_game(capsys) -> None:
    _, persian, _ = run_cli(capsys, "strategies")
    _, indian, _ = run_cli(capsys, "strategies", "--game", "indian")
    assert "quad_holder" in persian and "quad_holder" not in indian
    assert "dropper" in indian and "dropper" not in persian


@pytest.mark.parametrize("args,msg", [
    (("match", "greedy", "random", "--deals", "2", "--game", "nosuch"), "unknown game 'nosuch'"),
    (("match", "greedy", "random", "--deals", "2", "--players", "3"), "players must be one of 4"),
    (("match", "greedy", "random", "--deals", "2", "--game", "indian", "--players", "7"), "players must be one of"),
    (("match", "quad_holder", "random", "--deals", "2", "--game", "indian"), "unknown strategy 'quad_holder'"),
    (("match", "greedy+random", "random", "--deals", "2", "--game", "indian"), "team A must be one strategy"),
    (("match", "greedy", "random", "--deals", "2", "--game", "indian", "--rule", "out_bonus=3"),
     "unknown rule option 'out_bonus'"),
    (("strategies", "--game", "nosuch"), "unknown game 'nosuch'"),
])
def test_bad_games_players_and_specs_are_named(capsys, args, msg) -> None:
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and msg in err and "Traceback" not in err


def test_a_toml_experiment_names_its_game(tmp_path, capsys) -> None:
    path = tmp_path / "indian.toml"
    path.write_text('game = "indian"\nplayers = 3\nkind = "match"\nseed = 5\ndeals = 6\n'
                    '[rules]\nfirst_drop = 25\n[match]\na = "greedy"\nb = "random"\n')
    spec = X.load_toml(path)
    exp = spec.experiment
    assert (exp.game, exp.players, exp.rules.first_drop) == ("indian", 3, 25)
    out = tmp_path / "indian.parquet"
    code, text, err = run_cli(capsys, "run", path, "--out", out, "--json")
    assert code == 0, err
    summary = json.loads(text)
    assert summary["game"] == "indian" and summary["players"] == 3 and summary["plays"] == 6 * 3
    meta = read_metadata(out)
    assert meta["game"] == "indian" and meta["players"] == 3 and meta["experiment"]["game"] == "indian"
    assert X.Experiment.from_dict(meta["experiment"]) == exp
    code, _, err = run_cli(capsys, "run", path, "--game", "persian")
    assert code == 2 and "describes a 'indian' experiment" in err
    path.write_text('game = "nosuch"\nkind = "match"\ndeals = 2\n[match]\na = "greedy"\nb = "random"\n')
    with pytest.raises(X.ExperimentError, match="unknown game 'nosuch'"):
        X.load_toml(path)


def test_the_game_is_part_of_the_identity(tmp_path) -> None:
    persian = X.match("greedy", "random", 10, 1)
    indian = X.match("greedy", "random", 10, 1, game="indian")
    six = X.match("greedy", "random", 10, 1, game="indian", players=6)
    assert len({persian.digest(), indian.digest(), six.digest()}) == 3
    assert persian.identity()["game"] == "persian" and six.identity()["players"] == 6
    # results written before the game boundary carry no game: they are Persian
    old = persian.to_dict()
    del old["game"], old["players"]
    assert X.Experiment.from_dict(old) == persian
    out = tmp_path / "p.parquet"
    run_experiment(X.match("greedy", "random", 4, 1), out=out)
    meta = read_metadata(out)
    assert meta["game"] == "persian" and meta["players"] == 4


def test_running_deals_does_not_import_pandas() -> None:
    """The first call (import + one deal) stays light (issue 14's first call < 1 s): the
    engines and the game boundary import pandas only where a frame is built."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys\n"
        "from sim.games import get_game\n"
        "for name, n in (('persian', 4), ('indian', 2)):\n"
        "    get_game(name).run_deals(['greedy'] * n, 1, 1, threads=1)\n"
        "print(sorted(m for m in ('pandas', 'pyarrow', 'matplotlib') if m in sys.modules))\n"
    )
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"
