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
    (["--values", "both"], "--values must be one of true, view for this game, got 'both'"),
    (["--game", "indian", "--values", "view"], "--values must be one of true for this game"),
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


def test_values_view_reaches_the_view_valuer_and_keeps_the_seed(tmp_path, monkeypatch):
    """``values="view"`` values every move with view_values on the seat's observation (never the
    true state), records the choice in the settings, and the same seed gives the same weights;
    the default still calls move_values on the full state."""
    from sim.games.persian.enums import OBS_SIZE, ST_SIZE

    asked = []

    def on_view(obs, rows, samples, seed, policy):
        asked.append(("view", len(obs)))
        return fake_values(obs, rows, samples, seed, policy)

    def on_state(state, rows, samples, seed, policy):
        asked.append(("true", len(state)))
        return fake_values(state, rows, samples, seed, policy)

    monkeypatch.setattr(T, "view_values", on_view)
    monkeypatch.setattr(T, "move_values", on_state)
    one = T.train(rounds=1, out=tmp_path / "v1", values="view", **TINY)
    assert asked and set(asked) == {("view", OBS_SIZE)}
    assert json.loads((tmp_path / "v1" / "state.json").read_text())["values"] == "view"
    assert "sampled from the seat's view" in (tmp_path / "v1" / "report.md").read_text()
    two = T.train(rounds=1, out=tmp_path / "v2", values="view", **TINY)
    assert one["rounds"][0]["weights"] == two["rounds"][0]["weights"]
    asked.clear()
    T.train(rounds=1, out=tmp_path / "t", **TINY)
    assert set(asked) == {("true", ST_SIZE)}
    assert "values" not in json.loads((tmp_path / "t" / "state.json").read_text())  # older trainings resume
    with pytest.raises(ValueError, match="values must be one of true, view"):
        T.train(rounds=1, out=tmp_path / "bad", values="both", **TINY)


def test_view_values_are_the_decision_analysis_means():
    """view_values is the audit's yardstick: a move's value is its mean over the worlds and play-outs
    that decisions.analyze gives it with the same seed (every move in every world, no race)."""
    from sim.games.persian.decisions import PersianDecision, analyze
    from sim.games.persian.information import decision_states, view

    state = next(s for s in decision_states(["expert"], 3, 0) if len(view(s)[1]) > 2)
    obs, rows = (np.ascontiguousarray(a, dtype=np.int64) for a in view(state))
    got = T.view_values(obs, rows, 6, 11, "expert")
    a = analyze(PersianDecision(obs, rows), samples=6, policy="expert", seed=11, racing=False, batch=6)
    assert np.allclose(got, np.asarray(a.scores).mean(axis=0))
    assert not np.allclose(got, T.move_values(state, rows, 6, 11, "expert"))  # not the true hands' play-outs
