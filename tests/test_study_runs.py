"""Issue 23 item 4: adaptive runs and rule sweeps go through the runner's one chunk loop
(sim.runner.run.run_study), so they take --out (a folder, one results file per cell), --resume,
--keep and --backend dask; an interrupted study resumed ends with the rows and numbers of one
uninterrupted study."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from sim.cli import main

import sim.experiment as X
from sim.runner.files import read_plays
from sim.runner.run import run_study
from sim.runner.results import RunError
from sim.studies.adaptive import adaptive_json, run_adaptive
from sim.studies.rule_sweep import play_rule_sweep, rule_sweep_json
from frame_checks import assert_same_frame  # noqa: E402


def _sweep():
    return X.sweep("deep_taker", [("max_depth", [0, 5, 55])], "greedy", 800, seed=3, chunk=200)


def _strip(obj: dict) -> dict:
    return {k: v for k, v in obj.items() if k not in ("seconds",)}


def _interrupt_after(n: int):
    """A ``between`` wrapper that asks the loop to stop after ``n`` chunks (as Ctrl-C would)."""
    import signal

    calls = [0]

    def wrap(between):
        def step(*a):  # (step) for a function, (self, step) for a method
            out = between(*a)
            calls[0] += 1
            if calls[0] == n:
                signal.raise_signal(signal.SIGINT)
            return out
        return step
    return wrap


def test_an_adaptive_sweep_with_out_writes_a_file_per_pairing_and_numbers_of_a_run_without(tmp_path):
    plain = run_adaptive(_sweep(), first_look=200, progress=False)
    res = run_adaptive(_sweep(), first_look=200, progress=False, out=tmp_path / "ad", keep="sets")
    assert _strip(adaptive_json(res)) == _strip(adaptive_json(plain))
    assert (tmp_path / "ad" / "study.json").is_file()
    for p, run in enumerate(res.runs):
        assert run.out == tmp_path / "ad" / f"pairing-{p}.parquet" and run.out.is_file()
        assert run.deals_played == res.pairing_deals[p]
    with pytest.raises(RunError, match="already holds"):
        run_adaptive(_sweep(), first_look=200, progress=False, out=tmp_path / "ad")
    again = run_adaptive(_sweep(), first_look=200, progress=False, out=tmp_path / "ad", keep="sets", resume=True)
    assert _strip(adaptive_json(again)) == _strip(adaptive_json(plain))  # finished files read back
    with pytest.raises(RunError, match="another adaptive sweep"):
        run_adaptive(_sweep(), first_look=400, progress=False, out=tmp_path / "ad", keep="sets", resume=True)


def test_an_interrupted_adaptive_sweep_resumed_equals_one_run(tmp_path, monkeypatch):
    # max_depth 0 goes at the first look (200 deals), 54 and 55 play all 800: interrupted at 300, the
    # eliminated point's file is finished and read back on --resume, the others' chunks continue
    exp = X.sweep("deep_taker", [("max_depth", [0, 54, 55])], "greedy", 800, seed=3, chunk=100)
    one = run_adaptive(exp, first_look=200, progress=False, out=tmp_path / "one")
    assert list(one.pairing_deals) == [200, 800, 800]
    import sim.studies.adaptive as A

    real = A._Elimination.between
    for keep, folder in (("summary", "two"), ("plays", "three")):
        monkeypatch.setattr(A._Elimination, "between", _interrupt_after(3)(real))
        cut = run_adaptive(exp, first_look=200, progress=False, out=tmp_path / folder, keep=keep)
        assert cut.stopped_by == "interrupt" and list(cut.pairing_deals) == [200, 300, 300]
        assert cut.runs[0].complete and not cut.runs[1].complete
        monkeypatch.setattr(A._Elimination, "between", real)
        res = run_adaptive(exp, first_look=200, progress=False, out=tmp_path / folder, keep=keep, resume=True)
        assert _strip(adaptive_json(res)) == _strip(adaptive_json(one))
    for a, b in zip(one.runs, res.runs):
        assert_same_frame(read_plays(a.out), read_plays(b.out))


def test_an_interrupted_rule_sweep_resumed_gives_the_rows_of_one_run(tmp_path, monkeypatch):
    args = ("greedy", {"four_of_a_kind_double": ["true", "false"]}, "random", 600)
    one = play_rule_sweep(*args, seed=9, chunk=200, progress=False, out=tmp_path / "one")
    import sim.studies.rule_sweep as R

    real = R.run_study

    def cut_run_study(*a, between=None, **k):
        return real(*a, between=_interrupt_after(1)(between), **k)

    monkeypatch.setattr(R, "run_study", cut_run_study)
    cut = play_rule_sweep(*args, seed=9, chunk=200, progress=False, out=tmp_path / "two")
    assert not cut.complete and cut.joint.n == 200
    monkeypatch.setattr(R, "run_study", real)
    res = play_rule_sweep(*args, seed=9, chunk=200, progress=False, out=tmp_path / "two", resume=True)
    assert rule_sweep_json(res) == rule_sweep_json(one)
    for a, b in zip(one.outs, res.outs):
        assert_same_frame(read_plays(a), read_plays(b))


def test_a_study_refuses_a_shard_and_unequal_chunks():
    a = X.match("greedy", "random", 200, chunk=100)
    with pytest.raises(RunError, match="shard"):
        run_study([a, a], shard="1/2", progress=False)
    with pytest.raises(RunError, match="same deals and chunks"):
        run_study([a, X.match("greedy", "random", 200, chunk=50)], progress=False)


def test_studies_on_the_dask_backend_equal_local_ones():
    distributed = pytest.importorskip("distributed")  # noqa: F841
    from sim.runner.dask_backend import local_cluster

    local_ad = run_adaptive(_sweep(), first_look=200, progress=False)
    local_rs = play_rule_sweep("greedy", {"four_of_a_kind_double": ["true", "false"]}, "random", 300, seed=9,
                               progress=False)
    cluster, client = local_cluster(2, silence_logs=40, death_timeout=60)
    try:
        client.wait_for_workers(2, timeout=120)
        ad = run_adaptive(_sweep(), first_look=200, progress=False, backend="dask", scheduler=client)
        rs = play_rule_sweep("greedy", {"four_of_a_kind_double": ["true", "false"]}, "random", 300, seed=9,
                             progress=False, backend="dask", scheduler=client)
    finally:
        client.close(timeout=30)
        cluster.close(timeout=30)
    assert _strip(adaptive_json(ad)) == _strip(adaptive_json(local_ad))
    assert rule_sweep_json(rs) == rule_sweep_json(local_rs)


def test_the_cli_gives_adaptive_runs_and_rule_sweeps_out_resume_and_keep(tmp_path, capsys):
    ad = ["sweep", "greedy", "--vary", "max_extra=0,60", "--vs", "random", "--deals", "200", "--seed", "2",
          "--adaptive", "--first-look", "100", "--json"]
    assert main(ad) == 0
    plain = _strip(json.loads(capsys.readouterr().out))
    out = tmp_path / "ad"
    assert main(ad + ["--out", str(out), "--keep", "summary"]) == 0
    assert _strip(json.loads(capsys.readouterr().out)) == plain
    assert sorted(p.name for p in out.iterdir()) == ["pairing-0.parquet", "pairing-1.parquet", "study.json"]
    assert main(ad + ["--out", str(out), "--keep", "summary"]) == 2  # exists: --resume or --force
    assert "--resume" in capsys.readouterr().err
    assert main(ad + ["--out", str(out), "--keep", "summary", "--resume"]) == 0
    assert _strip(json.loads(capsys.readouterr().out)) == plain
    rs = ["sweep", "greedy", "--vary-rule", "out_bonus=25,50", "--vs", "random", "--deals", "100", "--seed", "2",
          "--json"]
    assert main(rs) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(rs + ["--out", str(tmp_path / "rs")]) == 0
    assert json.loads(capsys.readouterr().out) == plain
    from sim.present.report import write_report

    assert write_report(tmp_path / "rs" / "variant-1.parquet", tmp_path / "rep").is_file()  # a cell is a results file
