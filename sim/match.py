"""A duplicate match between two teams of strategies (team A vs team B).

Every deal index is played twice with the same cards: once with A in seats 0 and 2,
once with A in seats 1 and 3 (P2). The deal set's difference is the mean of A's minus
B's team score over both plays, so the luck of the cards cancels; statistics treat
deal sets as the independent units (sim.stats). Games are deals (2g, 2g+1) (P9).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim import stats
from sim.persian import enums as E
from sim.persian.engine import Table, deal_indices, results_frame, run_deals
from sim.persian.rules import RuleOptions
from strategies.registry import StrategySpec, parse_spec


@dataclass
class MatchResult:
    """Per-play rows, per-deal-set differences and a JSON-ready summary."""

    a: str
    b: str
    seed: int
    plays: pd.DataFrame
    sets: pd.DataFrame
    summary: dict = field(default_factory=dict)


def play_match(
    a: str | StrategySpec,
    b: str | StrategySpec,
    deals,
    seed: int,
    rules: RuleOptions | dict | None = None,
    threads: int | None = None,
) -> MatchResult:
    """Play team ``a`` against team ``b`` on duplicate deals and summarise the result."""
    spec_a, spec_b = parse_spec(a), parse_spec(b)
    idx = deal_indices(deals)
    frames = []
    for rotation, table in enumerate((Table.of([spec_a, spec_b]), Table.of([spec_b, spec_a]))):
        df = results_frame(run_deals(table, idx, seed, rules=rules, threads=threads))
        a_team = rotation  # rotation 0: A is team 0; rotation 1: A is team 1
        df.insert(1, "rotation", rotation)
        df["a_total"] = df[f"total_{a_team}"]
        df["b_total"] = df[f"total_{1 - a_team}"]
        df["diff"] = df["a_total"] - df["b_total"]
        frames.append(df)
    plays = pd.concat(frames, ignore_index=True)
    sets = plays.groupby("deal", sort=True)["diff"].mean().rename("diff").reset_index()
    games = plays.assign(game=plays["deal"] // 2).groupby(["rotation", "game"])
    game_diff = games["diff"].sum()[games.size() == 2]
    outcomes = np.sign(game_diff.to_numpy())
    summary = stats.summarize_match(
        sets["diff"].to_numpy(float),
        per_play_diffs=plays["diff"].to_numpy(float),
        set_ids=plays["deal"].to_numpy(),
        game_outcomes=outcomes,
    )
    summary["plays"] = int(len(plays))
    summary["a_mean_score"] = float(plays["a_total"].mean())
    summary["b_mean_score"] = float(plays["b_total"].mean())
    summary["end_rates"] = {k: float(v) for k, v in plays["end"].value_counts(normalize=True).items()}
    summary["capped_deals"] = int((plays["end"] == E.END_NAMES[E.END_CAP]).sum())
    return MatchResult(str(spec_a), str(spec_b), seed, plays, sets, summary)


def format_summary(result: MatchResult) -> str:
    """A small aligned text table of a match summary."""
    s = result.summary
    low, high = s["ci95"]
    lines = [
        f"{result.a} (A) vs {result.b} (B), seed {result.seed}",
        f"  deal sets (2 plays each)   {s['deal_sets']:>12,}",
        f"  mean score A / B per deal  {s['a_mean_score']:>8.1f} / {s['b_mean_score']:.1f}",
        f"  A - B points per deal      {s['mean_diff']:>12.2f}   95% CI [{low:.2f}, {high:.2f}]",
        f"  effect size (d)            {s['effect_size']:>12.3f}",
        f"  game win rate A            {s['game_win_rate']:>12.3f}   95% CI "
        f"[{s['game_win_rate_ci95'][0]:.3f}, {s['game_win_rate_ci95'][1]:.3f}]",
        f"  variance reduction         {s['variance_reduction']:>12.2f}x  (duplicate vs independent plays)",
        f"  deal sets for a 1-pt CI    {s['deals_needed_1pt'] or 0:>12,}  (80% power)",
        f"  capped deals               {s['capped_deals']:>12,}",
    ]
    return "\n".join(lines)
