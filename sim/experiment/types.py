"""What an experiment is: the game, teams, pairings, duplicate rotations, deals, seed and rules.

An :class:`Experiment` is plain data about one game (``game``, default Persian Rummy;
``players`` at the table); the game decides how a pairing is seated in its rotations
(``Game.seating``) and what its rule options are. Matches, tournaments and sweeps are all a list
of teams and a list of pairings (team A, team B) played on the same deal indices
(common random numbers). Its *identity* (everything that decides what a chunk of
results contains, i.e. all but the deal count) is hashed so that a resumed run can
check it continues the same experiment.

Rotations: each game defines its own seatings (Persian Rummy: sim/games/persian/game.py,
docs/results.md).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, replace
from typing import Any

from sim.core.version import code_version
from sim.plugin.game import Game, Seating
from sim.plugin.registry import DEFAULT_GAME, get_game
from sim.plugin.runs import MAX_SEED, check_seed
from sim.plugin.specs import StrategySpec

KINDS = ("match", "tournament", "sweep")
TARGET_PLAYS_PER_CHUNK = 200_000  # default chunk: about this many plays (rows) per chunk
SPRT_PLAYS_PER_CHUNK = 20_000  # with --sprt: smaller batches, so the test can stop early
MAX_CHUNK = 10_000_000
FORMAT = "rummy-sim-experiment/1"


class ExperimentError(ValueError):
    """An experiment that cannot be run as described (the message names the field)."""


# --- teams and rotations ---------------------------------------------------------------------

_TEAM_SPLIT = re.compile(r"\+(?=\s*[A-Za-z_])")  # '+' before a strategy name, not in 1e+5


@dataclass(frozen=True)
class Team:
    """Two partners: ``first`` sits in the team's lower seat in rotation 0, ``second`` opposite."""

    first: StrategySpec
    second: StrategySpec

    @classmethod
    def parse(cls, text: "str | StrategySpec | Team", game: str | Game = DEFAULT_GAME) -> "Team":
        """``SPEC`` (both partners) or ``SPEC+SPEC``, specs of ``game``'s strategies."""
        if isinstance(text, Team):
            return text
        if isinstance(text, StrategySpec):
            return cls(text, text)
        parse_spec = get_game(game).parse_spec
        if not isinstance(text, str) or not text.strip():
            raise ExperimentError(f"team {text!r}: expected SPEC or SPEC+SPEC")
        parts = _TEAM_SPLIT.split(text.strip())
        if len(parts) > 2:
            raise ExperimentError(f"team {text!r}: a team is one spec or two joined by '+', got {len(parts)}")
        if any(not p.strip() for p in parts) or text.strip().endswith("+"):
            raise ExperimentError(f"team {text!r}: empty partner spec around '+'")
        specs = [parse_spec(p.strip()) for p in parts]
        return cls(specs[0], specs[-1])

    @property
    def mixed(self) -> bool:
        return self.first != self.second

    @property
    def members(self) -> tuple[StrategySpec, StrategySpec]:
        return (self.first, self.second)

    def __str__(self) -> str:
        return f"{self.first}+{self.second}" if self.mixed else str(self.first)


# --- the experiment --------------------------------------------------------------------------


@dataclass(frozen=True)
class SprtSpec:
    """Sequential test of H0: mean difference 0 vs H1: ``delta`` points per deal set."""

    delta: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (isinstance(self.delta, (int, float)) and math.isfinite(self.delta) and self.delta != 0):
            raise ExperimentError(f"sprt delta must be a nonzero number of points, got {self.delta!r}")
        for name in ("alpha", "beta"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and 0 < v < 0.5):
                raise ExperimentError(f"sprt {name} must be in (0, 0.5), got {v!r}")


@dataclass(frozen=True)
class Experiment:
    """Teams, pairings (indices into ``teams``), deals ``first_deal .. first_deal + deals - 1``.

    ``chunk`` is the number of deal indices per chunk (a multiple of the rule
    ``deals_per_game``, so games never straddle chunks); 0 picks a default from the
    number of plays per deal. ``vary`` names the swept parameters of a sweep (the
    grid points are ``teams[:-1]``, the fixed opponent ``teams[-1]``).
    """

    kind: str
    teams: tuple[Team, ...]
    pairings: tuple[tuple[int, int], ...]
    deals: int
    seed: int = 0
    first_deal: int = 0
    rules: Any = None  # the game's rule options (None: its defaults; a mapping is validated)
    chunk: int = 0
    sprt: SprtSpec | None = None
    margin: float = 1.0
    vary: tuple[tuple[str, tuple[str, ...]], ...] = ()
    game: str = DEFAULT_GAME
    players: int = 0  # 0: the game's default
    version: str = ""  # the code that plays it ("" : this installation's, sim.core.version.code_version)
    seating_mode: str = ""  # the game's named seating (Game.seating_modes; ``--seating``); "": its default

    def __post_init__(self) -> None:
        if not self.version:
            object.__setattr__(self, "version", code_version())
        if not isinstance(self.version, str):
            raise ExperimentError(f"version must be a string, got {self.version!r}")
        try:
            g = get_game(self.game)
            object.__setattr__(self, "players", g.check_players(self.players))
            object.__setattr__(self, "seating_mode", g.check_seating(self.seating_mode, self.players))
        except ValueError as e:
            raise ExperimentError(str(e)) from None
        try:
            object.__setattr__(self, "rules", g.rules(self.rules))
        except (TypeError, ValueError) as e:
            raise ExperimentError(f"rules: {e}") from None
        if self.kind not in KINDS:
            raise ExperimentError(f"kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if not self.teams or not self.pairings:
            raise ExperimentError("an experiment needs at least one pairing of two teams")
        for i, j in self.pairings:
            if not (0 <= i < len(self.teams) and 0 <= j < len(self.teams)):
                raise ExperimentError(f"pairing ({i}, {j}) names a team that does not exist")
        _check_count("deals", self.deals, 1)
        try:
            check_seed(self.seed)
        except ValueError as e:
            raise ExperimentError(f"seed: {e}") from None
        _check_count("first_deal", self.first_deal, 0)
        dpg = self.rules.deals_per_game
        if self.first_deal % dpg:
            raise ExperimentError(f"first_deal {self.first_deal} must be a multiple of deals_per_game ({dpg})")
        if self.first_deal + self.deals > MAX_SEED:
            raise ExperimentError("first_deal + deals is too large")
        _check_count("chunk", self.chunk, 0)
        if self.chunk == 0:
            per = SPRT_PLAYS_PER_CHUNK if self.sprt else TARGET_PLAYS_PER_CHUNK
            object.__setattr__(self, "chunk", max(dpg, per // self.plays_per_deal // dpg * dpg))
        if self.chunk % dpg:
            raise ExperimentError(f"chunk {self.chunk} must be a multiple of deals_per_game ({dpg})")
        if self.chunk > MAX_CHUNK:
            raise ExperimentError(f"chunk {self.chunk} is larger than {MAX_CHUNK:,}")
        if self.sprt is not None and len(self.pairings) != 1:
            raise ExperimentError("sprt: a sequential test needs exactly one pairing (a match)")
        if not (isinstance(self.margin, (int, float)) and math.isfinite(self.margin) and self.margin > 0):
            raise ExperimentError(f"margin must be a positive number of points, got {self.margin!r}")

    # -- derived ----------------------------------------------------------------------------

    @property
    def last_deal(self) -> int:
        """One past the last deal index."""
        return self.first_deal + self.deals

    @property
    def game_spec(self) -> Game:
        """The registered game this experiment plays."""
        return get_game(self.game)

    def rotations(self, pairing: int) -> int:
        i, j = self.pairings[pairing]
        return self.game_spec.rotations(self.teams[i].members, self.teams[j].members, self.players,
                                        **self._seating_mode())

    def seating(self, pairing: int, rotation: int) -> Seating:
        """Who sits where in ``rotation`` of ``pairing``, and which sides are A's and B's."""
        i, j = self.pairings[pairing]
        return self.game_spec.seating(self.teams[i].members, self.teams[j].members, rotation, self.players,
                                      **self._seating_mode())

    def _seating_mode(self) -> dict:
        return {"mode": self.seating_mode} if self.seating_mode else {}

    @property
    def plays_per_deal(self) -> int:
        return sum(self.rotations(p) for p in range(len(self.pairings)))

    def team_labels(self) -> list[str]:
        return [str(t) for t in self.teams]

    def strategy_labels(self) -> list[str]:
        """Every distinct spec string in the experiment, in order of first appearance."""
        seen = dict.fromkeys(str(s) for t in self.teams for s in (t.first, t.second))
        return list(seen)

    def chunks(self) -> list[tuple[int, int]]:
        """Deal ranges [start, stop), aligned on multiples of ``chunk`` from ``first_deal``."""
        out = []
        for start in range(self.first_deal, self.last_deal, self.chunk):
            out.append((start, min(start + self.chunk, self.last_deal)))
        return out

    def with_deals(self, deals: int) -> "Experiment":
        return replace(self, deals=deals)

    # -- identity and serialisation ------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description; :meth:`from_dict` rebuilds the same experiment."""
        return {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "kind": self.kind,
            "teams": self.team_labels(),
            "pairings": [list(p) for p in self.pairings],
            "deals": self.deals,
            "seed": self.seed,
            "first_deal": self.first_deal,
            "rules": self.rules.to_dict(),
            "chunk": self.chunk,
            "sprt": None if self.sprt is None else {"delta": self.sprt.delta, "alpha": self.sprt.alpha,
                                                    "beta": self.sprt.beta},
            "margin": self.margin,
            "vary": {k: list(v) for k, v in self.vary},
            "version": self.version,
            **({"seating": self.seating_mode} if self.seating_mode else {}),  # absent: the default seating
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Experiment":
        sprt = d.get("sprt")
        game = d.get("game", DEFAULT_GAME)
        return cls(
            kind=d["kind"],
            teams=tuple(Team.parse(t, game) for t in d["teams"]),
            pairings=tuple((int(i), int(j)) for i, j in d["pairings"]),
            deals=int(d["deals"]),
            seed=int(d["seed"]),
            first_deal=int(d.get("first_deal", 0)),
            rules=get_game(game).rules(d.get("rules")),
            chunk=int(d.get("chunk", 0)),
            sprt=None if sprt is None else SprtSpec(**sprt),
            margin=float(d.get("margin", 1.0)),
            vary=tuple((k, tuple(v)) for k, v in (d.get("vary") or {}).items()),
            game=game,
            players=int(d.get("players", 0)),
            version=str(d.get("version", "")),
            seating_mode=str(d.get("seating", "")),
        )

    def identity(self) -> dict[str, Any]:
        """Everything that decides a chunk's rows and where the run stops (not the deal count):
        the code version too, so chunks of another version of the package are never mixed in."""
        d = self.to_dict()
        del d["deals"], d["margin"]
        return d

    def digest(self) -> str:
        """A short hash of :meth:`identity`."""
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def identity_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Human-readable field differences between two identities."""
    out = []
    for key in sorted(set(old) | set(new)):
        if old.get(key) != new.get(key):
            out.append(f"{key}: {json.dumps(old.get(key))} before, {json.dumps(new.get(key))} now")
    return out


def _check_count(name: str, value, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ExperimentError(f"{name} must be an integer, got {value!r}")
    if value < low:
        what = "a positive integer" if low == 1 else "a non-negative integer"
        raise ExperimentError(f"{name} must be {what}, got {value}")
