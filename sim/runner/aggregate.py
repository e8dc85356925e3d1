"""Streaming statistics of an experiment: chunk by chunk in bounded memory.

Each finished chunk is reduced to sufficient statistics (``ChunkStats``): per deal set
and pairing the mean A - B over the rotations, their mean vector and co-moment matrix
across pairings (all pairings share the deal indices, so any linear combination of
pairings - a team's margin over the field, the difference of two sweep points - has
a paired interval too), per-play moments, game outcome counts and end counts.
``Totals`` merges chunks exactly (Chan et al.'s pairwise update), and the summary is
computed from the merged moments with scipy / statsmodels through sim.core.stats, giving
the same numbers as sim.core.stats on the full arrays (checked in tests/test_runner.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from sim.core import stats
from sim.experiment import Experiment
from sim.runner.frames import scaled_diff
from sim.core.intervals import mean_test, t_bounds, wilson_interval


@dataclass
class Moments:
    """Count, mean and sum of squared deviations of each of several series (vectors)."""

    n: np.ndarray
    mean: np.ndarray
    m2: np.ndarray

    @classmethod
    def empty(cls, k: int) -> "Moments":
        return cls(np.zeros(k), np.zeros(k), np.zeros(k))

    @classmethod
    def of_rows(cls, rows: list[np.ndarray]) -> "Moments":
        n = np.array([r.size for r in rows], dtype=float)
        mean = np.array([r.mean() if r.size else 0.0 for r in rows])
        m2 = np.array([float(((r - m) ** 2).sum()) for r, m in zip(rows, mean)])
        return cls(n, mean, m2)

    def merge(self, other: "Moments") -> "Moments":
        n = self.n + other.n
        safe = np.where(n > 0, n, 1.0)
        delta = other.mean - self.mean
        mean = self.mean + delta * other.n / safe
        m2 = self.m2 + other.m2 + delta**2 * self.n * other.n / safe
        return Moments(n, mean, m2)

    @property
    def var(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.n > 1, self.m2 / np.maximum(self.n - 1, 1), np.nan)


@dataclass
class CoMoments:
    """Deal-set count, mean vector and co-moment matrix of the per-set diffs of all pairings."""

    n: int
    mean: np.ndarray  # (P,)
    c: np.ndarray  # (P, P)

    @classmethod
    def empty(cls, k: int) -> "CoMoments":
        return cls(0, np.zeros(k), np.zeros((k, k)))

    @classmethod
    def of(cls, x: np.ndarray) -> "CoMoments":
        """From a (P, n) matrix of per-set diffs."""
        mean = x.mean(axis=1)
        dev = x - mean[:, None]
        return cls(x.shape[1], mean, dev @ dev.T)

    def merge(self, other: "CoMoments") -> "CoMoments":
        n = self.n + other.n
        if n == 0:
            return self
        delta = other.mean - self.mean
        mean = self.mean + delta * (other.n / n)
        c = self.c + other.c + np.outer(delta, delta) * (self.n * other.n / n)
        return CoMoments(n, mean, c)

    def combination(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(means, M2s) of the series w @ diffs for each row of the (R, P) weight matrix."""
        w = np.atleast_2d(w)
        return w @ self.mean, np.einsum("rp,pq,rq->r", w, self.c, w)


@dataclass
class ChunkStats:
    """Sufficient statistics of one chunk (see module doc)."""

    start: int
    stop: int
    sets: CoMoments
    play_diff: Moments  # per pairing: A - B of single plays
    a_score: Moments  # per pairing: A's team total per play
    b_score: Moments
    games: np.ndarray  # (P, 3): wins, ties, losses of A over complete games
    ends: np.ndarray  # (P, E): plays per end reason (the game's schema.end_names, in code order)
    set_diffs: np.ndarray | None = None  # (P, n) kept for the SPRT, dropped when merged
    scores: CoMoments | None = None  # per deal set: A's mean score of each pairing, then B's (2P series)
    deal_outcomes: np.ndarray | None = None  # (P, 3): plays A won, tied, lost (single deals)
    figures: np.ndarray | None = None  # the game's own integer sums (Game.chunk_figures), merged by addition
    # the (2P, n) per-set scores ``scores`` is formed from (A's rows, then B's), kept beside the fields (not
    # one, so stored chunk summaries stay as they are): a study joins its cells' chunks from them exactly
    set_scores: ClassVar[np.ndarray | None] = None


def chunk_stats(exp: Experiment, start: int, stop: int, pairing: np.ndarray, rotation: np.ndarray,
                deal: np.ndarray, a_total: np.ndarray, b_total: np.ndarray, end_code: np.ndarray) -> ChunkStats:
    """Reduce a chunk's plays (grouped by pairing, then rotation, in deal order) to ChunkStats."""
    n = stop - start
    dpg = exp.rules.deals_per_game
    n_games = n // dpg
    expected_deals = np.arange(start, stop)
    set_rows, play_rows, a_rows, b_rows, a_sets, b_sets = [], [], [], [], [], []
    deal_outcomes = np.zeros((len(exp.pairings), 3), dtype=np.int64)
    games = np.zeros((len(exp.pairings), 3), dtype=np.int64)
    n_ends = len(exp.game_spec.schema.end_names)
    ends = np.zeros((len(exp.pairings), n_ends), dtype=np.int64)
    off = 0
    for p in range(len(exp.pairings)):
        rots = exp.rotations(p)
        size = rots * n
        sl = slice(off, off + size)
        off += size
        if (pairing[sl].shape[0] != size or (pairing[sl] != p).any()
                or not (deal[sl].reshape(rots, n) == expected_deals).all()
                or not (rotation[sl].reshape(rots, n) == np.arange(rots)[:, None]).all()):
            raise ValueError(f"chunk {start}..{stop}: rows are not the plays of pairing {p} in rotation "
                             "and deal order (a damaged or foreign chunk file?)")
        a = a_total[sl].astype(np.float64)
        b = b_total[sl].astype(np.float64)
        scaled, scale = scaled_diff(a, b)  # exact: equal sides give exactly 0 (sim.runner.frames)
        scaled = scaled.reshape(rots, n)
        d = scaled / scale
        set_rows.append(scaled.sum(axis=0) / (scale * rots))
        a_sets.append(a.reshape(rots, n).mean(axis=0))
        b_sets.append(b.reshape(rots, n).mean(axis=0))
        deal_outcomes[p] = ((d > 0).sum(), (d == 0).sum(), (d < 0).sum())
        play_rows.append(d.ravel())
        a_rows.append(a)
        b_rows.append(b)
        g = scaled[:, : n_games * dpg].reshape(rots, n_games, dpg).sum(axis=2)
        games[p] = ((g > 0).sum(), (g == 0).sum(), (g < 0).sum())
        ends[p] = np.bincount(end_code[sl].astype(np.int64), minlength=n_ends)[:n_ends]
    if off != pairing.shape[0]:
        raise ValueError(f"chunk {start}..{stop}: {pairing.shape[0]} rows, expected {off}")
    set_diffs = np.vstack(set_rows)
    set_scores = np.vstack(a_sets + b_sets)
    cs = ChunkStats(start, stop, CoMoments.of(set_diffs), Moments.of_rows(play_rows),
                    Moments.of_rows(a_rows), Moments.of_rows(b_rows), games, ends, set_diffs,
                    CoMoments.of(set_scores), deal_outcomes)
    cs.set_scores = set_scores
    return cs


class Totals:
    """Everything merged so far, in chunk order."""

    def __init__(self, exp: Experiment):
        k = len(exp.pairings)
        self.exp = exp
        self.sets = CoMoments.empty(k)
        self.play_diff = Moments.empty(k)
        self.a_score = Moments.empty(k)
        self.b_score = Moments.empty(k)
        self.end_names = exp.game_spec.schema.end_names
        self.games = np.zeros((k, 3), dtype=np.int64)
        self.ends = np.zeros((k, len(self.end_names)), dtype=np.int64)
        self.chunks = 0
        self.deals = 0
        self.scores = CoMoments.empty(2 * k)  # per deal set: A's mean score per pairing, then B's
        self.deal_outcomes = np.zeros((k, 3), dtype=np.int64)  # plays (single deals) A won, tied, lost
        self.figures = None  # the game's own sums (Game.chunk_figures); None if a chunk had none

    def add(self, c: ChunkStats) -> None:
        self.sets = self.sets.merge(c.sets)
        self.play_diff = self.play_diff.merge(c.play_diff)
        self.a_score = self.a_score.merge(c.a_score)
        self.b_score = self.b_score.merge(c.b_score)
        self.games += c.games
        self.ends += c.ends
        self.chunks += 1
        self.deals += c.stop - c.start
        if c.scores is not None:
            self.scores = self.scores.merge(c.scores)
        if c.deal_outcomes is not None:
            self.deal_outcomes += c.deal_outcomes
        if self.chunks == 1:
            self.figures = None if c.figures is None else np.array(c.figures, dtype=np.int64)
        elif self.figures is not None:
            self.figures = None if c.figures is None else self.figures + c.figures

    # -- summaries -----------------------------------------------------------------------------

    def summary(self) -> pd.DataFrame:
        """One row per pairing: the match statistics (columns: docs/results.md)."""
        exp = self.exp
        k = self.sets.n
        labels = exp.team_labels()
        rows = []
        m2 = np.diag(self.sets.c)
        pvals = []
        for p, (i, j) in enumerate(exp.pairings):
            ci = mean_test(k, self.sets.mean[p], m2[p])
            pvals.append(ci["p_value"])
            row = {"pairing": p, "a": labels[i], "b": labels[j], "rotations": exp.rotations(p),
                   "deal_sets": int(k), "plays": int(self.play_diff.n[p])}
            row.update(ci)
            row["variance_reduction"] = _variance_reduction(self.play_diff.n[p], self.play_diff.m2[p], k, m2[p])
            uci = _welch(self.a_score, self.b_score, p)
            row["unpaired_ci_low"], row["unpaired_ci_high"] = uci
            row["a_mean"] = float(self.a_score.mean[p]) if self.a_score.n[p] else math.nan
            row["b_mean"] = float(self.b_score.mean[p]) if self.b_score.n[p] else math.nan
            row.update(_game_columns(self.games[p]))
            sd = row["sd"]
            row["margin"] = exp.margin
            row["deals_needed"] = (stats.deals_needed(sd, exp.margin)
                                   if math.isfinite(sd) and sd > 0 else math.nan)
            n_plays = max(int(self.ends[p].sum()), 1)
            for name, cnt in zip(self.end_names, self.ends[p]):
                row[f"end_{name}"] = cnt / n_plays
            row["capped"] = int(self.ends[p][self.end_names.index("cap")]) if "cap" in self.end_names else 0
            row.update(exp.game_spec.summary_figures(self, p))
            rows.append(row)
        df = pd.DataFrame(rows)
        finite = [x if math.isfinite(x) else 1.0 for x in pvals]
        df.insert(df.columns.get_loc("p_value") + 1, "p_holm", stats.holm_adjust(finite))
        return df

    def team_margins(self) -> pd.DataFrame:
        """Per team: mean points per deal above its opponents, averaged over its pairings
        (a tournament ranking), with a paired CI over deal sets."""
        exp = self.exp
        w = team_weights(exp)
        means, m2s = self.sets.combination(w)
        rows = []
        for i, label in enumerate(exp.team_labels()):
            ci = mean_test(self.sets.n, means[i], m2s[i])
            wins = losses = ties = 0
            for q, (a, b) in enumerate(exp.pairings):
                wl = self.games[q]
                if a == i:
                    wins, ties, losses = wins + wl[0], ties + wl[1], losses + wl[2]
                elif b == i:
                    wins, ties, losses = wins + wl[2], ties + wl[1], losses + wl[0]
            games = wins + ties + losses
            rows.append({"team": label, "margin": ci["mean_diff"], "ci_low": ci["ci_low"], "ci_high": ci["ci_high"],
                         "se": ci["se"], "games": int(games),
                         "game_win_rate": (wins + 0.5 * ties) / games if games else math.nan})
        return pd.DataFrame(rows)

    def contrast(self, w: np.ndarray) -> dict:
        """Paired interval of the per-set series ``w @ diffs`` (weights over pairings)."""
        means, m2s = self.sets.combination(np.asarray(w, dtype=float))
        return mean_test(self.sets.n, means[0], m2s[0])


def team_weights(exp: Experiment) -> np.ndarray:
    """(teams x pairings) weights: a team's margin over the field is the mean of its
    pairings' A - B differences, signed by which side it played (+A, -B)."""
    w = np.zeros((len(exp.teams), len(exp.pairings)))
    for q, (i, j) in enumerate(exp.pairings):
        w[i, q] += 1.0
        w[j, q] -= 1.0
    deg = np.abs(w).sum(axis=1)
    return w / np.where(deg > 0, deg, 1.0)[:, None]


def _variance_reduction(n_plays: float, m2_plays: float, n_sets: float, m2_sets: float) -> float:
    """sim.core.stats.variance_reduction from moments: (var(plays)/N) / (var(set means)/K)."""
    if n_plays < 2 or n_sets < 2:
        return math.nan
    naive = m2_plays / (n_plays - 1) / n_plays
    dup = m2_sets / (n_sets - 1) / n_sets
    if dup <= 0:
        return math.nan if naive <= 0 else math.inf
    return naive / dup


def _welch(a: Moments, b: Moments, p: int, level: float = 0.95) -> tuple[float, float]:
    """unpaired_mean_ci (tests/stats_reference.py) from moments: plays treated as independent samples."""
    na, nb = a.n[p], b.n[p]
    if na < 2 or nb < 2:
        return math.nan, math.nan
    va, vb = a.m2[p] / (na - 1), b.m2[p] / (nb - 1)
    mean = a.mean[p] - b.mean[p]
    se2 = va / na + vb / nb
    if se2 <= 0:
        return float(mean), float(mean)
    df = se2**2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    return t_bounds(mean, math.sqrt(se2), df, level)


def _game_columns(wtl: np.ndarray) -> dict:
    wins, ties, losses = (int(x) for x in wtl)
    games = wins + ties + losses
    out = {"games": games, "wins": wins, "ties": ties, "losses": losses}
    if games == 0:
        for key in ("win_rate", "tie_rate", "loss_rate", "game_win_rate"):
            out[key] = out[f"{key}_ci_low"] = out[f"{key}_ci_high"] = math.nan
        return out
    for key, count in (("win_rate", wins), ("tie_rate", ties), ("loss_rate", losses),
                       ("game_win_rate", wins + 0.5 * ties)):
        out[key] = count / games
        out[f"{key}_ci_low"], out[f"{key}_ci_high"] = wilson_interval(count, games)
    return out
