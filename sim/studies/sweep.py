"""A parameter sweep: every grid point of one strategy against a fixed opponent.

All points play the same deal indices, so besides each point's difference against
the opponent (Holm-adjusted over the points) the table compares each point with the
best one directly, as a paired per-deal-set difference (``vs_best``), which is far
more precise than comparing two separate intervals.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from sim import experiment as X
from sim.core import stats
from sim.core.fmt import json_ready, num, pct, short_p
from sim.core.intervals import ci, ci_text
from sim.runner.results import ExperimentResult
from sim.runner.run import run_experiment
from sim.studies.by_players import play_by_players, run_of, size_columns_lines
from sim.studies.match import experiment_options, won_words


@dataclass
class SweepResult:
    run: ExperimentResult

    @property
    def table(self) -> pd.DataFrame:
        return sweep_table(self.run)


def play_sweep(base: str, vary: Sequence[tuple[str, Sequence]] | dict, vs: str, deals: int, seed: int = 0,
               rules=None, threads: int | None = None, *, chunk: int = 0, margin: float = 1.0,
               first_deal: int = 0, keep_plays: bool = False, game: str | None = None,
               players: int | None = None, seating: str | None = None, **run_options) -> SweepResult:
    """``vary`` maps parameter names to lists of values, e.g. {"max_extra": [0, 30, 60]}; ``seating``:
    the game's named seating (Indian Rummy: field or half)."""
    grid = list(vary.items()) if isinstance(vary, dict) else list(vary)
    exp = X.sweep(base, grid, vs, deals, seed, **experiment_options(rules, chunk, None, margin, first_deal, game,
                                                                    players, seating))
    return SweepResult(run_experiment(exp, threads=threads, keep_plays=keep_plays, **run_options))


def sweep_table(run: ExperimentResult) -> pd.DataFrame:
    """One row per grid point: its parameter values, the match statistics against the
    opponent, and the paired difference to the best point (vs_best, CI, Holm p)."""
    exp = run.experiment
    keys = [k for k, _ in exp.vary]
    points = [dict(zip(keys, combo)) for combo in _grid(exp)]
    s = run.summary.copy()
    params = pd.DataFrame(points, index=s.index)
    k = len(exp.pairings)
    best = int(s["mean_diff"].fillna(-math.inf).to_numpy().argmax())
    vs = {"vs_best": [], "vs_best_ci_low": [], "vs_best_ci_high": [], "vs_best_p": []}
    for i in range(k):
        if i == best:
            for key in vs:
                vs[key].append(math.nan)
            continue
        w = np.zeros(k)
        w[i], w[best] = 1.0, -1.0
        c = run.totals.contrast(w)
        vs["vs_best"].append(c["mean_diff"])
        vs["vs_best_ci_low"].append(c["ci_low"])
        vs["vs_best_ci_high"].append(c["ci_high"])
        vs["vs_best_p"].append(c["p_value"])
    raw = [p for p in vs["vs_best_p"] if not math.isnan(p)]
    adj = iter(stats.holm_adjust(raw)) if raw else iter(())
    vs["vs_best_p_holm"] = [math.nan if math.isnan(p) else next(adj) for p in vs["vs_best_p"]]
    out = pd.concat([params, s.drop(columns=["pairing", "b"]).rename(columns={"a": "spec"})], axis=1)
    for key, values in vs.items():
        out[key] = values
    out.insert(len(keys) + 1, "opponent", s["b"])
    out["best"] = np.arange(k) == best
    return out


def _grid(exp: X.Experiment) -> list[tuple[str, ...]]:
    return list(itertools.product(*[values for _, values in exp.vary]))


def format_sweep(result: SweepResult | ExperimentResult) -> str:
    run = result.run if isinstance(result, SweepResult) else result
    exp = run.experiment
    t = sweep_table(run)
    keys = [k for k, _ in exp.vary]
    n = run.totals.deals
    lines = [f"sweep of {', '.join(keys)} against {t['opponent'].iloc[0]}, seed {exp.seed}: {n:,} deal sets per "
             f"point, {len(t)} points, {int(run.summary['plays'].sum()):,} plays"]
    if run.stopped_by == "interrupt":
        lines[0] += f"  [INTERRUPTED: {n:,} of {exp.deals:,} deals]"
    lines.append("A - B vs the opponent and vs the best point: points per deal, paired 95% CI, Holm-adjusted p")
    vw = {k: max(len(k), *(len(str(v)) for v in t[k])) for k in keys}
    head = "  " + "  ".join(f"{k:>{vw[k]}}" for k in keys)
    won = won_words(exp)[0]  # what the outcome share counts (a game, a deal, a play beating B's mean)
    head += f"  {'A - B':>8}  {'95% CI':>17}  {'p holm':>8}  {won:>6}  {'vs best':>8}  {'95% CI':>17}  {'p holm':>8}"
    lines.append(head)
    for _, r in t.iterrows():
        cells = "  " + "  ".join(f"{str(r[k]):>{vw[k]}}" for k in keys)
        cells += (f"  {num(r['mean_diff'], '+.2f'):>8}  {ci_text(r['ci_low'], r['ci_high']):>17}  "
                  f"{short_p(r['p_holm']):>8}  {pct(r['game_win_rate']):>6}  ")
        if r["best"]:
            cells += f"{'best':>8}"
        else:
            cells += (f"{num(r['vs_best'], '+.2f'):>8}  {ci_text(r['vs_best_ci_low'], r['vs_best_ci_high']):>17}"
                      f"  {short_p(r['vs_best_p_holm']):>8}")
        lines.append(cells.rstrip())
    return "\n".join(lines)


def sweep_json(run: ExperimentResult) -> dict:
    return json_ready({
        "kind": "sweep", "seed": run.experiment.seed, "deals": run.experiment.deals, "deal_sets": run.totals.deals,
        "vary": {k: list(v) for k, v in run.experiment.vary}, "stopped_by": run.stopped_by,
        "points": sweep_table(run).to_dict(orient="records"),
        "experiment_hash": run.experiment.digest(),
        "out": None if run.out is None else str(run.out),
    })


# --- one sweep per table size (``rummy-sim sweep --players 2,4,6``) --------------------------------


def play_sweep_by_players(base: str, vary, vs: str, players, deals: int, seed: int = 0, *, out: str | None = None,
                          **options) -> list[SweepResult]:
    """The sweep of :func:`play_sweep` once per table size in ``players`` (``(2, 4, 6)``, ``"2,4,6"``
    or ``"2-6"``), each on the same seed and deal indices, in the order given. ``out``, if given, must
    contain ``{players}`` (one results file per size). :func:`by_players_table` and
    :func:`format_by_players` put them side by side."""
    return play_by_players(lambda n, o: play_sweep(base, vary, vs, deals, seed, players=n, out=o, **options),
                           players, out, "s-{players}p.parquet")


def by_players_table(results) -> pd.DataFrame:
    """One row per (table size, grid point) of several sweeps of the same grid: the point's A - B
    against the opponent with its paired CI, whether it is the size's best point and its paired
    difference to that best point (CI, Holm-adjusted p); and the game's own columns
    (Game.size_columns; Indian Rummy: A's and B's net points per deal, per seat, with their CIs)."""
    rows = []
    for res in results:
        run = run_of(res)
        t = sweep_table(run)
        keys = [k for k, _ in run.experiment.vary]
        extra = run.experiment.game_spec.size_columns(list(t.columns), "sweep")
        for _, r in t.iterrows():
            row = {"players": run.experiment.players, **{k: r[k] for k in keys}, "spec": r["spec"],
                   "opponent": r["opponent"], "deal_sets": int(r["deal_sets"]), "a_minus_b": r["mean_diff"],
                   "a_minus_b_ci_low": r["ci_low"], "a_minus_b_ci_high": r["ci_high"], "p_holm": r["p_holm"],
                   "best": bool(r["best"]), "vs_best": r["vs_best"], "vs_best_ci_low": r["vs_best_ci_low"],
                   "vs_best_ci_high": r["vs_best_ci_high"], "vs_best_p_holm": r["vs_best_p_holm"]}
            row.update({c: r[c] for c in extra})
            row["stopped_by"] = run.stopped_by
            rows.append(row)
    return pd.DataFrame(rows)


def by_players_json(results) -> dict:
    """``rummy-sim sweep --players 2,4,6 --json``: every size's sweep object (as for one size) in
    ``sweeps``, in the order played; the sizes in ``players``; the rows of :func:`by_players_table`
    in ``by_players``."""
    runs = [run_of(r) for r in results]
    return json_ready({"kind": "sweep_by_players", "game": runs[0].experiment.game,
                       "vary": {k: list(v) for k, v in runs[0].experiment.vary},
                       "players": [r.experiment.players for r in runs],
                       "by_players": by_players_table(runs).to_dict(orient="records"),
                       "sweeps": [sweep_json(r) for r in runs]})


def format_by_players(results) -> str:
    """The table ``rummy-sim sweep --players 2,4,6`` prints after the sweeps: a row per grid point,
    a column per table size with its A - B against the opponent [95% CI] (``best``: that size's
    best point)."""
    t = by_players_table(results)
    if t.empty:
        return ""
    keys = [k for k, _ in run_of(results[0]).experiment.vary]
    points = list(dict.fromkeys(tuple(str(v) for v in r) for r in t[keys].itertuples(index=False)))
    cells = {}
    for _, r in t.iterrows():
        cells[(r["players"], tuple(str(r[k]) for k in keys))] = (
            ci(r["a_minus_b"], r["a_minus_b_ci_low"], r["a_minus_b_ci_high"]) + (" best" if r["best"] else ""))
    lines = [f"A - B against {t['opponent'].iloc[0]} by table size (points per deal, paired 95% CI; best: the "
             "size's best point)"]
    lines += size_columns_lines(t, keys, [">"] * len(keys), points, cells)
    return "\n".join(lines)
