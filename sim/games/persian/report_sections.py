"""Persian Rummy's own report sections (``PersianGame.report_sections``; protocol: sim.plugin.game).

Persian plays in two teams of partners (seats 0 + 2 and 1 + 3; column ``a_team`` says
which is A's in a play). On top of the generic report:

* ``DealerEffectSection`` joins the end-reasons section: the dealing team's score minus
  the other team's (dealer seat ``% 2`` is the dealing team), per deal set - both teams
  deal in one rotation each: the strategies' interaction with the dealer position, not a property
  of the game;
* ``CountersSection`` ("Strategy counters"): every strategy counter per team (the sum
  of its two seats; the max for ``max_depth``, shown as ``deepest_take``), ``took`` (a
  take in the deal), ``went_out`` (``out_seat % 2`` is the team), the score parts and
  the deal length, each a mean over deal sets with a Student-t 95% interval; the mean
  depth of a take (a ratio, delta-method interval); the distribution of a seat's
  deepest take.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.intervals import ci, moments_ci, wilson
from sim.games.persian import enums as E
from sim.present import charts
from sim.present.report.base import Section, match_label, pair_label, shown_pairings, sweep_axes
from sim.present.report.document import Doc
from sim.runner.sums import Collected, add_moments, set_means
from sim.studies.sweep import sweep_table

SCORE_PARTS = ["total", "table", "hand", "bonus"]
COUNTERS = [name for name, _ in E.COUNTER_NAMES]
# per-team metrics (sum of the team's two seats; max for max_depth), points per deal unless noted
METRICS = [*SCORE_PARTS, *COUNTERS, "took", "went_out", "turns"]
MAX_DEPTH = 55  # deepest possible take; a seat's max_depth is -1 (no take) .. 55
COUNTER_VIEW = [("total", "pts"), ("table", "pts"), ("hand", "pts"), ("took", "share"), ("takes", "n"),
                ("depth_per_take", "cards"), ("cards_taken", "n"), ("fours_melded", "n"), ("joker_fours_melded", "n"),
                ("layoff_points_on_opponents", "pts"), ("discards_fed", "n"), ("went_out", "share")]
FIGURE_METRICS = [("took", "share of deals with a take"), ("takes", "takes per deal"),
                  ("depth_per_take", "cards above target per take"), ("table", charts.PTS_DEAL),
                  ("hand", f"hand penalty, {charts.PTS_DEAL}"), ("fours_melded", "fours per deal"),
                  ("joker_fours_melded", "joker fours per deal"), ("layoff_points_on_opponents", charts.PTS_DEAL),
                  ("discards_fed", "discards taken next, per deal")]
SWEEP_METRICS = ("took", "takes", "cards_taken", "table", "hand", "discards_fed")
# the A - B figures: every metric whose difference has an interval (depth per take is a ratio: A and B rows only)
DIFF_METRICS = [("took", "share of deals with a take"), ("takes", "takes per deal"),
                ("cards_taken", "cards taken per deal"), ("table", charts.PTS_DEAL),
                ("hand", f"hand penalty, {charts.PTS_DEAL}"), ("fours_melded", "fours per deal"),
                ("joker_fours_melded", "joker fours per deal"), ("layoff_points_on_opponents", charts.PTS_DEAL),
                ("discards_fed", "discards taken next, per deal")]


def _seat_columns(frame: pd.DataFrame, name: str) -> np.ndarray:
    """(plays, 4) values of per-seat counter ``name``."""
    return np.stack([frame[f"{name}_s{s}"].to_numpy(np.int64) for s in range(E.N_SEATS)], axis=1)


def _team_seats(frame: pd.DataFrame, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Counter ``name`` of A's first and second seat and B's first and second seat, per play."""
    cols = _seat_columns(frame, name)
    a_team = frame["a_team"].to_numpy(np.int64)
    idx = np.arange(len(frame))
    return cols[idx, a_team], cols[idx, a_team + 2], cols[idx, 1 - a_team], cols[idx, 3 - a_team]


def team_values(frame: pd.DataFrame) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Every metric of METRICS per play as (A's value, B's value)."""
    a_team = frame["a_team"].to_numpy(np.int64)
    values = {}
    for part in SCORE_PARTS:
        t0, t1 = frame[f"{part}_0"].to_numpy(np.int64), frame[f"{part}_1"].to_numpy(np.int64)
        values[part] = (np.where(a_team == 0, t0, t1), np.where(a_team == 0, t1, t0))
    for name in COUNTERS:
        a0, a1, b0, b1 = _team_seats(frame, name)
        values[name] = (np.maximum(a0, a1), np.maximum(b0, b1)) if name == "max_depth" else (a0 + a1, b0 + b1)
    values["took"] = ((values["takes"][0] > 0).astype(np.int64), (values["takes"][1] > 0).astype(np.int64))
    out_seat = frame["out_seat"].to_numpy(np.int64)
    a_out = (out_seat >= 0) & (out_seat % 2 == a_team)
    b_out = (out_seat >= 0) & (out_seat % 2 != a_team)
    values["went_out"] = (a_out.astype(np.int64), b_out.astype(np.int64))
    values["turns"] = (frame["turns"].to_numpy(np.int64),) * 2
    return values


# --- dealer effect --------------------------------------------------------------------------------------


class DealerEffectSection(Section):
    """The dealing team's score minus the other team's, per deal set (joins the end-reasons section)."""

    key = "dealer"
    heading = "dealer position"
    joins = "ends"

    def start(self, col: Collected) -> dict:
        return {}  # pairing -> [n, sum, sum of squares] over deal sets

    def reduce(self, frame: pd.DataFrame, acc: dict) -> None:
        dealer = frame["dealer"].to_numpy(np.int64)
        t0, t1 = frame["total_0"].to_numpy(np.int64), frame["total_1"].to_numpy(np.int64)
        pairing = frame["pairing"].to_numpy(np.int64)
        per_set, set_pairing = set_means(pairing, frame["deal"].to_numpy(np.int64),
                                         {"dealer_adv": np.where(dealer % 2 == 0, t0 - t1, t1 - t0)})
        for p in np.unique(pairing):
            d = per_set[set_pairing == p]["dealer_adv"].to_numpy(float)
            add_moments(acc.setdefault(int(p), [0.0, 0.0, 0.0]), d)

    @staticmethod
    def table(col: Collected) -> pd.DataFrame:
        rows = []
        for p, (n, s, q) in sorted(col.part("dealer").items()):
            m, lo, hi = moments_ci(n, s, q)
            rows.append({"pairing": p, "match": match_label(col, p), "deal_sets": int(n),
                         "dealer_team_minus_other": m, "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows)

    def render(self, doc: Doc, col: Collected, out: Path) -> None:
        dealer = self.table(col)
        dealer.to_csv(out / "dealer_effect.csv", index=False)
        doc.table(pd.DataFrame({"match": dealer["match"], "deal sets": dealer["deal_sets"].map("{:,}".format),
                                "dealer's team - other team, pts/deal [95% CI]": [
                                    ci(r.dealer_team_minus_other, r.ci_low, r.ci_high) for r in dealer.itertuples()]}),
                  "Dealer position: the dealing team's score minus the other team's, per deal set", "dealer_effect.csv")
        doc.p("Each team deals in one rotation of every deal set, so this is not an advantage of one team: it "
              "is how these strategies' results depend on the dealer position (their interaction with it) on "
              "these deals, not a property of the game. Other strategies can show another value, or none.")


# --- strategy counters ----------------------------------------------------------------------------------


@dataclass
class Counters:
    """Per (pairing, side): [n, sum[M], sum of squares[M]] over deal sets of the METRICS, the sum over
    deal sets of takes x take depth (for the ratio's covariance), and the counts of a seat's deepest
    take -1 .. 55 over seat-deals."""

    mom: dict = field(default_factory=dict)
    depth_cross: dict = field(default_factory=dict)
    maxdepth: dict = field(default_factory=dict)


class CountersSection(Section):
    """Strategy counters per team with 95% CIs, and how deep seats take."""

    key = "counters"
    heading = "Strategy counters"

    def start(self, col: Collected) -> Counters:
        return Counters()

    def reduce(self, frame: pd.DataFrame, acc: Counters) -> None:
        values = team_values(frame)
        pairing = frame["pairing"].to_numpy(np.int64)
        cols = {}
        for name in METRICS:
            cols[f"A_{name}"], cols[f"B_{name}"] = values[name]
        per_set, set_pairing = set_means(pairing, frame["deal"].to_numpy(np.int64), cols)
        seats = _team_seats(frame, "max_depth")
        for p in np.unique(pairing):
            ps = per_set[set_pairing == p]
            rows = pairing == p
            diff = (ps[[f"A_{m}" for m in METRICS]].to_numpy(float) - ps[[f"B_{m}" for m in METRICS]].to_numpy(float))
            add_moments(acc.mom.setdefault((int(p), "A - B"), [0.0, np.zeros(len(METRICS)), np.zeros(len(METRICS))]),
                        diff)
            for side, (first, second) in (("A", seats[:2]), ("B", seats[2:])):
                key = (int(p), side)
                x = ps[[f"{side}_{m}" for m in METRICS]].to_numpy(float)
                add_moments(acc.mom.setdefault(key, [0.0, np.zeros(len(METRICS)), np.zeros(len(METRICS))]), x)
                acc.depth_cross[key] = acc.depth_cross.get(key, 0.0) + float(
                    (ps[f"{side}_takes"].to_numpy(float) * ps[f"{side}_take_depth_sum"].to_numpy(float)).sum())
                md = np.concatenate([first[rows], second[rows]])
                counts = np.bincount(md + 1, minlength=MAX_DEPTH + 2)[:MAX_DEPTH + 2].astype(np.int64)
                acc.maxdepth[key] = acc.maxdepth.get(key, np.zeros(MAX_DEPTH + 2, dtype=np.int64)) + counts

    # -- tables -------------------------------------------------------------------------------

    @staticmethod
    def table(col: Collected) -> pd.DataFrame:
        """One row per (pairing, side): every metric's mean per deal with its 95% CI over deal sets."""
        acc = col.part("counters")
        labels = col.exp.team_labels()
        rows = []
        for (p, side), (n, s, q) in sorted(acc.mom.items()):
            i, j = col.exp.pairings[p]
            row = {"pairing": p, "side": side, "team": labels[j if side == "B" else i],
                   "opponent": labels[i if side == "B" else j], "deal_sets": int(n)}
            for k, name in enumerate(METRICS):
                m, lo, hi = moments_ci(n, s[k], q[k])
                name = "deepest_take" if name == "max_depth" else name  # max_depth is also a strategy parameter
                row[name], row[f"{name}_low"], row[f"{name}_high"] = m, lo, hi
            if side == "A - B":
                # a difference of two ratios: no delta-method interval kept for it (NaN), see the A and B rows
                row.update({"depth_per_take": math.nan, "depth_per_take_low": math.nan,
                            "depth_per_take_high": math.nan})
            else:
                row.update(_depth_per_take(n, s, q, acc.depth_cross[(p, side)]))
            rows.append(row)
        return pd.DataFrame(rows)

    @staticmethod
    def depth_table(col: Collected) -> pd.DataFrame:
        """Counts of a seat's deepest take (-1: none) per (pairing, side), one column each."""
        acc = col.part("counters")
        md = pd.DataFrame({f"{pair_label(col, p, side)} ({side}, pairing {p})": acc.maxdepth[(p, side)]
                           for p, side in sorted(acc.maxdepth)}, index=range(-1, MAX_DEPTH + 1))
        md.index.name = "max_depth_of_seat"
        return md

    # -- rendering ----------------------------------------------------------------------------

    def render(self, doc: Doc, col: Collected, out: Path) -> None:
        doc.h(2, self.heading)
        doc.p("Per deal and team (both seats added; `took`: share of deals with at least one pile take; "
              "`depth_per_take`: mean depth of a take, a ratio with a delta-method CI). Means over deal sets with "
              "95% CIs; the rows marked `A - B` are the paired differences of the two teams on the same deal sets "
              "(what the figure shows; the ratio `depth_per_take` has no paired interval, compare its A and B rows).")
        ct = self.table(col)
        ct.to_csv(out / "counters.csv", index=False)
        cols = {"team": ct["team"], "side": ct["side"], "vs": ct["opponent"]}
        for name, _ in COUNTER_VIEW:
            fmt = ".3f" if name in ("took", "went_out", "fours_melded", "joker_fours_melded") else ".2f"
            cols[name] = [ci(r[name], r[f"{name}_low"], r[f"{name}_high"], fmt) for _, r in ct.iterrows()]
        doc.table(pd.DataFrame(cols), "Strategy counters per deal (team of two seats), 95% CI", "counters.csv")
        md = self.depth_table(col)
        md.to_csv(out / "max_depth.csv")
        if col.exp.kind == "sweep":
            _sweep_counters_figure(col, ct, out)
        else:
            shown = shown_pairings(col)
            t = ct[ct["pairing"].isin(shown)].copy()
            if len(shown) == 1:
                t = t.sort_values("side", key=lambda c: c.map({"A": 0, "B": 1, "A - B": 2}), kind="stable")
                t["team"] = [f"{r.team} (A)" if r.side == "A" else f"{r.team} (B)" if r.side == "B" else "A - B"
                             for r in t.itertuples()]
                title = "Strategy counters per deal: A, B and the paired difference A - B (team of two seats), 95% CI"
            else:
                t = t[t["side"] == "A - B"]
                t["team"] = [f"{r.team} - {r.opponent}" for r in t.itertuples()]
                title = "Strategy counters per deal, A - B paired on the same deals (team of two seats), 95% CI"
            charts.save(charts.counters_figure(t, DIFF_METRICS, title=title), out / "counters.png")
        doc.img("counters.png", "Strategy counters with 95% CIs")
        _depth_figure(col, md, out)
        doc.img("max_depth.png", "Distribution of the deepest take per seat and deal")
        doc.p("Counts behind the depth figure: `max_depth.csv` (exact counts, so any share has a binomial interval).")


def _depth_per_take(n: float, s: np.ndarray, q: np.ndarray, cross: float) -> dict:
    """Mean depth per take: the ratio of the deal-set means of depth and takes, delta-method 95% CI."""
    kt, kd = METRICS.index("takes"), METRICS.index("take_depth_sum")
    mt, md = s[kt] / n, s[kd] / n
    if not (mt > 0 and n > 1):
        return {"depth_per_take": math.nan, "depth_per_take_low": math.nan, "depth_per_take_high": math.nan}
    r = md / mt
    vt = (q[kt] - n * mt * mt) / (n - 1)
    vd = (q[kd] - n * md * md) / (n - 1)
    cov = (cross - n * mt * md) / (n - 1)
    var = max((vd - 2 * r * cov + r * r * vt) / (mt * mt), 0.0) / n
    h = 1.959964 * math.sqrt(var)
    return {"depth_per_take": r, "depth_per_take_low": r - h, "depth_per_take_high": r + h}


def _sweep_counters_figure(col: Collected, ct: pd.DataFrame, out: Path) -> None:
    """Counters against the grid as A - B (the swept team minus the opponent, paired on the same deal
    sets, so both teams' play enters), 95% CI error bars, categorical axis, series told apart by
    color, marker and offset."""
    exp = col.exp
    keys = [k for k, _ in exp.vary]
    x, group = sweep_axes(exp)
    d = ct[ct["side"] == "A - B"].sort_values("pairing").reset_index(drop=True)
    grid = sweep_table(col.result)[keys].reset_index(drop=True)
    t = pd.concat([grid, d], axis=1)
    show = [m for m in DIFF_METRICS if m[0] in SWEEP_METRICS]
    fig, axes = charts.figure(2, 3, height=7.8, width=14.0)
    for k, (ax, (name, unit)) in enumerate(zip(axes.ravel(), show)):
        charts.sweep_figure(t, x, group, value=name, low=f"{name}_low", high=f"{name}_high", ax=ax,
                            ylabel=f"A - B, {unit}", title=f"{name.replace('_', ' ')}: A - B", mark_best=False,
                            legend=k == 2)
        ax.axhline(0, color="grey", lw=0.8)
    fig.suptitle(f"Swept team minus {ct[ct['side'] == 'B']['team'].iloc[0]} per deal, paired on the same deals, "
                 "95% CI", fontweight="bold")
    fig.tight_layout()
    charts.save(fig, out / "counters.png")


def _depth_figure(col: Collected, md: pd.DataFrame, out: Path) -> None:
    """Share of seat-deals by deepest take, "no take" included (its own category left of depth 0),
    Wilson 95% intervals, log scale; series told apart by color, marker and offset."""
    keys = sorted(col.part("counters").maxdepth)
    fig, ax = charts.figure(1, 1, height=4.0, width=11.0)
    deepest = 0
    shown = shown_pairings(col)
    pick = keys[:6] if col.exp.kind == "tournament" else [(p, "A") for p in shown] + [(shown[0], "B")]
    for k, c in enumerate([md.columns[keys.index(key)] for key in pick]):
        counts = md[c].to_numpy(float)
        total = int(counts.sum())
        if not total:
            continue
        st = charts.series_style(k)
        w = np.array([wilson(int(x), total) if x > 0 else (np.nan,) * 3 for x in counts])
        xs = np.concatenate([[-2.0], np.arange(0, MAX_DEPTH + 1)]) + (k - (len(pick) - 1) / 2) * 0.12
        keep = counts > 0
        ax.errorbar(xs[keep], w[keep, 0], yerr=charts._yerr(w[keep, 0], w[keep, 1], w[keep, 2]), fmt=st["marker"],
                    color=st["color"], ms=4.5, lw=1.0, capsize=2, label=c[:50], mfc="white" if k % 2 else st["color"])
        took = counts[1:]
        if took.sum():
            deepest = max(deepest, int(np.nonzero(took)[0].max()))
    ax.axvline(-1.0, color="grey", lw=0.8)
    ticks = [-2] + list(range(0, deepest + 1, 1 if deepest <= 20 else 2))
    ax.set_xticks(ticks, ["no take"] + [str(t) for t in ticks[1:]])
    ax.set(yscale="log", xlim=(-2.7, deepest + 0.7), xlabel="deepest take of the seat in the deal (0 = top card)",
           ylabel="share of seat-deals", title="How deep seats take (deepest take per seat and deal, 'no take' "
           "included), 95% Wilson CI")
    ax.grid(axis="x", alpha=0)
    charts.legend_outside(ax, below=True, fontsize=7.5)
    fig.tight_layout()
    charts.save(fig, out / "max_depth.png")


SECTIONS = (DealerEffectSection(), CountersSection())

__all__ = ["SECTIONS", "DealerEffectSection", "CountersSection", "METRICS", "team_values"]
