"""The report's end reasons (Wilson intervals) and deal length; a game's sections that join it
(``joins = "ends"``) are rendered inside it (the sums: sim.runner.sums.EndSums)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.intervals import ci, moments_ci, wilson
from sim.present import charts
from sim.present.report.base import Section, match_label, shown_pairings
from sim.present.report.document import Doc
from sim.runner.sums import TURN_EDGES, Collected, EndSums


class EndsSection(EndSums, Section):
    """How deals end (the game's end reasons, Wilson intervals) and how long they last. Game sections
    that join it (``joins = "ends"``) are rendered after its table, their heading words added to its."""

    key = "ends"
    heading = "End reasons, deal length"

    @staticmethod
    def table(col: Collected) -> pd.DataFrame:
        """One row per (pairing, end reason): plays and share with a Wilson 95% CI."""
        acc = col.part("ends")
        rows = []
        for p, counts in sorted(acc["counts"].items()):
            n = counts.sum()
            for k, name in enumerate(acc["names"]):
                sh, lo, hi = wilson(int(counts[k]), int(n))
                rows.append({"pairing": p, "match": match_label(col, p), "end": name, "plays": int(counts[k]),
                             "share": sh, "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows)

    def render(self, doc: Doc, col: Collected, out: Path) -> None:
        members = [s for s in col.sections if getattr(s, "joins", "") == self.key]
        doc.h(2, ", ".join([self.heading] + [s.heading for s in members]))
        ends = self.table(col)
        ends.to_csv(out / "end_reasons.csv", index=False)
        wide = ends.assign(cell=[ci(100 * r.share, 100 * r.ci_low, 100 * r.ci_high, ".2f") + "%"
                                 for r in ends.itertuples()])
        wide = wide.pivot(index="match", columns="end", values="cell").reset_index()[["match",
                                                                                      *col.part("ends")["names"]]]
        doc.table(wide, "How deals end: share of plays with a Wilson 95% CI", "end_reasons.csv")
        for s in members:
            s.render(doc, col, out)
        self._figure(col, ends, out)
        doc.img("ends.png", "End reasons and deal length")

    @staticmethod
    def _figure(col: Collected, ends: pd.DataFrame, out: Path) -> None:
        dist = col.part("distributions")
        shown = shown_pairings(col)
        fig, axes = charts.figure(1, 2, height=4.6, width=13.0)
        t = ends[ends["pairing"].isin(shown)].copy()
        t["match"] = t["match"].str.slice(0, 45)
        charts.shares_figure(t, "end", "match", "End reason, share of plays (95% Wilson CI)", ax=axes[0])
        top = 0
        for k, p in enumerate(shown):
            m, lo, hi = moments_ci(*dist.turns[p])
            counts = dist.hists[("deal length (turns)", p, "")]
            top = max(top, TURN_EDGES[min(np.nonzero(counts)[0].max() + 2, TURN_EDGES.size - 1)])
            charts.step_hist(axes[1], TURN_EDGES, counts, color=charts.PALETTE[k],
                             ls=charts.LINESTYLES[k % len(charts.LINESTYLES)],
                             label=f"{match_label(col, p)[:40]}: mean {m:.1f} [{lo:.1f}, {hi:.1f}]")
        axes[1].set(title="Deal length (mean, 95% CI)", xlabel="turns per deal (all seats)",
                    ylabel="density (share per turn)", xlim=(0, top))
        charts.legend_outside(axes[1], below=True, fontsize=7)
        fig.tight_layout()
        charts.save(fig, out / "ends.png")
