"""Issue 11: results that stay small (--keep sets|summary), shards that merge, damaged chunk
files, the code version in the identity, runs in the background. Small runs of greedy vs random
(kernels already compiled by the rest of the suite)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

import sim.experiment as X
from sim.present.report import collect
from sim.runner import (RunError, RunInterrupted, VersionMismatch, load_result, merge_results, read_plays,
                        run_experiment, start_experiment)
from sim.runner.dask_backend import chunk_task
from sim.runner.files import parts_dir
from frame_checks import assert_same_frame  # noqa: E402


def _exp(deals=400, seed=5, **kw):
    return X.match("greedy", "random", deals, seed, chunk=100, **kw)


def _stop_after(n):
    def cb(info):
        return info.chunks_done >= n
    return cb


def _same_parts(a, b, where=""):
    """Deep equality of report accumulators (arrays compared exactly)."""
    if dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            _same_parts(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, dict):
        assert set(a) == set(b), where
        for k in a:
            _same_parts(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same_parts(x, y, f"{where}[{i}]")
    elif isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b, err_msg=where)
    else:
        assert a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b)), where


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The same match kept three ways."""
    d = tmp_path_factory.mktemp("keep")
    exp = _exp()
    out = {}
    for keep in ("plays", "sets", "summary"):
        out[keep] = d / f"{keep}.parquet"
        run_experiment(exp, out=out[keep], keep=keep, progress=False)
    return exp, out


def test_summary_and_sets_files_give_the_statistics_and_report_of_the_plays_file(runs) -> None:
    exp, files = runs
    plays = load_result(files["plays"])
    for keep in ("sets", "summary"):
        other = load_result(files[keep])
        assert_same_frame(other.summary, plays.summary, check_exact=True)
        assert other.meta["keep"] == keep
    col_p, col_s = collect(files["plays"]), collect(files["summary"])
    assert col_s.deals == col_p.deals == 400
    _same_parts(col_p.parts, col_s.parts)  # every section's sums, bin counts and moments
    _same_parts(col_p.parts, collect(files["sets"]).parts)
    # a summary file is small: one row per chunk
    assert pd.read_parquet(files["summary"]).shape[0] == len(exp.chunks())
    sets = pd.read_parquet(files["sets"])
    assert sets.shape[0] == 400 and sets["chunk_summary"].notna().sum() == len(exp.chunks())


def test_distribution_tables_have_exact_means(runs) -> None:
    """Issue 13 / 11: means and sds in the distributions table are the values' own, not bin midpoints."""
    from sim.present.report.sections import DistributionsSection

    _, files = runs
    rows = read_plays(files["plays"])
    for keep in ("plays", "summary"):
        t = DistributionsSection.table(collect(files[keep]))
        a = t[(t["quantity"] == "deal score") & (t["of"] == "greedy")].iloc[0]
        assert a["mean"] == pytest.approx(rows["a_total"].mean(), rel=1e-12)
        assert a["sd"] == pytest.approx(rows["a_total"].std(ddof=1), rel=1e-9)


def test_report_works_from_a_summary_file(runs, tmp_path) -> None:
    from sim.cli import main

    _, files = runs
    assert main(["report", str(files["summary"]), "--out", str(tmp_path / "r")]) == 0
    text = (tmp_path / "r" / "report.md").read_text()
    for heading in ("Summary with confidence intervals", "Score distributions", "Strategy counters"):
        assert heading in text
    for png in ("summary.png", "scores.png", "ends.png", "counters.png"):
        assert (tmp_path / "r" / png).stat().st_size > 0


def test_shards_merge_into_the_unsharded_run(runs, tmp_path) -> None:
    exp, files = runs
    shards = [tmp_path / f"s{i}.parquet" for i in (1, 2, 3)]
    for i, path in enumerate(shards, 1):
        r = run_experiment(exp, out=path, shard=f"{i}/3", progress=False)
        assert r.meta["shard"] == [i, 3] and r.experiment.digest() == exp.digest()
    merged = merge_results(shards[::-1], tmp_path / "all.parquet")
    assert_same_frame(read_plays(tmp_path / "all.parquet"), read_plays(files["plays"]), check_exact=True)
    assert_same_frame(merged.summary, load_result(files["plays"]).summary, check_exact=True)
    assert_same_frame(load_result(tmp_path / "all.parquet").summary, merged.summary, check_exact=True)
    with pytest.raises(RunError, match=r"incomplete: 1 of 4 chunks missing.*shards given: 1/3, 3/3"):
        merge_results([shards[0], shards[2]], tmp_path / "x.parquet")
    with pytest.raises(RunError, match="overlap"):
        merge_results([shards[0], files["plays"]], tmp_path / "x.parquet")
    other = tmp_path / "other.parquet"
    run_experiment(_exp(seed=6), out=other, shard="2/3", progress=False)
    with pytest.raises(RunError, match="another experiment.*seed: 5 before, 6 now"):
        merge_results([shards[0], other, shards[2]], tmp_path / "x.parquet")
    assert not (tmp_path / "x.parquet").exists()


def test_summary_shards_merge_too(runs, tmp_path) -> None:
    exp, files = runs
    shards = [tmp_path / f"s{i}.parquet" for i in (1, 2)]
    for i, path in enumerate(shards, 1):
        run_experiment(exp, out=path, shard=(i, 2), keep="summary", progress=False)
    merged = merge_results(shards, tmp_path / "all.parquet")
    assert_same_frame(merged.summary, load_result(files["summary"]).summary, check_exact=True)
    _same_parts(collect(tmp_path / "all.parquet").parts, collect(files["summary"]).parts)
    with pytest.raises(RunError, match="keeps 'plays'"):
        run_experiment(exp, out=tmp_path / "p.parquet", shard="1/2", progress=False)
        merge_results([shards[0], tmp_path / "p.parquet"], tmp_path / "y.parquet")


def test_a_damaged_chunk_file_is_set_aside_and_recomputed(runs, tmp_path, capsys) -> None:
    """A chunk file cut short (a kill -9 in mid-write, a full disk) no longer stops --resume with
    'Not an Arrow file': it is named, set aside and computed again."""
    exp, files = runs
    out = tmp_path / "m.parquet"
    with pytest.raises(RunInterrupted):
        run_experiment(exp, out=out, on_chunk=_stop_after(2), progress=False)
    chunk = sorted(parts_dir(out).glob("chunk-*.arrow"))[1]
    data = chunk.read_bytes()
    chunk.write_bytes(data[: len(data) // 2])
    run_experiment(exp, out=out, resume=True, progress=False)
    err = capsys.readouterr().err
    assert chunk.name in err and "damaged" in err and "computed again" in err
    assert_same_frame(read_plays(out), read_plays(files["plays"]), check_exact=True)


def test_the_code_version_is_part_of_the_identity_and_checked_where_chunks_are_played(tmp_path) -> None:
    exp = _exp()
    old = dataclasses.replace(exp, version="0.0.1+0000000000000000")
    assert exp.version and exp.to_dict()["version"] == exp.version
    assert old.digest() != exp.digest() and X.Experiment.from_dict(old.to_dict()).version == old.version
    import json

    with pytest.raises(VersionMismatch, match=r"runs rummy-sim .* made with 0\.0\.1\+0+: install the same version"):
        chunk_task(json.dumps(old.to_dict()), 0, 100)
    out = tmp_path / "m.parquet"
    with pytest.raises(RunInterrupted):
        run_experiment(exp, out=out, on_chunk=_stop_after(1), progress=False)
    with pytest.raises(RunError, match="another experiment: version"):
        run_experiment(old, out=out, resume=True, progress=False)


def test_keep_and_shard_options_are_checked(tmp_path) -> None:
    exp = _exp()
    with pytest.raises(RunError, match="keep must be one of plays, sets, summary"):
        run_experiment(exp, out=tmp_path / "a.parquet", keep="rows")
    with pytest.raises(RunError, match="I/N needs 1 <= I <= N"):
        run_experiment(exp, out=tmp_path / "a.parquet", shard="0/2")
    with pytest.raises(RunError, match="expected I/N"):
        run_experiment(exp, out=tmp_path / "a.parquet", shard="half")
    with pytest.raises(RunError, match="backend must be one of local, dask"):
        run_experiment(exp, backend="spark")
    with pytest.raises(RunError, match="cannot be sharded"):
        run_experiment(X.match("greedy", "random", 400, 1, sprt=X.SprtSpec(5.0)), out=tmp_path / "s.parquet",
                       shard="1/2")


def test_a_background_run_reports_as_it_goes_and_ends_like_a_plain_run(runs) -> None:
    exp, files = runs
    handle = start_experiment(exp, progress=False)
    result = handle.result(timeout=300)
    assert handle.done() and handle.progress == (400, 400)
    assert_same_frame(result.summary, load_result(files["plays"]).summary, check_exact=True)
    assert_same_frame(handle.summary(), result.summary, check_exact=True)
    stopped = start_experiment(exp, progress=False, on_chunk=_stop_after(1))
    with pytest.raises(RunInterrupted):
        stopped.result(timeout=300)
    assert stopped.summary()["deal_sets"].iloc[0] == 100


def test_command_line_shards_merge_and_bad_merges(runs, tmp_path, capsys) -> None:
    from sim.cli import main

    _, files = runs
    shards = [str(tmp_path / f"s{i}.parquet") for i in (1, 2)]
    for i, path in enumerate(shards, 1):
        assert main(["match", "greedy", "random", "--deals", "400", "--seed", "5", "--chunk", "100",
                     "--shard", f"{i}/2", "--keep", "summary", "--out", path, "--no-progress"]) == 0
    assert main(["merge", *shards, "--out", str(tmp_path / "all.parquet"), "--json"]) == 0
    import json

    merged = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert merged["mean_diff"] == load_result(files["plays"]).summary["mean_diff"].iloc[0]
    assert main(["merge", shards[0], "--out", str(tmp_path / "x.parquet")]) == 2
    assert "incomplete: 2 of 4 chunks missing" in capsys.readouterr().err
    assert main(["match", "greedy", "random", "--deals", "400", "--keep", "summary", "--no-progress"]) == 2
    assert "needs --out" in capsys.readouterr().err
    assert main(["match", "greedy", "random", "--deals", "40", "--workers", "2", "--no-progress"]) == 2
    assert "go with --backend dask" in capsys.readouterr().err


def test_experiment_files_take_backend_scheduler_workers_and_keep() -> None:
    base = {"kind": "match", "deals": 100, "match": {"a": "greedy", "b": "random"}}
    spec = X.parse_experiment_dict({**base, "backend": "dask", "scheduler": "tcp://head:8786", "workers": 3,
                                    "keep": "summary"})
    assert (spec.backend, spec.scheduler, spec.workers, spec.keep) == ("dask", "tcp://head:8786", 3, "summary")
    assert spec.experiment.digest() == X.parse_experiment_dict(base).experiment.digest()  # how, not what
    with pytest.raises(X.ExperimentError, match="field 'backend': 'spark' is not one of local, dask"):
        X.parse_experiment_dict({**base, "backend": "spark"})
    with pytest.raises(X.ExperimentError, match="field 'keep'"):
        X.parse_experiment_dict({**base, "keep": "everything"})
