"""The audit of an Indian strategy's decisions (sim/games/indian/audit.py; issue 24, item 2): the
features a player reads off a hand-made position, a known answer (a wrong declaration loses what
the valid one wins plus 80, and is significantly worse), a tiny audit end to end with its report,
and bad input in one line (exit 2). Tiny deal and world counts, greedy play-outs."""

from __future__ import annotations

import pytest

from sim.apps.analysis.audit import audit_row
from sim.cli import main
from sim.games.indian.audit import audit, direction, features, summarize, write_report
from sim.games.indian.decisions import AnalysisInputError, IndianDecision, analyze
from indian_positions import position


def test_features_of_a_hand_made_position() -> None:
    """The declarer's 14 cards (three pure runs and a set, QS spare; the wild rank J, none held):
    no deadwood after its best discard, no jokers, a pure run, four seats in, seat 0 took nothing."""
    dec = IndianDecision.from_position(position(), played=("discard", "QS"), turn=2)
    f = features(dec, "discard")
    assert (f["deadwood"], f["jokers"], f["pure_run"], f["players_in"], f["turn"], f["opponent_pickups"]) == \
        (0, 0, True, 4, 2, 0)
    assert f["declared"] is False
    draw = IndianDecision.from_position(position(decision="draw"), played=("stock",), turn=2)
    g = features(draw, "drop")
    assert g["deadwood"] == 0 and g["drop_cost"] == 20 and not g["dropped"]


def test_a_wrong_declaration_is_significantly_worse() -> None:
    """Known answer: declaring discarding 5H is wrong (-80 in every world, I5) while declaring
    discarding QS wins: the row's best is that declaration and the loss is its mean plus 80."""
    dec = IndianDecision.from_position(position(), played=("declare", "5H"), turn=2)
    a = analyze(dec, samples=6, policy="greedy", racing=False)
    row = audit_row(dec, a)
    good = a.frame.set_index("move").loc["declare discarding QS", "mean"]
    assert row["best"] == "declare discarding QS" and not row["chose_best"]
    assert row["loss"] == pytest.approx(good + 80) and row["significantly_worse"]


def test_a_tiny_audit_and_its_report(tmp_path) -> None:
    """Two discard decisions of one greedy deal: rows with the loss and the features, a breakdown,
    the direction sentence and a report directory."""
    a = audit("greedy", "discard", deals=1, sample=2, samples=6, batch=6, seed=3)
    assert len(a.frame) == 2 and a.found >= 2
    assert (a.frame["loss"] >= -1e-9).all()  # the best has the highest mean
    assert {"deadwood", "jokers", "pure_run", "players_in", "opponent_pickups", "best_declares"} <= set(a.frame)
    assert summarize(a.frame, "deadwood")["decisions"].sum() == 2
    assert direction(a).startswith(("Its choice was the best", "Its discard was not the best"))
    files = write_report(a, tmp_path / "audit")
    assert "## By deadwood" in (tmp_path / "audit" / "report.md").read_text()
    assert any(f.name == "by_opponent_pickups.csv" for f in files)


def test_bad_input_one_line(capsys) -> None:
    with pytest.raises(AnalysisInputError, match="decision kind must be one of drop, pickup, discard"):
        audit("greedy", "take", deals=1)
    with pytest.raises(AnalysisInputError, match="deals and sample must be >= 1"):
        audit("greedy", "drop", deals=0)
    code = main(["audit", "greedy", "--game", "indian", "--decision", "take", "--deals", "1"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "--decision must be one of drop, pickup, discard" in err
    code = main(["audit", "nosuch", "--game", "indian", "--decision", "drop", "--deals", "1"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
