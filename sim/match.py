"""A duplicate match: team A against team B on the same deals (RULES.md P2, P9).

Every deal index is played with each team in both seat pairs; when a team's partners
play different strategies, in the four rotations of docs/results.md. The unit of
analysis is the deal set (one deal index, all its rotations): its A - B difference
is the mean over the rotations. Both teams meet the same cards; how much of the card luck that
removes is measured (``variance_reduction``, often only 1.02-1.05x for different strategies).

    result = play_match("greedy", "random", deals=100_000, seed=7)
    print(format_summary(result))
    result.plays, result.sets, result.games     # DataFrames (docs/results.md)
    result.summary                              # JSON-ready dict
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from sim import experiment as X
from sim.fmt import ci_text, format_p, json_ready, num, pct
from sim.runner import ExperimentResult, run_experiment


@dataclass
class MatchResult:
    """A finished (or interrupted) match: the run's result and its JSON summary."""

    run: ExperimentResult

    @property
    def a(self) -> str:
        return str(self.run.experiment.teams[0])

    @property
    def b(self) -> str:
        return str(self.run.experiment.teams[1])

    @property
    def seed(self) -> int:
        return self.run.experiment.seed

    @property
    def plays(self) -> pd.DataFrame:
        return self.run._need_plays()

    @property
    def sets(self) -> pd.DataFrame:
        return self.run.sets

    @property
    def games(self) -> pd.DataFrame:
        return self.run.games

    @property
    def row(self) -> pd.Series:
        """The summary frame's single row."""
        return self.run.summary.iloc[0]

    @property
    def summary(self) -> dict:
        return match_summary(self.run)


def experiment_options(rules=None, chunk: int = 0, sprt: float | X.SprtSpec | None = None, margin: float = 1.0,
                       first_deal: int = 0, game: str | None = None, players: int | None = None) -> dict:
    """Keyword arguments for the sim.experiment constructors (``game``: a registered game's
    name, default Persian Rummy; ``rules``: its rule options or a mapping of them)."""
    if sprt is not None and not isinstance(sprt, X.SprtSpec):
        sprt = X.SprtSpec(float(sprt))
    opts = {"chunk": chunk, "sprt": sprt, "margin": margin, "first_deal": first_deal, "rules": rules}
    if game is not None:
        opts["game"] = game
    if players is not None:
        opts["players"] = players
    return opts


def play_match(a, b, deals: int, seed: int = 0, rules=None, threads: int | None = None, *,
               chunk: int = 0, sprt=None, margin: float = 1.0, first_deal: int = 0,
               keep_plays: bool = True, game: str | None = None, players: int | None = None,
               **run_options) -> MatchResult:
    """Team ``a`` (SPEC or SPEC+SPEC) against team ``b`` on deals ``first_deal ..``.

    ``run_options`` go to sim.runner.run_experiment (out, resume, force, progress, on_chunk).
    Keep ``keep_plays`` for small runs; for millions of deals pass ``out`` instead.
    """
    exp = X.match(a, b, deals, seed, **experiment_options(rules, chunk, sprt, margin, first_deal, game, players))
    return MatchResult(run_experiment(exp, threads=threads, keep_plays=keep_plays, **run_options))


def match_summary(run: ExperimentResult) -> dict:
    """The JSON object of ``rummy-sim match --json`` (strict JSON: NaN/inf become null)."""
    exp = run.experiment
    r = run.summary.iloc[0]
    out = {
        "a": str(r["a"]), "b": str(r["b"]), "seed": exp.seed, "deals": exp.deals,
        "first_deal": exp.first_deal, "deal_sets": int(r["deal_sets"]), "rotations": int(r["rotations"]),
        "plays": int(r["plays"]),
        "mean_diff": r["mean_diff"], "ci95": [r["ci_low"], r["ci_high"]], "se": r["se"], "sd": r["sd"],
        "p_value": r["p_value"], "effect_size": r["effect_size"],
        "variance_reduction": r["variance_reduction"],
        "unpaired_ci95": [r["unpaired_ci_low"], r["unpaired_ci_high"]],
        "a_mean_score": r["a_mean"], "b_mean_score": r["b_mean"],
        "games": int(r["games"]), "game_win_rate": r["game_win_rate"],
        "game_win_rate_ci95": [r["game_win_rate_ci_low"], r["game_win_rate_ci_high"]],
        "win_rate": r["win_rate"], "win_rate_ci95": [r["win_rate_ci_low"], r["win_rate_ci_high"]],
        "tie_rate": r["tie_rate"], "tie_rate_ci95": [r["tie_rate_ci_low"], r["tie_rate_ci_high"]],
        "loss_rate": r["loss_rate"], "loss_rate_ci95": [r["loss_rate_ci_low"], r["loss_rate_ci_high"]],
        "margin": r["margin"], "deals_needed": r["deals_needed"],
        "end_rates": {name: r[f"end_{name}"] for name in exp.game_spec.schema.end_names},
        "capped_deals": int(r["capped"]),
        "stopped_by": run.stopped_by, "sprt": run.sprt,
        "game": exp.game, "players": exp.players,
        "rules": exp.rules.to_dict(), "experiment_hash": exp.digest(),
        "out": None if run.out is None else str(run.out), "seconds": round(run.seconds, 3),
    }
    if isinstance(out["deals_needed"], float) and math.isfinite(out["deals_needed"]):
        out["deals_needed"] = int(out["deals_needed"])
    return json_ready(out)


def format_summary(result: MatchResult | ExperimentResult) -> str:
    """An aligned text table of a match (printed by ``rummy-sim match``)."""
    run = result.run if isinstance(result, MatchResult) else result
    s = match_summary(run)
    dpg = run.experiment.rules.deals_per_game
    vr = s["variance_reduction"]
    uci = s["unpaired_ci95"]
    head = (f"{s['a']} (A) vs {s['b']} (B), seed {s['seed']}: {s['deal_sets']:,} deal sets x "
            f"{s['rotations']} rotations = {s['plays']:,} plays")
    if run.stopped_by == "interrupt":
        head += f"  [INTERRUPTED: {s['deal_sets']:,} of {s['deals']:,} deals]"
    ci = s["ci95"]
    won_label = f"games ({dpg} deals) won by A" if dpg > 1 else "deals won by A"
    lines = [
        head,
        f"  A - B points per deal      {num(s['mean_diff'], '+.2f'):>10}   95% CI "
        f"{ci_text(ci[0], ci[1])}   {format_p(s['p_value'])}",
        f"  mean score A / B           {num(s['a_mean_score'], '.1f'):>10} / {num(s['b_mean_score'], '.1f')}",
        f"  effect size (d)            {num(s['effect_size'], '+.3f'):>10}",
        f"  {won_label:<27}{pct(s['win_rate']):>10}   95% CI [{pct(s['win_rate_ci95'][0])}, "
        f"{pct(s['win_rate_ci95'][1])}]   tied {pct(s['tie_rate'])}, lost {pct(s['loss_rate'])} "
        f"of {s['games']:,}",
        f"  game win rate (tie = 1/2)  {num(s['game_win_rate'], '.3f'):>10}   95% CI "
        f"{ci_text(*s['game_win_rate_ci95'], '.3f')}",
        f"  variance reduction         {(num(vr, '.2f') + 'x') if vr is not None else 'n/a':>10}   "
        f"(measured: duplicate deal sets vs independent plays; unpaired CI {ci_text(*uci)})",
        f"  deal sets to detect {s['margin']:<4g}pt {num(s['deals_needed'], ',d') if s['deals_needed'] else 'n/a':>10}"
        f"   (80% power, two-sided 5%, at the observed sd {num(s['sd'], '.1f')})",
        "  ends                       " + "".join(f"{name} {pct(rate)}, " for name, rate in s["end_rates"].items()
                                                 if name != "cap") + f"cap {s['capped_deals']:,} plays",
    ]
    if s["sprt"]:
        sp = s["sprt"]
        lines.append(f"  SPRT H0: 0 vs H1: {sp['delta']:+g} pts   {sp['decision']} after {sp['deal_sets']:,} deal sets "
                     f"(llr {num(sp['llr'], '.2f')}, bounds {sp['lower']:.2f} / {sp['upper']:.2f})")
        if run.stopped_by == "sprt":
            lines.append("  note: the run stopped early on the SPRT's decision; the CI and p-value above are "
                         "fixed-sample statistics that do not account for the early stop (they are somewhat "
                         "optimistic); the SPRT's own error rates are the guarantee")
    return "\n".join(lines)
