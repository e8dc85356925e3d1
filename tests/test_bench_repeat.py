"""``rummy-sim bench --repeat N`` / ``--spec NAME`` and the machine state beside the figures
(sim/apps/bench/, issue 14): every deals/s cell measured N times round robin, its median used
by the targets and ``deals_per_s``, min/max/runs beside it. Aggregation and formatting are
tested with made-up numbers; one tiny real run (greedy, 200 deals, two rounds) checks that
the measuring half feeds them. No timed assertions: the figures are only checked to exist.
"""

from __future__ import annotations

import json
import math

import pytest

from sim.apps.bench import by_players, cells, machine, one_table, repeat
from sim.apps.bench.targets import check_targets
from sim.cli import main
from sim.plugin.registry import get_game

PERSIAN = get_game("persian")
PLAN = PERSIAN.bench_plan()

DEALS = {"all_threads": 200_000, "one_thread": 100_000, "nojit": 200, "record": 20_000, "search": 400}
MACHINE = machine.machine_info(2, 1.35, 2.8, "2026-12-01T22:01:00Z", "2026-12-01T22:14:00Z")


def result(speeds: dict, machine: dict | None = MACHINE, **changes) -> dict:
    args = {"speeds": speeds, "first_call_s": 0.8, "compile_s": 14.0, "nojit_deals_per_s": 100.0,
            "record_overhead": 1.5, "threads": 2, "deals": DEALS, "machine": machine}
    args.update(changes)
    return one_table.assemble(**args)


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# --- aggregation ----------------------------------------------------------------------------


def test_spread_median_min_max_and_runs() -> None:
    s = repeat.spread({"greedy": {"1": [30_000.0, 10_000.0, 20_000.04], "all": [4.0, 1.0, 3.0, 2.0]},
                      "random": {"1": 7.0, "all": [5.0]}})
    assert s["deals_per_s"] == {"greedy": {"1": 20_000.0, "all": 2.5}, "random": {"1": 7.0, "all": 5.0}}
    assert s["deals_per_s_min"] == {"greedy": {"1": 10_000.0, "all": 1.0}, "random": {"1": 7.0, "all": 5.0}}
    assert s["deals_per_s_max"] == {"greedy": {"1": 30_000.0, "all": 4.0}, "random": {"1": 7.0, "all": 5.0}}
    # runs in the order measured, a single number being one run
    assert s["deals_per_s_runs"] == {"greedy": {"1": [30_000.0, 10_000.0, 20_000.0], "all": [4.0, 1.0, 3.0, 2.0]},
                                     "random": {"1": [7.0], "all": [5.0]}}
    assert s["repeat"] == 4
    # the searches' small figures keep two decimals
    assert repeat.spread({"mc_search": {"1": [5.125, 5.5]}})["deals_per_s"]["mc_search"]["1"] == pytest.approx(5.31)


def test_spread_of_a_game_tree_by_players() -> None:
    s = repeat.spread(repeat.nest({("greedy", "2", "1"): [3.0, 1.0, 2.0], ("greedy", "2", "all"): [6.0, 5.0, 4.0],
                                 ("greedy", "4", "1"): [9.0, 8.0, 7.0]}))
    assert s["deals_per_s"] == {"greedy": {"2": {"1": 2.0, "all": 5.0}, "4": {"1": 8.0}}}
    assert s["deals_per_s_max"]["greedy"]["2"]["all"] == 6.0 and s["repeat"] == 3


def test_round_robin_interleaves_the_cells() -> None:
    log: list[str] = []
    said: list[str] = []

    def cell(name: str, value: float):
        return (name, f"cell {name}", lambda: log.append(name) or value)

    loads: list = []
    runs = repeat.round_robin([cell("a", 1.0), cell("b", 2.0), cell("c", 3.0)], 3, said.append, loads)
    assert log == ["a", "b", "c"] * 3  # all cells once, then all again: not a a a b b b
    assert len(loads) == 3 and all(x is None or x >= 0 for x in loads)  # one load average per round
    assert runs == {"a": [1.0] * 3, "b": [2.0] * 3, "c": [3.0] * 3}
    assert said[0] == "cell a (round 1 of 3) ..." and said[-1] == "cell c (round 3 of 3) ..."
    said.clear()
    repeat.round_robin([cell("a", 1.0)], 1, said.append)
    assert said == ["cell a ..."]


@pytest.mark.parametrize("bad", [0, -2, True, 1.5, "3"])
def test_repeat_must_be_a_positive_integer(bad) -> None:
    with pytest.raises(ValueError, match="--repeat must be a positive integer"):
        repeat.check_repeat(bad)
    with pytest.raises(ValueError, match="--repeat must be a positive integer"):
        repeat.round_robin([("a", "a", lambda: 1.0)], bad)


def test_select_specs_keeps_the_bench_order_and_names_the_valid_ones() -> None:
    specs = PLAN.all_specs
    assert cells.select_specs(specs, None, "persian") == specs
    assert cells.select_specs(specs, ["expert", "greedy", "expert"], "persian") == ("greedy", "expert")
    with pytest.raises(ValueError, match="--spec 'greediest': not a benched persian strategy; choose from greedy, "
                                         "random, deep_taker"):
        cells.select_specs(specs, ["greedy", "greediest"], "persian")
    indian = get_game("indian").bench_plan().all_specs
    assert indian[-1] == "mc_search" and "dropper" in indian
    with pytest.raises(ValueError, match="not a benched indian strategy.*dropper"):
        cells.select_specs(indian, ["deep_taker"], "indian")


# --- the JSON object and the tables ---------------------------------------------------------------


def test_targets_use_the_median_of_the_runs() -> None:
    # greedy on all threads: median 130,000 passes although one run fell below 120,000
    r = result({"greedy": {"1": [20_000.0, 21_000.0, 25_000.0], "all": [24_000.0, 130_000.0, 190_000.0]}})
    assert r["deals_per_s"]["greedy"] == {"1": 21_000.0, "all": 130_000.0}
    assert r["jit_speedup"] == 210.0  # the 1-thread median over the no-JIT speed
    assert check_targets(r, PLAN.targets)["greedy_all"] is True
    # median 119,000 misses although one run reached 190,000
    r = result({"greedy": {"1": [20_000.0], "all": [119_000.0, 10_000.0, 190_000.0]}})
    assert check_targets(r, PLAN.targets)["greedy_all"] is False
    assert json.loads(json.dumps(r)) == r


def test_strategies_left_out_have_no_target_mark() -> None:
    r = result({"random": {"1": [1_000.0, 2_000.0], "all": [3_000.0, 4_000.0]}})
    assert r["jit_speedup"] is None
    assert check_targets(r, PLAN.targets) == {"greedy_all": None, "expert_all": None, "jit_speedup": None,
                                      "first_call_s": True}
    text = one_table.format_human(r, PERSIAN)
    assert "MISS" not in text and "greedy x4, 2 threads" not in text
    jit_row = next(line for line in text.splitlines() if "JIT speed-up (1 thread)" in line)
    assert "n/a" in jit_row and jit_row.endswith(">= 200x")  # a target, but neither PASS nor MISS


def test_machine_state_in_json_and_table() -> None:
    r = result({"greedy": {"1": 30_000.0, "all": 55_000.0}})
    m = r["machine"]
    assert {"loadavg_1m_before", "loadavg_1m_after", "loadavg_1m_rounds", "cpus", "cpus_usable", "numba_threads", "numba", "numpy",
            "python", "started_utc", "finished_utc"} <= set(m)
    assert m["loadavg_1m_before"] == 1.35 and m["loadavg_1m_after"] == 2.8 and m["numba_threads"] == 2
    line = one_table.format_human(r, PERSIAN).splitlines()[-1]
    assert line.startswith("  machine: ") and "2 numba threads" in line
    assert "load average (1 min) 1.35 before, 2.80 after" in line and "2026-12-01T22:01:00Z" in line
    # measured now: a real load average on this OS, the CPU count and the versions
    now = machine.machine_info(3, machine.load_average(), None, load_rounds=[0.5, None])
    assert now["loadavg_1m_rounds"] == [0.5, None]
    assert now["loadavg_1m_before"] is None or now["loadavg_1m_before"] >= 0
    assert now["cpus"] >= 1 and now["numba_threads"] == 3 and now["numba"] and now["numpy"]
    assert "n/a after (at each round: 0.50, n/a)" in machine.format_machine({"machine": now})


def test_human_table_shows_median_and_range_only_when_repeated() -> None:
    once = one_table.format_human(result({"greedy": {"1": 30_000.0, "all": 55_000.0}}), PERSIAN)
    assert "range" not in once and "median of" not in once
    assert once.splitlines()[1].split() == ["measurement", "value", "target"]

    text = one_table.format_human(result({"greedy": {"1": [30_000.0, 28_000.0, 31_000.0],
                                                     "all": [119_585.0, 127_274.0, 139_583.0]},
                                          "mc_search": {"1": [190.5, 180.0, 200.0], "all": [374.7, 261.0, 414.3]}}),
                                  PERSIAN)
    lines = text.splitlines()
    assert lines[1].split() == ["measurement", "median", "range", "target"]
    row = next(line for line in lines if "greedy x4, 2 threads" in line)
    assert "127,274 deals/s" in row and "119,585-139,583" in row and row.endswith("PASS")
    assert "28,000-31,000" in next(line for line in lines if "greedy x4, 1 thread" in line)
    assert "261-414" in next(line for line in lines if "mc_search x4, 2 threads" in line)
    assert "  deals/s: median of 3 runs per cell (range min-max), the cells measured round robin" in lines
    ends = {line.index("deals/s") + len("deals/s") for line in lines[2:] if " x4, " in line}
    assert len(ends) == 1  # medians right-aligned in one column


def test_game_table_with_ranges() -> None:
    speeds = {"greedy": {str(n): {"1": [1_000.0, 1_200.0, 900.0], "all": [2_100.0, 1_800.0, 2_500.0]}
                         for n in (2, 4)},
              "mc_search": {"2": {"1": [5.5, 5.0, 6.0], "all": [9.25, 9.0, 10.0]}}}
    r = by_players.assemble_game("indian", speeds, 1.2, 60.0, 40.0, ["indian", "persian"], 2, 10_000, 8,
                                 {"solver_hands_per_s": {"2": 300_000.0, "3": 250_000.0}}, MACHINE)
    assert r["deals_per_s"]["greedy"]["4"] == {"1": 1_000.0, "all": 2_100.0}
    assert r["deals_per_s_runs"]["mc_search"]["2"]["all"] == [9.25, 9.0, 10.0] and r["repeat"] == 3
    assert json.loads(json.dumps(r)) == r
    text = by_players.format_game(r)
    row = next(line for line in text.splitlines() if "greedy x4, 2 threads" in line)
    assert "2,100 deals/s" in row and "1,800-2,500" in row and row.endswith("PASS")
    assert "9.25 deals/s" in text and "9.00-10.00" in text
    assert "median of 3 runs" in text and "load average (1 min) 1.35 before" in text
    # greedy left out: its target is not marked at all
    alone = by_players.assemble_game("indian", {"expert": speeds["greedy"]}, 1.2, 60.0, 40.0, ["indian"], 2, 10_000,
                                None, None)
    assert "MISS" not in by_players.format_game(alone) and "PASS" in by_players.format_game(alone)


# --- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize("argv, message", [
    (("--repeat", "0"), "--repeat must be a positive integer, got 0"),
    (("--repeat", "-3"), "--repeat must be a positive integer, got -3"),
    (("--game", "indian", "--repeat", "0"), "--repeat must be a positive integer, got 0"),
    (("--spec", "nope"), "--spec 'nope': not a benched persian strategy; choose from greedy, random"),
    (("--game", "indian", "--spec", "deep_taker"), "--spec 'deep_taker': not a benched indian strategy"),
    (("--runner", "--spec", "greedy"), "--spec applies to the deals/s bench"),
    (("--backend", "dask", "--repeat", "2"), "not to --backend dask"),
])
def test_bench_cli_rejects_bad_repeat_and_spec(capsys, argv, message) -> None:
    code, out, err = run_cli(capsys, "bench", *argv)
    assert code == 2 and message in err and out == ""


def test_tiny_real_run_feeds_the_aggregation() -> None:
    """Greedy x4 on 200 deals, 1 and 2 threads, two rounds: real figures, median between the extremes."""
    counts = {"one_thread": 200, "all_threads": 200, "search": 1}
    table = cells.table_cells(PERSIAN, PLAN, ("greedy",), counts, 2)
    assert [key for key, _, _ in table] == [("greedy", "1"), ("greedy", "all")]
    assert [label for _, label, _ in table] == ["greedy x4 on 1 thread, 200 deals", "greedy x4 on 2 threads, 200 deals"]
    runs = repeat.round_robin(table, 2)
    r = result(repeat.nest(runs))
    for th in ("1", "all"):
        got = r["deals_per_s_runs"]["greedy"][th]
        assert len(got) == 2 and all(math.isfinite(x) and x > 0 for x in got)
        assert r["deals_per_s_min"]["greedy"][th] <= r["deals_per_s"]["greedy"][th] <= r["deals_per_s_max"]["greedy"][th]
    assert r["repeat"] == 2
