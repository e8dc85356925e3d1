"""Evaluating candidates against the field on duplicate deals, through the experiment layer.

A rung of a bracket (sim.apps.tune.search) is one experiment: every candidate paired with
every opponent of the field, all on the same deal indices ``start .. stop-1`` and the same
seed (common random numbers), each pairing in all of the game's seatings (Game.seating).
It runs through ``sim.runner.run_experiment`` in chunks, on the backend the evaluator was
made with, and comes back as sufficient statistics only (sim.runner.aggregate): the per-deal-set
A - B of every pairing as a mean vector and co-moment matrix. :class:`Scores` keeps those
per candidate and opponent, merges later rungs (more deal indices) into them, and gives
each candidate's value against the field (mixture-weighted over the opponents) and the
paired difference of any two candidates, with t-intervals over deal sets.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, Sequence

import numpy as np

from sim.apps.tune.field import Field
from sim.core.intervals import mean_test
from sim.experiment import Experiment, Team
from sim.plugin.registry import get_game
from sim.runner.aggregate import CoMoments
from sim.runner.run import run_experiment

BACKENDS = ("local", "dask")


@dataclass
class Scores:
    """Per-deal-set statistics of candidates (rows) against the opponents of a field (columns).

    ``sets`` is over the flattened pairings ``candidate * K + opponent``."""

    labels: list[str]
    weights: np.ndarray  # (K,) the field's mixture weights
    sets: CoMoments
    plays: int = 0

    @property
    def k(self) -> int:
        return len(self.weights)

    @property
    def n(self) -> int:
        return int(self.sets.n)

    def _w(self, row: np.ndarray) -> np.ndarray:
        """Pairing weights of a combination of candidates given per candidate."""
        return np.kron(row, self.weights)

    def value(self, i: int) -> dict:
        """Candidate ``i`` against the field: the weighted mean A - B per deal set, with its CI."""
        row = np.zeros(len(self.labels))
        row[i] = 1.0
        return self._interval(self._w(row))

    def vs_opponent(self, i: int, k: int) -> dict:
        w = np.zeros(len(self.labels) * self.k)
        w[i * self.k + k] = 1.0
        return self._interval(w)

    def diff(self, i: int, j: int, level: float = 0.95) -> dict:
        """Candidate ``i`` minus candidate ``j`` against the field, paired over deal sets."""
        row = np.zeros(len(self.labels))
        row[i], row[j] = 1.0, -1.0
        return self._interval(self._w(row), level)

    def _interval(self, w: np.ndarray, level: float = 0.95) -> dict:
        means, m2s = self.sets.combination(w)
        return mean_test(self.sets.n, float(means[0]), float(m2s[0]), level)

    def values(self) -> np.ndarray:
        """Every candidate's value against the field."""
        return (self.sets.mean.reshape(len(self.labels), self.k) * self.weights).sum(axis=1)

    def subset(self, rows: Sequence[int]) -> "Scores":
        idx = np.array([i * self.k + k for i in rows for k in range(self.k)], dtype=np.int64)
        sub = CoMoments(self.sets.n, self.sets.mean[idx].copy(), self.sets.c[np.ix_(idx, idx)].copy())
        return Scores([self.labels[i] for i in rows], self.weights, sub, self.plays)

    def merge(self, later: "Scores") -> "Scores":
        """These candidates' statistics over the deal sets of both (the same candidates, in order)."""
        if later.labels != self.labels:
            raise ValueError("Scores.merge: the candidates differ")
        return Scores(self.labels, self.weights, self.sets.merge(later.sets), self.plays + later.plays)


@dataclass
class Evaluator:
    """Plays candidates against a field on a deal range: game, table, rules, seed, backend.

    ``backend`` "local" runs the chunks in this process (numba threads); "dask" hands each
    chunk to a Dask cluster through sim.runner's Dask backend. ``backend_options``:
    ``scheduler`` (an address or a ``distributed.Client``; None: $RUMMY_SIM_SCHEDULER, else a
    LocalCluster of ``workers`` single-threaded processes here). The evaluator opens one client
    for the whole tuning run (every rung's experiment reuses it) and :meth:`close` shuts down
    what it started. ``plays`` counts every play run so far.
    """

    game: str
    players: int
    rules: Any
    threads: int | None = None
    backend: str = "local"
    backend_options: dict = dc_field(default_factory=dict)
    check: bool = False
    plays: int = 0

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"backend {self.backend!r} is not one of {', '.join(BACKENDS)}")
        unknown = sorted(set(self.backend_options) - {"scheduler", "workers"})
        if unknown:
            raise ValueError(f"backend options {', '.join(unknown)}: known are scheduler, workers")
        if self.backend == "local" and self.backend_options:
            raise ValueError("scheduler and workers go with backend 'dask'")
        self._client = None
        self._owned = None

    def _dask_client(self):
        if self._client is None:
            from sim.runner.dask_backend import open_client

            self._client, self._owned = open_client(self.backend_options.get("scheduler"),
                                                    self.backend_options.get("workers"))
        return self._client

    def close(self) -> None:
        """Shut down the Dask client and cluster this evaluator started (none for a client passed in)."""
        if self._client is not None:
            from sim.runner.dask_backend import close_client

            close_client(self._client, self._owned)
            self._client = self._owned = None

    def experiment(self, candidates: Sequence[Team], field: Field, start: int, stop: int, seed: int,
                   extra: Sequence[tuple[int, int]] = ()) -> Experiment:
        """Every candidate against every opponent (pairing ``i * K + k``), then the ``extra``
        pairings (indices into candidates + opponents), on deals ``start .. stop-1``."""
        n, k = len(candidates), len(field.opponents)
        teams = (*candidates, *field.teams)
        pairs = tuple((i, n + j) for i in range(n) for j in range(k)) + tuple(extra)
        return Experiment("sweep", teams, pairs, stop - start, seed, first_deal=start, rules=self.rules,
                          game=self.game, players=self.players)

    def plays_per_deal(self, candidate: Team, field: Field) -> int:
        """Plays of one candidate against the whole field per deal index."""
        exp = self.experiment([candidate], field, 0, self.deals_per_game, 0)
        return exp.plays_per_deal

    @property
    def deals_per_game(self) -> int:
        return get_game(self.game).rules(self.rules).deals_per_game

    def run(self, exp: Experiment):
        """Play ``exp`` (statistics only, no files) and return sim.runner's result."""
        options: dict[str, Any] = {"threads": self.threads, "progress": False, "check_strategies": self.check,
                                   "backend": self.backend}
        if self.backend == "dask":
            options["scheduler"] = self._dask_client()
        result = run_experiment(exp, **options)
        self.plays += int(result.totals.play_diff.n.sum())
        return result

    def scores(self, candidates: Sequence[Team], field: Field, start: int, stop: int, seed: int) -> Scores:
        """Every candidate against the field on deals ``start .. stop-1`` (duplicates played once)."""
        labels = [str(c) for c in candidates]
        unique = list(dict.fromkeys(labels))
        by_label = {str(c): c for c in candidates}
        exp = self.experiment([by_label[u] for u in unique], field, start, stop, seed)
        result = self.run(exp)
        k = len(field.opponents)
        scores = Scores(unique, np.asarray(field.weights, dtype=float), result.totals.sets,
                        int(result.totals.play_diff.n.sum()))
        if len(unique) == len(labels):
            return scores
        expanded = scores.subset([unique.index(x) for x in labels])
        expanded.labels = labels
        assert expanded.sets.mean.size == len(labels) * k
        return expanded

