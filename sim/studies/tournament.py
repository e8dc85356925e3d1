"""Round robin: every pair of teams plays a duplicate match on the same deals.

The crosstable holds each head-to-head mean difference (row minus column, points per
deal) with a paired 95% CI; p-values are Holm-adjusted over all pairs. The ranking
orders teams by their *margin*: per deal set, the mean of their differences against
every opponent, with a paired CI (the pairings share deal indices, so the margin is a
per-deal-set series like any other); each rank is compared with the next one down
(paired, Holm-adjusted over the adjacent pairs).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from sim import experiment as X
from sim.core import stats
from sim.core.fmt import json_ready, num, pct, short_p
from sim.core.intervals import ci, ci_text, mean_test, wilson_interval
from sim.runner.aggregate import team_weights
from sim.runner.results import ExperimentResult
from sim.runner.run import run_experiment
from sim.studies.by_players import play_by_players, run_of, size_columns_lines
from sim.studies.match import experiment_options, won_words


@dataclass
class TournamentResult:
    run: ExperimentResult

    @property
    def pairings(self) -> pd.DataFrame:
        """The summary frame: one row per pairing (a vs b)."""
        return self.run.summary

    @property
    def crosstable(self) -> pd.DataFrame:
        return crosstable(self.run)

    @property
    def ranking(self) -> pd.DataFrame:
        return ranking(self.run)


def play_tournament(teams: Sequence[str], deals: int, seed: int = 0, rules=None, threads: int | None = None, *,
                    chunk: int = 0, margin: float = 1.0, first_deal: int = 0, keep_plays: bool = False,
                    game: str | None = None, players: int | None = None, seating: str | None = None,
                    **run_options) -> TournamentResult:
    exp = X.tournament(teams, deals, seed, **experiment_options(rules, chunk, None, margin, first_deal, game, players,
                                                                seating))
    return TournamentResult(run_experiment(exp, threads=threads, keep_plays=keep_plays, **run_options))


def crosstable(run: ExperimentResult, value: str = "mean_diff") -> pd.DataFrame:
    """Teams x teams: ``value`` of row against column (mean_diff, ci_low, ci_high, p_holm)."""
    labels = run.experiment.team_labels()
    table = pd.DataFrame(np.nan, index=pd.Index(labels, name="team"), columns=labels)
    for _, r in run.summary.iterrows():
        v = r[value]
        if value in ("mean_diff", "ci_low", "ci_high"):
            back = {"mean_diff": -v, "ci_low": -r["ci_high"], "ci_high": -r["ci_low"]}[value]
        else:
            back = v
        table.loc[r["a"], r["b"]] = v
        table.loc[r["b"], r["a"]] = back
    return table


def ranking(run: ExperimentResult) -> pd.DataFrame:
    """Teams by margin over the field, with CI and the Holm-adjusted p of rank k vs rank k+1."""
    totals = run.totals
    margins = totals.team_margins().sort_values("margin", ascending=False, kind="stable").reset_index()
    w = team_weights(run.experiment)
    raw = []
    for k in range(len(margins) - 1):
        i, j = margins.loc[k, "index"], margins.loc[k + 1, "index"]
        c = totals.contrast(w[i] - w[j])
        raw.append(c["p_value"] if math.isfinite(c["p_value"]) else 1.0)
    adj = list(stats.holm_adjust(raw)) if raw else []
    margins["p_vs_next"] = adj + [math.nan]
    margins.insert(0, "rank", np.arange(1, len(margins) + 1))
    return margins.drop(columns="index")


def expected_points(run: ExperimentResult) -> pd.DataFrame:
    """Expected points per deal of each team against each opponent and against the field.

    One row per (team, opponent) and one per (team, "field") - the field is the mean over
    the team's opponents, each weighed equally, with a paired interval over deal sets
    (all pairings share the deals). Columns: ``team``, ``opponent``, ``points`` (the team's
    own mean score per deal, not a difference), ``ci_low``, ``ci_high``, ``deals`` (deal
    sets), ``deal_win_rate`` and ``deal_loss_rate`` (shares of single deals the team scored more,
    less than its opponent) and ``game_loss_rate`` (share of complete games lost), each with a Wilson
    interval (``_low`` / ``_high``; plays of one deal set share cards, so treating them as
    independent makes the interval conservative when their outcomes are negatively
    correlated and, otherwise, somewhat too narrow: read it as approximate).
    """
    exp = run.experiment
    totals = run.totals
    k = len(exp.pairings)
    labels = exp.team_labels()
    rows = []
    n = totals.scores.n
    for t, team in enumerate(labels):
        w_field = np.zeros(2 * k)
        deal_wtl = np.zeros(3)
        game_wtl = np.zeros(3)
        opponents = 0
        for q, (i, j) in enumerate(exp.pairings):
            if t not in (i, j):
                continue
            w = np.zeros(2 * k)
            w[q if t == i else k + q] = 1.0
            dw = totals.deal_outcomes[q] if t == i else totals.deal_outcomes[q][::-1]
            gw = totals.games[q] if t == i else totals.games[q][::-1]
            rows.append(_points_row(team, labels[j if t == i else i], mean_test(n, *_comb(totals, w)), dw, gw, n))
            w_field += w
            deal_wtl += dw
            game_wtl += gw
            opponents += 1
        if opponents:
            rows.append(_points_row(team, "field", mean_test(n, *_comb(totals, w_field / opponents)), deal_wtl,
                                    game_wtl, n))
    return pd.DataFrame(rows)


def _comb(totals, w: np.ndarray) -> tuple[float, float]:
    means, m2s = totals.scores.combination(w)
    return float(means[0]), float(m2s[0])


def _points_row(team: str, opponent: str, c: dict, deal_wtl, game_wtl, n: int) -> dict:
    row = {"team": team, "opponent": opponent, "points": c["mean_diff"], "ci_low": c["ci_low"],
           "ci_high": c["ci_high"], "deals": int(n)}
    for name, wtl, k in (("deal_win_rate", deal_wtl, 0), ("deal_loss_rate", deal_wtl, 2),
                         ("game_loss_rate", game_wtl, 2)):
        row.update(_share(name, wtl, k))
    return row


def _share(name: str, wtl, k: int) -> dict:
    """``name``: the share of outcome ``k`` (0 won, 1 tied, 2 lost) of the counts ``wtl``, with its
    Wilson interval as ``name_low`` / ``name_high`` (NaN without outcomes)."""
    total = float(np.sum(wtl))
    if total <= 0:
        return {name: math.nan, f"{name}_low": math.nan, f"{name}_high": math.nan}
    low, high = wilson_interval(float(wtl[k]), int(total))
    return {name: wtl[k] / total, f"{name}_low": low, f"{name}_high": high}


def pairing_outcomes(run: ExperimentResult) -> pd.DataFrame:
    """One row per pairing: A - B points per deal with its paired 95% CI (``mean_diff``, ``ci_low``,
    ``ci_high``) and who won the single deals: ``plays``, ``a_won``, ``tied``, ``b_won`` (a deal is
    won by the side that scored more on it, or at more than two players each alone by A when its net
    beat B's mean net: :func:`sim.studies.match.won_words`), ``a_win_rate``, ``tie_rate`` and
    ``b_win_rate``, each with a Wilson interval (``_low`` / ``_high``). The plays of one deal set
    share cards; in a duplicate seating the same cards favour A in one seat and B in the other, so the
    outcomes are mostly negatively correlated and the interval is then conservative (approximate)."""
    totals = run.totals
    rows = []
    for q, (_, r) in enumerate(run.summary.iterrows()):
        wtl = totals.deal_outcomes[q]
        row = {"a": r["a"], "b": r["b"], "mean_diff": r["mean_diff"], "ci_low": r["ci_low"],
               "ci_high": r["ci_high"], "plays": int(np.sum(wtl)), "a_won": int(wtl[0]), "tied": int(wtl[1]),
               "b_won": int(wtl[2])}
        for name, k in (("a_win_rate", 0), ("tie_rate", 1), ("b_win_rate", 2)):
            row.update(_share(name, wtl, k))
        rows.append(row)
    return pd.DataFrame(rows)


def points_crosstable(run: ExperimentResult, value: str = "points") -> pd.DataFrame:
    """Teams x (opponents + "field"): ``value`` of :func:`expected_points` (points, ci_low, ci_high,
    deal_loss_rate, game_loss_rate ...)."""
    ep = expected_points(run)
    labels = run.experiment.team_labels()
    table = ep.pivot(index="team", columns="opponent", values=value)
    return table.reindex(index=labels, columns=[*labels, "field"])


def format_tournament(result: TournamentResult | ExperimentResult) -> str:
    run = result.run if isinstance(result, TournamentResult) else result
    exp = run.experiment
    labels = exp.team_labels()
    short = {lab: f"T{i + 1}" for i, lab in enumerate(labels)}
    mean = crosstable(run)
    holm = crosstable(run, "p_holm")
    n = run.totals.deals
    lines = [f"round robin of {len(labels)} teams, seed {exp.seed}: {n:,} deal sets per pairing, "
             f"{len(exp.pairings)} pairings, {int(run.summary['plays'].sum()):,} plays"]
    if run.stopped_by == "interrupt":
        lines[0] += f"  [INTERRUPTED: {n:,} of {exp.deals:,} deals]"
    lines.append("teams: " + ", ".join(f"{short[lab]} = {lab}" for lab in labels))
    lines.append("")
    lines.append("crosstable: row minus column, points per deal (* Holm-adjusted p < 0.05)")
    width = 10
    lines.append(" " * 6 + "".join(f"{short[c]:>{width}}" for c in labels))
    for r in labels:
        cells = []
        for c in labels:
            if r == c:
                cells.append(f"{'.':>{width}}")
            else:
                mark = "*" if holm.loc[r, c] < 0.05 else " "  # Holm over all pairings
                cells.append(f"{num(mean.loc[r, c], '+.2f') + mark:>{width}}")
        lines.append(f"  {short[r]:<4}" + "".join(cells))
    lines.append("")
    lines.append("ranking by margin over the field (points per deal, paired 95% CI; p vs next: Holm-adjusted)")
    rk = ranking(run)
    _, won, lost = won_words(exp)
    for _, r in rk.iterrows():
        p = r["p_vs_next"]
        pn = f"p vs next {short_p(p):<7}" if math.isfinite(p) else " " * 17
        lines.append(f"  {int(r['rank']):>2}. {short[r['team']]:<4} {num(r['margin'], '+.2f'):>8}  "
                     f"{ci_text(r['ci_low'], r['ci_high']):>18}   {won} {num(100 * r['game_win_rate'], '5.1f')}%"
                     f"   {pn}  {r['team']}")
    ep = expected_points(run)
    field = ep[ep["opponent"] == "field"].set_index("team")
    if "points" in field and field["points"].notna().any():
        lines.append("")
        lines.append("expected points per deal of the row team (its own score, 95% CI) against each column and "
                     "against the field")
        pts = points_crosstable(run)
        lines.append(" " * 6 + "".join(f"{short[c]:>{width}}" for c in labels) + f"{'field':>20}")
        for r in labels:
            cells = "".join(f"{'.':>{width}}" if r == c else f"{num(pts.loc[r, c], '.1f'):>{width}}" for c in labels)
            f = field.loc[r]
            lines.append(f"  {short[r]:<4}" + cells + f"  {num(f['points'], '.1f'):>6} {ci_text(f['ci_low'], f['ci_high'], '.1f'):>13}")
        lines.append("")
        lines.append(f"chance of losing against the field (Wilson 95% CI): a deal | {lost}")
        for r in labels:
            f = field.loc[r]
            lines.append(f"  {short[r]:<4} {pct(f['deal_loss_rate']):>6} {ci_text(100 * f['deal_loss_rate_low'], 100 * f['deal_loss_rate_high'], '.1f'):>14} | "
                         f"{pct(f['game_loss_rate']):>6} {ci_text(100 * f['game_loss_rate_low'], 100 * f['game_loss_rate_high'], '.1f'):>14}  {r}")
        lines += deal_win_lines(run, short)
    return "\n".join(lines)


def deal_win_lines(run: ExperimentResult, short: dict[str, str], width: int = 10) -> list[str]:
    """The tournament text's deals won: the share of single deals the row team won against each
    column and against the field (Wilson 95% CI), then every pairing with its A - B points per deal
    (paired 95% CI) and the deals A won, tied and B won (:func:`pairing_outcomes`)."""
    exp = run.experiment
    labels = exp.team_labels()
    _, won, _ = won_words(exp)
    ep = expected_points(run)
    shares = ep.pivot(index="team", columns="opponent", values="deal_win_rate")
    field = ep[ep["opponent"] == "field"].set_index("team")
    lines = ["", f"{won} by the row team (single deals, ties apart) against each column and against the field "
             "(Wilson 95% CI)", " " * 6 + "".join(f"{short[c]:>{width}}" for c in labels) + f"{'field':>8}"]
    for r in labels:
        cells = "".join(f"{'.':>{width}}" if r == c else f"{pct(shares.loc[r, c]):>{width}}" for c in labels)
        f = field.loc[r]
        lines.append(f"  {short[r]:<4}" + cells + f"  {pct(f['deal_win_rate']):>6} "
                     f"{ci_text(100 * f['deal_win_rate_low'], 100 * f['deal_win_rate_high'], '.1f'):>14}")
    lines += ["", f"pairings: A - B points per deal (paired 95% CI) | {won}: by A (Wilson 95% CI), tied, by B"]
    for r in pairing_outcomes(run).itertuples():
        lines.append(f"  {short[r.a]:<4}- {short[r.b]:<4} {num(r.mean_diff, '+.2f'):>8} {ci_text(r.ci_low, r.ci_high):>18}"
                     f" | {pct(r.a_win_rate):>6} {ci_text(100 * r.a_win_rate_low, 100 * r.a_win_rate_high, '.1f'):>14}"
                     f"  {pct(r.tie_rate):>6}  {pct(r.b_win_rate):>6}   {r.a} - {r.b}")
    return lines


def tournament_json(run: ExperimentResult) -> dict:
    return json_ready({
        "kind": "tournament", "seed": run.experiment.seed, "deals": run.experiment.deals,
        "deal_sets": run.totals.deals, "teams": run.experiment.team_labels(), "stopped_by": run.stopped_by,
        "ranking": ranking(run).to_dict(orient="records"),
        "expected_points": expected_points(run).to_dict(orient="records"),
        "pairing_outcomes": pairing_outcomes(run).to_dict(orient="records"),
        "pairings": run.summary.to_dict(orient="records"),
        "experiment_hash": run.experiment.digest(),
        "out": None if run.out is None else str(run.out),
    })


# --- one tournament per table size (``rummy-sim tournament --players 2,4,6``) ----------------------


def play_tournament_by_players(teams: Sequence[str], players, deals: int, seed: int = 0, *, out: str | None = None,
                               **options) -> list[TournamentResult]:
    """The tournament of :func:`play_tournament` once per table size in ``players`` (``(2, 4, 6)``,
    ``"2,4,6"`` or ``"2-6"``), each on the same seed and deal indices, in the order given. ``out``,
    if given, must contain ``{players}`` (one results file per size). :func:`by_players_table` and
    :func:`format_by_players` put them side by side."""
    return play_by_players(lambda n, o: play_tournament(teams, deals, seed, players=n, out=o, **options),
                           players, out, "t-{players}p.parquet")


def by_players_table(results) -> pd.DataFrame:
    """One row per (table size, team) of several tournaments of the same teams: the ranking's
    margin over the field with its paired CI and rank, and the team's own expected points per
    deal against the field (for Indian Rummy its net points per deal) with its CI."""
    rows = []
    for res in results:
        run = run_of(res)
        rk = ranking(run).set_index("team")
        ep = expected_points(run)
        field = ep[ep["opponent"] == "field"].set_index("team") if not ep.empty else pd.DataFrame()
        for team in run.experiment.team_labels():
            r = rk.loc[team]
            row = {"players": run.experiment.players, "team": team, "rank": int(r["rank"]),
                   "deal_sets": int(run.totals.deals), "margin": r["margin"], "margin_ci_low": r["ci_low"],
                   "margin_ci_high": r["ci_high"]}
            f = field.loc[team] if team in field.index else None
            row["points"] = math.nan if f is None else f["points"]
            row["points_ci_low"] = math.nan if f is None else f["ci_low"]
            row["points_ci_high"] = math.nan if f is None else f["ci_high"]
            row["stopped_by"] = run.stopped_by
            rows.append(row)
    return pd.DataFrame(rows)


def by_players_json(results) -> dict:
    """``rummy-sim tournament --players 2,4,6 --json``: every size's tournament object (as for one
    size) in ``tournaments``, in the order played; the sizes in ``players``; the rows of
    :func:`by_players_table` in ``by_players``."""
    runs = [run_of(r) for r in results]
    return json_ready({"kind": "tournament_by_players", "game": runs[0].experiment.game,
                       "teams": runs[0].experiment.team_labels(), "players": [r.experiment.players for r in runs],
                       "by_players": by_players_table(runs).to_dict(orient="records"),
                       "tournaments": [tournament_json(r) for r in runs]})


def format_by_players(results) -> str:
    """The table ``rummy-sim tournament --players 2,4,6`` prints after the tournaments: a row per
    team, a column per table size with its margin over the field [95% CI] and rank."""
    t = by_players_table(results)
    if t.empty:
        return ""
    teams = list(dict.fromkeys(t["team"]))
    cells = {(r.players, (r.team,)): f"{ci(r.margin, r.margin_ci_low, r.margin_ci_high)} #{r.rank}"
             for r in t.itertuples()}
    lines = ["margin over the field by table size (points per deal, paired 95% CI, #rank)"]
    lines += size_columns_lines(t, ["team"], ["<"], [(team,) for team in teams], cells)
    return "\n".join(lines)
