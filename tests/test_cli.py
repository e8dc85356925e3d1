"""The ``rummy-sim`` command line (sim/cli.py), deal recording (sim/games/persian/recording.py)
and the formatting half of the benchmark (sim/apps/bench/).

Commands are run in-process through ``main([...])``. Logs written by the compiled
engine are checked field by field against LOG_FORMAT.md and replayed under the
pure-Python reference rules (tests/naive_persian.py).
"""

from __future__ import annotations

import json
import sys
import types

import numpy as np
import pytest

from naive_persian import replay_log
from sim.apps.bench import one_table
from sim.apps.bench.targets import check_targets
from sim.cli import main, parse_rules
from sim.games.persian import enums as E
from sim.games.persian.cards import card_name
from sim.games.persian.engine import StrategyError, run_deals
from sim.games.persian.engine_nb import shuffled_deck
from sim.games.persian.log import TOP_KEYS, TURN_KEYS, read_deal, read_jsonl, validate_log
from sim.games.persian.recording import record_logs
from sim.games.persian.rules import RuleOptions
from sim.games.persian.show import render_deal
from sim.plugin.registry import get_game, get_strategy


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def log_cmd(path, *specs: str, deals: int = 12, seed: int = 7, extra: tuple[str, ...] = ()) -> list[str]:
    return ["log", *specs, "--deals", str(deals), "--seed", str(seed), "--out", str(path), *extra]


# --- log and show -------------------------------------------------------------------------


def check_log_fields(d: dict, seed: int, deal: int, strategies: list[str], rules: dict) -> None:
    """The fields of LOG_FORMAT.md, with the cards re-dealt from the seed."""
    validate_log(d)
    assert set(d) == set(TOP_KEYS)
    assert d["format"] == "rummy-log/1" and d["game"] == "persian"
    assert d["seed"] == seed and d["deal"] == deal and d["dealer"] == deal % 4
    assert d["strategies"] == strategies
    assert d["rules"] == rules
    deck = [card_name(int(c)) for c in shuffled_deck(np.int64(seed), np.int64(deal))]
    assert d["hands"] == [deck[7 * s : 7 * s + 7] for s in range(4)]
    assert d["discard"] == [deck[28]]
    assert d["stock"] == deck[29:]
    assert d["turns"], "a deal has at least one turn"
    for turn in d["turns"]:
        assert set(turn) == set(TURN_KEYS)
    assert d["end"] in ("out", "passes", "cap")
    assert (d["out_seat"] is not None) == (d["end"] == "out")


def test_log_then_show_two_specs(tmp_path, capsys) -> None:
    path = tmp_path / "deals.jsonl"
    code, out, err = run_cli(capsys, *log_cmd(path, "greedy", "random"))
    assert code == 0, err
    assert out.count("\n") == 1 and out.startswith("wrote 12 deals to")
    assert len(path.read_text().splitlines()) == 12
    logs = read_jsonl(path)
    for i, d in enumerate(logs):
        check_log_fields(d, 7, i, ["greedy", "random", "greedy", "random"], RuleOptions().to_dict())

    code, out, err = run_cli(capsys, "show", path, "--deal", 5)
    assert code == 0, err
    assert out == render_deal(read_deal(path, 5))
    assert "seed 7  deal 5" in out and "\x1b[" not in out
    code, out, _ = run_cli(capsys, "show", path, "--deal", 5, "--color")
    assert code == 0 and "\x1b[" in out


def test_log_four_specs_and_rules(tmp_path, capsys) -> None:
    path = tmp_path / "four.jsonl"
    specs = ["greedy:max_extra=5", "random", "greedy", "random"]
    rules = ["--rule", "last_card=discard", "--rule", "out_bonus=30", "--rule", "four_of_a_kind_double=false"]
    code, _, err = run_cli(capsys, *log_cmd(path, *specs, deals=8, seed=11, extra=tuple(rules)))
    assert code == 0, err
    want_rules = RuleOptions(last_card="discard", out_bonus=30, four_of_a_kind_double=False).to_dict()
    logs = read_jsonl(path)
    assert len(logs) == 8
    for i, d in enumerate(logs):
        check_log_fields(d, 11, i, specs, want_rules)
        assert set(d["score"]["bonus"]) <= {0, 30}


def test_log_refuses_to_overwrite(tmp_path, capsys) -> None:
    path = tmp_path / "keep.jsonl"
    path.write_text("precious\n")
    code, out, err = run_cli(capsys, *log_cmd(path, "greedy", "random", deals=3))
    assert code == 2
    assert err.startswith("rummy-sim: error:") and "--force" in err and "Traceback" not in err
    assert path.read_text() == "precious\n"
    code, _, err = run_cli(capsys, *log_cmd(path, "greedy", "random", deals=3, extra=("--force",)))
    assert code == 0, err
    assert len(read_jsonl(path)) == 3


BAD_INPUT = [
    (("log", "nosuch", "random", "--deals", "2"), "unknown strategy 'nosuch'"),
    (("log", "greedy:depth=2", "random", "--deals", "2"), "unknown parameter 'depth'"),
    (("log", "greedy:max_extra=9999", "random", "--deals", "2"), "max_extra=9999 is outside"),
    (("log", "greedy:max_extra=abc", "random", "--deals", "2"), "max_extra='abc' is not"),
    (("log", "greedy", "random", "--deals", "2", "--rule", "last_card=sometimes"), "last_card"),
    (("log", "greedy", "random", "--deals", "2", "--rule", "out_bonus=lots"), "out_bonus"),
    (("log", "greedy", "random", "--deals", "2", "--rule", "no_such_rule=1"), "unknown rule option 'no_such_rule'"),
    (("log", "greedy", "random", "--deals", "2", "--rule", "four_of_a_kind_double=maybe"), "four_of_a_kind_double"),
    (("log", "greedy", "random", "--deals", "2", "--rule", "out_bonus"), "expected KEY=VALUE"),
    (("log", "greedy", "random", "--deals", "0"), "--deals must be a positive integer, got 0"),
    (("log", "greedy", "random", "--deals", "-3"), "--deals must be a positive integer, got -3"),
    (("log", "greedy", "random", "--deals", "2", "--seed", "-1"), "seed -1"),
    (("log", "greedy", "--deals", "2"), "2 or 4 strategy specs"),
    (("log", "greedy", "random", "greedy", "--deals", "2"), "2 or 4 strategy specs"),
]


@pytest.mark.parametrize("argv, fragment", BAD_INPUT, ids=[b[1][:30] for b in BAD_INPUT])
def test_log_bad_input(tmp_path, capsys, argv, fragment) -> None:
    path = tmp_path / "never.jsonl"
    code, out, err = run_cli(capsys, *argv, "--out", path)
    assert code == 2
    assert err.startswith("rummy-sim: error:") and fragment in err, err
    assert "Traceback" not in err and out == ""
    assert not path.exists()


def test_non_integer_seed_is_an_argparse_error(tmp_path, capsys) -> None:
    code, _, err = run_cli(capsys, *log_cmd(tmp_path / "x.jsonl", "greedy", "random", extra=("--seed", "abc")))
    assert code == 2 and "invalid int value: 'abc'" in err and "Traceback" not in err


def test_show_missing_file_and_missing_deal(tmp_path, capsys) -> None:
    code, _, err = run_cli(capsys, "show", tmp_path / "absent.jsonl", "--deal", 0)
    assert code == 2 and err.startswith("rummy-sim: error:") and "absent.jsonl" in err
    assert "Traceback" not in err

    path = tmp_path / "three.jsonl"
    assert run_cli(capsys, *log_cmd(path, "greedy", "random", deals=3))[0] == 0
    code, out, err = run_cli(capsys, "show", path, "--deal", 42)
    assert code == 2 and out == ""
    assert err.startswith("rummy-sim: error:") and "deal 42 not in" in err and "0..2" in err


def test_show_rejects_a_broken_log(tmp_path, capsys) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text(json.dumps({"deal": 0, "format": "rummy-log/1"}) + "\n")
    code, _, err = run_cli(capsys, "show", path, "--deal", 0)
    assert code == 2 and "not a valid rummy-log/1" in err and "Traceback" not in err


def test_strategy_error_exits_2(tmp_path, capsys, monkeypatch) -> None:
    import sim.games.persian.recording as recording

    def illegal(*args, **kwargs):
        raise StrategyError("strategy 'x' in seat 1 made an illegal move (seed 7, deal 3)", np.zeros((1, 1)))

    monkeypatch.setattr(recording, "record_logs", illegal)
    code, _, err = run_cli(capsys, *log_cmd(tmp_path / "x.jsonl", "greedy", "random"))
    assert code == 2
    assert err.strip() == "rummy-sim: error: strategy 'x' in seat 1 made an illegal move (seed 7, deal 3)"


# --- rule parsing ---------------------------------------------------------------------------


def test_parse_rules_types() -> None:
    r = parse_rules(["last_card=discard", "out_bonus=30", "four_of_a_kind_double=false",
                     "deals_per_game=4", "turn_cap=200"])
    assert r == RuleOptions("discard", 30, False, 4, 200)
    assert parse_rules(["four_of_a_kind_double=TRUE"]).four_of_a_kind_double is True
    assert parse_rules(None) == RuleOptions()
    with pytest.raises(ValueError, match="given twice"):
        parse_rules(["out_bonus=1", "out_bonus=2"])
    with pytest.raises(ValueError, match=r"rule option turn_cap: 1 is outside"):
        parse_rules(["turn_cap=1"])


# --- strategies -------------------------------------------------------------------------------


def test_strategies_lists_every_strategy_with_parameters(capsys) -> None:
    code, out, _ = run_cli(capsys, "strategies")
    assert code == 0
    lines = out.splitlines()
    assert "random  [baseline]" in lines and "greedy  [heuristic]" in lines and "mc_search  [search]" in lines
    p = get_strategy("greedy").params[0]
    assert p.name == "max_extra"
    param_line = next(line for line in lines if line.strip().startswith("max_extra"))
    assert f"int, range {int(p.low)}..{int(p.high)}, default {int(p.default)}" in param_line
    assert p.help in param_line
    assert get_strategy("random").doc in out


# --- demo wiring ------------------------------------------------------------------------------


def test_demo_calls_run_demo_with_defaults_and_overrides(monkeypatch, capsys) -> None:
    seen = []
    fake = types.ModuleType("sim.apps.demo")
    fake.run_demo = lambda args: seen.append(args) or 0
    monkeypatch.setitem(sys.modules, "sim.apps.demo", fake)
    assert main(["demo"]) == 0
    assert (seen[0].deals, seen[0].out, seen[0].seed) == (20_000, "reports/demo", 2026)
    assert main(["demo", "--deals", "50", "--out", "elsewhere", "--seed", "3"]) == 0
    assert (seen[1].deals, seen[1].out, seen[1].seed) == (50, "elsewhere", 3)


# --- recording ----------------------------------------------------------------------------------


def test_record_logs_matches_run_deals_for_any_deal_range() -> None:
    deals = range(30, 45)
    logs = record_logs(["greedy", "random"], deals, 123, threads=1)
    assert [d["deal"] for d in logs] == list(deals)
    assert record_logs(["greedy", "random"], deals, 123, threads=2) == logs
    res = run_deals(["greedy", "random"], np.array(deals), 123).results
    for d, row in zip(logs, res):
        assert d["end"] == E.END_NAMES[row[E.C_END]]
        assert d["score"]["total"] == [int(row[E.C_TOTAL]), int(row[E.C_TOTAL + 1])]
        assert len(d["turns"]) == row[E.C_TURNS]


@pytest.mark.parametrize("spec", ["random", "greedy"])
@pytest.mark.parametrize("rule", [None, "last_card=discard"])
def test_engine_logs_replay_under_reference_rules(tmp_path, capsys, spec, rule) -> None:
    path = tmp_path / "replay.jsonl"
    extra = ("--rule", rule) if rule else ()
    code, _, err = run_cli(capsys, *log_cmd(path, spec, spec, deals=50, seed=2024, extra=extra))
    assert code == 0, err
    logs = read_jsonl(path)
    assert len(logs) == 50
    ends = set()
    for d in logs:
        ref = replay_log(d)
        assert (ref.end, ref.out_seat) == (d["end"], d["out_seat"]), d["deal"]
        assert ref.score() == d["score"], d["deal"]
        ends.add(d["end"])
    assert "out" in ends


# --- bench: assembling and formatting with made-up numbers ------------------------------------

FAKE_SPEEDS = {"greedy": {"1": 90_000.04, "all": 155_000.0}, "random": {"1": 28_000.0, "all": 50_000.0},
               "expert": {"1": 40_000.0, "all": 65_000.0}}
FAKE_DEALS = {"all_threads": 200_000, "one_thread": 100_000, "nojit": 200, "record": 20_000}
PERSIAN_PLAN = get_game("persian").bench_plan()


def fake_result(**changes) -> dict:
    args = dict(speeds=FAKE_SPEEDS, first_call_s=0.81234, compile_s=18.5, nojit_deals_per_s=120.0,
                record_overhead=1.5, threads=2, deals=FAKE_DEALS)
    args.update(changes)
    return one_table.assemble(**args)


def test_bench_assemble_json() -> None:
    r = fake_result()
    assert set(r) == {"deals_per_s", "first_call_s", "compile_s", "jit_speedup", "nojit_deals_per_s",
                      "record_overhead", "threads", "deals", "numba", "numpy", "machine", "repeat",
                      "deals_per_s_min", "deals_per_s_max", "deals_per_s_runs"}  # see tests/test_bench_repeat.py
    assert r["deals_per_s"] == {"greedy": {"1": 90_000.0, "all": 155_000.0}, "random": {"1": 28_000.0, "all": 50_000.0},
                                "expert": {"1": 40_000.0, "all": 65_000.0}}
    assert r["jit_speedup"] == 750.0
    assert r["first_call_s"] == 0.812 and r["compile_s"] == 18.5 and r["threads"] == 2
    assert r["deals"] == FAKE_DEALS
    assert json.loads(json.dumps(r)) == r
    assert fake_result(nojit_deals_per_s=0.0)["jit_speedup"] is None


def test_bench_targets_and_table() -> None:
    # issue 14's targets: greedy and expert x4 on all threads, the first call from cache
    assert check_targets(fake_result(), PERSIAN_PLAN.targets) == {"greedy_all": True, "expert_all": True,
                                                                  "jit_speedup": True, "first_call_s": True}
    slow = fake_result(speeds={"greedy": {"1": 9_000.0, "all": 119_999.0}, "random": {"1": 1.0, "all": 2.0},
                               "expert": {"1": 1.0, "all": 49_999.0}}, first_call_s=1.0)
    assert check_targets(slow, PERSIAN_PLAN.targets) == {"greedy_all": False, "expert_all": False,
                                                         "jit_speedup": False, "first_call_s": False}

    text = one_table.format_human(fake_result(), get_game("persian"))
    lines = text.splitlines()
    assert "numba" in lines[0] and "2 threads" in lines[0]
    assert text.count("PASS") == 4 and "MISS" not in text
    row = next(line for line in lines if "greedy x4, 2 threads" in line)
    assert "155,000 deals/s" in row and ">= 120,000" in row and row.endswith("PASS")
    row = next(line for line in lines if "expert x4, 2 threads" in line)
    assert "65,000 deals/s" in row and ">= 50,000" in row and row.endswith("PASS")
    assert "< 1 s" in next(line for line in lines if "from cache" in line)
    assert "750x" in text and "0.81 s" in text and "18.50 s" in text and "1.50x" in text
    # the value column is right-aligned: every value ends in the same column
    value_rows = [line for line in lines[2:] if "deals/s" in line]
    ends = {line.index("deals/s") + len("deals/s") for line in value_rows}
    assert len(ends) == 1
    assert one_table.format_human(slow, get_game("persian")).count("MISS") == 4


def test_bench_deal_counts() -> None:
    assert one_table.deal_counts(PERSIAN_PLAN) == {"all_threads": 200_000, "one_thread": 100_000, "nojit": 200,
                                                   "record": 20_000}
    assert one_table.deal_counts(PERSIAN_PLAN, deals=3_000)["all_threads"] == 3_000
    assert one_table.deal_counts(PERSIAN_PLAN, deals=3_000)["one_thread"] == 3_000
    assert one_table.deal_counts(PERSIAN_PLAN, quick=True)["one_thread"] == 5_000
    with pytest.raises(ValueError, match="--deals"):
        one_table.deal_counts(PERSIAN_PLAN, deals=0)


def test_bench_rejects_bad_deals(capsys) -> None:
    code, _, err = run_cli(capsys, "bench", "--deals", "0")
    assert code == 2 and "--deals must be a positive integer" in err
