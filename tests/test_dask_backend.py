"""Issue 11: the Dask backend, on a LocalCluster of two single-threaded worker processes on this
machine (started by the test, bounded timeouts, always shut down). One test function, so the
cluster starts once even when pytest-xdist spreads tests over processes; each property is
checked by its own helper below: results equal a local run's whatever the order chunks finish
in, a killed worker costs only its chunk, Ctrl-C keeps the gathered chunks and --resume
continues on either backend (a damaged chunk file set aside), a worker of another code
version is refused, and a plain-Python strategy from a --load file plays on the workers (they
load the client's user files, issue 27) with the local run's results."""

from __future__ import annotations

import dataclasses
import os
import signal

import pandas as pd
import pytest

distributed = pytest.importorskip("distributed")

import sim.experiment as X  # noqa: E402
from sim.runner import RunError, RunInterrupted, VersionMismatch, read_plays, run_experiment  # noqa: E402
from sim.runner.dask_backend import DaskChunks, local_cluster  # noqa: E402
from sim.runner.files import chunk_name, parts_dir, read_chunk_table  # noqa: E402
from sim.runner.keep import compute_chunk  # noqa: E402
from frame_checks import assert_same_frame  # noqa: E402


def _exp(deals=400, seed=11):
    return X.match("greedy", "random", deals, seed, chunk=100)


def test_the_dask_backend_gives_the_local_results_through_reordering_faults_and_interruptions(tmp_path,
                                                                                              capsys) -> None:
    ref_out = tmp_path / "local.parquet"
    ref = run_experiment(_exp(), out=ref_out, progress=False)
    cluster, client = local_cluster(2, silence_logs=40, death_timeout=60)  # as --backend dask starts one
    try:
        client.wait_for_workers(2, timeout=120)
        _chunks_come_back_in_deal_order_whatever_order_they_finish_in(client, tmp_path)
        _a_dask_run_equals_a_local_run(client, ref, ref_out, tmp_path)
        _a_killed_worker_costs_only_its_chunk(client, ref, ref_out, tmp_path)
        _interrupted_runs_resume_on_either_backend(client, ref, ref_out, tmp_path, capsys)
        _a_worker_of_another_version_is_refused(client)
        _a_loaded_python_strategy_plays_on_the_workers(client, tmp_path)
    finally:
        client.close(timeout=30)
        cluster.close(timeout=30)


def _chunks_come_back_in_deal_order_whatever_order_they_finish_in(client, tmp_path) -> None:
    exp = _exp(deals=300)
    plan = exp.chunks()
    # the first chunk waits longest, so the later ones finish first
    chunks = DaskChunks(exp, plan, scheduler=client, delays={plan[0]: 1.0, plan[1]: 0.5})
    try:
        got = [chunks.get(a, b) for a, b in plan]
    finally:
        chunks.close()
    refs = [compute_chunk(exp, a, b) for a, b in plan]
    for out, ref, (a, b) in zip(got, refs, plan):
        assert (out.start, out.stop) == (a, b)
        assert out.path is None and out.table.equals(ref.table)  # no parts folder: the table comes back
        assert out.stats.sets.mean.tolist() == ref.stats.sets.mean.tolist()
        assert out.stats.play_diff.m2.tolist() == ref.stats.play_diff.m2.tolist()
    # workers that see the run's parts folder write the chunk files themselves; only paths come back
    parts = tmp_path / "w.parquet.parts"
    parts.mkdir()
    chunks = DaskChunks(exp, plan, scheduler=client, parts=parts, meta={"experiment_hash": exp.digest()})
    try:
        got = [chunks.get(a, b) for a, b in plan]
    finally:
        chunks.close()
    assert not list(parts.glob(".dask-run-*")), "the run's token file is removed at the end"
    for out, ref, (a, b) in zip(got, refs, plan):
        assert out.table is None and out.path == str(parts.resolve() / chunk_name(a, b))
        assert read_chunk_table(parts / chunk_name(a, b), a, b, exp.digest()).equals(ref.table)
        assert out.stats.sets.mean.tolist() == ref.stats.sets.mean.tolist()
    with pytest.raises(RunError, match="does not belong to this run"):
        read_chunk_table(parts / chunk_name(*plan[0]), *plan[1], exp.digest())


def _a_dask_run_equals_a_local_run(client, ref, ref_out, tmp_path) -> None:
    out = tmp_path / "d.parquet"
    run = run_experiment(_exp(), out=out, backend="dask", scheduler=client, progress=False)
    assert_same_frame(read_plays(out), read_plays(ref_out), check_exact=True)
    assert_same_frame(run.summary, ref.summary, check_exact=True)
    summary = run_experiment(_exp(), out=tmp_path / "s.parquet", backend="dask", scheduler=client, keep="summary",
                             progress=False)
    assert_same_frame(summary.summary, ref.summary, check_exact=True)


def _a_killed_worker_costs_only_its_chunk(client, ref, ref_out, tmp_path) -> None:
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
    assert_same_frame(read_plays(out), read_plays(ref_out), check_exact=True)
    assert_same_frame(run.summary, ref.summary, check_exact=True)
    client.wait_for_workers(2, timeout=120)  # the nanny restarts the killed worker


def _interrupted_runs_resume_on_either_backend(client, ref, ref_out, tmp_path, capsys) -> None:
    out = tmp_path / "r.parquet"

    def ctrl_c(info):  # a real SIGINT, as Ctrl-C sends it: the running chunk finishes, the rest is cancelled
        if info.chunks_done == 1:
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(RunInterrupted) as e:
        run_experiment(_exp(), out=out, backend="dask", scheduler=client, progress=False, on_chunk=ctrl_c)
    assert e.value.result.deals_played == 100
    with pytest.raises(RunInterrupted):
        run_experiment(_exp(), out=out, resume=True, progress=False, on_chunk=lambda info: info.chunks_done >= 3)
    damaged = sorted(parts_dir(out).glob("chunk-*.arrow"))[0]  # as a kill -9 in mid-write leaves it
    damaged.write_bytes(damaged.read_bytes()[:1000])
    capsys.readouterr()
    run = run_experiment(_exp(), out=out, resume=True, backend="dask", scheduler=client, progress=False)
    assert damaged.name in capsys.readouterr().err
    assert_same_frame(read_plays(out), read_plays(ref_out), check_exact=True)
    assert_same_frame(run.summary, ref.summary, check_exact=True)


def _a_worker_of_another_version_is_refused(client) -> None:
    exp = dataclasses.replace(_exp(), version="0.0.1+feedfacefeedface")
    with pytest.raises(VersionMismatch, match=r"Dask worker .* runs rummy-sim .* made with 0\.0\.1\+feedface"):
        run_experiment(exp, backend="dask", scheduler=client, progress=False)


def _a_loaded_python_strategy_plays_on_the_workers(client, tmp_path) -> None:
    from pathlib import Path

    import strategies.persian.python_examples.greedy_py as example
    from sim.plugin.user_files import load_user_file

    path = tmp_path / "dask_greedy.py"
    path.write_text(Path(example.__file__).read_text().replace('"greedy_py"', '"dask_greedy_py"'))
    load_user_file(path)
    exp = X.match("dask_greedy_py", "greedy", 40, 5, chunk=20)
    local = run_experiment(exp, progress=False)
    remote = run_experiment(exp, backend="dask", scheduler=client, progress=False)
    assert_same_frame(remote.summary, local.summary, check_exact=True)
