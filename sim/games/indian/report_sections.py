"""Indian Rummy's own report section (``IndianGame.report_sections``; protocol: sim.plugin.game).

Players sit alone; a pairing seats A and B as ``field`` (one A seat against a field of B)
or ``half`` (A in alternate seats). ``FiguresSection`` ("Per seat: net points, deals won,
drops") shows, per pairing and side, the figures of sim/games/indian/figures.py: net points
per deal with the paired interval over deal sets, the share of deals the seat won (Wilson)
next to the even share 1/N, first- and middle-drop and wrong-declaration rates, points lost
on the deals not won and won on the deals won; and, by seat relative to the dealer, each
side's net points per deal, A - B and A's deals won (``indian_by_dealer.csv/.png``). It reads
them from the run's statistics (the summary frame), which every kind of results file carries,
so it keeps no sums of its own.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.intervals import ci, row_pct_ci
from sim.games.indian.figures import offset_rows
from sim.present import charts
from sim.present.report.base import Section, match_label, pair_label, shown_pairings
from sim.present.report.document import Doc
from sim.runner.sums import Collected

SIDES = (("a", "A"), ("b", "B"))


def figures_table(col: Collected) -> pd.DataFrame:
    """One row per (pairing, side): every Indian figure with its interval (written as indian_figures.csv)."""
    s = col.summary
    rows = []
    for p, r in s.iterrows():
        for side, name in SIDES:
            row = {"pairing": int(r["pairing"]), "match": match_label(col, int(r["pairing"])), "side": name,
                   "strategy": r[side], "seating": r["seating"], "players": col.exp.players,
                   "seat_plays": int(r[f"{side}_seat_plays"]), "net": r[f"{side}_net"],
                   "net_ci_low": r[f"{side}_net_ci_low"], "net_ci_high": r[f"{side}_net_ci_high"]}
            for key in ("deal_win_rate", "first_drop_rate", "middle_drop_rate", "wrong_declaration_rate"):
                for suffix in ("", "_ci_low", "_ci_high"):
                    row[key + suffix] = r[f"{side}_{key}{suffix}"]
            for key in ("lost_when_losing", "gain_when_winning"):
                row[key], row[f"{key}_sd"] = r[f"{side}_{key}"], r[f"{side}_{key}_sd"]
            row["even_win_rate"] = r["even_win_rate"]
            rows.append(row)
    return pd.DataFrame(rows)


def by_dealer_table(col: Collected) -> pd.DataFrame:
    """One row per (pairing, seat offset from the dealer), in play order: A's and B's net points per
    deal at that offset, A - B and A's deal win rate, with intervals (written as indian_by_dealer.csv;
    empty for results of a version without them)."""
    n = col.exp.players
    rows = []
    for _, r in col.summary.iterrows():
        for d in offset_rows(r, n):
            row = {"pairing": int(r["pairing"]), "match": match_label(col, int(r["pairing"])), "a": r["a"],
                   "b": r["b"], "players": n, "offset": d["offset"], "position": d["position"]}
            for key in ("a_net", "b_net", "a_minus_b", "a_deal_win_rate"):
                row[key] = d[key]
                row[f"{key}_ci_low"], row[f"{key}_ci_high"] = d[f"{key}_ci95"]
            rows.append(row)
    return pd.DataFrame(rows)


class FiguresSection(Section):
    """Per pairing and side: the figures a points-rummy player reads (module doc)."""

    key = "indian_figures"
    heading = "Per seat: net points, deals won, drops"

    def render(self, doc: Doc, col: Collected, out: Path) -> None:
        s = col.summary
        if "a_net" not in s.columns:  # results of a version that did not keep them
            return
        doc.h(2, self.heading)
        t = figures_table(col)
        t.to_csv(out / "indian_figures.csv", index=False)
        r0 = s.iloc[0]
        n = col.exp.players
        seating = r0["seating"]
        how = ("one A seat against a field of B in the other seats, A in every seat once per deal"
               if seating == "field" else "A in alternate seats, B in the others, each seat's cards played once "
                                          "by A and once by B")
        doc.p(f"Seating **{seating}** at {n} players ({how}). Each figure is per seat of the side: a side's net "
              "points per deal is the mean over its seats (interval paired over deal sets), its rates are shares "
              f"of its seat-plays (Wilson intervals, approximate: the plays of a deal set share cards). When "
              f"everybody plays alike a seat wins 1/{n} = {100 / n:.1f}% of the deals (fewer when deals hit the "
              "turn cap).")
        view = pd.DataFrame({
            "match": t["match"], "side": t["side"],
            "net pts/deal [95% CI]": [ci(r.net, r.net_ci_low, r.net_ci_high) for r in t.itertuples()],
            "deals won [95% CI]": [row_pct_ci(r, "deal_win_rate") for _, r in t.iterrows()],
            "first drops": [row_pct_ci(r, "first_drop_rate") for _, r in t.iterrows()],
            "middle drops": [row_pct_ci(r, "middle_drop_rate") for _, r in t.iterrows()],
            "wrong declarations": [row_pct_ci(r, "wrong_declaration_rate") for _, r in t.iterrows()],
            "lost per deal not won": t["lost_when_losing"].map(lambda x: f"{x:.1f}" if math.isfinite(x) else "n/a"),
            "won per deal won": t["gain_when_winning"].map(lambda x: f"{x:.1f}" if math.isfinite(x) else "n/a"),
        })
        doc.table(view, f"Per seat of each side (even share of deals won: 1/{n} = {100 / n:.1f}%)",
                  "indian_figures.csv")
        if s.shape[0] == 1:
            r = s.iloc[0]
            doc.p(f"**{r['a']}** nets {ci(r['a_net'], r['a_net_ci_low'], r['a_net_ci_high'])} points per deal "
                  f"and wins {100 * r['a_deal_win_rate']:.1f}% of its deals; **{r['b']}** nets "
                  f"{ci(r['b_net'], r['b_net_ci_low'], r['b_net_ci_high'])} per seat and wins "
                  f"{100 * r['b_deal_win_rate']:.1f}%. A - B: {ci(r['mean_diff'], r['ci_low'], r['ci_high'])} "
                  "points per deal (paired over deal sets).")
        self._figure(col, t, out)
        doc.img("indian_figures.png", "Net points per deal and deals won per seat, A and B, with 95% CIs")
        self._by_dealer(doc, col, out)

    def _by_dealer(self, doc: Doc, col: Collected, out: Path) -> None:
        t = by_dealer_table(col)
        if t.empty:
            return
        t.to_csv(out / "indian_by_dealer.csv", index=False)
        n = col.exp.players
        doc.h(3, "By seat relative to the dealer")
        doc.p(f"A seat's offset from the dealer is how many seats left of the dealer it sits (I2, I3): offset 1 "
              f"plays first, offset {n - 1} plays {'last but one' if n > 2 else 'last'}"
              + (", " if n > 2 else " and ") + "offset 0 is the dealer, who plays last. A plays every offset "
              "once per deal set, so each offset's figures are over the same deal sets; intervals are "
              "t-intervals over deal sets (A - B: paired, A against B at the same offset), deals won Wilson.")
        view = pd.DataFrame({
            "match": t["match"], "seat": t["position"],
            "A net pts/deal [95% CI]": [ci(r.a_net, r.a_net_ci_low, r.a_net_ci_high) for r in t.itertuples()],
            "B net pts/deal [95% CI]": [ci(r.b_net, r.b_net_ci_low, r.b_net_ci_high) for r in t.itertuples()],
            "A - B [95% CI]": [ci(r.a_minus_b, r.a_minus_b_ci_low, r.a_minus_b_ci_high) for r in t.itertuples()],
            "A deals won [95% CI]": [row_pct_ci(r, "a_deal_win_rate") for _, r in t.iterrows()],
        })
        doc.table(view, "By seat offset from the dealer, in play order (per seat of each side)",
                  "indian_by_dealer.csv")
        shown = shown_pairings(col)
        fig, axes = charts.figure(1, 2, height=4.2, width=12.0)
        order = list(dict.fromkeys(t["offset"]))
        x = np.arange(len(order), dtype=float)
        for k, p in enumerate(shown):
            rows = t[t["pairing"] == p].set_index("offset").loc[order]
            style = charts.series_style(k)
            xs = x + (k - (len(shown) - 1) / 2) * 0.12
            label = f"{pair_label(col, p, 'A')[:30]} vs {pair_label(col, p, 'B')[:24]}"
            charts.errorbars(axes[0], xs, rows["a_net"], rows["a_net_ci_low"], rows["a_net_ci_high"],
                             label=f"A: {label}", color=style["color"], marker=style["marker"])
            charts.errorbars(axes[1], xs, rows["a_minus_b"], rows["a_minus_b_ci_low"], rows["a_minus_b_ci_high"],
                             label=label, color=style["color"], marker=style["marker"])
        ticks = [("dealer" if o == 0 else f"{o}") for o in order]
        axes[0].set(title="A's net points per deal by seat (95% CI)", ylabel=charts.PTS_DEAL,
                    xlabel="seat offset from the dealer, in play order")
        axes[1].set(title="A - B at the same seat (paired 95% CI)", ylabel=charts.PTS_DEAL,
                    xlabel="seat offset from the dealer, in play order")
        for ax in axes:
            ax.axhline(0, color="grey", lw=0.8)
            ax.set_xticks(x, ticks)
            charts.legend_outside(ax, below=True, fontsize=7)
        fig.tight_layout()
        charts.save(fig, out / "indian_by_dealer.png")
        doc.img("indian_by_dealer.png", "A's net points per deal and A - B by seat relative to the dealer, 95% CIs")

    @staticmethod
    def _figure(col: Collected, t: pd.DataFrame, out: Path) -> None:
        shown = shown_pairings(col)
        fig, axes = charts.figure(1, 2, height=4.4, width=13.0)
        x = np.arange(len(shown), dtype=float)
        labels = [f"{pair_label(col, p, 'A')[:36]}\nvs {pair_label(col, p, 'B')[:30]}" for p in shown]
        for k, (_, side) in enumerate(SIDES):
            rows = t[(t["side"] == side)].set_index("pairing").loc[shown]
            style = charts.series_style(k)
            xs = x + (k - 0.5) * 0.2
            charts.errorbars(axes[0], xs, rows["net"], rows["net_ci_low"], rows["net_ci_high"], label=side,
                             color=style["color"], marker=style["marker"])
            charts.errorbars(axes[1], xs, 100 * rows["deal_win_rate"], 100 * rows["deal_win_rate_ci_low"],
                             100 * rows["deal_win_rate_ci_high"], label=side, color=style["color"],
                             marker=style["marker"])
        axes[0].axhline(0, color="grey", lw=0.8)
        axes[1].axhline(100 * t["even_win_rate"].iloc[0], color="grey", lw=0.8, ls="--", label="even share 1/N")
        axes[0].set(title="Net points per deal, per seat (95% CI)", ylabel=charts.PTS_DEAL)
        axes[1].set(title="Deals won, per seat (Wilson 95% CI)", ylabel="% of the side's seat-plays")
        for ax in axes:
            ax.set_xticks(x, labels, fontsize=7)
            ax.set_xlim(-0.5, len(shown) - 0.5)
            charts.legend_outside(ax, fontsize=7)
        fig.tight_layout()
        charts.save(fig, out / "indian_figures.png")


__all__ = ["FiguresSection", "figures_table", "by_dealer_table"]
