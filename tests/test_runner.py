"""The experiment runner (sim/experiment.py, sim/runner.py, sim/runner/frames.py, sim/runner/aggregate.py)
and the match / tournament / sweep APIs on top of it.

Duplicate pairing and rotations, mirrored self-matches, statistics against sim.core.stats
on the full arrays, paired vs unpaired intervals, thread count and chunking, resume
after an interruption, refusing to overwrite or mix experiments, the schema and the
metadata, the SPRT and bounded memory. Small deal counts keep every test fast.
"""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import stats_reference

from sim import experiment as X
from sim.runner.frames import games_frame, plays_columns, sets_frame
from sim.games import get_game
from sim.games.persian import enums as E
from sim.games.persian.engine import Table, run_deals
from sim.games.persian.rules import RuleOptions
from sim.studies.match import match_summary, play_match
from sim.runner import (
    RunError,
    RunInterrupted,
    load_result,
    parts_dir,
    play_chunk,
    read_metadata,
    read_plays,
    run_experiment,
)
from sim.studies.sweep import play_sweep, sweep_table
from sim.studies.tournament import crosstable, play_tournament, ranking
from frame_checks import assert_same_frame  # noqa: E402

SEED = 11
ROOT = Path(__file__).resolve().parent.parent


def stop_after(n: int):
    """on_chunk callback: ask for a clean stop after n chunks."""
    return lambda info: info.chunks_done == n


# --- rotations -------------------------------------------------------------------------------


def test_rotations_seat_every_player_in_every_seat_and_balance_both_orders() -> None:
    a = X.Team.parse("greedy+random")
    b = X.Team.parse("greedy:max_extra=0+greedy:max_extra=5")
    G = get_game("persian")
    assert G.rotations(a.members, b.members, 4) == 4
    base = (a.first, b.first, a.second, b.second)
    seats_of = {k: set() for k in range(4)}
    orders = []
    for r in range(4):
        seating = G.seating(a.members, b.members, r, 4).specs
        where = [base.index(seating[s]) for s in range(4)]  # base player in each seat
        for s, k in enumerate(where):
            seats_of[k].add(s)
        a_seats = {s for s, k in enumerate(where) if k in (0, 2)}
        assert a_seats == ({0, 2} if G.seating(a.members, b.members, r, 4).a_sides == (0,) else {1, 3})
        start = where.index(0)
        orders.append(tuple(where[(start + i) % 4] for i in range(4)))  # clockwise from A1
    assert all(seats == {0, 1, 2, 3} for seats in seats_of.values())
    assert sorted(orders) == sorted([(0, 1, 2, 3), (0, 1, 2, 3), (0, 3, 2, 1), (0, 3, 2, 1)])

    g, rnd = X.Team.parse("greedy"), X.Team.parse("random")
    assert G.rotations(g.members, rnd.members, 4) == 2

    def seat(r):
        return G.seating(g.members, rnd.members, r, 4).specs

    assert [str(s) for s in seat(1)] == ["random", "greedy", "random", "greedy"]
    assert seat(2) == seat(0) and seat(3) == seat(1)


def test_team_parsing() -> None:
    t = X.Team.parse("greedy:max_extra=10+random")
    assert t.mixed and str(t) == "greedy:max_extra=10+random"
    assert str(X.Team.parse("greedy+greedy")) == "greedy" and not X.Team.parse("greedy+greedy").mixed
    for bad, msg in [("greedy+random+greedy", "one spec or two"), ("greedy+", "empty partner"),
                     ("nosuch", "unknown strategy"), ("", "expected SPEC")]:
        with pytest.raises(ValueError, match=msg):
            X.Team.parse(bad)


# --- duplicate pairing -------------------------------------------------------------------------


def test_every_deal_is_played_in_every_rotation_on_common_cards() -> None:
    exp = X.tournament(["greedy", "random", "greedy:max_extra=0+random"], 60, SEED, chunk=20)
    plays = run_experiment(exp, keep_plays=True).plays
    assert len(plays) == 60 * exp.plays_per_deal == 60 * (2 + 4 + 4)
    for p, (i, j) in enumerate(exp.pairings):
        sub = plays[plays["pairing"] == p]
        rots = exp.rotations(p)
        assert rots == (4 if exp.teams[i].mixed or exp.teams[j].mixed else 2)
        by_deal = sub.groupby("deal")["rotation"].apply(lambda s: tuple(sorted(s)))
        assert list(by_deal.index) == list(range(60))
        assert set(by_deal) == {tuple(range(rots))}
        for rot, g in sub.groupby("rotation"):
            seating = exp.seating(p, rot).specs
            for s in range(4):
                assert (g[f"strategy_s{s}"].astype(str) == str(seating[s])).all()
            assert (g["a_team"] == rot % 2).all()
            assert (g["a"].astype(str) == str(exp.teams[i])).all() and (g["b"].astype(str) == str(exp.teams[j])).all()
            # the same seed and deal indices as a bare engine run of that table (common random numbers)
            raw = run_deals(Table(seating), np.arange(60), SEED).results
            t = rot % 2
            assert (g["a_total"].to_numpy() == raw[:, E.C_TOTAL + t]).all()
            assert (g["b_total"].to_numpy() == raw[:, E.C_TOTAL + 1 - t]).all()
            assert (g["dealer"].to_numpy() == np.arange(60) % 4).all()


@pytest.mark.parametrize("team", ["greedy", "greedy+random"])
def test_a_strategy_against_itself_is_an_exact_mirror(team: str) -> None:
    m = play_match(team, team, 200, SEED)
    plays = m.plays
    pairs = [(0, 1)] if not X.Team.parse(team).mixed else [(0, 1), (2, 3)]
    for r, q in pairs:
        x = plays[plays["rotation"] == r].set_index("deal")
        y = plays[plays["rotation"] == q].set_index("deal")
        assert (x["a_total"] == y["b_total"]).all() and (x["b_total"] == y["a_total"]).all()
    assert (m.sets["diff"] == 0).all()
    s = m.summary
    assert s["mean_diff"] == 0 and s["ci95"] == [0.0, 0.0]
    assert s["win_rate"] == s["loss_rate"]


def test_swapping_teams_negates_every_deal_set() -> None:
    ab = play_match("greedy+random", "random", 120, SEED)
    ba = play_match("random", "greedy+random", 120, SEED)
    assert (ab.sets["diff"].to_numpy() == -ba.sets["diff"].to_numpy()).all()
    assert ab.summary["mean_diff"] == -ba.summary["mean_diff"]
    assert ab.row["wins"] == ba.row["losses"] and ab.row["ties"] == ba.row["ties"]


def test_ci_covers_zero_for_a_strategy_against_itself_over_many_seeds() -> None:
    # Duplicated, the self-match is exactly 0 (interval [0, 0]) for every seed. Without
    # duplication (one rotation: team 0 against team 1 at one table) the difference is
    # seat luck with mean 0, and its 95% interval must cover 0 about 95% of the time.
    covered_dup = covered_single = 0
    seeds = range(40)
    for seed in seeds:
        m = play_match("random", "random", 200, seed)
        s = m.summary
        covered_dup += s["ci95"][0] <= 0 <= s["ci95"][1]
        one = m.plays[m.plays["rotation"] == 0]
        ci = stats_reference.paired_mean_ci((one["a_total"].astype(float) - one["b_total"]).to_numpy())
        covered_single += ci.low <= 0 <= ci.high
    assert covered_dup == len(seeds)
    assert covered_single >= 34  # P(fewer than 34 of 40 | 95% coverage) < 0.01


# --- statistics --------------------------------------------------------------------------------


def test_streamed_summary_equals_sim_stats_on_the_full_arrays() -> None:
    exp = X.match("greedy+random", "random", 1000, SEED, chunk=100)
    run = run_experiment(exp, keep_plays=True)
    plays = run.plays
    sets = sets_frame(plays)
    diffs = (plays["a_total"].astype(float) - plays["b_total"]).to_numpy()
    games = games_frame(plays)
    games = games[games["complete"]]
    ref = stats_reference.summarize_match(sets["diff"].to_numpy(), diffs, plays["deal"].to_numpy(),
                                games["outcome"].to_numpy())
    got = match_summary(run)
    for key in ("deal_sets", "games", "deals_needed_1pt"):
        want = ref[key]
        assert got["deals_needed" if key == "deals_needed_1pt" else key] == want, key
    for key in ("mean_diff", "se", "sd", "effect_size", "p_value", "variance_reduction", "game_win_rate",
                "win_rate", "tie_rate", "loss_rate"):
        assert got[key] == pytest.approx(ref[key], rel=1e-9, abs=1e-12), key
    assert got["ci95"] == pytest.approx(ref["ci95"], rel=1e-9)
    assert got["game_win_rate_ci95"] == pytest.approx(ref["game_win_rate_ci95"], rel=1e-9)
    unpaired = stats_reference.unpaired_mean_ci(plays["a_total"].to_numpy(float), plays["b_total"].to_numpy(float))
    assert got["unpaired_ci95"] == pytest.approx([unpaired.low, unpaired.high], rel=1e-9)
    assert got["plays"] == len(plays) == 4000 and got["rotations"] == 4


def test_paired_interval_is_narrower_than_unpaired_on_the_same_data() -> None:
    m = play_match("greedy:max_extra=60", "greedy:max_extra=120", 1500, SEED)
    s = m.summary
    paired = s["ci95"][1] - s["ci95"][0]
    unpaired = s["unpaired_ci95"][1] - s["unpaired_ci95"][0]
    assert s["variance_reduction"] > 3
    assert paired < 0.7 * unpaired
    # the same comparison straight from sim.core.stats on the frames
    ci = stats_reference.paired_mean_ci(m.sets["diff"].to_numpy())
    welch = stats_reference.unpaired_mean_ci(m.plays["a_total"].to_numpy(float), m.plays["b_total"].to_numpy(float))
    assert ci.half_width < 0.7 * welch.half_width
    assert ci.mean == pytest.approx(welch.mean)


def test_thread_count_and_chunk_size_do_not_change_results() -> None:
    order = ["pairing", "rotation", "deal"]
    a = run_experiment(X.match("greedy+random", "greedy", 600, SEED, chunk=100), threads=1, keep_plays=True)
    b = run_experiment(X.match("greedy+random", "greedy", 600, SEED, chunk=300), threads=2, keep_plays=True)
    pa_ = a.plays.sort_values(order, kind="stable").reset_index(drop=True)
    pb_ = b.plays.sort_values(order, kind="stable").reset_index(drop=True)
    assert_same_frame(pa_, pb_)
    assert_same_frame(a.summary, b.summary, rtol=1e-12)


def test_games_and_sets_frames_agree_with_the_summary() -> None:
    m = play_match("greedy", "random", 301, SEED)  # an odd count: the last game is incomplete
    g = m.games
    assert len(g) == 2 * 151 and (~g["complete"]).sum() == 2
    done = g[g["complete"]]
    r = m.row
    assert r["games"] == len(done) == 300
    assert (r["wins"], r["ties"], r["losses"]) == tuple(int((done["outcome"] == v).sum()) for v in (1, 0, -1))
    assert len(m.sets) == 301 and (m.sets["plays"] == 2).all()
    assert m.sets["diff"].mean() == pytest.approx(r["mean_diff"])


# --- chunks, files, resume -------------------------------------------------------------------


def test_a_chunk_is_a_pure_function_of_experiment_and_deal_range() -> None:
    exp = X.match("greedy+random", "random", 600, SEED, chunk=200)
    whole = run_experiment(exp, keep_plays=True).plays
    chunk = play_chunk(exp, 200, 400)
    assert (chunk["deal"] >= 200).all() and (chunk["deal"] < 400).all()
    assert_same_frame(chunk, whole[(whole["deal"] >= 200) & (whole["deal"] < 400)].reset_index(drop=True))
    longer = exp.with_deals(10_000)
    assert longer.digest() == exp.digest()
    assert_same_frame(play_chunk(longer, 200, 400), chunk)
    with pytest.raises(ValueError, match="outside"):
        play_chunk(exp, 500, 700)


def test_resume_after_interruption_equals_an_uninterrupted_run(tmp_path) -> None:
    exp = X.match("greedy", "random", 1000, SEED, chunk=200)
    full = run_experiment(exp, out=tmp_path / "full.parquet")
    out = tmp_path / "run.parquet"
    with pytest.raises(RunInterrupted) as info:
        run_experiment(exp, out=out, on_chunk=stop_after(2))
    parts = parts_dir(out)
    assert not out.exists()
    assert sorted(p.name for p in parts.glob("chunk-*.arrow")) == [
        "chunk-000000000000-000000000200.arrow", "chunk-000000000200-000000000400.arrow"]
    assert not list(parts.glob(".*tmp*"))
    assert info.value.result.deals_played == 400 and info.value.result.stopped_by == "interrupt"
    assert len(read_plays(parts)) == 800  # the finished chunks are a readable dataset
    with pytest.raises(RunError, match="--resume"):
        run_experiment(exp, out=out)
    resumed = run_experiment(exp, out=out, resume=True)
    assert not parts.exists()
    assert_same_frame(pd.read_parquet(out), pd.read_parquet(tmp_path / "full.parquet"))
    assert_same_frame(resumed.summary, full.summary)
    m1, m2 = read_metadata(out), read_metadata(tmp_path / "full.parquet")
    for m in (m1, m2):
        m.pop("created"), m.pop("versions"), m.pop("run_seconds")
    assert (m1.pop("sessions"), m2.pop("sessions")) == (2, 1)
    assert m1 == m2
    # resuming a finished file of the same experiment reports it without playing again
    before = out.stat().st_mtime_ns
    again = run_experiment(exp, out=out, resume=True)
    assert out.stat().st_mtime_ns == before
    assert_same_frame(again.summary, full.summary)


def test_resume_with_more_deals_extends_an_unfinished_run(tmp_path) -> None:
    out = tmp_path / "grow.parquet"
    small = X.match("greedy", "random", 500, SEED, chunk=200)
    with pytest.raises(RunInterrupted):
        run_experiment(small, out=out, on_chunk=stop_after(2))
    grown = small.with_deals(800)
    run = run_experiment(grown, out=out, resume=True)
    assert run.deals_played == 800
    ref = run_experiment(grown, keep_plays=True)
    assert_same_frame(pd.read_parquet(out), ref.plays)


def test_a_hard_stop_keeps_finished_chunks(tmp_path) -> None:
    out = tmp_path / "hard.parquet"
    exp = X.match("greedy", "random", 800, SEED, chunk=200)

    def boom(info):
        if info.chunks_done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_experiment(exp, out=out, on_chunk=boom)
    parts = parts_dir(out)
    assert len(list(parts.glob("chunk-*.arrow"))) == 2
    assert not (parts / ".final.parquet.tmp").exists() and not out.exists()
    run_experiment(exp, out=out, resume=True)
    assert len(pd.read_parquet(out)) == 1600


def test_resume_refuses_another_experiment_and_touches_nothing(tmp_path) -> None:
    out = tmp_path / "mine.parquet"
    with pytest.raises(RunInterrupted):
        run_experiment(X.match("greedy", "random", 600, 1, chunk=200), out=out, on_chunk=stop_after(1))
    parts = parts_dir(out)
    snapshot = {p.name: p.read_bytes() for p in parts.iterdir()}
    with pytest.raises(RunError, match=r"another experiment.*seed: 1 before, 2 now"):
        run_experiment(X.match("greedy", "random", 600, 2, chunk=200), out=out, resume=True)
    with pytest.raises(RunError, match="teams"):
        run_experiment(X.match("greedy", "greedy", 600, 1, chunk=200), out=out, resume=True)
    assert {p.name: p.read_bytes() for p in parts.iterdir()} == snapshot

    done = tmp_path / "done.parquet"
    run_experiment(X.match("greedy", "random", 200, 1), out=done)
    data = done.read_bytes()
    with pytest.raises(RunError, match="another experiment"):
        run_experiment(X.match("greedy", "random", 200, 3), out=done, resume=True)
    with pytest.raises(RunError, match="already finished with 200 deals"):
        run_experiment(X.match("greedy", "random", 400, 1), out=done, resume=True)
    assert done.read_bytes() == data


def test_an_existing_result_is_never_lost(tmp_path) -> None:
    out = tmp_path / "precious.parquet"
    run_experiment(X.match("greedy", "random", 400, 1, chunk=200), out=out)
    data = out.read_bytes()
    with pytest.raises(RunError, match="already exists.*--force"):
        run_experiment(X.match("greedy", "random", 400, 2, chunk=200), out=out)
    with pytest.raises(RunInterrupted):  # --force, but interrupted: the old file stays
        run_experiment(X.match("greedy", "random", 400, 2, chunk=200), out=out, force=True,
                       on_chunk=stop_after(1))
    assert out.read_bytes() == data
    run_experiment(X.match("greedy", "random", 400, 2, chunk=200), out=out, force=True)
    assert read_metadata(out)["seed"] == 2
    with pytest.raises(RunError, match="does not exist"):
        run_experiment(X.match("greedy", "random", 10, 1), out=tmp_path / "no" / "x.parquet")


def test_schema_and_metadata_are_present_and_documented(tmp_path) -> None:
    out = tmp_path / "schema.parquet"
    exp = X.match("greedy+random", "greedy:max_extra=0", 400, SEED, chunk=200,
                  rules=RuleOptions(out_bonus=30))
    run = run_experiment(exp, out=out)
    plays = pd.read_parquet(out)
    assert list(plays.columns) == plays_columns(exp)
    for col in ("a", "b", "end", *[f"strategy_s{s}" for s in range(4)]):
        assert isinstance(plays[col].dtype, pd.CategoricalDtype), col
    assert list(plays["end"].cat.categories) == ["out", "passes", "cap"]
    assert set(plays["strategy_s0"].cat.categories) == {"greedy", "random", "greedy:max_extra=0"}
    small = {c: str(t) for c, t in plays.dtypes.items() if not isinstance(t, pd.CategoricalDtype)}
    assert small.pop("deal") == "int64"
    assert set(small.values()) <= {"int8", "int16"}
    assert set(plays["bonus_0"]) <= {0, 30}

    meta = read_metadata(out)
    assert meta["format"] == "rummy-sim-results/1"
    assert meta["seed"] == SEED and meta["rules"]["out_bonus"] == 30
    assert meta["strategy_specs"] == ["greedy", "random", "greedy:max_extra=0"]
    assert meta["teams"] == ["greedy+random", "greedy:max_extra=0"]
    assert meta["deal_range"] == [0, 400] and meta["deals_played"] == 400
    assert meta["experiment_hash"] == exp.digest()
    assert X.Experiment.from_dict(meta["experiment"]) == exp
    assert {"rummy_sim", "numpy", "numba", "pandas", "pyarrow", "scipy", "statsmodels", "python", "git"} <= set(
        meta["versions"])
    assert meta["summary"][0]["mean_diff"] == pytest.approx(run.summary["mean_diff"].iloc[0])
    loaded = load_result(out)
    assert_same_frame(loaded.summary, run.summary)

    doc = (ROOT / "docs" / "results.md").read_text()
    for col in plays_columns(exp):
        name = re.sub(r"_s[0-3]$", "_sS", col)
        name = {"strategy_sS": "strategy_s0"}.get(name, name)
        assert f"`{name}`" in doc, f"column {col} is not documented in docs/results.md"


def test_chunk_files_carry_metadata_while_running(tmp_path) -> None:
    out = tmp_path / "partial.parquet"
    exp = X.match("greedy", "random", 600, SEED, chunk=200)
    with pytest.raises(RunInterrupted):
        run_experiment(exp, out=out, on_chunk=stop_after(1))
    chunk = next(parts_dir(out).glob("chunk-*.arrow"))
    meta = read_metadata(chunk)
    assert meta["deal_range"] == [0, 200] and meta["experiment_hash"] == exp.digest()
    assert meta["rules"] == exp.rules.to_dict() and "versions" in meta


# --- sequential test ------------------------------------------------------------------------------


def test_sprt_stops_when_it_decides_and_resumes_to_the_same_stop(tmp_path) -> None:
    exp = X.match("greedy", "random", 40_000, SEED, chunk=100, sprt=X.SprtSpec(2.0))
    run = run_experiment(exp)
    assert run.stopped_by == "sprt" and run.sprt["decision"] == "accept_h1"
    assert 200 <= run.deals_played < 40_000 and run.deals_played % 100 == 0
    assert run.sprt["deal_sets"] == run.deals_played

    null = run_experiment(X.match("greedy", "greedy", 40_000, SEED, chunk=100, sprt=X.SprtSpec(2.0)))
    assert null.sprt["decision"] == "accept_h0" and null.deals_played == 100

    out = tmp_path / "sprt.parquet"
    with pytest.raises(RunInterrupted):
        run_experiment(exp, out=out, on_chunk=stop_after(1))
    resumed = run_experiment(exp, out=out, resume=True)
    assert resumed.deals_played == run.deals_played and resumed.sprt == run.sprt
    assert read_metadata(out)["stopped_by"] == "sprt"
    assert len(pd.read_parquet(out)) == 2 * run.deals_played


# --- memory ------------------------------------------------------------------------------------------


def test_memory_is_bounded_by_the_chunk_not_the_deal_count(tmp_path) -> None:
    def peak(deals: int, out: Path | None) -> int:
        exp = X.match("greedy", "random", deals, SEED, chunk=1_000)
        tracemalloc.start()
        try:
            run_experiment(exp, out=out)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    run_experiment(X.match("greedy", "random", 1_000, SEED, chunk=1_000))  # warm-up
    for out in (None, tmp_path / "mem.parquet"):
        small = peak(4_000, out and tmp_path / "small.parquet")
        large = peak(16_000, out)
        assert large < 1.3 * small, (small, large)


# --- tournament and sweep -----------------------------------------------------------------------


def test_tournament_crosstable_and_ranking() -> None:
    t = play_tournament(["greedy", "random", "greedy:max_extra=0", "greedy+random"], 300, SEED)
    run = t.run
    ct = crosstable(run)
    assert ct.shape == (4, 4) and ct.isna().to_numpy().diagonal().all()
    np.testing.assert_allclose(ct.to_numpy(), -ct.to_numpy().T)
    s = run.summary
    assert (s["p_holm"] >= s["p_value"] - 1e-15).all() and len(s) == 6
    rk = ranking(run)
    assert list(rk["rank"]) == [1, 2, 3, 4]
    assert rk["margin"].is_monotonic_decreasing
    assert rk["margin"].sum() == pytest.approx(0.0, abs=1e-9)  # a round robin sums to zero
    assert (rk["ci_low"] <= rk["margin"]).all() and (rk["margin"] <= rk["ci_high"]).all()
    # a team's margin is the mean of its crosstable row
    for _, r in rk.iterrows():
        assert r["margin"] == pytest.approx(ct.loc[r["team"]].mean(skipna=True))
    with pytest.raises(ValueError, match="more than once"):
        X.tournament(["greedy", "random", "greedy"], 10)


def test_sweep_table_compares_every_point_with_the_best() -> None:
    sw = play_sweep("greedy", {"max_extra": [0, 30, 120]}, "greedy", 300, SEED)
    table = sweep_table(sw.run)
    assert list(table["max_extra"]) == ["0", "30", "120"]
    assert list(table["spec"]) == ["greedy:max_extra=0", "greedy:max_extra=30", "greedy:max_extra=120"]
    same = table[table["max_extra"] == "30"].iloc[0]  # the default: identical to the opponent
    assert same["mean_diff"] == 0 and same["ci_low"] == same["ci_high"] == 0
    best = table[table["best"]]
    assert len(best) == 1 and np.isnan(best["vs_best"].iloc[0])
    assert best["mean_diff"].iloc[0] == table["mean_diff"].max()
    others = table[~table["best"]]
    # against a shared opponent on the same deals, point - best = (point - opp) - (best - opp)
    np.testing.assert_allclose(others["vs_best"], others["mean_diff"] - best["mean_diff"].iloc[0])
    assert (others["vs_best_p_holm"] >= others["vs_best_p"]).all()
    with pytest.raises(ValueError, match="no parameter 'depth'"):
        X.sweep("greedy", [("depth", [1, 2])], "random", 10)
    with pytest.raises(ValueError, match="max_extra=999 is outside"):
        X.sweep("greedy", [("max_extra", [1, 999])], "random", 10)


# --- the experiment description -------------------------------------------------------------------


def test_experiment_identity_roundtrip_and_validation() -> None:
    exp = X.match("greedy+random", "greedy:max_extra=0", 1000, 5, chunk=100, sprt=X.SprtSpec(2.0))
    assert X.Experiment.from_dict(exp.to_dict()) == exp
    assert exp.with_deals(5000).digest() == exp.digest()
    assert X.match("greedy+random", "greedy:max_extra=0", 1000, 6, chunk=100).digest() != exp.digest()
    assert X.match("greedy", "random", 1000).chunk == 100_000  # about 200,000 plays per chunk
    assert X.match("greedy+random", "random", 1000).chunk == 50_000
    assert X.match("greedy", "random", 1000, sprt=X.SprtSpec(1.0)).chunk == 10_000
    for kwargs, msg in [({"deals": 0}, "deals must be a positive integer, got 0"),
                        ({"chunk": 101}, "multiple of deals_per_game"),
                        ({"first_deal": 3}, "multiple of deals_per_game"),
                        ({"seed": -1}, "seed"),
                        ({"margin": 0.0}, "margin")]:
        args = {"deals": 100, **kwargs}
        with pytest.raises(ValueError, match=msg):
            X.match("greedy", "random", args.pop("deals"), **args)
    with pytest.raises(ValueError, match="exactly one pairing"):
        X.tournament(["greedy", "random", "greedy:max_extra=0"], 100, sprt=X.SprtSpec(1.0))
    with pytest.raises(ValueError, match="delta"):
        X.SprtSpec(0.0)


def test_a_runner_module_does_not_drag_in_the_whole_runner():
    """sim.runner's public names are imported on first use (PEP 562): reading a results file back
    for a report imports neither Dask, merging nor background runs; the documented names still work."""
    import subprocess
    import sys

    code = ("import sys, sim.runner.collect, sim.present.report.sections\n"
            "loaded = [m for m in ('distributed', 'dask', 'sim.runner.merge', 'sim.runner.background',"
            " 'sim.runner.dask_backend') if m in sys.modules]\n"
            "assert not loaded, loaded\n"
            "import sim.runner as r\n"
            "assert r.run_experiment.__module__ == 'sim.runner.run' and callable(r.start_experiment)\n"
            "assert r.merge_results.__module__ == 'sim.runner.merge' and 'code_version' in dir(r)\n"
            "try:\n    r.no_such_name\nexcept AttributeError:\n    pass\nelse:\n    raise SystemExit('no error')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
