"""What every game's ``RuleOptions`` shares: building from a mapping, the mapping back, and the
one-line check of an integer option. Each game's dataclass (sim/games/<name>/rules.py) holds its
own options, defaults and ranges; a bad value or an unknown name gets one line naming it."""

from __future__ import annotations

from dataclasses import asdict, fields

import numpy as np


class RuleOptionsBase:
    """Mixin of a game's frozen ``RuleOptions`` dataclass: ``from_dict`` and ``to_dict``."""

    @classmethod
    def from_dict(cls, values: dict | None):
        """Build from a mapping such as a TOML table or a log's ``rules`` field."""
        values = dict(values or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown rule option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls(**values)

    def to_dict(self) -> dict:
        return asdict(self)


def check_int(name: str, value, low: int, high: int) -> None:
    """Raise one line unless rule option ``name`` is an integer (not a bool) in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"rule option {name}: {value!r} is not an integer")
    if not low <= value <= high:
        raise ValueError(f"rule option {name}: {value} is outside [{low}, {high}]")
