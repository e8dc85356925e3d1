"""Indian Rummy duplicate comparisons (issue 10 section 1): seatings, the per-seat figures, and every
experiment command with ``--game indian --players N``. Tiny deal counts: the kernels are the ones the
other Indian tests compile (greedy, random, dropper)."""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from sim import experiment as X
from sim.games import get_game
from sim.studies.match import by_players_table, match_summary, play_match, play_match_by_players
from frame_checks import assert_same_frame  # noqa: E402

GAME = get_game("indian")


def run_cli(capsys, *argv):
    from sim.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- seatings ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 6])
def test_half_seating_gives_every_seat_to_a_and_b_equally(players):
    a, b = GAME.parse_spec("greedy"), GAME.parse_spec("random")
    n_rot = GAME.rotations([a], [b], players, mode="half")
    assert n_rot == 2
    per_seat = {s: Counter() for s in range(players)}
    for r in range(n_rot):
        st = GAME.seating([a], [b], r, players, mode="half")
        assert len(st.a_sides) == len(st.b_sides) == players // 2
        assert set(st.a_sides) | set(st.b_sides) == set(range(players))
        for s in range(players):
            per_seat[s]["A" if s in st.a_sides else "B"] += 1
            assert st.specs[s] == (a if s in st.a_sides else b)
        # alternate seats: every A seat's left neighbour (who discards to it) is a B seat
        assert all((s - 1) % players in st.b_sides for s in st.a_sides)
    assert all(c == Counter({"A": 1, "B": 1}) for c in per_seat.values())


def test_half_seating_in_the_played_rows():
    r = play_match("greedy", "random", deals=4, seed=11, game="indian", players=4, seating="half", threads=1,
                   progress=False)
    p = r.plays
    assert r.run.experiment.rotations(0) == 2 and len(p) == 8
    for s in range(4):  # each seat's cards (deal index, seat) played by A once and by B once
        counts = p.groupby("deal")[f"strategy_s{s}"].agg(lambda x: tuple(sorted(map(str, x))))
        assert set(counts) == {("greedy", "random")}
    seats_a = [[s for s in range(4) if p[f"strategy_s{s}"].iloc[i] == "greedy"] for i in range(len(p))]
    want_a = [np.mean([p[f"net_{s}"].iloc[i] for s in seats]) for i, seats in enumerate(seats_a)]
    want_b = [np.mean([p[f"net_{s}"].iloc[i] for s in range(4) if s not in seats]) for i, seats in enumerate(seats_a)]
    assert np.allclose(p["a_total"], want_a) and np.allclose(p["b_total"], want_b)  # A = mean of A seats' net


def test_field_seating_gives_a_every_seat_once():
    a, b = GAME.parse_spec("greedy"), GAME.parse_spec("random")
    for players in range(2, 7):
        seats = [GAME.seating([a], [b], r, players).a_sides for r in range(GAME.rotations([a], [b], players))]
        assert sorted(s for t in seats for s in t) == list(range(players))


@pytest.mark.parametrize("players", [2, 3, 5])
def test_half_seating_needs_an_even_table_of_four_or_six(players):
    with pytest.raises(X.ExperimentError, match="even table of 4 or 6"):
        X.match("greedy", "random", 10, game="indian", players=players, seating_mode="half")


def test_seating_is_part_of_the_identity():
    field = X.match("greedy", "random", 10, game="indian", players=4)
    named = X.match("greedy", "random", 10, game="indian", players=4, seating_mode="field")
    half = X.match("greedy", "random", 10, game="indian", players=4, seating_mode="half")
    assert field.digest() == named.digest() and "seating" not in field.to_dict()  # the default: as before
    assert half.digest() != field.digest() and half.to_dict()["seating"] == "half"
    assert X.Experiment.from_dict(half.to_dict()) == half
    with pytest.raises(X.ExperimentError, match="unknown seating"):
        X.match("greedy", "random", 10, seating_mode="half")  # Persian Rummy has one seating


def test_a_side_against_itself_is_an_exact_mirror_in_half_seating():
    r = play_match("greedy", "greedy", deals=5, seed=3, game="indian", players=4, seating="half", threads=1,
                   progress=False)
    row = r.row
    assert row["mean_diff"] == 0 and row["ci_low"] == 0 and row["ci_high"] == 0
    assert row["a_deal_win_rate"] == row["b_deal_win_rate"]


# --- the figures, against pandas --------------------------------------------------------------------


def _long(plays: pd.DataFrame, exp) -> pd.DataFrame:
    """One row per seat-play, with its side (A or B) from the experiment's seating."""
    parts = []
    for s in range(exp.players):
        side = [("A" if s in exp.seating(int(pr), int(rt)).a_sides else "B")
                for pr, rt in zip(plays["pairing"], plays["rotation"])]
        parts.append(pd.DataFrame({"pairing": plays["pairing"].to_numpy(), "deal": plays["deal"].to_numpy(),
                                   "side": side, "won": plays["winner"].to_numpy() == s,
                                   "drop": plays[f"drop_s{s}"].to_numpy(),
                                   "wrong": plays[f"wrong_declaration_s{s}"].to_numpy() > 0,
                                   "lost": plays[f"lost_s{s}"].to_numpy(), "gain": plays[f"gain_s{s}"].to_numpy(),
                                   "net": plays[f"net_{s}"].to_numpy()}))
    return pd.concat(parts, ignore_index=True)


@pytest.mark.parametrize("players,seating", [(4, "field"), (6, "half")])  # fields of 3: thirds are inexact
def test_figures_equal_a_pandas_recomputation_from_the_rows(players, seating):
    from statsmodels.stats.proportion import proportion_confint

    r = play_match("greedy", "dropper", deals=24, seed=5, game="indian", players=players, seating=seating,
                   threads=1, progress=False)
    exp, row = r.run.experiment, r.row
    long = _long(r.plays, exp)
    for side, key in (("A", "a"), ("B", "b")):
        d = long[long["side"] == side]
        assert row[f"{key}_seat_plays"] == len(d)
        for name, hits in (("deal_win_rate", d["won"]), ("first_drop_rate", d["drop"] == 1),
                           ("middle_drop_rate", d["drop"] == 2), ("wrong_declaration_rate", d["wrong"])):
            k = int(hits.sum())
            assert row[f"{key}_{name}"] == pytest.approx(k / len(d))
            lo, hi = proportion_confint(k, len(d), method="wilson")
            assert (row[f"{key}_{name}_ci_low"], row[f"{key}_{name}_ci_high"]) == pytest.approx((lo, hi))
        lost = d.loc[~d["won"], "lost"]
        assert row[f"{key}_lost_when_losing"] == pytest.approx(lost.mean())
        assert row[f"{key}_lost_when_losing_sd"] == pytest.approx(lost.std(ddof=1))
        assert row[f"{key}_gain_when_winning"] == pytest.approx(d.loc[d["won"], "gain"].mean(), nan_ok=True)
        per_set = d.groupby("deal")["net"].mean()  # a side's net per deal set: its seats' mean over rotations
        lo, hi = sps.t.interval(0.95, len(per_set) - 1, loc=per_set.mean(), scale=sps.sem(per_set))
        assert row[f"{key}_net"] == pytest.approx(per_set.mean())
        assert (row[f"{key}_net_ci_low"], row[f"{key}_net_ci_high"]) == pytest.approx((lo, hi))
    assert row["even_win_rate"] == pytest.approx(1 / players)
    a_set = long[long["side"] == "A"].groupby("deal")["net"].mean()
    b_set = long[long["side"] == "B"].groupby("deal")["net"].mean()
    assert row["mean_diff"] == pytest.approx((a_set - b_set).mean())  # A minus the field, unchanged
    sets = r.sets  # per deal-set differences are not truncated to integers (a field's mean net)
    assert np.allclose(sets["diff"], (a_set - b_set).to_numpy())
    block = match_summary(r.run)["indian"]
    assert block["a"]["deal_win_rate"] == pytest.approx(row["a_deal_win_rate"])
    assert block["seating"] == seating and block["b"]["net_per_deal_ci95"][0] == pytest.approx(row["b_net_ci_low"])


# --- by player count --------------------------------------------------------------------------------


def test_match_by_players_cli_table_and_json(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "match", "greedy", "random", "--game", "indian", "--players", "2,3",
                           "--deals", "6", "--seed", "4", "--threads", "1", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["kind"] == "match_by_players" and obj["players"] == [2, 3]
    for m, n in zip(obj["matches"], (2, 3)):
        assert m["players"] == n and m["rotations"] == n
        for key in ("mean_diff", "ci95", "deal_sets", "game_win_rate", "end_rates"):  # Persian keys kept
            assert key in m
        assert set(m["indian"]["a"]) >= {"net_per_deal", "net_per_deal_ci95", "deal_win_rate", "first_drop_rate",
                                         "middle_drop_rate", "wrong_declaration_rate", "lost_when_losing"}
    code, out, _ = run_cli(capsys, "match", "greedy", "random", "--game", "indian", "--players", "2", "3",
                           "--deals", "6", "--seed", "4", "--threads", "1", "--no-progress")
    assert code == 0 and "by table size" in out
    table = out[out.index("by table size"):].splitlines()
    assert [line.split()[0] for line in table[2:4]] == ["2", "3"]
    code, _, err = run_cli(capsys, "match", "greedy", "random", "--game", "indian", "--players", "2,3",
                           "--deals", "6", "--out", str(tmp_path / "m.parquet"))
    assert code == 2 and "{players}" in err


def test_play_match_by_players_table():
    rs = play_match_by_players("greedy", "random", "4-5", deals=4, seed=2, game="indian", threads=1, progress=False)
    t = by_players_table(rs)
    assert list(t["players"]) == [4, 5] and {"a_net", "b_deal_win_rate", "even_win_rate"} <= set(t.columns)
    assert t["even_win_rate"].tolist() == pytest.approx([0.25, 0.2])


# --- every command, files, reports ------------------------------------------------------------------


def test_match_text_names_what_its_figures_are(capsys):
    code, out, _ = run_cli(capsys, "match", "greedy", "random", "--game", "indian", "--players", "4", "--seating",
                           "half", "--deals", "4", "--seed", "1", "--threads", "1", "--no-progress")
    assert code == 0 and "4 players, seating half" in out
    assert "deals won by A" not in out and "plays A's net > B's mean" in out
    assert "deals won (the seat declared or was left)" in out and "even share 1/4 = 25.0%" in out
    code, _, err = run_cli(capsys, "match", "greedy", "random", "--seating", "half", "--deals", "2")
    assert code == 2 and "unknown seating" in err


def test_tournament_sweep_and_toml_with_half_seating(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "tournament", "greedy", "random", "dropper", "--game", "indian", "--players", "4",
                           "--seating", "half", "--deals", "3", "--seed", "1", "--threads", "1", "--no-progress")
    assert code == 0 and "seating half" in out and "A deals won" in out
    code, out, _ = run_cli(capsys, "sweep", "dropper", "--vary", "first_drop_deadwood=30,60", "--vs", "greedy",
                           "--game", "indian", "--players", "3", "--deals", "3", "--seed", "1", "--threads", "1",
                           "--json")
    assert code == 0 and all("a_deal_win_rate" in pt for pt in json.loads(out)["points"])
    path = tmp_path / "half.toml"
    path.write_text('game = "indian"\nplayers = 4\nseating = "half"\nkind = "match"\nseed = 5\ndeals = 4\n'
                    '[match]\na = "greedy"\nb = "random"\n')
    code, out, _ = run_cli(capsys, "run", str(path), "--json", "--threads", "1")
    s = json.loads(out)
    assert code == 0 and s["seating"] == "half" and s["rotations"] == 2 and s["indian"]["seating"] == "half"
    path.write_text(path.read_text().replace('players = 4', 'players = 3'))
    code, _, err = run_cli(capsys, "run", str(path))
    assert code == 2 and "even table" in err


def test_sprt_resume_metadata_keep_summary_and_report(tmp_path, capsys):
    from sim.games.indian.report_sections import figures_table
    from sim.present.report import collect, write_report
    from sim.runner import RunInterrupted, load_result, read_metadata

    opts = dict(game="indian", players=4, seating="half", threads=1, progress=False, chunk=4)
    full = play_match("dropper", "greedy", deals=12, seed=9, **opts)
    out = tmp_path / "r.parquet"
    with pytest.raises(RunInterrupted):
        play_match("dropper", "greedy", deals=12, seed=9, out=out, on_chunk=lambda info: info.index == 0, **opts)
    resumed = play_match("dropper", "greedy", deals=12, seed=9, out=out, resume=True, keep_plays=False, **opts)
    assert_same_frame(pd.read_parquet(out), full.plays)
    meta = read_metadata(out)
    assert meta["seating"] == "half" and meta["experiment"]["seating"] == "half" and "half the table" in \
        meta["rotations"]
    for res in (resumed.run, load_result(out)):
        assert_same_frame(res.summary, full.run.summary)
    summ = tmp_path / "s.parquet"
    play_match("dropper", "greedy", deals=12, seed=9, out=summ, keep="summary", keep_plays=False, **opts)
    assert_same_frame(load_result(summ).summary, full.run.summary)
    write_report(out, tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## Per seat: net points, deals won, drops" in md and "seating **half**" in md
    assert "--seating half" in md
    figures = pd.read_csv(tmp_path / "rep" / "indian_figures.csv")
    assert figures.loc[figures["side"] == "A", "net"].iloc[0] == pytest.approx(full.row["a_net"])
    assert_same_frame(figures_table(collect(summ)), figures_table(collect(out)))  # same from a summary
    code, out, _ = run_cli(capsys, "match", "greedy", "random", "--game", "indian", "--players", "3", "--deals", "40",
                           "--seed", "2", "--threads", "1", "--sprt", "40", "--chunk", "10", "--json")
    s = json.loads(out)
    assert code == 0 and s["sprt"]["decision"] != "continue" and s["stopped_by"] == "sprt"
    assert s["indian"]["a"]["seat_plays"] == s["plays"]  # one A seat per play in the field seating
    assert math.isfinite(s["indian"]["a"]["net_per_deal"])


@pytest.mark.parametrize("players,seating", [(4, "field"), (6, "half")])  # fields of 3: thirds are inexact
def test_a_strategy_against_itself_differs_by_exactly_zero(players, seating):
    """The field's mean net is a fraction (sum / field size): rounding must not make two identical
    strategies look different (a zero-variance paired test would call 1e-16 significant)."""
    r = play_match("greedy", "greedy", deals=12, seed=5, game="indian", players=players, seating=seating,
                   threads=1, progress=False)
    row = r.summary
    assert row["mean_diff"] == 0.0 and row["sd"] == 0.0
    assert list(row["ci95"]) == [0.0, 0.0]
    assert row["p_value"] == 1.0
    assert (r.sets["diff"] == 0.0).all()
    # the same holds for a strategy whose plays do differ, set by set, from an exact recomputation
    r2 = play_match("dropper", "greedy", deals=12, seed=5, game="indian", players=players, seating=seating,
                    threads=1, progress=False)
    p = r2.plays
    k = p["a_total"].to_numpy() * 60 - p["b_total"].to_numpy() * 60
    exact = pd.Series(np.rint(k)).groupby(p["deal"].to_numpy()).mean() / 60
    assert np.array_equal(r2.sets["diff"].to_numpy(), exact.to_numpy())
