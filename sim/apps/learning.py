"""What every game's expert iteration shares (issue 25; strategies/<game>/train.py): the rounds
(play, value, fit, evaluate against expert, save), the ranking fit of a move-scoring model, the
saved training state that ``--resume`` continues, the strategy registered for a round's weights,
the progress line, the report and the weights written as Python. Each game keeps its features,
its move values and which decisions it collects."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np
from numba import njit

from sim.plugin.registry import register_strategy
from sim.plugin.strategy import STRATEGY_SIG

EVAL_SEED_OFFSET = 1_000_003  # evaluation deals use seed + this + round: never a training deal
SEED_MASK = (1 << 63) - 1  # derived seeds stay in [0, 2**63 - 1]


def fit_ranking(data, base: np.ndarray, ridge: float, margin: float, kinds) -> np.ndarray:
    """Weights (decision kinds x features) fitted per kind in ``kinds`` by least squares with a
    ridge penalty of ``ridge`` per row, on ``data``: (kind, features of each move minus those of the
    base's move, value of each move minus the base's move's value) per decision. ``margin`` is added
    to feature 0's weight (the base's own move) of every fitted kind; any other kind, or one without
    data, keeps its row of ``base``."""
    w = np.array(base, dtype=np.float64)
    n_features = w.shape[1]
    for kind in kinds:
        xs = [x for d, x, _ in data if d == kind]
        if not xs:
            continue
        x = np.vstack(xs)
        y = np.concatenate([v for d, _, v in data if d == kind])
        a = x.T @ x + ridge * len(y) * np.eye(n_features)
        w[kind] = np.linalg.solve(a, x.T @ y)
        w[kind, 0] += margin
    return w


def progress_bar(done: int, total: int) -> None:
    """A one-line progress bar on stderr."""
    k = 30 * done // max(total, 1)
    sys.stderr.write(f"\r  [{'#' * k}{'.' * (30 - k)}] {done}/{total} deals")
    if done == total:
        sys.stderr.write("\n")


def start_state(out: Path, settings: dict, resume: bool) -> dict:
    """The training state: a new one, or with ``resume`` the one in ``out`` when its settings are
    ``settings`` (ValueError in one line otherwise; a folder already holding a training is never
    overwritten without ``resume``)."""
    state_file = out / "state.json"
    if not state_file.exists():
        return {**settings, "rounds": []}
    if not resume:
        raise ValueError(f"{out} holds a training already (state.json): --resume to continue it, or another --out")
    state = json.loads(state_file.read_text())
    other = [f"{k} {state.get(k)!r} (asked {v!r})" for k, v in settings.items() if state.get(k) != v]
    if other:
        raise ValueError(f"{state_file}: --resume with other settings than the training's: {', '.join(other)}")
    return state


def weights_text(w: np.ndarray) -> str:
    """``w`` as a ``WEIGHTS`` tuple for a game's learned_weights.py (exact: repr of floats)."""
    rows = ["    (" + ", ".join(repr(float(v)) for v in row) + ")," for row in np.asarray(w)]
    return "WEIGHTS = (\n" + "\n".join(rows) + "\n)"


def train_rounds(out: Path, settings: dict, resume: bool, rounds: int, start: np.ndarray,
                 collect: Callable, fit: Callable, make_strategy: Callable, evaluate: Callable,
                 report: Callable) -> dict:
    """Rounds of expert iteration into ``out`` (state.json, weights.npz and report.md after each):
    round r plays ``collect(policy, r)`` with expert (r = 0) or the last weights' strategy, fits
    ``fit(data)``, and ``evaluate(name, eval_seed)`` (a match summary: mean_diff, ci95) the fitted
    strategy against expert on deals no round trains on. ``resume`` continues the rounds in ``out``."""
    state = start_state(out, settings, resume)
    out.mkdir(parents=True, exist_ok=True)
    weights = np.array(state["rounds"][-1]["weights"]) if state["rounds"] else start.copy()
    for r in range(len(state["rounds"]), rounds):
        t0 = time.perf_counter()
        policy = "expert" if r == 0 else make_strategy(weights, f"learned_round{r}")
        data = collect(policy, r)
        weights = fit(data)
        name = make_strategy(weights, f"learned_fit{r + 1}")
        eval_seed = (settings["seed"] + EVAL_SEED_OFFSET + r) & SEED_MASK
        s = evaluate(name, eval_seed)
        state["rounds"].append({"round": r + 1, "decisions": len(data), "weights": weights.tolist(),
                                "vs_expert": s["mean_diff"], "ci95": list(s["ci95"]),
                                "eval_deal_sets": settings["eval_deals"], "eval_seed": eval_seed,
                                "seconds": time.perf_counter() - t0})
        (out / "state.json").write_text(json.dumps(state, indent=1))
        np.savez(out / "weights.npz", weights=weights)
        (out / "report.md").write_text(report(state))
    return state


def register_learned(weights: np.ndarray, name: str, game: str, best_scored, params: np.ndarray,
                     made: dict) -> str:
    """Register ``name``, a strategy of ``game`` that plays ``best_scored(decision, obs, moves, n,
    weights, params, rng)`` with these weights, and return its name; weights registered before in
    this process (``made``: their bytes -> name) return that name, so nothing compiles twice."""
    w = np.ascontiguousarray(weights, dtype=np.float64)
    if w.tobytes() in made:
        return made[w.tobytes()]

    @njit(STRATEGY_SIG)
    def learned_round(decision, obs, moves, n, p, rng):
        return best_scored(decision, obs, moves, n, w, params, rng)

    register_strategy(name, learned_round, doc="learned weights of a training round", game=game)
    made[w.tobytes()] = name
    return name


def report_text(state: dict, title: str, settings_line: str, vs: str, kind_names, feature_names,
                weights_home: str) -> str:
    """The training report: ``title``, ``settings_line``, strength against ``vs`` per round with its
    95% CI, what the last model weighs per feature and decision kind, and its weights as Python for
    ``weights_home`` (a game's learned_weights.WEIGHTS)."""
    lines = [f"# {title}", "", settings_line + ", kinds learned "
             + (", ".join(kind_names[k] for k in state["kinds"]) or "none"), "",
             f"| round | decisions fitted | learned - {vs} per deal | 95% CI | deal sets | seconds |",
             "|---|---|---|---|---|---|"]
    for r in state["rounds"]:
        lo, hi = r["ci95"]
        lines.append(f"| {r['round']} | {r['decisions']} | {r['vs_expert']:+.2f} | [{lo:+.2f}, {hi:+.2f}] | "
                     f"{r['eval_deal_sets']} | {r['seconds']:.0f} |")
    if state["rounds"]:
        w = np.array(state["rounds"][-1]["weights"])
        lines += ["", "What the last model weighs (points of value per unit of feature):", "",
                  "| feature | " + " | ".join(kind_names) + " |", "|---" * (len(kind_names) + 1) + "|"]
        for k, f in enumerate(feature_names):
            lines.append(f"| {f} | " + " | ".join(f"{w[j, k]:+.2f}" for j in range(len(kind_names))) + " |")
        lines += ["", f"As {weights_home}:", "", "```", weights_text(w), "```"]
    return "\n".join(lines) + "\n"
