"""``rummy-sim tune`` / sim.apps.tune: space and field parsing, the budget plan, paired statistics,
and small end-to-end runs checking the promises of docs/tuning.md:

* common random numbers: every trial's first-rung value is its match against the field on
  exactly deals 0 .. d_0 - 1 of the search seed (re-played here with play_match);
* the validation plays another seed, and its numbers are those of plain matches;
* the budget is never exceeded; the defaults are the first trial; the command line and a
  TOML file with the same settings give the same search; the report's files and its
  reproduce command; Indian Rummy's dropper tunes too.

Budgets are tiny (tens of thousands of plays) so the file stays a few seconds of CI.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats as sps

from sim.runner.aggregate import CoMoments
from sim.cli import main
from sim.studies.match import play_match
from sim.apps.tune import TuneError, derived_validation_seed, make_plan, parse_field, parse_space, tune
from sim.apps.tune.evaluate import Scores
from sim.apps.tune.toml import parse_tune_dict
from sim.plugin.registry import parse_spec


# --- the space -----------------------------------------------------------------------------


def test_space_parses_ranges_choices_bools_and_log() -> None:
    space = parse_space(parse_spec("expert"), ["max_depth=0..55", "min_gain=-60..40", "risk_weight=0.1..5:log",
                                               "near_hand=0,1,3", "watch_table"])
    d = {x.name: x for x in space.dims}
    assert (d["max_depth"].kind, d["max_depth"].low, d["max_depth"].high) == (int, 0, 55)
    assert d["min_gain"].kind is float and not d["min_gain"].log
    assert d["risk_weight"].log
    assert d["near_hand"].choices == ("0", "1", "3")
    assert d["watch_table"].choices == ("false", "true")
    spec = space.spec({"max_depth": "7", "min_gain": "-3.5", "risk_weight": "0.2", "near_hand": "3",
                       "watch_table": "true"})
    assert space.values_of(spec) == {"max_depth": 7, "min_gain": -3.5, "risk_weight": 0.2, "near_hand": 3,
                                     "watch_table": True}
    # the baseline (defaults) as an optuna trial: expert's watch_table default is 0, near_hand 1
    assert space.baseline_trial() == {"max_depth": 55, "min_gain": -30.0, "risk_weight": 0.5, "near_hand": "1",
                                      "watch_table": "false"}


def test_space_choice_parameter_of_mc_search() -> None:
    space = parse_space(parse_spec("mc_search"), ["rollout_policy"])
    assert space.dims[0].choices == ("greedy", "random")


@pytest.mark.parametrize("item, fragment", [
    ("depth=0..5", "has no parameter 'depth'"),
    ("max_depth=0..56", "must lie inside it"),
    ("max_depth=9..3", "LOW must be below HIGH"),
    ("max_depth=a..3", "is not an integer"),
    ("min_gain=-5..5:log", "LOW > 0"),
    ("max_depth", "give its range"),
    ("watch_table=0..1", "list its values"),
    ("max_depth=5", "at least two values"),
    ("max_depth=5,5", "more than once"),
    ("max_depth=", "expected KEY=LOW..HIGH"),
    ("near_hand=1,99", "outside"),
])
def test_space_errors_name_the_problem(item, fragment) -> None:
    with pytest.raises(TuneError, match=fragment):
        parse_space(parse_spec("expert"), [item])


def test_space_needs_parameters_once_each() -> None:
    with pytest.raises(TuneError, match="at least one --param"):
        parse_space(parse_spec("expert"), [])
    with pytest.raises(TuneError, match="more than once"):
        parse_space(parse_spec("expert"), ["max_depth=0..5", "max_depth=1..9"])
    with pytest.raises(TuneError, match="no parameters"):
        parse_space(parse_spec("random"), ["x=1..2"])


def test_field_weights_are_normalised_and_checked() -> None:
    f = parse_field(["greedy@3", "defensive"], "persian")
    assert f.weights == (0.75, 0.25)
    assert f.texts() == ["greedy@3", "defensive@1"]
    assert parse_field(["greedy"], "persian").texts() == ["greedy"]
    for bad, fragment in ((["greedy@0"], "positive"), (["greedy@x"], "not a number"),
                          (["greedy", "greedy"], "more than once"), ([], "at least one --vs"),
                          (["nobody"], "unknown strategy")):
        with pytest.raises(TuneError, match=fragment):
            parse_field(bad, "persian")


# --- the plan ------------------------------------------------------------------------------


def test_plan_brackets_fit_the_budget_and_count_their_plays() -> None:
    plan = make_plan(1_000_000, plays_per_candidate_deal=6, validation_plays_per_deal=14, deals_per_game=2)
    assert plan.rung_deals == [plan.min_deals * 3 ** r for r in range(4)]
    assert plan.rung_sizes == [27, 9, 3, 1]
    d = [0, *plan.rung_deals]
    assert plan.bracket_plays == 6 * sum(n * (d[r + 1] - d[r]) for r, n in enumerate(plan.rung_sizes))
    assert plan.validation_plays + plan.target_brackets * plan.bracket_plays <= 1_000_000
    assert plan.validation_plays <= 0.2 * 1_000_000 and plan.min_deals % 2 == 0
    with pytest.raises(TuneError, match="raise the budget"):
        make_plan(1_000, plays_per_candidate_deal=6, validation_plays_per_deal=14, deals_per_game=2)
    with pytest.raises(TuneError, match="multiple of deals_per_game"):
        make_plan(10**6, plays_per_candidate_deal=2, validation_plays_per_deal=10, deals_per_game=2, min_deals=3)


# --- paired statistics ---------------------------------------------------------------------


def test_scores_values_and_paired_differences_match_the_raw_series() -> None:
    rng = np.random.default_rng(5)
    n, cands, k = 200, 3, 2
    x = rng.normal(0, 10, (cands * k, n)) + rng.normal(0, 30, n)  # common deal luck in every pairing
    w = np.array([0.25, 0.75])
    half = n // 2
    s = Scores(["a", "b", "c"], w, CoMoments.of(x[:, :half])).merge(Scores(["a", "b", "c"], w,
                                                                          CoMoments.of(x[:, half:])))
    field = (x.reshape(cands, k, n) * w[:, None]).sum(axis=1)
    assert np.allclose(s.values(), field.mean(axis=1))
    d = field[0] - field[2]
    low, high = sps.t.interval(0.95, n - 1, loc=d.mean(), scale=sps.sem(d))
    c = s.diff(0, 2)
    assert math.isclose(c["mean_diff"], d.mean()) and math.isclose(c["ci_low"], low) and math.isclose(c["ci_high"],
                                                                                                        high)
    sub = s.subset([2, 0])
    assert math.isclose(sub.diff(1, 0)["mean_diff"], d.mean()) and sub.labels == ["c", "a"]
    assert math.isclose(s.vs_opponent(1, 1)["mean_diff"], x[3].mean())


# --- end to end ----------------------------------------------------------------------------

SMALL = dict(budget=24_000, seed=11, rungs=2, brackets=2, compare=["deep_taker:max_depth=5"])


@pytest.fixture(scope="module")
def small_run():
    return tune("deep_taker", ["max_depth=0..55", "min_gain=-40..40"], ["greedy@2", "defensive"], **SMALL)


def test_tune_keeps_its_promises(small_run) -> None:
    r = small_run
    h, rungs, val = r.history, r.rungs, r.validation
    assert r.search.plays + r.validation_run.plays <= SMALL["budget"]
    assert r.search.brackets >= 2 and len(h) == r.search.brackets * r.plan.candidates
    assert h.iloc[0]["baseline"] and h.iloc[0]["spec"] == "deep_taker:max_depth=55,min_gain=-20"  # defaults first
    assert set(h["state"]) <= {"complete", "pruned"} and (h["state"] == "complete").sum() >= r.search.brackets
    # common random numbers: a trial's first-rung value is its match against each opponent on deals 0 .. d0-1
    d0 = r.plan.rung_deals[0]
    for _, t in h.iloc[[0, 4]].iterrows():
        a = play_match(t["spec"], "greedy", d0, seed=SMALL["seed"], keep_plays=False).row["mean_diff"]
        b = play_match(t["spec"], "defensive", d0, seed=SMALL["seed"], keep_plays=False).row["mean_diff"]
        assert math.isclose(t["value_rung0"], (2 * a + b) / 3, abs_tol=1e-9)
    # promoted trials played the next rung on more of the same deals; the best is the best finalist
    fin = h[h["state"] == "complete"]
    assert (fin["deals"] == r.plan.rung_deals[-1]).all()
    assert str(r.best) == fin.loc[fin["value"].idxmax(), "spec"]
    raced = rungs[rungs["raced_out"]]
    assert (raced["vs_leader"] < 0).all()
    # the validation: another seed, plain match numbers
    assert r.validation_run.seed == derived_validation_seed(SMALL["seed"]) != SMALL["seed"]
    best_field = val[(val["comparison"] == "field") & (val["role"] == "best")].iloc[0]
    vd = r.plan.validation_deals
    m = play_match(str(r.best), "defensive", vd, seed=r.validation_run.seed, keep_plays=False).row["mean_diff"]
    assert math.isclose(best_field["vs defensive"], m, abs_tol=1e-9)
    gain = val[(val["comparison"] == "gain") & (val["role"] == "baseline")].iloc[0]
    base_field = val[(val["comparison"] == "field") & (val["role"] == "baseline")].iloc[0]
    assert math.isclose(gain["mean_diff"], best_field["mean_diff"] - base_field["mean_diff"], abs_tol=1e-9)
    assert gain["ci_low"] <= gain["mean_diff"] <= gain["ci_high"]
    assert set(val["comparison"]) == {"field", "gain", "head_to_head"} and len(val) == 3 + 2 + 2


def test_report_files_and_reproduce_command(small_run, tmp_path) -> None:
    md = small_run.write_report(tmp_path / "rep")
    text = md.read_text()
    for part in ("## How it was made", "## Validation on fresh deals", "## Search history",
                 "## Each parameter's effect", small_run.command):
        assert part in text
    for f in ("history.csv", "rungs.csv", "validation.csv", "effects.csv", "summary.json", "history.png",
              "params.png", "validation.png", "report.html"):
        assert (tmp_path / "rep" / f).stat().st_size > 0
    summary = json.loads((tmp_path / "rep" / "summary.json").read_text())
    assert summary["best"] == str(small_run.best) and summary["plays_total"] <= SMALL["budget"]
    from sim.cli import build_parser
    import shlex

    args = build_parser().parse_args(shlex.split(small_run.command)[1:])
    assert (args.budget, args.seed, args.rungs, args.brackets) == (24_000, 11, 2, 2)


def test_validation_seed_must_be_fresh() -> None:
    with pytest.raises(TuneError, match="validation seed"):
        tune("deep_taker", ["max_depth=0..55"], ["greedy"], budget=40_000, seed=3, validation_seed=3)


# --- command line and TOML -----------------------------------------------------------------


def test_cli_and_toml_file_give_the_same_run(tmp_path, capsys) -> None:
    """The same settings on the command line and in a kind = "tune" file: the same search and
    validation (a seeded search on common deals is deterministic)."""
    code = main(["tune", "greedy", "--param", "max_extra=0..100", "--vs", "random", "--budget", "1e4", "--seed",
                 "4", "--rungs", "2", "--brackets", "1", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    cli = json.loads(out.out)
    assert cli["kind"] == "tune" and cli["plays_total"] <= 10_000 and cli["best"].startswith("greedy")
    f = tmp_path / "t.toml"
    f.write_text('kind = "tune"\nseed = 4\n[tune]\nspec = "greedy"\nbudget = 10_000\nrungs = 2\nbrackets = 1\n'
                 'vs = { random = 1 }\n[tune.params]\nmax_extra = "0..100"\n')
    code = main(["run", str(f), "--json", "--out", str(tmp_path / "rep")])
    out = capsys.readouterr()
    assert code == 0, out.err
    toml = json.loads(out.out)
    assert toml["settings"]["vs"] == ["random"] and (tmp_path / "rep" / "report.md").exists()
    assert toml["command"] == cli["command"] and toml["best"] == cli["best"]
    assert toml["search"] == {**cli["search"], "seconds": toml["search"]["seconds"]}
    assert toml["validation"]["rows"] == cli["validation"]["rows"]
    assert main(["run", str(f), "--deals", "10"]) == 2
    assert "does not apply to a tune file" in capsys.readouterr().err


def test_cli_errors_exit_2(capsys) -> None:
    assert main(["tune", "greedy", "--param", "depth=0..3", "--vs", "random", "--budget", "2e4"]) == 2
    assert "has no parameter 'depth'" in capsys.readouterr().err
    assert main(["tune", "greedy", "--param", "max_extra=0..9", "--vs", "random", "--budget", "100"]) == 2
    assert "raise the budget" in capsys.readouterr().err


@pytest.mark.parametrize("data, fragment", [
    ({"kind": "tune"}, "missing section [tune]"),
    ({"kind": "tune", "tune": {"spec": "greedy", "budget": 1, "vs": ["random"]}}, "tune.params"),
    ({"kind": "tune", "tune": {"spec": "greedy", "budget": "x", "vs": ["random"], "params": {"max_extra": "0..9"}}},
     "tune.budget' must be an integer"),
    ({"kind": "tune", "tune": {"spec": "greedy", "budget": 9, "vs": [], "params": {"max_extra": "0..9"}}},
     "tune.vs"),
    ({"kind": "tune", "sweep": {}, "tune": {}}, "unknown field(s) sweep"),
    ({"kind": "tune", "tune": {"spec": "greedy", "bugdet": 9}}, "tune.bugdet"),
])
def test_toml_errors_name_the_field(data, fragment) -> None:
    with pytest.raises(TuneError, match=fragment.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
        parse_tune_dict(data)


# --- another game --------------------------------------------------------------------------


def test_indian_dropper_thresholds_tune() -> None:
    r = tune("dropper", ["first_drop_deadwood=20..120", "middle_drop_deadwood=20..120", "need_pure"], ["greedy"],
             budget=12_000, seed=2, game="indian", players=2, rungs=2, brackets=1)
    assert r.settings["game"] == "indian" and r.search.plays + r.validation_run.plays <= 12_000
    assert {"field", "gain", "head_to_head"} == set(r.validation["comparison"])
    assert "--game indian" in r.command and "--players 2" in r.command


# --- the Dask backend ----------------------------------------------------------------------


def test_dask_backend_gives_the_local_run() -> None:
    """Every rung's experiment as chunks on a Dask cluster (one LocalCluster worker process, started
    and shut down here, bounded timeouts): the same search and validation as the local backend."""
    distributed = pytest.importorskip("distributed")
    kw = dict(budget=10_000, seed=4, rungs=2, brackets=1)
    local = tune("greedy", ["max_extra=0..100"], ["random"], **kw)
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=40, death_timeout=60)
    client = distributed.Client(cluster, timeout=60)
    try:
        client.wait_for_workers(1, timeout=120)
        remote = tune("greedy", ["max_extra=0..100"], ["random"], backend="dask",
                      backend_options={"scheduler": client}, **kw)
        assert remote.history.equals(local.history) and remote.validation.equals(local.validation)
        assert remote.settings["backend"] == "dask" and "--backend dask" in remote.command
        assert client.status == "running"  # a client passed in is the caller's to close
    finally:
        client.close(timeout=30)
        cluster.close(timeout=30)


def test_the_example_tune_file_is_valid() -> None:
    from pathlib import Path

    from sim.apps.tune.toml import load_tune_toml

    options, out = load_tune_toml(Path(__file__).resolve().parent.parent / "experiments" / "tune_example.toml")
    assert options["spec"] == "deep_taker" and options["params"][0] == ("max_depth", "0..55") and out is None
    space = parse_space(parse_spec(options["spec"]), options["params"])
    assert space.dims[2].choices == ("1", "2", "3")
