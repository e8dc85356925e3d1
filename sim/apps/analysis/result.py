"""The answer to one decision analysis (any game): candidate rows, assumptions, chart, text.

``DecisionAnalysis.frame`` has one row per candidate (sim/apps/analysis/stats.py for the
columns), best first; ``to_json`` gives the same rows with the keys of
``stats.ROW_KEYS`` (plus the paired difference to the move played, flags and the
assumptions); ``figure`` draws every candidate's paired difference to the best with
its 95% CI; ``text`` is a short table for a terminal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim.apps.analysis.stats import ROW_KEYS


def _num(x):
    """JSON-safe number (NaN and infinities become None)."""
    if isinstance(x, (list, tuple)):
        return [_num(v) for v in x]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    x = float(x)
    return None if not math.isfinite(x) else round(x, 4)


@dataclass
class DecisionAnalysis:
    """One analysed decision.

    ``situation``: what was decided (game, deal, turn, seat, decision, the seat's view in
    words); ``assumptions``: policy, worlds, horizon, sampler and the race's rule;
    ``scores``: the raw (world x candidate) matrix behind the frame.
    """

    frame: pd.DataFrame
    situation: dict
    assumptions: dict
    scores: np.ndarray
    seconds: float
    stopped_early: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def best(self) -> pd.Series:
        return self.frame[self.frame["best"]].iloc[0]

    @property
    def played(self) -> pd.Series | None:
        p = self.frame[self.frame["played"]]
        return None if p.empty else p.iloc[0]

    @property
    def worlds(self) -> int:
        return int(self.frame["samples"].max())

    def rows(self) -> list[dict]:
        """The candidate rows as JSON-ready dicts (ROW_KEYS first)."""
        out = []
        extra_keys = ("diff_vs_played", "diff_vs_played_ci95", "played", "best", "dropped_after")
        for _, r in self.frame.iterrows():
            d = {k: (r[k] if k == "move" else _num(r[k])) for k in ROW_KEYS}
            for k in extra_keys:
                if k in r:
                    d[k] = _num(r[k])
            out.append(d)
        return out

    def to_json(self) -> dict:
        return {
            "situation": self.situation,
            "assumptions": self.assumptions,
            "rows": self.rows(),
            "worlds": self.worlds,
            "stopped_early": bool(self.stopped_early),
            "seconds": round(self.seconds, 3),
        }

    def display_frame(self, digits: int = 1) -> pd.DataFrame:
        """The frame for reading: CIs as "[low, high]" strings, numbers rounded."""
        f = self.frame
        cols = [c for c in ("move", "mean", "ci95", "diff_vs_best", "diff_vs_best_ci95", "diff_vs_played",
                            "diff_vs_played_ci95", "p_best", "samples", "played") if c in f]
        out = f[cols].copy()
        for c in cols:
            if c.endswith("ci95"):
                out[c] = [f"[{v[0]:.{digits}f}, {v[1]:.{digits}f}]" for v in f[c]]
            elif c in ("mean", "diff_vs_best", "diff_vs_played"):
                out[c] = f[c].round(digits)
        out["p_best"] = f["p_best"].round(3)
        return out

    def text(self) -> str:
        """A terminal table: move, mean, CI, difference to the best and to the played move."""
        lines = []
        f = self.frame
        has_played = "diff_vs_played" in f
        w = max(20, min(60, max(len(m) for m in f["move"]) + 2))
        head = f"   {'move':<{w}} {'mean':>7} {'95% CI':>17} {'vs best':>8} {'95% CI':>17}"
        if has_played:
            head += f" {'vs played':>9} {'95% CI':>17}"
        head += f" {'P(best)':>7} {'worlds':>6}"
        lines.append(head)

        def ci(v):
            return f"[{v[0]:7.1f},{v[1]:7.1f}]" if v[0] == v[0] else f"{'-':>17}"

        for _, r in f.iterrows():
            tag = ("*" if r["played"] else " ") + ("b" if r["best"] else " ")
            line = (f"{tag} {r['move'][:w]:<{w}} {r['mean']:7.1f} {ci(r['ci95']):>17} {r['diff_vs_best']:8.1f} "
                    f"{ci(r['diff_vs_best_ci95']):>17}")
            if has_played:
                line += f" {r['diff_vs_played']:9.1f} {ci(r['diff_vs_played_ci95']):>17}"
            line += f" {r['p_best']:7.3f} {int(r['samples']):>6}"
            lines.append(line)
        lines.append("(* the move played, b the best; differences are paired, over the worlds both moves saw)")
        return "\n".join(lines)

    def figure(self, title: str | None = None, max_rows: int = 20):
        """Each candidate's paired difference to the best (points, 95% CI), best at the top."""
        from sim.present import charts

        f = self.frame.head(max_rows)
        labels = [r["move"] + (" (played)" if r["played"] else "") for _, r in f.iterrows()]
        lo = [v[0] for v in f["diff_vs_best_ci95"]]
        hi = [v[1] for v in f["diff_vs_best_ci95"]]
        fig, ax = charts.figure(height=0.9 + 0.38 * len(f))
        charts.forest(ax, labels, f["diff_vs_best"].to_numpy(), lo, hi,
                      xlabel="points vs the best candidate (own team - other team), paired 95% CI")
        ax.set_title(title or self.situation.get("title", "Decision analysis"))
        return fig
