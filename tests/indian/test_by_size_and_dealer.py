"""Issue 10 section 1, the rest: tournament and sweep over several table sizes (``--players 2,4,6``),
the figures by seat relative to the dealer (I2, I3), ``--adaptive`` with the per-seat figures, and
issue 14's Indian bench list (formatting only, made-up numbers). Tiny deal counts; only the kernels
the other Indian tests compile (greedy, random, dropper)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from sim.apps.bench.by_players import format_game
from sim.games import get_game
from sim.studies.match import play_match
from frame_checks import assert_same_frame  # noqa: E402

GAME = get_game("indian")


def run_cli(capsys, *argv):
    from sim.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# --- by seat relative to the dealer -----------------------------------------------------------------


def _seat_plays(plays: pd.DataFrame, exp) -> pd.DataFrame:
    """One row per seat-play: deal, side, offset from the dealer (I2: dealer = deal % players), net, won."""
    n = exp.players
    parts = []
    for s in range(n):
        side = [("A" if s in exp.seating(int(p), int(r)).a_sides else "B")
                for p, r in zip(plays["pairing"], plays["rotation"])]
        assert (plays["dealer"].to_numpy() == plays["deal"].to_numpy() % n).all()
        parts.append(pd.DataFrame({"deal": plays["deal"].to_numpy(), "side": side,
                                   "offset": (s - plays["dealer"].to_numpy().astype(int)) % n,
                                   "net": plays[f"net_{s}"].to_numpy().astype(float),
                                   "won": plays["winner"].to_numpy() == s}))
    return pd.concat(parts, ignore_index=True)


def _t(series: pd.Series) -> tuple[float, float, float]:
    lo, hi = sps.t.interval(0.95, len(series) - 1, loc=series.mean(), scale=sps.sem(series))
    return series.mean(), lo, hi


@pytest.mark.parametrize("players,seating", [(4, "field"), (6, "half"), (3, "field")])
def test_by_dealer_figures_equal_a_pandas_recomputation(players, seating):
    from statsmodels.stats.proportion import proportion_confint

    r = play_match("greedy", "dropper", deals=30, seed=8, game="indian", players=players, seating=seating,
                   threads=1, progress=False, chunk=7)  # several chunks: the sums add up across them
    row, long = r.row, _seat_plays(r.plays, r.run.experiment)
    for k in range(players):
        at = long[long["offset"] == k]
        a = at[at["side"] == "A"].groupby("deal")["net"].mean()
        b = at[at["side"] == "B"].groupby("deal")["net"].mean()
        assert len(a) == 30 and len(b) == 30  # A plays every offset once per deal set, in both seatings
        for key, series in (("a_net", a), ("b_net", b), ("a_minus_b", a - b)):
            want = _t(series)
            got = (row[f"{key}_off{k}"], row[f"{key}_off{k}_ci_low"], row[f"{key}_off{k}_ci_high"])
            assert got == pytest.approx(want, nan_ok=True), (k, key)
        wins = int(at.loc[at["side"] == "A", "won"].sum())
        assert row[f"a_deal_win_rate_off{k}"] == pytest.approx(wins / 30)
        assert (row[f"a_deal_win_rate_off{k}_ci_low"], row[f"a_deal_win_rate_off{k}_ci_high"]) == \
            pytest.approx(proportion_confint(wins, 30, method="wilson"))
    # the offsets average to the side's figures: A plays each offset equally often
    assert np.mean([row[f"a_net_off{k}"] for k in range(players)]) == pytest.approx(row["a_net"])
    assert np.mean([row[f"a_minus_b_off{k}"] for k in range(players)]) == pytest.approx(row["mean_diff"])
    block = r.summary["indian"]["by_dealer_offset"]
    assert [d["offset"] for d in block] == [*range(1, players), 0]  # play order: left of the dealer first
    assert block[-1]["position"] == "dealer (plays last)" and block[0]["a_net"] == row["a_net_off1"]


def test_by_dealer_of_a_strategy_against_itself_is_exactly_zero():
    r = play_match("greedy", "greedy", deals=10, seed=3, game="indian", players=4, threads=1, progress=False)
    for k in range(4):
        assert r.row[f"a_minus_b_off{k}"] == 0.0 and r.row[f"a_minus_b_off{k}_ci_high"] == 0.0


def test_by_dealer_in_match_text_and_report(capsys, tmp_path):
    from sim.games.indian.report_sections import by_dealer_table
    from sim.present.report import collect, write_report

    out = tmp_path / "m.parquet"
    code, text, _ = run_cli(capsys, "match", "dropper", "greedy", "--game", "indian", "--players", "3", "--deals",
                            "12", "--seed", "2", "--threads", "1", "--no-progress", "--out", out)
    assert code == 0 and "by seat relative to the dealer" in text
    body = text[text.index("by seat relative to the dealer"):].splitlines()
    assert [line.split()[0] for line in body[2:5]] == ["1st", "2nd", "dealer"]
    write_report(out, tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "### By seat relative to the dealer" in md and (tmp_path / "rep" / "indian_by_dealer.png").exists()
    t = pd.read_csv(tmp_path / "rep" / "indian_by_dealer.csv")
    assert list(t["offset"]) == [1, 2, 0]
    summ = tmp_path / "s.parquet"
    code, _, _ = run_cli(capsys, "match", "dropper", "greedy", "--game", "indian", "--players", "3", "--deals",
                         "12", "--seed", "2", "--threads", "1", "--no-progress", "--out", summ, "--keep", "summary",
                         "--chunk", "5")
    assert_same_frame(by_dealer_table(collect(summ)), by_dealer_table(collect(out)))
    # one deal per game: the distributions table shows the deal score once, no "game score" copy of it
    dist = pd.read_csv(tmp_path / "rep" / "distributions.csv")
    assert "game score" not in set(dist["quantity"]) and "deal score" in set(dist["quantity"])
    assert "the deal score is also the game score" in md


# --- several table sizes -----------------------------------------------------------------------------


def test_tournament_by_players_cli_text_and_json(capsys, tmp_path):
    base = ("tournament", "greedy", "random", "dropper", "--game", "indian", "--deals", "5", "--seed", "4",
            "--threads", "1")
    code, out, _ = run_cli(capsys, *base, "--players", "2,3", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["kind"] == "tournament_by_players" and obj["players"] == [2, 3]
    assert [t["kind"] for t in obj["tournaments"]] == ["tournament", "tournament"]
    one = json.loads(run_cli(capsys, *base, "--players", "3", "--json")[1])  # the same as a one-size run
    assert obj["tournaments"][1]["ranking"] == one["ranking"]
    rows = pd.DataFrame(obj["by_players"])
    assert list(rows["players"]) == [2, 2, 2, 3, 3, 3] and set(rows["team"]) == {"greedy", "random", "dropper"}
    r3 = rows[rows["players"] == 3].set_index("team")
    for rk in one["ranking"]:
        assert r3.loc[rk["team"], "margin"] == pytest.approx(rk["margin"])
        assert r3.loc[rk["team"], "rank"] == rk["rank"]
    code, out, _ = run_cli(capsys, *base, "--players", "2-3", "--no-progress")
    assert code == 0 and "margin over the field by table size" in out
    table = out[out.index("margin over the field by table size"):].splitlines()
    assert "2 players" in table[1] and "3 players" in table[1] and len(table) == 5
    code, _, err = run_cli(capsys, *base, "--players", "2,3", "--out", tmp_path / "t.parquet")
    assert code == 2 and "{players}" in err
    code, _, err = run_cli(capsys, *base, "--players", "2,3", "--adaptive")
    assert code == 2 and "one table size at a time" in err


def test_sweep_by_players_cli_files_and_json(capsys, tmp_path):
    base = ("sweep", "dropper", "--vary", "first_drop_deadwood=0,100", "--vs", "greedy", "--game", "indian",
            "--deals", "5", "--seed", "6", "--threads", "1")
    out_pattern = str(tmp_path / "s-{players}p.parquet")
    code, out, _ = run_cli(capsys, *base, "--players", "2", "4", "--json", "--out", out_pattern)
    assert code == 0
    obj = json.loads(out)
    assert obj["kind"] == "sweep_by_players" and obj["players"] == [2, 4]
    assert [s["out"] for s in obj["sweeps"]] == [out_pattern.format(players=n) for n in (2, 4)]
    assert (tmp_path / "s-2p.parquet").exists() and (tmp_path / "s-4p.parquet").exists()
    rows = pd.DataFrame(obj["by_players"])
    assert list(rows["players"]) == [2, 2, 4, 4] and list(rows["first_drop_deadwood"]) == ["0", "100", "0", "100"]
    assert rows.groupby("players")["best"].sum().tolist() == [1, 1] and "a_net" in rows
    for s, n in zip(obj["sweeps"], (2, 4)):
        pts = pd.DataFrame(s["points"])
        got = rows[rows["players"] == n]
        assert got["a_minus_b"].to_numpy() == pytest.approx(pts["mean_diff"].to_numpy())
    code, out, _ = run_cli(capsys, *base, "--players", "2,4", "--no-progress")
    assert code == 0 and "by table size" in out
    table = out[out.index("A - B against greedy by table size"):].splitlines()
    assert table[1].split() == ["first_drop_deadwood", "2", "players", "4", "players"]
    assert [line.split()[0] for line in table[2:]] == ["0", "100"]
    code, _, err = run_cli(capsys, *base, "--players", "2,x")
    assert code == 2 and "'x' is not a player count" in err


def test_tournament_and_sweep_by_players_in_python():
    from sim.studies.sweep import by_players_table as sweep_by_players
    from sim.studies.sweep import play_sweep_by_players
    from sim.studies.tournament import by_players_table, format_by_players, play_tournament_by_players

    ts = play_tournament_by_players(["greedy", "random"], "2,3", deals=3, seed=1, game="indian", threads=1,
                                    progress=False)
    t = by_players_table(ts)
    assert list(t["players"]) == [2, 2, 3, 3] and "3 players" in format_by_players(ts)
    assert t["margin"].iloc[0] == pytest.approx(-t["margin"].iloc[1])  # two teams: margins mirror
    ss = play_sweep_by_players("dropper", {"first_drop_deadwood": [0, 100]}, "greedy", [3, 2], deals=3, seed=1,
                               game="indian", threads=1, progress=False)
    assert list(sweep_by_players(ss)["players"]) == [3, 3, 2, 2]
    with pytest.raises(ValueError, match="players"):
        play_tournament_by_players(["greedy", "random"], "2,4", deals=3, out="t.parquet", game="indian")


# --- --adaptive keeps the per-seat figures -----------------------------------------------------------


def test_adaptive_sweep_prints_the_per_seat_figures_of_the_fixed_run(capsys):
    from sim import experiment as X
    from sim.studies.adaptive import adaptive_json, format_adaptive, run_adaptive
    from sim.studies.sweep import play_sweep

    vary = [("first_drop_deadwood", [0, 100, 133]), ("need_joker", [0])]
    exp = X.sweep("dropper", vary, "greedy", 60, 5, game="indian", players=3)
    res = run_adaptive(exp, first_look=20, progress=False, threads=1)
    fixed = play_sweep("dropper", dict(vary), "greedy", 60, 5, game="indian", players=3, threads=1,
                       progress=False).run.summary
    assert res.table.loc[0, "status"] == "eliminated"  # dropping every hand is clearly worst
    full = [p for p in range(3) if res.pairing_deals[p] == 60]
    assert full, "a pairing played every deal"
    for p in full:  # after the others stopped, its figures still cover every deal it played
        got, want = res.summary.set_index("pairing").loc[p], fixed.set_index("pairing").loc[p]
        for key in ("a_net", "a_net_ci_low", "b_deal_win_rate", "a_first_drop_rate", "a_net_off1",
                    "a_minus_b_off0_ci_high"):
            assert got[key] == pytest.approx(want[key]), key
    text = format_adaptive(res)
    assert "per seat, Indian Rummy at 3 players" in text and "A net/deal" in text
    assert "each pairing at the deals it played" in text and "note: above" not in text
    assert json.loads(json.dumps(adaptive_json(res)))["pairings"][full[0]]["a_net"] == pytest.approx(
        fixed.loc[full[0], "a_net"])


# --- the Indian bench lists every built-in (issue 14) ---------------------------------------------------


def test_game_bench_lists_every_indian_builtin_and_formats_them():
    from strategies.indian.builtins import BUILTINS

    listed = get_game("indian").bench_plan().all_specs
    assert sorted(listed) == sorted(info.name for info in BUILTINS)
    speeds = {spec: {str(n): {"1": 1000.0 + i, "all": 1900.0 + 10 * i} for n in (2, 4, 6)}
              for i, spec in enumerate(listed)}
    speeds["mc_search"] = {str(n): {"1": 5.5, "all": 9.25} for n in (2, 4, 6)}
    result = {"game": "indian", "deals_per_s": speeds, "first_call_s": 1.2, "compile_s": 60.0,
              "game_compile_s": 40.0, "compile_games": ["indian", "persian"], "threads": 2, "deals": 10_000,
              "search_deals": 8, "numba": "x", "numpy": "y", "solver_hands_per_s": {"2": 300_000.0, "3": 150_000.0}}
    text = format_game(result)
    for spec in listed:
        for n in (2, 4, 6):
            assert f"{spec} x{n}, 1 thread " in text and f"{spec} x{n}, 2 threads " in text
    assert "9.25 deals/s" in text and "1,900 deals/s" in text
    assert text.count("MISS") == 3  # greedy x4 below 2,000 on 2 threads; both solver rows (the slower deck count)
