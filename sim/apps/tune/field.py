"""The field a strategy is tuned against: one or several opponent teams with mixture weights.

``TEAM`` or ``TEAM@WEIGHT`` (``--vs greedy@2 --vs defensive``): a candidate's value is the
weighted mean, over the opponents, of its mean A - B points per deal against each. Every
candidate plays every opponent on the same deal indices, so the weighted value is one
per-deal-set series and any two candidates are compared paired (sim.runner.aggregate contrasts).
Weights are normalised to sum to 1; equal weights by default.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from sim.experiment import ExperimentError, Team
from sim.apps.tune.space import TuneError


@dataclass(frozen=True)
class Opponent:
    team: Team
    weight: float  # normalised: the weights of a field sum to 1
    given: float = 1.0  # the weight as given (TEAM@WEIGHT)

    def __str__(self) -> str:
        return str(self.team)


@dataclass(frozen=True)
class Field:
    opponents: tuple[Opponent, ...]

    @property
    def teams(self) -> tuple[Team, ...]:
        return tuple(o.team for o in self.opponents)

    @property
    def weights(self) -> tuple[float, ...]:
        return tuple(o.weight for o in self.opponents)

    def labels(self) -> list[str]:
        return [str(o) for o in self.opponents]

    def describe(self) -> str:
        if len(self.opponents) == 1:
            return str(self.opponents[0])
        return ", ".join(f"{o} ({o.weight:.3g})" for o in self.opponents)

    def texts(self) -> list[str]:
        """The field as ``--vs`` arguments (weights kept as given, normalised)."""
        if len(set(self.weights)) == 1:
            return self.labels()
        return [f"{o}@{o.given:g}" for o in self.opponents]


def parse_field(items: Sequence[str | tuple[str, float]], game: str) -> Field:
    """``TEAM`` / ``TEAM@WEIGHT`` texts (or (team, weight) pairs) -> a :class:`Field`."""
    if not items:
        raise TuneError("give the field: at least one --vs TEAM (TEAM@WEIGHT for a weighted mixture)")
    parsed: list[tuple[Team, float]] = []
    for item in items:
        if isinstance(item, tuple):
            text, weight = item
            where = f"vs {text!r}"
        else:
            text, at, wtext = str(item).rpartition("@")
            if not at:
                text, wtext = wtext, "1"
            where = f"--vs {item!r}"
            try:
                weight = float(wtext)
            except ValueError:
                raise TuneError(f"{where}: weight {wtext!r} is not a number (TEAM@WEIGHT)") from None
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not math.isfinite(weight) \
                or weight <= 0:
            raise TuneError(f"{where}: the weight must be a positive number, got {weight!r}")
        try:
            team = Team.parse(text, game)
        except (ExperimentError, ValueError) as e:
            raise TuneError(f"{where}: {e}") from None
        parsed.append((team, float(weight)))
    labels = [str(t) for t, _ in parsed]
    dup = sorted({x for x in labels if labels.count(x) > 1})
    if dup:
        raise TuneError(f"--vs: {', '.join(dup)} listed more than once (give it a larger weight instead)")
    total = sum(w for _, w in parsed)
    return Field(tuple(Opponent(t, w / total, w) for t, w in parsed))
