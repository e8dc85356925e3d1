"""What every game's expert iteration shares (issue 25; strategies/<game>/train.py): the ranking fit
of a move-scoring model, the saved training state that ``--resume`` continues, the progress line
and the weights written as Python. Each game keeps its features, its move values and its report."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np


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
