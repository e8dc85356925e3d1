"""The report's score distributions: A's and B's score per deal and per game, A - B per deal set and
the deal length, binned (the sums: sim.runner.sums.DistributionSums)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.fmt import num
from sim.present import charts
from sim.present.report.base import Section, match_label, pair_label, shown_pairings
from sim.present.report.document import Doc
from sim.runner.sums import DIFF_EDGES, EDGES, GAME_EDGES, SCORE_EDGES, Collected, DistributionSums


class DistributionsSection(DistributionSums, Section):
    """A's and B's score per deal and per game, A - B per deal set and the deal length, binned."""

    key = "distributions"
    heading = "Score distributions"

    @staticmethod
    def zero_table(col: Collected) -> pd.DataFrame:
        """Per pairing: deal sets, the share with A - B exactly 0 and the share of those that are mirror plays."""
        rows = []
        for p, (n, z, m) in sorted(col.part("distributions").zeros.items()):
            rows.append({"pairing": p, "match": match_label(col, p), "deal_sets": n, "zero": z,
                         "zero_share": z / n if n else math.nan, "mirror": m,
                         "mirror_share_of_zeros": m / z if z else math.nan})
        return pd.DataFrame(rows)

    @staticmethod
    def table(col: Collected) -> pd.DataFrame:
        """One row per (pairing, quantity, side): n, the exact mean and sd, the binned quantiles."""
        labels = col.exp.team_labels()
        rows = []
        acc = col.part("distributions")
        one_deal_games = col.exp.rules.deals_per_game == 1  # game score = deal score (kept by older versions)
        for (kind, p, side), counts in sorted(acc.hists.items(), key=lambda kv: (kv[0][1], kv[0][0], kv[0][2])):
            if one_deal_games and kind == "game score":
                continue
            i, j = col.exp.pairings[p]
            who = {"A": labels[i], "B": labels[j], "": "all plays", "diff": "A - B"}[side]
            row = {"pairing": p, "match": f"{labels[i]} vs {labels[j]}", "quantity": kind, "of": who,
                   **charts.hist_summary(EDGES[kind], counts)}
            n, total, total_sq = acc.moments[(kind, p, side)]
            if n > 0:
                row["mean"] = total / n
                row["sd"] = math.sqrt(max(total_sq - n * row["mean"] ** 2, 0.0) / max(n - 1, 1))
            rows.append(row)
        return pd.DataFrame(rows)

    def render(self, doc: Doc, col: Collected, out: Path) -> None:
        doc.h(2, self.heading)
        dist = self.table(col)
        dist.to_csv(out / "distributions.csv", index=False)
        view = dist[dist["quantity"] != "deal length (turns)"][["match", "quantity", "of", "n", "mean", "sd", "p5",
                                                                "p25", "p50", "p75", "p95"]].copy()
        for c in ("mean", "sd", "p5", "p25", "p50", "p75", "p95"):
            view[c] = view[c].map(lambda x: num(x, ".1f"))
        view["n"] = view["n"].map("{:,}".format)
        one_deal = col.exp.rules.deals_per_game == 1
        doc.table(view, "Distributions (points): exact means and sds; quantiles from bins of 10 "
                        + ("(a game is a single deal here, so the deal score is also the game score; "
                           if one_deal else "(game bins of 20; ")
                        + "values beyond the range are counted in the end bins)", "distributions.csv")
        shown = shown_pairings(col)
        if len(shown) < len(col.exp.pairings):
            doc.p("The figure shows the best, the median and the worst grid point; the table has all.")
        zeros = self.zero_table(col)
        zeros.to_csv(out / "zero_differences.csv", index=False)
        big = zeros[zeros["zero_share"] >= 0.005]
        if len(big):
            r = big.sort_values("zero_share").iloc[-1]
            doc.p(f"A - B per deal set is *exactly* 0 in up to {100 * r['zero_share']:.1f}% of the deal sets "
                  f"({r['match']}); in {100 * r['mirror_share_of_zeros']:.1f}% of those the rotations are mirror "
                  "images (each team's score in one rotation is the other's in the next): both teams made the "
                  "same moves on those cards. Those deal sets are left out of the A - B histogram (which would "
                  "otherwise show them as a spike at 0) and their share is given in its legend; every pairing's "
                  "count is in `zero_differences.csv`. The means and intervals include them.")
        self._figure(col, shown, out)
        doc.img("scores.png", "Score distributions")

    @staticmethod
    def _figure(col: Collected, shown: list[int], out: Path) -> None:
        hists = col.part("distributions").hists
        s = col.summary
        dpg = col.exp.rules.deals_per_game
        games = dpg > 1  # with one deal per game the game score is the deal score: no third panel
        fig, axes = charts.figure(1, 3 if games else 2, height=4.6, width=14.0 if games else 10.0)
        for k, p in enumerate(shown):
            color = charts.PALETTE[k * 2 % len(charts.PALETTE)]
            series = {f"A {pair_label(col, p, 'A')}": hists[("deal score", p, "A")]}
            if len(shown) == 1:
                series[f"B {pair_label(col, p, 'B')}"] = hists[("deal score", p, "B")]
            for i, (lab, counts) in enumerate(series.items()):
                charts.step_hist(axes[0], SCORE_EDGES, counts, label=lab[:40],
                                 color=charts.PALETTE[(k * 2 + i) % len(charts.PALETTE)],
                                 ls=charts.LINESTYLES[(k + i) % len(charts.LINESTYLES)])
            m, lo, hi = s.loc[p, "mean_diff"], s.loc[p, "ci_low"], s.loc[p, "ci_high"]
            counts = hists[("deal-set A - B", p, "diff")].astype(float).copy()
            n_sets, n_zero, _ = col.part("distributions").zeros.get(p, (counts.sum(), 0, 0))
            zero_bin = int(np.searchsorted(DIFF_EDGES, 0, side="right") - 1)
            counts[zero_bin] -= n_zero
            y = counts / (n_sets * np.diff(DIFF_EDGES)) if n_sets else counts
            zero_text = f"; exactly 0 in {100 * n_zero / n_sets:.1f}% (left out)" if n_zero and n_sets else ""
            axes[1].stairs(y, DIFF_EDGES, color=color, lw=1.5, ls=charts.LINESTYLES[k % len(charts.LINESTYLES)],
                           label=f"{pair_label(col, p, 'A')[:32]}: mean {m:+.1f} [{lo:+.1f}, {hi:+.1f}]{zero_text}")
            if games and ("game score", p, "A") in hists:
                charts.step_hist(axes[2], GAME_EDGES, hists[("game score", p, "A")],
                                 label=f"A {pair_label(col, p, 'A')}"[:40], color=color,
                                 ls=charts.LINESTYLES[k % len(charts.LINESTYLES)])
                if len(shown) == 1:
                    charts.step_hist(axes[2], GAME_EDGES, hists[("game score", p, "B")],
                                     label=f"B {pair_label(col, p, 'B')}"[:40], color=charts.PALETTE[1])
        side = col.exp.game_spec.schema.side_word.capitalize()
        axes[0].set(title=f"{side} score per deal", xlabel=charts.PTS_DEAL, ylabel="density (share per point)",
                    xlim=(-250, 600))
        axes[1].set(title="A - B per deal set (exact zeros left out)", xlabel=f"A - B, {charts.PTS_DEAL}",
                    ylabel="density (share per point)", xlim=(-500, 600))
        axes[1].axvline(0, color="grey", lw=0.8)
        if games:
            axes[2].set(title=f"{side} score per game ({dpg} deals)", xlabel=f"points per game ({dpg} deals)",
                        ylabel="density (share per point)", xlim=(-400, 1000))
        for ax in axes:
            charts.legend_outside(ax, below=True, fontsize=7)
        fig.tight_layout()
        charts.save(fig, out / "scores.png")
