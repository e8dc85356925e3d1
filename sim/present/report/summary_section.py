"""The report's summary section: the run's statistics (sim.runner.aggregate), then per kind of
experiment a sentence and figure (match), the grid against its best point (sweep) or the ranking
(tournament)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.fmt import num, pct, short_p
from sim.core.intervals import ci
from sim.present import charts
from sim.present.report.base import Section, count_word, sprt_caveat, sweep_axes, variance_sentence
from sim.present.report.document import Doc
from sim.runner.sums import Collected, SummarySums
from sim.studies.sweep import sweep_table
from sim.studies.match import won_words
from sim.studies.tournament import crosstable, pairing_outcomes, ranking


def _alone(col: Collected) -> bool:
    """Players each alone (every side one seat): a side's score is a seat's, B's a mean over B's seats."""
    return all(len(side) == 1 for side in col.exp.game_spec.sides(col.exp.players))


class SummarySection(SummarySums, Section):
    """The run's statistics (sim.runner.aggregate): the table of every pairing, then per kind of experiment
    a sentence and figure (match), the grid against its best point (sweep) or the ranking (tournament)."""

    key = "summary"
    heading = "Summary with confidence intervals"

    def render(self, doc: Doc, col: Collected, out: Path) -> None:
        exp, s = col.exp, col.summary
        doc.h(2, self.heading)
        # players each alone (Indian Rummy): a "game won" is a play where A's net beat B's mean net
        won = "plays A > B mean [95% CI]" if _alone(col) else "game win rate [95% CI]"
        view = pd.DataFrame({
            "A": s["a"], "B": s["b"], "deal sets": s["deal_sets"].map("{:,}".format),
            "A - B pts/deal [95% CI]": [ci(r.mean_diff, r.ci_low, r.ci_high) for r in s.itertuples()],
            "p (Holm)": s["p_holm"].map(short_p),
            won: [ci(r.game_win_rate, r.game_win_rate_ci_low, r.game_win_rate_ci_high, ".3f")
                  for r in s.itertuples()],
            "A / B mean pts": [f"{r.a_mean:.1f} / {r.b_mean:.1f}" for r in s.itertuples()],
            "effect d": s["effect_size"].map(lambda x: num(x, "+.3f")),
            "variance reduction": s["variance_reduction"].map(lambda x: num(x, ".2f") + "x"),
            f"deal sets for {exp.margin:g} pt": s["deals_needed"].map(lambda x: num(x, ",.0f")),
        })
        s.to_csv(out / "summary.csv", index=False)
        doc.table(view, f"Mean A - B points per deal set (paired t-interval), {won.split(' [')[0]} (Wilson)",
                  "summary.csv")
        {"match": self._match, "sweep": self._sweep, "tournament": self._tournament}[exp.kind](doc, col, out)

    @staticmethod
    def _match(doc: Doc, col: Collected, out: Path) -> None:
        r = col.summary.iloc[0]
        dpg = col.exp.rules.deals_per_game
        if _alone(col):
            won = (f"its net beats {r['b']}'s mean net in {100 * r['game_win_rate']:.1f}% of the plays (ties "
                   f"counted half; the deals each seat won are in the per-seat section)")
        else:
            won = f"it wins {100 * r['game_win_rate']:.1f}% of the {count_word(dpg)}-deal games"
        doc.p(f"**{r['a']}** scores **{ci(r['mean_diff'], r['ci_low'], r['ci_high'])}** points per deal more than "
              f"**{r['b']}** (p {short_p(r['p_value'])}); {won}. {variance_sentence(r)}")
        if col.meta.get("stopped_by") == "sprt":
            doc.p(sprt_caveat(col.meta.get("sprt") or {}))
        charts.save(charts.match_figure(r), out / "summary.png")
        doc.img("summary.png", "A - B points per deal with paired and unpaired 95% CIs; game win rate")

    @staticmethod
    def _sweep(doc: Doc, col: Collected, out: Path) -> None:
        exp = col.exp
        t = sweep_table(col.result)
        t.to_csv(out / "sweep_table.csv", index=False)
        keys = [k for k, _ in exp.vary]
        best = t[t["best"]].iloc[0]
        doc.p("Best point: " + ", ".join(f"`{k}={best[k]}`" for k in keys) +
              f", {ci(best['mean_diff'], best['ci_low'], best['ci_high'])} points per deal against "
              f"`{best['opponent']}`. Each other point against the best one, paired on the same deals:")
        view = pd.DataFrame({**{k: t[k] for k in keys},
                             "vs opponent [95% CI]": [ci(r.mean_diff, r.ci_low, r.ci_high) for r in t.itertuples()],
                             "vs best [95% CI]": ["best" if not math.isfinite(r.vs_best) else
                                                  ci(r.vs_best, r.vs_best_ci_low, r.vs_best_ci_high)
                                                  for r in t.itertuples()],
                             "p vs best (Holm)": t["vs_best_p_holm"].map(short_p)})
        doc.table(view, "Every grid point: against the opponent and against the best point (points per deal)",
                  "sweep_table.csv")
        x, group = sweep_axes(exp)
        fig, axes = charts.figure(1, 2, height=4.6, width=14.0, gridspec_kw={"width_ratios": [1.2, 1]})
        charts.sweep_figure(t, x, group, ax=axes[0], title=f"A - B against {t['opponent'].iloc[0]} (best circled)")
        charts.near_best_figure(t, keys, top=min(6, len(t)), ax=axes[1],
                                title="Zoom: the points closest to the best, paired on the same deals")
        fig.tight_layout()
        charts.save(fig, out / "sweep.png")
        half = float(np.nanmax((t["ci_high"] - t["ci_low"]) / 2))
        doc.p(f"Left: every grid point against the opponent, with 95% CI error bars (the widest is +/- {half:.2f} "
              "points per deal, so at this many deals most bars are shorter than the markers); the tested values "
              "are evenly spaced on the axis, whatever their numeric distance, and no line joins them. Right: the "
              "close calls, each point minus the best one, paired on the same deals, with its interval printed.")
        doc.img("sweep.png", "Response curve with 95% CI bands and paired difference to the best point")

    @staticmethod
    def _tournament(doc: Doc, col: Collected, out: Path) -> None:
        res = col.result
        rk = ranking(res)
        rk.to_csv(out / "ranking.csv", index=False)
        m, lo, hi = (crosstable(res, v) for v in ("mean_diff", "ci_low", "ci_high"))
        m.to_csv(out / "crosstable.csv")
        doc.table(pd.DataFrame({"rank": rk["rank"], "team": rk["team"],
                                "margin [95% CI]": [ci(r.margin, r.ci_low, r.ci_high) for r in rk.itertuples()],
                                "game win rate": rk["game_win_rate"].map(lambda x: num(x, ".3f")),
                                "p vs next (Holm)": rk["p_vs_next"].map(short_p)}),
                  "Ranking by margin over the field (points per deal)", "ranking.csv")
        po = pairing_outcomes(res)
        po.to_csv(out / "pairings.csv", index=False)
        won = won_words(res.experiment)[1]
        doc.table(pd.DataFrame({"A": po["a"], "B": po["b"],
                                "A - B [95% CI]": [ci(r.mean_diff, r.ci_low, r.ci_high) for r in po.itertuples()],
                                f"{won} by A [95% CI]": [f"{pct(r.a_win_rate)} [{pct(r.a_win_rate_low)}, "
                                                         f"{pct(r.a_win_rate_high)}]" for r in po.itertuples()],
                                "tied": po["tie_rate"].map(pct), "by B": po["b_win_rate"].map(pct)}),
                  f"Every pairing: A - B points per deal (paired 95% CI) and the single deals' outcomes ({won} by "
                  "A with a Wilson 95% CI, approximate: a deal set's plays share cards; tied; won by B)", "pairings.csv")
        charts.save(charts.crosstable_figure(m, lo, hi), out / "crosstable.png")
        charts.save(charts.ranking_figure(rk), out / "ranking.png")
        doc.img("crosstable.png", "Crosstable heatmap")
        doc.img("ranking.png", "Ranking with 95% CIs")
