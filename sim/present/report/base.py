"""What every report section shares, generic or a game's: the protocol's do-nothing defaults
(:class:`Section`) and the labels, pairings and sentences sections use.

A section is an object with (sim.plugin.game.Game.report_sections documents the protocol):
``key`` (``collected.parts[key]`` holds its accumulator), ``heading`` (the ``##`` heading it
opens, or with ``joins`` the words it adds to the heading of the generic section it joins),
``joins``, ``start(collected) -> acc``, ``reduce(frame, acc)`` per chunk of per-play rows and
``render(doc, collected, out_dir)``. The accumulating half of the generic sections lives below
the runner (sim.runner.sums), so that a ``--keep summary`` run keeps the same sums.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.intervals import ci
from sim.present.report.document import Doc
from sim.runner.sums import Collected

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


__all__ = ["Section", "shown_pairings", "pair_label", "match_label", "sweep_axes", "count_word", "variance_sentence",
           "sprt_caveat"]
