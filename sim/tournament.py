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
from sim import stats
from sim.aggregate import team_weights
from sim.fmt import ci_text, json_ready, num, short_p
from sim.match import experiment_options
from sim.runner import ExperimentResult, run_experiment


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
                    game: str | None = None, players: int | None = None, **run_options) -> TournamentResult:
    exp = X.tournament(teams, deals, seed, **experiment_options(rules, chunk, None, margin, first_deal, game, players))
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
    for _, r in rk.iterrows():
        p = r["p_vs_next"]
        pn = f"p vs next {short_p(p):<7}" if math.isfinite(p) else " " * 17
        lines.append(f"  {int(r['rank']):>2}. {short[r['team']]:<4} {num(r['margin'], '+.2f'):>8}  "
                     f"{ci_text(r['ci_low'], r['ci_high']):>18}   games won {num(100 * r['game_win_rate'], '5.1f')}%"
                     f"   {pn}  {r['team']}")
    return "\n".join(lines)


def tournament_json(run: ExperimentResult) -> dict:
    return json_ready({
        "kind": "tournament", "seed": run.experiment.seed, "deals": run.experiment.deals,
        "deal_sets": run.totals.deals, "teams": run.experiment.team_labels(), "stopped_by": run.stopped_by,
        "ranking": ranking(run).to_dict(orient="records"),
        "pairings": run.summary.to_dict(orient="records"),
        "experiment_hash": run.experiment.digest(),
        "out": None if run.out is None else str(run.out),
    })
