"""The generic report sections, and the section protocol every game's sections follow.

A section is an object with (sim.plugin.game.Game.report_sections documents the protocol):

* ``key`` - unique name; ``collected.parts[key]`` holds its accumulator;
* ``heading`` - the ``##`` heading it opens (or, with ``joins``, the words it adds to
  the heading of the section it joins);
* ``joins`` - ``""``, or the key of a generic section it is rendered inside (after that
  section's tables, before its figures);
* ``start(collected) -> acc``, ``reduce(frame, acc)`` per chunk of per-play rows,
  ``render(doc, collected, out_dir)``.

The generic sections use only the game's result schema (``exp.game_spec.schema``) and
the per-play columns every game has (``pairing, a, b, deal, rotation, a_total, b_total,
turns`` and the end column): the summary statistics, the score and deal-length
distributions, and the end reasons.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.present import charts
from sim.core.fmt import num, short_p
from sim.core.intervals import ci, moments_ci, wilson
from sim.present.report.document import Doc
from sim.present.report.reduce import Collected, add_counts, add_hist, add_moments, set_means

SCORE_EDGES = np.arange(-400, 1001, 10)
DIFF_EDGES = np.arange(-700, 701, 10)
GAME_EDGES = np.arange(-800, 1801, 20)
TURN_EDGES = np.arange(0, 201, 2)
_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


class Section:
    """Do-nothing defaults of the section protocol (sections may subclass it, or not)."""

    key = ""
    heading = ""
    joins = ""

    def start(self, col: Collected):
        return None

    def reduce(self, frame: pd.DataFrame, acc) -> None:
        pass

    def render(self, doc: Doc, col: Collected, out: Path) -> None:
        pass


# --- helpers shared with the games' sections ------------------------------------------------------


def shown_pairings(col: Collected) -> list[int]:
    """The pairings a figure shows: all of up to three, else the best, the median and the worst."""
    k = len(col.exp.pairings)
    if k <= 3:
        return list(range(k))
    md = col.summary["mean_diff"].to_numpy()
    order = np.argsort(md)
    return sorted({int(order[-1]), int(order[0]), int(order[len(order) // 2])})


def pair_label(col: Collected, p: int, side: str) -> str:
    """Team A's or B's label in pairing ``p`` (a sweep's grid point by its parameters only)."""
    labels = col.exp.team_labels()
    i, j = col.exp.pairings[p]
    lab = labels[i] if side == "A" else labels[j]
    if col.exp.kind == "sweep" and side == "A" and ":" in lab:
        lab = lab.split(":", 1)[1]  # the grid point's parameters say which point it is
    return lab


def match_label(col: Collected, p: int) -> str:
    labels = col.exp.team_labels()
    i, j = col.exp.pairings[p]
    return f"{labels[i]} vs {labels[j]}"


def sweep_axes(exp) -> tuple[str, str | None]:
    """A sweep's x parameter (the one with most values) and the one grouping the curves."""
    keys = [k for k, _ in exp.vary]
    x = keys[0] if len(keys) == 1 else max(keys, key=lambda k: len(dict(exp.vary)[k]))
    group = None if len(keys) == 1 else [k for k in keys if k != x][0]
    return x, group


def count_word(n: int) -> str:
    return _COUNT_WORDS.get(n, str(n))


def variance_sentence(r) -> str:
    """What duplication bought, as measured (never the claim that card luck cancels)."""
    vr = r["variance_reduction"]
    if not math.isfinite(vr):
        return ""
    text = (f"Playing every deal in all its rotations made the variance of the estimate {vr:.2f}x smaller than "
            f"independent plays would (unpaired CI {ci(r['mean_diff'], r['unpaired_ci_low'], r['unpaired_ci_high'])}")
    if vr < 1.2:
        return text + "): a small gain, because the same cards soon lead to different deals once the two " \
                      "teams choose differently, so little of the card luck cancels."
    return text + "): part of the card luck cancels, measured, not assumed."


def sprt_caveat(sprt: dict) -> str:
    """After an SPRT stop the fixed-sample CI and p-value ignore the stopping rule."""
    n = sprt.get("deal_sets")
    where = f" after {n:,} deal sets" if isinstance(n, int) else ""
    return (f"The run stopped early{where} because Wald's sequential test decided ({sprt.get('decision', '?')}). "
            "The confidence interval and p-value above are fixed-sample statistics: they do not account for the "
            "early stop (stopping when the estimate looks decisive makes them somewhat optimistic); the test's own "
            "error rates (alpha, beta) are the guarantee.")


# --- summary ------------------------------------------------------------------------------------------


def _alone(col: Collected) -> bool:
    """Players each alone (every side one seat): a side's score is a seat's, B's a mean over B's seats."""
    return all(len(side) == 1 for side in col.exp.game_spec.sides(col.exp.players))


class SummarySection(Section):
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
        from sim.studies.sweep import sweep_table

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
        from sim.studies.tournament import crosstable, ranking

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
        charts.save(charts.crosstable_figure(m, lo, hi), out / "crosstable.png")
        charts.save(charts.ranking_figure(rk), out / "ranking.png")
        doc.img("crosstable.png", "Crosstable heatmap")
        doc.img("ranking.png", "Ranking with 95% CIs")


# --- score and deal-length distributions ------------------------------------------------------------


@dataclass
class Distributions:
    """Binned counts per (quantity, pairing, side) with the exact moments [n, sum, sum of squares]
    of the same values (``moments``: the tables' means and sds are exact, not bin midpoints) and,
    per pairing, the moments over deal sets of the deal length (turns of the whole table)."""

    deals_per_game: int
    hists: dict = field(default_factory=dict)
    turns: dict = field(default_factory=dict)
    moments: dict = field(default_factory=dict)
    zeros: dict = field(default_factory=dict)  # pairing -> [deal sets, A - B exactly 0, of those mirror plays]


def _mirror_sets(rotation: np.ndarray, a: np.ndarray, b: np.ndarray, n: int) -> int:
    """Deal sets whose plays are a mirror image of themselves: the (A, B) scores of its rotations are
    the (B, A) scores of its rotations (with identical partners, each team's score in one seating is
    the other's in the swapped seating), i.e. both sides made the same moves on those cards."""
    rots = int(rotation.max()) + 1 if rotation.size else 0
    if rots < 2 or a.size != rots * n:
        return 0
    a2, b2 = a.reshape(rots, n).astype(float).T, b.reshape(rots, n).astype(float).T  # (sets, rotations)
    z = np.sort(a2 + 1j * b2, axis=1)  # complex numbers sort by real part, then imaginary part
    w = np.sort(b2 + 1j * a2, axis=1)
    return int((z == w).all(axis=1).sum())


EDGES = {"deal score": SCORE_EDGES, "deal-set A - B": DIFF_EDGES, "game score": GAME_EDGES,
         "deal length (turns)": TURN_EDGES}


class DistributionsSection(Section):
    """A's and B's score per deal and per game, A - B per deal set and the deal length, binned."""

    key = "distributions"
    heading = "Score distributions"

    def start(self, col: Collected) -> Distributions:
        return Distributions(col.exp.rules.deals_per_game)

    def reduce(self, frame: pd.DataFrame, acc: Distributions) -> None:
        from sim.runner.frames import games_frame

        pairing = frame["pairing"].to_numpy(np.int64)
        a_total, b_total = frame["a_total"].to_numpy(), frame["b_total"].to_numpy()
        turns = frame["turns"].to_numpy()
        per_set, set_pairing = set_means(pairing, frame["deal"].to_numpy(np.int64), {
            "A_total": a_total.astype(np.float64), "B_total": b_total.astype(np.float64),  # B: a field's mean
            "turns": turns.astype(np.int64)})
        for p in np.unique(pairing):
            ps = per_set[set_pairing == p]
            add_moments(acc.turns.setdefault(int(p), [0.0, 0.0, 0.0]), ps["turns"].to_numpy(float))
            diffs = (ps["A_total"] - ps["B_total"]).to_numpy(float)
            add_hist(acc, ("deal-set A - B", int(p), "diff"), diffs, DIFF_EDGES)
            rows = pairing == p
            z = acc.zeros.setdefault(int(p), [0, 0, 0])
            z[0] += diffs.size
            z[1] += int((diffs == 0).sum())
            z[2] += _mirror_sets(frame["rotation"].to_numpy()[rows], a_total[rows], b_total[rows], diffs.size)
            add_hist(acc, ("deal score", int(p), "A"), a_total[rows], SCORE_EDGES)
            add_hist(acc, ("deal score", int(p), "B"), b_total[rows], SCORE_EDGES)
            add_hist(acc, ("deal length (turns)", int(p), ""), turns[rows], TURN_EDGES)
        if acc.deals_per_game == 1:  # a game is one deal (Indian Rummy): its score is the deal score above
            return
        games = games_frame(frame[["pairing", "rotation", "deal", "a", "b", "a_total", "b_total"]],
                            acc.deals_per_game)
        for p, g in games[games["complete"]].groupby("pairing", observed=True):
            add_hist(acc, ("game score", int(p), "A"), g["a_total"].to_numpy(), GAME_EDGES)
            add_hist(acc, ("game score", int(p), "B"), g["b_total"].to_numpy(), GAME_EDGES)

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


# --- end reasons and deal length ----------------------------------------------------------------------


class EndsSection(Section):
    """How deals end (the game's end reasons, Wilson intervals) and how long they last. Game sections
    that join it (``joins = "ends"``) are rendered after its table, their heading words added to its."""

    key = "ends"
    heading = "End reasons, deal length"

    def start(self, col: Collected) -> dict:
        schema = col.exp.game_spec.schema
        return {"names": list(schema.end_names), "column": schema.end_column, "counts": {}}

    def reduce(self, frame: pd.DataFrame, acc: dict) -> None:
        names = acc["names"]
        pairing = frame["pairing"].to_numpy(np.int64)
        codes = frame[acc["column"]].cat.codes.to_numpy()
        cats = list(frame[acc["column"]].cat.categories)
        for p in np.unique(pairing):
            rows = pairing == p
            ends = np.zeros(len(names), dtype=np.int64)
            for code, name in enumerate(cats):
                if name in names:
                    ends[names.index(name)] += int((codes[rows] == code).sum())
            add_counts(acc["counts"], int(p), ends)

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


GENERIC = (SummarySection(), DistributionsSection(), EndsSection())


def report_sections(game) -> list:
    """The sections of a report on ``game``: the generic ones, then the game's own
    (``game.report_sections()``), those joining a generic section included in the list too."""
    sections = [*GENERIC, *game.report_sections()]
    keys = [s.key for s in sections]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ValueError(f"report sections of {game.name}: duplicate keys {dup}")
    generic = {s.key for s in GENERIC}
    for s in sections:
        if getattr(s, "joins", "") and s.joins not in generic:
            raise ValueError(f"report section {s.key!r} joins {s.joins!r}, not a generic section")
    return sections


__all__ = ["Section", "SummarySection", "DistributionsSection", "EndsSection", "GENERIC", "report_sections",
           "shown_pairings", "pair_label", "match_label", "sweep_axes", "count_word",
           "SCORE_EDGES", "DIFF_EDGES", "GAME_EDGES", "TURN_EDGES"]
