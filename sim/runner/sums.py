"""What a chunk of per-play rows leaves for the report: bounded sums that merge exactly.

A report (``rummy-sim report``, sim.present.report) reads tens of millions of plays one chunk
at a time, and a ``--keep summary`` run (sim.runner.keep) stores, per chunk, the same sums
instead of the rows. Both reduce a chunk with the *sums* of the report's sections (protocol:
sim.plugin.game.Game.report_sections): an object with ``key``, ``start(collected) -> acc``
(``collected``: the :class:`Collected` being filled) and ``reduce(frame, acc)``; the
rendering half of a section is the presenting layer's. Defined here, below the runner, so that
the runner keeps them without importing the report:

* the generic sums every game has: :class:`SummarySums` (none: the summary comes from the
  run's statistics), :class:`DistributionSums` (scores, A - B per deal set, deal length,
  binned with exact moments), :class:`EndSums` (end reasons per pairing);
* :func:`report_sums` - those and the game's own sections (``Game.report_sections()``);
* :class:`Collected` - the run's statistics and every section's accumulator (what a report
  reads, filled by sim.runner.collect.collect); :func:`chunk_parts` - every sum of one chunk
  alone (a ``--keep summary`` chunk); :func:`merge_parts` / :func:`merge_acc` - adding a later
  chunk's sums;
* helpers for the sections' ``reduce``: :func:`hist`, :func:`add_counts`, :func:`add_hist`,
  :func:`add_moments`, :func:`set_means`.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.experiment import Experiment
from sim.runner.aggregate import Totals
from sim.runner.frames import games_frame
from sim.runner.results import ExperimentResult

SCORE_EDGES = np.arange(-400, 1001, 10)
DIFF_EDGES = np.arange(-700, 701, 10)
GAME_EDGES = np.arange(-800, 1801, 20)
TURN_EDGES = np.arange(0, 201, 2)
EDGES = {"deal score": SCORE_EDGES, "deal-set A - B": DIFF_EDGES, "game score": GAME_EDGES,
         "deal length (turns)": TURN_EDGES}


# --- helpers for the sections' reduce ------------------------------------------------------------


def hist(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Counts per bin, values outside the edges clipped into the end bins (nothing hidden)."""
    v = np.clip(np.asarray(values, dtype=float), edges[0], edges[-1] - 1e-9)
    return np.histogram(v, bins=edges)[0].astype(np.int64)


def add_counts(store: dict, key, counts: np.ndarray) -> None:
    """``store[key] += counts`` (a copy of ``counts`` the first time)."""
    if key in store:
        store[key] += counts
    else:
        store[key] = counts.copy()


def set_means(pairing: np.ndarray, deal: np.ndarray, columns: dict) -> tuple[pd.DataFrame, np.ndarray]:
    """Per deal set (pairing, deal index) the mean over its rotations of every column of
    ``columns`` (name -> per-play values), and each set's pairing."""
    per_set = pd.DataFrame({"pairing": pairing, "deal": deal, **columns}).groupby(
        ["pairing", "deal"], sort=False).mean()
    return per_set, per_set.index.get_level_values("pairing").to_numpy()


def add_hist(acc, key, values: np.ndarray, edges: np.ndarray) -> None:
    """Binned counts of ``values`` in ``acc.hists[key]`` and their exact moments [n, sum, sum of
    squares] in ``acc.moments[key]``: tables give exact means and sds, figures the bins."""
    add_counts(acc.hists, key, hist(values, edges))
    add_moments(acc.moments.setdefault(key, [0.0, 0.0, 0.0]), np.asarray(values, dtype=np.float64))


def add_moments(acc: list, x: np.ndarray) -> None:
    """``acc = [n, sum, sum of squares]`` (over the rows of ``x``) updated with ``x``."""
    acc[0] += float(x.shape[0])
    acc[1] += x.sum(axis=0)
    acc[2] += (x * x).sum(axis=0)


# --- the generic sums -------------------------------------------------------------------------------


class SummarySums:
    """The summary keeps no sums of its own: it reads the run's statistics (sim.runner.aggregate)."""

    key = "summary"

    def start(self, col):
        return None

    def reduce(self, frame: pd.DataFrame, acc) -> None:
        pass


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


class DistributionSums:
    """A's and B's score per deal and per game, A - B per deal set and the deal length, binned."""

    key = "distributions"

    def start(self, col) -> Distributions:
        return Distributions(col.exp.rules.deals_per_game)

    def reduce(self, frame: pd.DataFrame, acc: Distributions) -> None:
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


class EndSums:
    """How deals end: plays per end reason (the game's schema) and pairing."""

    key = "ends"

    def start(self, col) -> dict:
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


GENERIC_SUMS = (SummarySums(), DistributionSums(), EndSums())


def report_sums(game) -> list:
    """The sums a report on ``game`` reads: the generic ones, then the game's own sections."""
    return [*GENERIC_SUMS, *game.report_sections()]


# --- what is collected: the run's statistics and every section's sums ------------------------------


@dataclass
class Collected:
    """Everything a report needs, reduced from the per-play rows chunk by chunk.

    ``sections`` are the report's sections in order (generic and the game's);
    ``parts`` maps each section's ``key`` to the accumulator its ``reduce`` filled.
    """

    path: Path
    meta: dict
    exp: Experiment
    totals: Totals
    summary: pd.DataFrame
    sections: list = field(default_factory=list)
    parts: dict = field(default_factory=dict)
    deals: int = 0
    read_seconds: float = 0.0

    @property
    def result(self) -> ExperimentResult:
        return ExperimentResult(self.exp, self.totals, self.summary, self.meta, None, self.path,
                                self.meta.get("stopped_by", "deals"), self.meta.get("sprt"))

    def part(self, key: str):
        """The accumulator of the section called ``key``."""
        return self.parts[key]


def start_collected(exp: Experiment, meta: dict | None = None, sections: list | None = None,
                    path: Path | None = None) -> Collected:
    """An empty Collected of ``exp`` with every section's accumulator started (``sections``
    default: sim.runner.sums.report_sums of its game)."""
    if sections is None:
        sections = report_sums(exp.game_spec)
    col = Collected(path, meta or {}, exp, Totals(exp), pd.DataFrame(), list(sections))
    col.parts = {s.key: s.start(col) for s in col.sections}
    return col


def chunk_parts(exp: Experiment, frame: pd.DataFrame, sections: list | None = None) -> dict:
    """Every report section's accumulator of one chunk's per-play rows alone (section key -> acc)."""
    col = start_collected(exp, sections=sections)
    for s in col.sections:
        s.reduce(frame, col.parts[s.key])
    return col.parts


# --- merging the sums of later chunks -------------------------------------------------------------------


def merge_parts(sections: list, parts: dict, other: dict) -> None:
    """Add the accumulators ``other`` (of later chunks) into ``parts``, section by section: a
    section's own ``merge(acc, other)`` if it has one, else :func:`merge_acc`."""
    for s in sections:
        merge = getattr(s, "merge", None)
        if merge is not None:
            merge(parts[s.key], other[s.key])
        else:
            parts[s.key] = merge_acc(parts[s.key], other[s.key], where=s.key)


def merge_acc(a, b, where: str = "", top: bool = True):
    """``a`` + ``b`` for accumulators built of sums: arrays and numbers inside them add, dicts
    merge key by key, lists and tuples element by element, dataclasses field by field. Numbers
    that are a dataclass's own fields (e.g. ``deals_per_game``), and strings, booleans and None
    anywhere, are settings, not sums: they must be equal."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        if type(a) is not type(b):
            raise ValueError(f"{where}: cannot merge a {type(a).__name__} with a {type(b).__name__}")
        for f in dataclasses.fields(a):
            setattr(a, f.name, merge_acc(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}", True))
        return a
    if isinstance(a, dict):
        for k, v in b.items():
            a[k] = merge_acc(a[k], v, f"{where}[{k!r}]", False) if k in a else _copy(v)
        return a
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            raise ValueError(f"{where}: lengths {len(a)} and {len(b)} differ")
        out = [merge_acc(x, y, f"{where}[{i}]", False) for i, (x, y) in enumerate(zip(a, b))]
        return out if isinstance(a, list) else tuple(out)
    if isinstance(a, np.ndarray):
        return a + b
    if isinstance(a, (str, bool, np.bool_)) or a is None or top:
        if not (a == b or (isinstance(a, float) and a != a and b != b)):
            raise ValueError(f"{where}: setting {a!r} in one chunk and {b!r} in another")
        return a
    return a + b


def _copy(v):
    return copy.deepcopy(v)


__all__ = ["Collected", "start_collected", "chunk_parts", "SummarySums", "DistributionSums", "EndSums", "Distributions", "GENERIC_SUMS", "report_sums",
           "merge_parts", "merge_acc", "hist", "add_counts", "add_hist", "set_means", "add_moments",
           "SCORE_EDGES", "DIFF_EDGES", "GAME_EDGES", "TURN_EDGES", "EDGES"]
