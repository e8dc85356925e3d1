"""``rummy-sim match | tournament | sweep | run`` and ``bench --runner`` (sim/cli.py).

Commands run in-process through ``main([...])``, except one real Ctrl-C: a
subprocess gets SIGINT after its first chunk file appears, must exit 130 keeping its
chunks, and ``--resume`` must then finish with the rows of an uninterrupted run.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from sim.apps.bench import runner as runner_bench
from sim.cli import main
from sim.runner import parts_dir, read_metadata, read_plays
from frame_checks import assert_same_frame  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "experiments" / "example.toml"


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# --- match -----------------------------------------------------------------------------------


def test_match_json_has_the_promised_fields_and_no_progress(capsys) -> None:
    code, out, err = run_cli(capsys, "match", "greedy", "random", "--deals", 400, "--seed", 3, "--json")
    assert code == 0, err
    assert err == ""  # no progress bar in --json mode (and none when stderr is not a terminal)
    s = json.loads(out)
    for key in ("deal_sets", "mean_diff", "ci95", "game_win_rate", "variance_reduction", "effect_size",
                "deals_needed", "game_win_rate_ci95", "win_rate", "tie_rate", "loss_rate", "unpaired_ci95",
                "p_value", "plays", "rotations"):
        assert key in s, key
    assert s["deal_sets"] == 400 and s["plays"] == 800 and s["rotations"] == 2
    assert s["ci95"][0] < s["mean_diff"] < s["ci95"][1]
    assert s["a"] == "greedy" and s["b"] == "random" and s["seed"] == 3
    assert 0 < s["game_win_rate"] < 1 and s["variance_reduction"] > 0


def test_match_text_table_and_output_file(tmp_path, capsys) -> None:
    out_file = tmp_path / "m.parquet"
    code, out, err = run_cli(capsys, "match", "greedy+random", "random", "--deals", 300, "--seed", 4,
                             "--out", out_file, "--threads", 1)
    assert code == 0, err
    assert "greedy+random (A) vs random (B), seed 4: 300 deal sets x 4 rotations = 1,200 plays" in out
    for fragment in ("A - B points per deal", "95% CI", "variance reduction", "game win rate", "effect size",
                     "deal sets to detect", f"results: {out_file}"):
        assert fragment in out, fragment
    plays = pd.read_parquet(out_file)
    assert len(plays) == 1200 and set(plays["rotation"]) == {0, 1, 2, 3}
    data = out_file.read_bytes()
    code, out, err = run_cli(capsys, "match", "greedy", "random", "--deals", 300, "--out", out_file)
    assert code == 2 and "already exists" in err and "--force" in err and out == ""
    assert out_file.read_bytes() == data
    code, out, err = run_cli(capsys, "match", "greedy+random", "random", "--deals", 300, "--seed", 4,
                             "--out", out_file, "--resume", "--json")
    assert code == 0, err
    assert json.loads(out)["deal_sets"] == 300 and out_file.read_bytes() == data


def test_match_sprt(capsys) -> None:
    code, out, err = run_cli(capsys, "match", "greedy", "random", "--deals", 50_000, "--sprt", 5,
                             "--chunk", 200, "--json")
    assert code == 0, err
    s = json.loads(out)
    assert s["stopped_by"] == "sprt" and s["sprt"]["decision"] == "accept_h1"
    assert s["deal_sets"] < 50_000 and s["deal_sets"] % 200 == 0
    code, out, err = run_cli(capsys, "match", "greedy", "random", "--deals", 50_000, "--sprt", 5, "--chunk", 200)
    assert code == 0 and "SPRT H0: 0 vs H1: +5 pts   accept_h1" in out


# --- tournament, sweep ------------------------------------------------------------------------


def test_tournament_prints_crosstable_and_ranking(capsys) -> None:
    code, out, err = run_cli(capsys, "tournament", "greedy", "random", "greedy:max_extra=0", "--deals", 200)
    assert code == 0, err
    assert "round robin of 3 teams" in out and "crosstable" in out and "ranking by margin" in out
    assert "T1 = greedy, T2 = random, T3 = greedy:max_extra=0" in out
    assert "Holm" in out
    code, out, err = run_cli(capsys, "tournament", "greedy", "random", "--deals", 200, "--json")
    assert code == 0
    obj = json.loads(out)
    assert [r["rank"] for r in obj["ranking"]] == [1, 2] and len(obj["pairings"]) == 1


def test_sweep_prints_a_row_per_point(capsys) -> None:
    code, out, err = run_cli(capsys, "sweep", "greedy", "--vary", "max_extra=0,30,60", "--vs", "random",
                             "--deals", 200)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("sweep of max_extra against random") and "3 points" in lines[0]
    assert sum(1 for line in lines if line.strip().split(" ")[0] in ("0", "30", "60")) == 3
    assert "best" in out
    code, out, _ = run_cli(capsys, "sweep", "greedy", "--vary", "max_extra=0,30", "--vs", "random",
                           "--deals", 200, "--json")
    obj = json.loads(out)
    assert [p["max_extra"] for p in obj["points"]] == ["0", "30"] and obj["vary"] == {"max_extra": ["0", "30"]}


# --- TOML ---------------------------------------------------------------------------------------


def test_run_the_example_experiment(tmp_path, capsys) -> None:
    out_file = tmp_path / "sweep.parquet"
    code, out, err = run_cli(capsys, "run", EXAMPLE, "--deals", 100, "--out", out_file, "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["kind"] == "sweep" and obj["deal_sets"] == 100 and len(obj["points"]) == 5
    meta = read_metadata(out_file)
    assert meta["seed"] == 2026 and meta["experiment"]["vary"] == {"max_extra": ["0", "15", "30", "60", "120"]}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "exp.toml"
    path.write_text(text)
    return path


MATCH = 'kind = "match"\ndeals = 50\n[match]\na = "greedy"\nb = "random"\n'

TOML_ERRORS = [
    ('kind = "match"\ndeals = 50\n[match\n', "malformed TOML"),
    ("dealz = 3\n" + MATCH, "unknown field(s) dealz"),
    (MATCH.replace("deals = 50", 'deals = "50"'), "field 'deals' must be an integer"),
    (MATCH.replace("deals = 50", "deals = 0"), "deals must be a positive integer, got 0"),
    (MATCH.replace('b = "random"', 'b = "nosuch"'), "unknown strategy 'nosuch'"),
    (MATCH.replace('b = "random"', 'b = "greedy:depth=3"'), "unknown parameter 'depth'"),
    (MATCH.replace('b = "random"', ""), "missing field 'match.b'"),
    (MATCH + 'c = "x"\n', "unknown field(s) match.c"),
    ('kind = "league"\ndeals = 5\n', "field 'kind': 'league' is not one of"),
    ('kind = "match"\ndeals = 5\n', "missing section [match]"),
    (MATCH + "[rules]\nout_bonus = -1\n", "out_bonus"),
    (MATCH + "[rules]\nno_such = 1\n", "unknown rule option(s) no_such"),
    (MATCH + "[sprt]\ndelta = 0\n", "sprt delta"),
    ('kind = "tournament"\ndeals = 5\n[tournament]\nteams = ["greedy", "random", "greedy:max_extra=0"]\n[sprt]\ndelta = 1\n',
     "exactly one pairing"),
    ('kind = "sweep"\ndeals = 5\n[sweep]\nbase = "greedy"\nvs = "random"\nvary = { depth = [1] }\n',
     "has no parameter 'depth'"),
    ('kind = "sweep"\ndeals = 5\n[sweep]\nbase = "greedy"\nvs = "random"\nvary = { max_extra = 3 }\n',
     "field 'sweep.vary.max_extra' must be a non-empty list"),
    (MATCH + "[tournament]\nteams = []\n", "section [tournament] does not belong"),
    ("threads = -2\n" + MATCH, "field 'threads' must be a positive integer"),
]


@pytest.mark.parametrize("text, fragment", TOML_ERRORS, ids=[f[1][:28] for f in TOML_ERRORS])
def test_run_rejects_bad_experiment_files_naming_the_problem(tmp_path, capsys, text, fragment) -> None:
    path = write(tmp_path, text)
    code, out, err = run_cli(capsys, "run", path, "--out", tmp_path / "never.parquet")
    assert code == 2, (out, err)
    assert err.startswith("rummy-sim: error:") and fragment in err, err
    assert str(path) in err and "Traceback" not in err and out == ""
    assert not (tmp_path / "never.parquet").exists() and not parts_dir(tmp_path / "never.parquet").exists()


def test_run_missing_file(tmp_path, capsys) -> None:
    code, _, err = run_cli(capsys, "run", tmp_path / "absent.toml")
    assert code == 2 and "absent.toml" in err


# --- bad input ------------------------------------------------------------------------------------


BAD = [
    (("match", "greedy", "random", "--deals", "0"), "--deals must be a positive integer, got 0"),
    (("match", "greedy", "random", "--deals", "-5"), "--deals must be a positive integer, got -5"),
    (("match", "greedy", "random", "--deals", "10", "--threads", "-1"), "--threads must be a positive integer"),
    (("match", "greedy", "random", "--deals", "10", "--threads", "0"), "--threads must be a positive integer"),
    (("match", "nosuch", "random", "--deals", "10"), "unknown strategy 'nosuch'"),
    (("match", "greedy:depth=1", "random", "--deals", "10"), "unknown parameter 'depth'"),
    (("match", "greedy:max_extra=-3", "random", "--deals", "10"), "max_extra=-3 is outside"),
    (("match", "greedy+random+greedy", "random", "--deals", "10"), "one spec or two"),
    (("match", "greedy", "random", "--deals", "10", "--chunk", "3"), "multiple of deals_per_game"),
    (("match", "greedy", "random", "--deals", "10", "--chunk", "0"), "--chunk must be a positive integer"),
    (("match", "greedy", "random", "--deals", "10", "--sprt", "0"), "sprt delta"),
    (("match", "greedy", "random", "--deals", "10", "--seed", "-4"), "seed -4"),
    (("match", "greedy", "random", "--deals", "10", "--rule", "bonus=3"), "unknown rule option 'bonus'"),
    (("match", "greedy", "random", "--deals", "10", "--resume"), "--resume needs --out"),
    (("tournament", "greedy", "--deals", "10"), "at least 2 teams"),
    (("tournament", "greedy", "random", "greedy", "--deals", "10"), "listed more than once"),
    (("sweep", "greedy", "--vary", "max_extra", "--vs", "random", "--deals", "10"), "expected KEY=V1,V2"),
    (("sweep", "greedy", "--vary", "max_extra=1,,2", "--vs", "random", "--deals", "10"), "expected KEY=V1,V2"),
    (("sweep", "greedy", "--vary", "depth=1,2", "--vs", "random", "--deals", "10"), "no parameter 'depth'"),
    (("sweep", "greedy", "--vary", "max_extra=1,1", "--vs", "random", "--deals", "10"), "more than once"),
    (("sweep", "greedy", "--vary", "max_extra=a", "--vs", "random", "--deals", "10"), "max_extra='a' is not"),
]


@pytest.mark.parametrize("argv, fragment", BAD, ids=[b[1][:28] for b in BAD])
def test_bad_input_exits_2_with_a_message(tmp_path, capsys, argv, fragment) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2, (out, err)
    assert err.startswith("rummy-sim: error:") and fragment in err, err
    assert "Traceback" not in err and out == ""


def test_resume_against_another_experiment_exits_2_and_keeps_the_chunks(tmp_path, capsys, monkeypatch) -> None:
    out_file = tmp_path / "r.parquet"
    import sim.runner.run as runner

    real = runner.run_experiment
    monkeypatch.setattr(runner, "run_experiment",
                        lambda exp, **kw: real(exp, on_chunk=lambda info: info.chunks_done == 1, **kw))
    code, out, err = run_cli(capsys, "match", "greedy", "random", "--deals", 400, "--chunk", 100,
                             "--out", out_file)
    assert code == 130 and "INTERRUPTED: 100 of 400 deals" in out and "--resume" in err
    monkeypatch.setattr(runner, "run_experiment", real)
    parts = parts_dir(out_file)
    before = sorted(p.name for p in parts.iterdir())
    code, out, err = run_cli(capsys, "match", "greedy", "random", "--deals", 400, "--chunk", 100, "--seed", 9,
                             "--out", out_file, "--resume")
    assert code == 2 and "another experiment" in err and "seed: 0 before, 9 now" in err
    code, out, err = run_cli(capsys, "match", "greedy", "random", "--deals", 400, "--chunk", 100,
                             "--out", out_file)
    assert code == 2 and "unfinished run" in err and "--resume" in err
    assert sorted(p.name for p in parts.iterdir()) == before
    code, out, err = run_cli(capsys, "match", "greedy", "random", "--deals", 400, "--chunk", 100,
                             "--out", out_file, "--resume", "--json")
    assert code == 0 and json.loads(out)["deal_sets"] == 400 and not parts.exists()


# --- a real Ctrl-C --------------------------------------------------------------------------------


def test_ctrl_c_keeps_finished_chunks_and_resume_matches_an_uninterrupted_run(tmp_path, capsys) -> None:
    args = ["match", "greedy", "random", "--deals", "10000", "--chunk", "250", "--seed", "5"]
    out_file = tmp_path / "ctrlc.parquet"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "sim.cli", *args, "--out", str(out_file), "--threads", "1"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    parts = parts_dir(out_file)
    deadline = time.monotonic() + 600  # a cold numba compile may come first
    while not list(parts.glob("chunk-*.arrow")):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no chunk file appeared"
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, (out, err)
    assert "INTERRUPTED" in out and "--resume" in err and "Traceback" not in err
    assert not out_file.exists()
    done = sorted(parts.glob("chunk-*.arrow"))
    assert 1 <= len(done) < 40
    assert len(read_plays(parts)) == 2 * 250 * len(done)

    code, _, err = run_cli(capsys, *args, "--out", out_file, "--resume")
    assert code == 0, err
    code, _, err = run_cli(capsys, *args, "--out", tmp_path / "straight.parquet")
    assert code == 0, err
    assert_same_frame(pd.read_parquet(out_file), pd.read_parquet(tmp_path / "straight.parquet"))


# --- progress ----------------------------------------------------------------------------------------


def test_progress_bar_shows_rate_when_asked(capsys) -> None:
    from sim import experiment as X
    from sim.runner import run_experiment

    run_experiment(X.match("greedy", "random", 400, 1, chunk=100), progress=True)
    err = capsys.readouterr().err
    assert "400/400" in err and "deal/s" in err
    run_experiment(X.match("greedy", "random", 400, 1, chunk=100))  # not a terminal: quiet
    assert capsys.readouterr().err == ""


# --- bench --runner and demo ----------------------------------------------------------------------


def test_bench_runner_assembles_and_formats_made_up_numbers() -> None:
    r = runner_bench.assemble_runner(1_000_000, 2, engine=[(30.0, 59.0), (31.0, 60.0)],
                                     runner=[(32.0, 61.0), (31.5, 62.0)],
                                     timings={"engine": 29.0, "frames": 0.4, "write": 1.7}, file_bytes=82_000_000,
                                     memory_bytes_per_play=127.0, threads=2, chunk=100_000)
    assert r["overhead"] == pytest.approx(31.5 / 30.0 - 1, abs=1e-4) and r["pass"] is True
    assert r["cpu_overhead"] == pytest.approx(61 / 59 - 1, abs=1e-4)
    assert r["file_bytes_per_deal"] == 82.0 and r["memory_bytes_per_deal"] == 254.0
    assert json.loads(json.dumps(r)) == r
    text = runner_bench.format_runner(r)
    assert "+5.0 % wall" in text and "PASS" in text and "82.0 bytes per deal on disk" in text
    slow = runner_bench.assemble_runner(1000, 2, [(10.0, 10.0)], [(11.5, 11.0)], {}, 1, 1.0, 1, 100)
    assert slow["pass"] is False and "MISS" in runner_bench.format_runner(slow)


def test_bench_runner_rejects_bad_deals(capsys) -> None:
    code, _, err = run_cli(capsys, "bench", "--runner", "--deals", "0")
    assert code == 2 and "--deals must be a positive integer" in err


def test_demo_writes_its_report(tmp_path, capsys) -> None:
    code, out, err = run_cli(capsys, "demo", "--deals", 200, "--out", tmp_path / "demo", "--seed", 1)
    assert code == 0, err
    assert "greedy (A) vs random (B)" in out and "report written to" in out
    for name in ("report.md", "report.html", "scores.png", "summary.json", "summary.csv", "results.parquet"):
        assert (tmp_path / "demo" / name).exists(), name
    summary = json.loads((tmp_path / "demo" / "summary.json").read_text())
    assert summary["deals"] == 200 and summary["seed"] == 1
    assert summary["summary"][0]["deal_sets"] == 200 and summary["summary"][0]["a"] == "greedy"
    assert "rummy-sim demo --deals 200 --seed 1" in (tmp_path / "demo" / "report.md").read_text()
