"""``rummy-sim bench --backend dask``: the comparison and the table of made-up runs
(sim/apps/bench/dask_backend.py; the measuring half needs a cluster and is run by hand)."""

from __future__ import annotations

import json

import pytest

from sim.apps.bench import dask_backend as dask_bench


def _block(local_wall: float, dask1_wall: float, dask2_wall: float) -> dict:
    """One kept form's runs of 100,000 deals in 10 chunks, as ``_record`` writes them."""
    block: dict = {}
    dask_bench._record(block, "local", 100_000, 10, local_wall, 4.0, None, {})
    dask_bench._record(block, "dask1", 100_000, 10, dask1_wall, 0.5, 4.2, {"gather_wait": 0.25, "worker_write": 1.0})
    dask_bench._record(block, "dask2", 100_000, 10, dask2_wall, 0.6, 4.4, {})
    return dask_bench._compare(block, 10)


def test_the_comparison_gives_speed_up_overheads_and_targets() -> None:
    b = _block(10.0, 10.5, 5.5)
    assert b["local_deals_per_s"] == 10_000.0 and b["dask2_deals_per_s"] == pytest.approx(18_181.8)
    assert b["speedup_2_vs_1"] == pytest.approx(1.909) and b["overhead_vs_local"] == pytest.approx(0.05)
    assert b["overhead_per_chunk_s"] == pytest.approx(0.05)
    assert b["cpu_overhead_vs_local"] == pytest.approx((4.2 + 0.5) / 4.0 - 1.0, abs=1e-4)
    assert b["targets"] == {"speedup_2_vs_1>=1.8": True, "overhead_vs_local<=10%": True}
    assert b["dask1_chunk_files_by_workers"] is True and b["dask2_chunk_files_by_workers"] is False
    slow = _block(10.0, 12.0, 8.0)  # 20% over the local run, 1.5x with two workers
    assert slow["targets"] == {"speedup_2_vs_1>=1.8": False, "overhead_vs_local<=10%": False}


def test_the_table_names_each_kept_form_and_the_targets() -> None:
    r = {"deals": 100_000, "chunks": 10, "chunk_deals": 10_000, "plays_per_deal": 2, "cpu_count": 2,
         "keeps": ["plays", "summary"], "dask1_startup_s": 3.0, "dask2_startup_s": 4.0,
         "tiny_chunk_round_trip_s": 0.0123, "plays": _block(10.0, 10.5, 5.5), "summary": _block(10.0, 12.0, 8.0),
         "load_average_before": [0.5, 0.4, 0.3], "load_average_after": [1.5, 0.7, 0.4]}
    assert json.loads(json.dumps(r)) == r
    text = dask_bench.format_dask(r)
    assert "--keep plays:" in text and "--keep summary:" in text and "12.3 ms" in text
    assert text.count("(target >= 1.8x: met)") == 1 and text.count("(target >= 1.8x: NOT met)") == 1
    assert "+5.0% (target <= 10%: met)" in text and "+20.0% (target <= 10%: NOT met)" in text
    assert text.rstrip().endswith("on 2 cores (other processes' work shows in every figure)")
