"""Issue 13: MCB / successive elimination, adaptive sweeps and tournaments, rule options compared on
the same deals (--vary-rule), a tournament's expected points, and charts that cannot mislead.

Small deal counts, greedy / random / deep_taker kernels only (compiled for the other tests anyway).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from sim.present import charts
from sim.core import intervals, stats
from sim import experiment as X
from sim.studies.adaptive import format_adaptive, look_schedule, run_adaptive
from sim.cli import main
from sim.studies.match import play_match
from sim.studies.rule_sweep import play_rule_sweep, rule_sweep_table
from sim.runner import play_chunk
from sim.studies.sweep import play_sweep
from sim.studies.tournament import expected_points, pairing_outcomes, play_tournament, points_crosstable


# --- statistics ---------------------------------------------------------------------------------------


def test_mcb_intervals_by_hand():
    # means 0, 1, 5 with every paired se 1 and critical value 2
    lo, hi = stats.mcb_intervals([0.0, 1.0, 5.0], np.ones((3, 3)), 2.0)
    # candidate 2: 5 - 1 - 2 = 2 > 0 below, so it is the best (low clipped to 0); high = min(7, 6) = 6
    assert lo[2] == 0.0 and hi[2] == pytest.approx(6.0)
    # candidates 0 and 1: significantly below 2 -> high clipped to 0 (eliminated)
    assert hi[0] == 0.0 and hi[1] == 0.0
    assert lo[0] == pytest.approx(-7.0) and lo[1] == pytest.approx(-6.0)


def test_mcb_worse_keeps_exact_ties():
    # candidates 0 and 1 have exactly the same results (difference 0, se 0); 2 is far below both
    se = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
    mean = [3.0, 3.0, -5.0]
    _, hi = stats.mcb_intervals(mean, se, 2.0)
    assert hi[0] == 0.0 and hi[1] == 0.0  # clipped: the old rule (high <= 0) eliminated both
    assert list(stats.mcb_worse(mean, se, 2.0)) == [False, False, True]
    # a significant gap is still "worse" (the by-hand case above)
    assert list(stats.mcb_worse([0.0, 1.0, 5.0], np.ones((3, 3)), 2.0)) == [True, True, False]


def test_mcb_critical_bonferroni_over_comparisons_and_looks():
    c1 = stats.mcb_critical(5, 1000, 0.05, 1)
    c7 = stats.mcb_critical(5, 1000, 0.05, 7)
    assert c7 > c1 > stats.mcb_critical(2, 1000, 0.05, 1)
    from scipy import stats as sps

    assert c7 == pytest.approx(sps.t.ppf(1 - 0.05 / (4 * 7), 1000))
    with pytest.raises(ValueError):
        stats.mcb_critical(3, 10, 1.5)


def test_successive_elimination_keeps_the_error_rate():
    """Normal data, a unique best: over many replications the true best is eliminated at some look in
    at most alpha (5%) of them (the bound is conservative: Bonferroni over comparisons and looks)."""
    rng = np.random.default_rng(13)
    mu = np.array([0.0, -0.05, -0.1, -0.3])  # candidate 0 is the best, the next ones close
    looks = look_schedule(1600, 100, 1)
    reps, lost = 300, 0
    for _ in range(reps):
        x = rng.normal(mu[:, None], 1.0, size=(4, 1600)) + rng.normal(0, 1.0, size=(1, 1600))  # shared deal luck
        alive = [0, 1, 2, 3]
        for n in looks:
            d = x[alive, :n]
            m = d.mean(axis=1)
            cov = np.cov(d) / n
            var = np.diag(cov)
            se = np.sqrt(np.maximum(var[:, None] + var[None, :] - 2 * cov, 0))
            _, hi = stats.mcb_intervals(m, se, stats.mcb_critical(4, n - 1, 0.05, len(looks)))
            alive = [c for c, h in zip(alive, hi) if h > 0]
            if len(alive) == 1:
                break
        lost += 0 not in alive
    assert lost / reps <= 0.05


# --- adaptive runs ------------------------------------------------------------------------------------


def test_look_schedule_doubles_up_to_the_deals():
    assert look_schedule(10_000, 1000, 2) == [1000, 2000, 4000, 8000, 10_000]
    assert look_schedule(900, 1000, 2) == [900]
    assert look_schedule(5000, 1001, 2) == [1000, 2000, 4000, 5000]


def test_adaptive_sweep_gives_each_point_the_fixed_runs_numbers():
    exp = X.sweep("deep_taker", [("max_depth", [0, 55])], "greedy", 2000, seed=3, chunk=200)
    res = run_adaptive(exp, first_look=200, progress=False)
    t = res.table
    assert list(t["max_depth"]) == ["0", "55"]
    assert set(t["status"]) == {"best", "eliminated"}  # 0 vs 55 is ~200 points apart
    assert res.best == "deep_taker:max_depth=55"
    assert res.plays == int((res.pairing_deals * 2).sum()) < res.fixed_plays
    assert res.deals_played < res.fixed_deals and 0 < res.saved_share < 1
    # every point's estimate is the fixed run's estimate after as many deals (same seed, same deals)
    for _, r in t.iterrows():
        fixed = play_sweep("deep_taker", {"max_depth": [int(r["max_depth"])]}, "greedy", int(r["deals"]), seed=3,
                           chunk=200, progress=False).run.summary.iloc[0]
        assert r["mean"] == pytest.approx(fixed["mean_diff"])
        assert r["ci_low"] == pytest.approx(fixed["ci_low"])
    summ = res.summary
    assert list(summ["deal_sets"]) == list(res.pairing_deals)
    text = format_adaptive(res)
    assert "best" in text and "saved" in text and "eliminated" in text


def test_adaptive_sweep_keeps_two_points_with_identical_results():
    # max_depth 54 and 55 never differ (no pile gets that deep): neither may be eliminated for the other
    exp = X.sweep("deep_taker", [("max_depth", [0, 54, 55])], "greedy", 800, seed=3, chunk=200)
    res = run_adaptive(exp, first_look=200, progress=False)
    t = res.table.set_index("max_depth")
    assert t.loc["0", "status"] == "eliminated"
    assert t.loc["54", "mean"] == t.loc["55", "mean"]
    assert t.loc["54", "status"] == t.loc["55", "status"] == "in the running"
    assert res.stopped_by == "deals"


def test_adaptive_tournament_plays_pairings_while_a_side_is_in_the_running():
    exp = X.tournament(["random", "greedy", "deep_taker"], 1200, seed=4, chunk=200)
    res = run_adaptive(exp, first_look=200, progress=False)
    t = res.table.set_index("candidate")
    assert t.loc["random", "status"] == "eliminated"
    for p, (i, j) in enumerate(exp.pairings):  # a pairing is played only while one of its teams is a candidate
        played = res.runs[p].deals_played
        assert played == res.pairing_deals[p]
        last_alive = max(t.iloc[i]["deals"] if t.iloc[i]["status"] == "eliminated" else exp.deals,
                         t.iloc[j]["deals"] if t.iloc[j]["status"] == "eliminated" else exp.deals)
        assert played <= last_alive


def test_adaptive_refuses_a_match_and_bad_options():
    with pytest.raises(X.ExperimentError, match="sweep or a tournament"):
        run_adaptive(X.match("greedy", "random", 100), progress=False)
    with pytest.raises(X.ExperimentError, match="alpha"):
        run_adaptive(X.tournament(["greedy", "random"], 100), alpha=0.7, progress=False)


# --- rule options on the same deals -------------------------------------------------------------------


def test_rule_sweep_is_the_matches_under_each_rule_paired_on_the_same_deals():
    res = play_rule_sweep("greedy", {"four_of_a_kind_double": ["true", "false"]}, "random", 300, seed=9,
                          progress=False)
    t = rule_sweep_table(res)
    on = play_match("greedy", "random", 300, seed=9, rules={"four_of_a_kind_double": True}, progress=False)
    off = play_match("greedy", "random", 300, seed=9, rules={"four_of_a_kind_double": False}, progress=False)
    assert t["mean_diff"].iloc[0] == pytest.approx(on.row["mean_diff"])
    assert t["mean_diff"].iloc[1] == pytest.approx(off.row["mean_diff"])
    d = off.sets.set_index("deal")["diff"] - on.sets.set_index("deal")["diff"]  # paired per deal set
    ref = intervals.t_interval(len(d), d.mean(), float(((d - d.mean()) ** 2).sum()))
    row = t.iloc[1]
    assert row["vs_first_rule"] == pytest.approx(ref.mean)
    assert (row["vs_first_rule_ci_low"], row["vs_first_rule_ci_high"]) == pytest.approx((ref.low, ref.high))
    assert math.isnan(t["vs_first_rule"].iloc[0])
    assert list(t["rule four_of_a_kind_double"]) == [True, False]


def test_rule_sweep_errors_name_the_option():
    with pytest.raises(X.ExperimentError, match="unknown rule option 'nope'"):
        play_rule_sweep("greedy", {"nope": [1, 2]}, "random", 10, progress=False)
    with pytest.raises(X.ExperimentError, match="not true or false"):
        play_rule_sweep("greedy", {"four_of_a_kind_double": ["maybe"]}, "random", 10, progress=False)


def test_cli_vary_rule_and_adaptive(capsys, tmp_path):
    assert main(["sweep", "greedy", "--vary-rule", "out_bonus=25,50", "--vs", "random", "--deals", "100",
                 "--seed", "2", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["kind"] == "rule_sweep" and len(obj["rows"]) == 2 and obj["deal_sets"] == 100
    assert main(["sweep", "greedy", "--vary-rule", "out_bonus=25,50", "--vary", "max_extra=0,60", "--vs", "random",
                 "--deals", "60", "--seed", "2"]) == 0
    assert "vs first rule" in capsys.readouterr().out
    toml = tmp_path / "rs.toml"
    toml.write_text('kind = "sweep"\ndeals = 60\nseed = 2\n[sweep]\nbase = "greedy"\nvs = "random"\n'
                    '[sweep.vary_rule]\nout_bonus = [25, 50]\n')
    assert main(["run", str(toml), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["deal_sets"] == 60 and len(again["rows"]) == 2
    assert main(["tournament", "greedy", "random", "--deals", "400", "--adaptive", "--first-look", "100"]) == 0
    assert "saved" in capsys.readouterr().out
    assert main(["sweep", "greedy", "--vs", "random", "--deals", "10"]) == 2
    assert "--vary" in capsys.readouterr().err
    assert main(["sweep", "greedy", "--vary", "max_extra=0,5", "--vs", "random", "--deals", "10", "--adaptive",
                 "--out", str(tmp_path / "x"), "--shard", "1/2"]) == 2  # --out, --resume ...: tests/test_study_runs.py
    assert "--shard" in capsys.readouterr().err


# --- expected points in a tournament ------------------------------------------------------------------


def test_expected_points_are_the_teams_own_scores_against_each_opponent_and_the_field():
    tour = play_tournament(["greedy", "random", "deep_taker"], 300, seed=6, keep_plays=True, progress=False)
    plays = tour.run.plays
    ep = expected_points(tour.run).set_index(["team", "opponent"])
    for (a, b), g in plays.groupby(["a", "b"], observed=True):
        per_set_a = g.groupby("deal")["a_total"].mean()
        assert ep.loc[(a, b), "points"] == pytest.approx(per_set_a.mean())
        assert ep.loc[(b, a), "points"] == pytest.approx(g.groupby("deal")["b_total"].mean().mean())
        assert ep.loc[(a, b), "deal_loss_rate"] == pytest.approx((g["a_total"] < g["b_total"]).mean())
        assert ep.loc[(a, b), "deal_win_rate"] == pytest.approx((g["a_total"] > g["b_total"]).mean())
        assert ep.loc[(b, a), "deal_win_rate"] == pytest.approx((g["a_total"] < g["b_total"]).mean())
    own = {}
    for team in ("greedy", "random", "deep_taker"):
        series = []
        for (a, b), g in plays.groupby(["a", "b"], observed=True):
            if team in (a, b):
                col = "a_total" if team == a else "b_total"
                series.append(g.groupby("deal")[col].mean())
        field = sum(series) / len(series)
        own[team] = field
        ref = intervals.t_interval(len(field), field.mean(), float(((field - field.mean()) ** 2).sum()))
        assert ep.loc[(team, "field"), "points"] == pytest.approx(ref.mean)
        assert ep.loc[(team, "field"), "ci_high"] == pytest.approx(ref.high)
    outcomes = pairing_outcomes(tour.run).set_index(["a", "b"])
    for (a, b), g in plays.groupby(["a", "b"], observed=True):
        o = outcomes.loc[(a, b)]
        won, tied, lost = ((g["a_total"] > g["b_total"]).sum(), (g["a_total"] == g["b_total"]).sum(),
                           (g["a_total"] < g["b_total"]).sum())
        assert (o["a_won"], o["tied"], o["b_won"], o["plays"]) == (won, tied, lost, len(g))
        assert o["a_win_rate"] == pytest.approx(won / len(g))
        assert o["a_win_rate_low"] < o["a_win_rate"] < o["a_win_rate_high"]
    table = points_crosstable(tour.run)
    assert list(table.columns) == ["greedy", "random", "deep_taker", "field"]
    assert math.isnan(table.loc["greedy", "greedy"])


# --- charts -------------------------------------------------------------------------------------------


def _table(values, groups=(0, 1)):
    rows = []
    for g in groups:
        for v in values:
            rows.append({"x": v, "g": g, "mean_diff": float(v) + g, "ci_low": float(v) + g - 1,
                         "ci_high": float(v) + g + 1, "best": False})
    t = pd.DataFrame(rows)
    t.loc[t["mean_diff"].idxmax(), "best"] = True
    return t


def test_sweep_figure_uses_a_categorical_axis_for_uneven_values_and_marks_the_best():
    fig = charts.sweep_figure(_table([0, 2, 5, 55]), "x", "g")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "2", "5", "55"]
    assert list(ax.get_xticks()) == [0, 1, 2, 3]  # evenly spaced, whatever the numeric distance
    assert not [ln for ln in ax.get_lines() if len(ln.get_xdata()) > 1 and ln.get_linestyle() not in ("None", "")
                and ln.get_color() != "grey" and len(set(ln.get_xdata())) > 1]  # no line joins tested points
    labels = ax.get_legend().get_texts()
    assert "best point" in [t.get_text() for t in labels]
    markers = {c.get_marker() for c in ax.get_lines() if c.get_marker() not in (None, "None", "")}
    assert len(markers) >= 2  # the two series differ in marker, not only in color
    even = charts.sweep_figure(_table([0, 10, 20, 30]), "x", "g").axes[0]
    assert list(even.get_xticks()) == [0, 10, 20, 30]


def test_shares_figure_prints_every_value_and_keeps_empty_categories():
    t = pd.DataFrame({"end": ["out", "passes", "cap"], "g": ["a"] * 3, "share": [0.7, 0.3, 0.0],
                      "ci_low": [0.69, 0.29, 0.0], "ci_high": [0.71, 0.31, 0.001]})
    ax = charts.shares_figure(t, "end", "g", "t").axes[0]
    texts = [a.get_text() for a in ax.texts]
    assert any(s.startswith("70.0%") for s in texts) and any(s.startswith("0.0%") for s in texts)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["out", "passes", "cap"]
