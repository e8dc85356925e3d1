"""Issue 11: the Dask backend. One LocalCluster of two single-threaded worker processes on this
machine, shared by the module's tests (started by the fixture, bounded timeouts, always shut
down). Results must equal a local run's whatever the workers and the order chunks finish in,
survive a killed worker, and refuse a worker of another code version."""

from __future__ import annotations

import dataclasses
import os
import signal

import pandas as pd
import pytest

distributed = pytest.importorskip("distributed")

import sim.experiment as X  # noqa: E402
from sim.runner import RunInterrupted, VersionMismatch, read_plays, run_experiment  # noqa: E402
from sim.runner.dask_backend import DaskChunks  # noqa: E402
from sim.runner.keep import compute_chunk  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=40, death_timeout=60)
    c = distributed.Client(cluster, timeout=60)
    try:
        c.wait_for_workers(2, timeout=120)
        yield c
    finally:
        c.close(timeout=30)
        cluster.close(timeout=30)


def _exp(deals=600, seed=11):
    return X.match("greedy", "random", deals, seed, chunk=100)


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    out = tmp_path_factory.mktemp("local") / "m.parquet"
    return run_experiment(_exp(), out=out, progress=False), out


def test_chunks_come_back_in_deal_order_whatever_order_they_finish_in(client) -> None:
    exp = _exp(deals=300)
    plan = exp.chunks()
    # the first chunk waits longest, so the later ones finish first
    chunks = DaskChunks(exp, plan, scheduler=client, delays={plan[0]: 1.0, plan[1]: 0.5})
    try:
        got = [chunks.get(a, b) for a, b in plan]
    finally:
        chunks.close()
    for out, (a, b) in zip(got, plan):
        ref = compute_chunk(exp, a, b)
        assert (out.start, out.stop) == (a, b)
        assert out.table.equals(ref.table)
        assert out.stats.sets.mean.tolist() == ref.stats.sets.mean.tolist()
        assert out.stats.play_diff.m2.tolist() == ref.stats.play_diff.m2.tolist()


def test_a_dask_run_equals_a_local_run(client, local, tmp_path) -> None:
    ref, ref_out = local
    out = tmp_path / "d.parquet"
    run = run_experiment(_exp(), out=out, backend="dask", scheduler=client, progress=False)
    pd.testing.assert_frame_equal(read_plays(out), read_plays(ref_out), check_exact=True)
    pd.testing.assert_frame_equal(run.summary, ref.summary, check_exact=True)
    summary = run_experiment(_exp(), out=tmp_path / "s.parquet", backend="dask", scheduler=client, keep="summary",
                             progress=False)
    pd.testing.assert_frame_equal(summary.summary, ref.summary, check_exact=True)


def test_a_killed_worker_costs_only_its_chunk(client, local, tmp_path) -> None:
    ref, ref_out = local
    pids = client.run(os.getpid)
    killed = []

    def kill_one(info):
        if not killed:  # later chunks are running now: kill a worker in the middle of one
            busy = [w for w, keys in client.processing().items() if keys and w in pids]
            victim = busy[0]
            os.kill(pids[victim], signal.SIGKILL)
            killed.append((victim, list(client.processing()[victim])))

    out = tmp_path / "k.parquet"
    run = run_experiment(_exp(), out=out, backend="dask", scheduler=client, progress=False, on_chunk=kill_one)
    assert killed and killed[0][1], "the killed worker had a chunk running"
    pd.testing.assert_frame_equal(read_plays(out), read_plays(ref_out), check_exact=True)
    pd.testing.assert_frame_equal(run.summary, ref.summary, check_exact=True)
    client.wait_for_workers(2, timeout=120)  # the nanny restarts the killed worker for the next tests


def test_an_interrupted_dask_run_resumes_locally_and_the_other_way(client, local, tmp_path) -> None:
    ref, ref_out = local
    out = tmp_path / "r.parquet"

    def ctrl_c(info):  # a real SIGINT, as Ctrl-C sends it: the running chunk finishes, the rest is cancelled
        if info.chunks_done == 2:
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(RunInterrupted) as e:
        run_experiment(_exp(), out=out, backend="dask", scheduler=client, progress=False, on_chunk=ctrl_c)
    assert e.value.result.deals_played == 200
    with pytest.raises(RunInterrupted):
        run_experiment(_exp(), out=out, resume=True, progress=False, on_chunk=lambda info: info.chunks_done >= 4)
    run = run_experiment(_exp(), out=out, resume=True, backend="dask", scheduler=client, progress=False)
    pd.testing.assert_frame_equal(read_plays(out), read_plays(ref_out), check_exact=True)
    pd.testing.assert_frame_equal(run.summary, ref.summary, check_exact=True)


def test_a_worker_of_another_version_is_refused(client) -> None:
    exp = dataclasses.replace(_exp(), version="0.0.1+feedfacefeedface")
    with pytest.raises(VersionMismatch, match=r"Dask worker .* runs rummy-sim .* made with 0\.0\.1\+feedface"):
        run_experiment(exp, backend="dask", scheduler=client, progress=False)
