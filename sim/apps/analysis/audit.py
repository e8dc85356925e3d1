"""A strategy's audit, for any game: one row per analysed decision, breakdowns by a feature, a report.

A game's audit (``Game.decisions.audit``) plays deals, collects the audited strategy's
decisions of one kind with their features (what the deciding seat sees, in words a player
uses), analyses a random sample of them (its ``analyze``: every candidate in the same
worlds) and turns each analysis into a row with :func:`audit_row`: the move chosen, the
best, whether they agree, the points lost (best mean minus the chosen move's, with the
paired 95% CI) and whether the choice was significantly worse. Everything below is about
those rows and knows no game: :class:`Audit` and its summary, :func:`summarize` (by the
bins of one feature), :func:`audit_figure` and :func:`write_report` (report.md, CSVs, a
chart), which a game calls with its features, bins and the sentences only it can write.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from sim.core.intervals import mean_ci, wilson_interval

#: feature -> (bin edges, labels) for ``pd.cut``; a feature without bins is grouped by value
Bins = dict[str, tuple[list[float], list[str]]]


@dataclass
class Audit:
    """One audit: a row per analysed decision (``frame``) and how it was made (``setup``)."""

    frame: pd.DataFrame
    setup: dict
    found: int  # decisions of the kind found in the deals played
    seconds: float
    analyses: list = field(default_factory=list)

    def summary(self) -> dict:
        """Decisions analysed, the share where the choice was the best (Wilson 95% CI), the mean
        points lost (t 95% CI), the share significantly worse than the best."""
        f = self.frame
        n = len(f)
        if n == 0:
            return {"decisions": 0}
        best = int(f["chose_best"].sum())
        lo, hi = wilson_interval(best, n)
        m, llo, lhi = mean_ci(f["loss"].to_numpy())
        return {"decisions": n, "found": self.found, "chose_best": best / n, "chose_best_ci95": [lo, hi],
                "mean_loss": m, "mean_loss_ci95": [llo, lhi],
                "significantly_worse": float(f["significantly_worse"].mean())}


def sample_indices(found: int, sample: int, seed: int) -> list[int]:
    """Which of ``found`` decisions an audit analyses: ``sample`` of them at random (seeded), in order."""
    if not found:
        return []
    return sorted(int(i) for i in np.random.default_rng(seed).choice(found, size=min(sample, found), replace=False))


def audit_row(dec, a) -> dict:
    """The game-agnostic columns of one analysed decision ``dec`` (its ``deal``, ``turn``, ``seat``)
    from its analysis ``a`` (sim.apps.analysis.result.DecisionAnalysis, the move played known)."""
    played, best = a.played, a.best
    lo, hi = played["diff_vs_best_ci95"]
    return {"deal": dec.deal, "turn": dec.turn, "seat": dec.seat, "played": played["move"], "best": best["move"],
            "chose_best": bool(played["best"]), "loss": -float(played["diff_vs_best"]),
            "loss_ci95_low": -hi if hi == hi else math.nan, "loss_ci95_high": -lo if lo == lo else math.nan,
            "significantly_worse": bool(hi == hi and hi < 0), "p_best_played": float(played["p_best"]),
            "worlds": a.worlds}


def summarize(frame: pd.DataFrame, feature: str, bins: Bins | None = None) -> pd.DataFrame:
    """Per bin of ``feature`` (``bins[feature]`` for a numeric one, else by value): decisions, the share
    where the choice was the best (Wilson 95% CI), the mean points lost (t 95% CI), the share
    significantly worse than the best."""
    if frame.empty:
        return pd.DataFrame()
    col = frame[feature]
    bins = bins or {}
    if feature in bins and pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col):
        edges, labels = bins[feature]
        key = pd.cut(col, edges, labels=labels)
    else:
        key = col.astype(str)
    out = []
    for k, g in frame.groupby(key, observed=True):
        n = len(g)
        b = int(g["chose_best"].sum())
        lo, hi = wilson_interval(b, n)
        m, llo, lhi = mean_ci(g["loss"].to_numpy())
        out.append({feature: str(k), "decisions": n, "chose_best": b / n, "chose_best_low": lo,
                    "chose_best_high": hi, "mean_loss": m, "loss_low": llo, "loss_high": lhi,
                    "significantly_worse": float(g["significantly_worse"].mean())})
    return pd.DataFrame(out)


def audit_figure(a: Audit, features: Sequence[str], bins: Bins | None = None):
    """Mean points lost per decision (95% CI) by each feature's bins, one panel per feature."""
    from sim.present import charts

    feats = list(features)
    fig, axes = charts.figure(1, len(feats), height=3.6, width=3.2 * len(feats))
    axes = np.atleast_1d(axes)
    for ax, feat in zip(axes, feats):
        t = summarize(a.frame, feat, bins)
        if t.empty:
            continue
        x = np.arange(len(t))
        charts.errorbars(ax, x, t["mean_loss"], t["loss_low"], t["loss_high"])
        long = max(len(str(v)) for v in t[feat]) > 6
        ax.set_xticks(x, [f"{v}\n(n={n})" for v, n in zip(t[feat], t["decisions"])], rotation=30 if long else 0,
                      ha="right" if long else "center")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_title(feat)
    axes[0].set_ylabel("points lost per decision")
    fig.suptitle(f"{a.setup['strategy']}: points lost at its {a.setup['kind']} decisions vs the best (95% CI)",
                 y=1.04)
    return fig


def summary_sentence(s: dict) -> str:
    """The summary of an audit in one sentence (its report's first finding)."""
    cb, lo, hi = s["chose_best"], *s["chose_best_ci95"]
    m, mlo, mhi = s["mean_loss"], *s["mean_loss_ci95"]
    return (f"The strategy's choice was the best candidate in {cb:.0%} of the analysed decisions "
            f"(95% CI {lo:.0%} to {hi:.0%}); it lost {m:.2f} points per decision on average "
            f"(95% CI {mlo:.2f} to {mhi:.2f}); in {s['significantly_worse']:.0%} of them its choice was "
            "significantly worse than the best (paired 95% CI below 0).")


def write_report(a: Audit, out_dir, features: Sequence[str], bins: Bins | None,
                 direction: Callable[[Audit], str], assumptions: str) -> list:
    """report.md, decisions.csv, one breakdown CSV per feature, summary.json and audit.png in
    ``out_dir``; ``direction(a)`` says which way the best move lay when the choice was not the best,
    ``assumptions`` what the numbers rest on (both the game's words)."""
    from sim.present import charts

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    a.frame.to_csv(out / "decisions.csv", index=False)
    files = [out / "decisions.csv"]
    s = a.summary()
    lines = [f"# Audit of `{a.setup['strategy']}`: {a.setup['kind']} decisions", ""]
    if a.setup.get("command"):  # the command line that repeats it (reports/COMMANDS.toml states the same)
        lines += ["## How it was made", "", "```", a.setup["command"], "```", ""]
    lines += [f"- {k}: {v}" for k, v in a.setup.items() if k != "command"]
    lines += [f"- decisions of this kind found: {a.found}; analysed: {len(a.frame)}",
              f"- run time: {a.seconds:.1f} s", ""]
    if len(a.frame):
        lines += [summary_sentence(s), "", direction(a), ""]
        charts.save(audit_figure(a, features, bins), out / "audit.png")
        files.append(out / "audit.png")
        lines += ["![points lost by feature](audit.png)", ""]
        for feat in features:
            t = summarize(a.frame, feat, bins)
            t.to_csv(out / f"by_{feat}.csv", index=False)
            files.append(out / f"by_{feat}.csv")
            lines += [f"## By {feat}", "", md_table(t), ""]
        worst = a.frame.sort_values("loss", ascending=False).head(10)
        lines += ["## Largest losses", "", md_table(worst[["deal", "turn", "seat", "played", "best", "loss",
                                                            "loss_ci95_low", "loss_ci95_high"]]), ""]
    lines += [f"Assumptions: {assumptions}"]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    files.append(out / "report.md")
    (out / "summary.json").write_text(json.dumps({"setup": a.setup, "summary": s}, indent=2, default=float) + "\n")
    files.append(out / "summary.json")
    return files


def md_table(t: pd.DataFrame) -> str:
    """A frame as a Markdown table (floats to 3 significant digits)."""
    if t.empty:
        return "(no decisions)"
    cols = list(t.columns)
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, r in t.iterrows():
        out.append("| " + " | ".join(f"{r[c]:.3g}" if isinstance(r[c], float) else str(r[c]) for c in cols) + " |")
    return "\n".join(out)
