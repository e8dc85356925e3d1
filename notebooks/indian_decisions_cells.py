"""Helpers of notebook 09_indian_decisions (notebooks/build_indian_decisions.py): finding the decisions
it analyses in engine deals and turning the results into its Answer's sentences.

Kept out of the cells so that tests/indian/test_notebook_decisions.py can check them on a few deals
without executing the notebook.
"""

from __future__ import annotations

import pandas as pd

from sim.games.indian import enums as E
from sim.games.indian.audit import FEATURES
from sim.games.indian.decisions import decisions_in


def _first(logs, want: str, fallback: str):
    """The first unforced draw decision whose move played is labelled ``want`` (else the first whose
    legal moves include ``fallback``)."""
    spare = None
    for log in logs:
        for dec in decisions_in(log, [E.D_DRAW]):
            labels = dec.labels()
            if labels[dec.played].startswith(want):
                return dec
            if spare is None and any(lab.startswith(fallback) for lab in labels):
                spare = dec
    if spare is None:
        raise ValueError(f"no draw decision with a {fallback!r} move in {len(logs)} deals")
    return spare


def find_drop(logs):
    """The first decision at which a seat dropped (I7), else the first draw decision a drop was legal."""
    return _first(logs, "drop", "drop")


def find_pickup(logs):
    """The first decision at which a seat took the top discard (I3), else the first where it could."""
    return _first(logs, "take ", "take ")


def late_discard(logs, mod, phase: str, frac: float = 1 / 3):
    """A ``phase`` decision about ``frac`` into the first deal that has one (``mod``: the game's
    decisions module): several choices of the other seats to read, not so many that the weights
    collapse (each choice the policy would not have made divides a world's weight by ~n / e)."""
    for log in logs:
        n = sum(1 for t in log["turns"] if "reshuffle" not in t)
        for t in range(max(1, int(frac * n)), 0, -1):
            try:
                return mod.decision_from_log(log, t, phase)
            except mod.AnalysisInputError:
                continue
    raise ValueError(f"no {phase} decision in {len(logs)} deals")


def _ci(lo: float, hi: float) -> str:
    return f"{lo:+.1f} to {hi:+.1f}"


def verdict(a, what: str) -> str:
    """One sentence: was the move played the best, and by how much (paired 95% CI)."""
    f, b, p = a.frame, a.best, a.played
    if p is None:
        return f"{what}: the best move is {b['move']} ({b['mean']:+.1f} points)."
    if p["best"]:
        others = f[~f["best"]].sort_values("diff_vs_best", ascending=False)
        if others.empty:
            return f"{what}: only one move was compared."
        r = others.iloc[0]
        lo, hi = r["diff_vs_best_ci95"]
        return (f"{what}: the move played ({p['move']}) was the best, {p['mean']:+.1f} points on average; the next "
                f"best ({r['move']}) is {-r['diff_vs_best']:.1f} points worse (95% CI {_ci(-hi, -lo)}), "
                + ("significantly." if hi < 0 else "not significantly at this number of worlds."))
    lo, hi = p["diff_vs_best_ci95"]
    return (f"{what}: the best move was {b['move']} ({b['mean']:+.1f} points, P(best) {b['p_best']:.2f}); the move "
            f"played ({p['move']}) was {-p['diff_vs_best']:.1f} points worse (95% CI {_ci(-hi, -lo)}), "
            + ("significantly." if hi < 0 else "not significantly at this number of worlds."))


def losing_bins(au, kind: str, summarize, min_n: int = 5) -> str:
    """The feature bins (at least ``min_n`` decisions) where the audited choices lose points
    significantly (the loss CI above 0), worst first; or a sentence saying there is none."""
    hits = []
    for feat in FEATURES[kind]:
        t = summarize(au.frame, feat)
        if t.empty:
            continue
        for _, r in t[(t["decisions"] >= min_n) & (t["loss_low"] > 0)].iterrows():
            hits.append((r["mean_loss"], f"{feat} = {r[feat]} ({r['mean_loss']:.1f} points per decision, 95% CI "
                                         f"{r['loss_low']:.1f} to {r['loss_high']:.1f}, n = {int(r['decisions'])})"))
    if not hits:
        return f"No feature bin of its {kind} decisions shows a loss distinguishable from 0 at this sample size."
    return f"Its {kind} decisions lose significantly when " + "; when ".join(h for _, h in sorted(hits)[::-1][:4]) + "."


def infer_effect(mod, dec, worlds: int, policy: str, seed: int) -> dict:
    """The decision ``dec`` analysed on the same ``worlds`` worlds without and with ``infer=policy``
    (race off in both): the two tables side by side and sentences saying what changed."""
    kw = dict(samples=worlds, policy=policy, seed=seed, racing=False)
    off = mod.analyze(dec, **kw)
    try:
        on = mod.analyze(dec, infer=policy, **kw)
    except mod.AnalysisInputError as e:
        return {"off": off, "on": None, "table": None, "text": str(e),
                "answer": f"the inference failed ({e}); only the uniform answer stands: best {off.best['move']}."}
    cols = ["move", "mean", "ci95"]
    table = off.frame[cols].merge(on.frame[cols], on="move", suffixes=("_uniform", "_inferred"))
    table["change"] = table["mean_inferred"] - table["mean_uniform"]
    table = table.sort_values("mean_inferred", ascending=False).reset_index(drop=True)
    inf = on.assumptions["inference"]
    bo, bi = off.best, on.best
    lo, hi = bi["ci95"]
    same = bo["move"] == bi["move"]
    ulo, uhi = bo["ci95"]
    answer = (f"ESS {inf['ess']:.1f} of {worlds} worlds from {inf['choices']} recorded choices; "
              + (f"the best move is unchanged ({bi['move']}): " if same else
                 f"the best move changes from {bo['move']} (uniform) to {bi['move']} (inferred): ")
              + f"{bo['mean']:+.1f} points (95% CI {ulo:+.1f} to {uhi:+.1f}) for the uniform best with uniform worlds, "
              f"{bi['mean']:+.1f} (95% CI {lo:+.1f} to {hi:+.1f}) for the inferred best with the weights; the largest "
              f"change of any move's mean is {table['change'].abs().max():.1f} points.")
    return {"off": off, "on": on, "table": pd.DataFrame(table), "text": on.assumptions["worlds_are"],
            "answer": answer}
