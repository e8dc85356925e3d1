"""``rummy-sim train`` and strategies/persian/train.py, plumbing only (issue 25): bad input is one
line and exit 2 before anything is played, a resumed training equals one run straight through from
the same seed, a folder is never overwritten or resumed with other settings."""

import json

import numpy as np
import pytest

from sim.cli import main
from strategies.persian import train as T

TINY = {"deals": 2, "per_deal": 2, "samples": 2, "seed": 3, "eval_deals": 2, "progress": None}


@pytest.mark.parametrize("argv, says", [
    (["--game", "gin"], "not built for Gin Rummy"),
    (["--players", "3"], "players must be one of 4"),
    (["--rounds", "0"], "--rounds must be a positive integer"),
    (["--worlds", "-1"], "--worlds must be a positive integer"),
    (["--seed", "-5"], "outside [0, 2**63 - 1]"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, says):
    argv = ["train", "learned", "--seed", "1", "--out", str(tmp_path / "t")] + argv
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and "\n" not in err
    assert not (tmp_path / "t").exists()


def test_only_what_the_game_trains(tmp_path, capsys):
    assert main(["train", "expert", "--seed", "1", "--out", str(tmp_path / "t")]) == 2
    assert "trains only learned" in capsys.readouterr().err


def fake_values(state, rows, samples, seed, policy):
    """Stands in for the play-outs (whose kernel the plumbing does not need): a value per move that
    depends on the move and on the decision's seed, so a wrong seed or decision changes the fit."""
    return rows[:, 1] * float(seed % 7) - rows[:, 0] * float(seed % 5)


def test_resume_equals_a_straight_run_and_keeps_its_settings(tmp_path, monkeypatch):
    monkeypatch.setattr(T, "move_values", fake_values)
    a, b = tmp_path / "a", tmp_path / "b"
    T.train(rounds=1, out=a, **TINY)
    resumed = T.train(rounds=2, out=a, resume=True, **TINY)
    straight = T.train(rounds=2, out=b, **TINY)
    assert [r["weights"] for r in resumed["rounds"]] == [r["weights"] for r in straight["rounds"]]
    assert not np.array_equal(resumed["rounds"][0]["weights"], T.EXPERT_ONLY)  # something was fitted
    assert json.loads((a / "state.json").read_text())["rounds"][1]["round"] == 2
    assert np.array_equal(np.load(a / "weights.npz")["weights"], straight["rounds"][1]["weights"])
    with pytest.raises(ValueError, match="holds a training already"):
        T.train(rounds=2, out=b, **TINY)
    with pytest.raises(ValueError, match="other settings.*samples 2 .asked 3"):
        T.train(rounds=3, out=b, resume=True, **{**TINY, "samples": 3})
