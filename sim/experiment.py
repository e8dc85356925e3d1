"""What an experiment plays: the game, teams, pairings, duplicate rotations, deals, seed and rules.

An :class:`Experiment` is plain data about one game (``game``, default Persian Rummy;
``players`` at the table); the game decides how a pairing is seated in its rotations
(``Game.seating``) and what its rule options are. Matches, tournaments and sweeps are all a list
of teams and a list of pairings (team A, team B) played on the same deal indices
(common random numbers). Its *identity* (everything that decides what a chunk of
results contains, i.e. all but the deal count) is hashed so that a resumed run can
check it continues the same experiment. Experiments also load from TOML
(:func:`load_toml`), validated with messages that name the field.

Rotations: each game defines its own seatings (Persian Rummy: sim/games/persian/game.py,
docs/results.md).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Sequence

from sim.games import DEFAULT_GAME, get_game
from sim.games.base import Game, Seating
from sim.games.runs import MAX_SEED, check_seed
from strategies.registry import StrategySpec, spec_with

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
    version: str = ""  # the code that plays it ("" : this installation's, sim.runner.version.code_version)
    seating_mode: str = ""  # the game's named seating (Game.seating_modes; ``--seating``); "": its default

    def __post_init__(self) -> None:
        if not self.version:
            from sim.runner.version import code_version

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


# --- constructors ----------------------------------------------------------------------------


def _game_of(options: dict) -> str:
    try:
        return get_game(options.get("game", DEFAULT_GAME)).name
    except ValueError as e:
        raise ExperimentError(str(e)) from None


def match(a, b, deals: int, seed: int = 0, **options) -> Experiment:
    """Team ``a`` against team ``b`` (each SPEC or SPEC+SPEC); ``game=``, ``players=`` among the options."""
    game = _game_of(options)
    return Experiment("match", (Team.parse(a, game), Team.parse(b, game)), ((0, 1),), deals, seed, **options)


def tournament(teams: Sequence, deals: int, seed: int = 0, **options) -> Experiment:
    """Round robin: every pair of teams once, on the same deals."""
    game = _game_of(options)
    parsed = tuple(Team.parse(t, game) for t in teams)
    if len(parsed) < 2:
        raise ExperimentError(f"teams: a tournament needs at least 2 teams, got {len(parsed)}")
    labels = [str(t) for t in parsed]
    dup = sorted({x for x in labels if labels.count(x) > 1})
    if dup:
        raise ExperimentError(f"teams: {', '.join(dup)} listed more than once")
    pairs = tuple(itertools.combinations(range(len(parsed)), 2))
    return Experiment("tournament", parsed, pairs, deals, seed, **options)


def parse_vary(items: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``KEY=V1,V2,...`` strings -> [(key, [values])] (values still text)."""
    out: list[tuple[str, list[str]]] = []
    for item in items:
        key, eq, raw = item.partition("=")
        key = key.strip()
        values = [v.strip() for v in raw.split(",")]
        if not eq or not key or not raw.strip() or any(not v for v in values):
            raise ExperimentError(f"--vary {item!r}: expected KEY=V1,V2,... e.g. --vary max_extra=0,10,30")
        out.append((key, values))
    return out


def sweep(base, vary: Sequence[tuple[str, Sequence]], vs, deals: int, seed: int = 0, **options) -> Experiment:
    """Every point of the grid ``vary`` (key -> values) applied to ``base``, each against ``vs``.

    Values may be text as written in a spec ("true", "10", a choice name) or numbers.
    """
    game = _game_of(options)
    spec = get_game(game).parse_spec(base)
    by_name = {p.name: p for p in spec.info.params}
    if not vary:
        raise ExperimentError("vary: a sweep needs at least one parameter to vary")
    keys = [k for k, _ in vary]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ExperimentError(f"vary: parameter {', '.join(dup)} given more than once")
    grid: list[tuple[str, tuple[str, ...]]] = []
    axes: list[list[float]] = []
    for key, values in vary:
        if key not in by_name:
            known = ", ".join(by_name) or "none"
            raise ExperimentError(f"vary: strategy {spec.name} has no parameter {key!r} (known: {known})")
        if not values:
            raise ExperimentError(f"vary: {key} has no values")
        p = by_name[key]
        parsed = [p.parse(_value_text(v), f"vary {key}") for v in values]
        texts = tuple(p.format(v) for v in parsed)
        if len(set(texts)) != len(texts):
            raise ExperimentError(f"vary: {key} lists a value more than once")
        grid.append((key, texts))
        axes.append(parsed)
    points = [Team.parse(spec_with(spec, **dict(zip(keys, combo))), game) for combo in itertools.product(*axes)]
    opponent = Team.parse(vs, game)
    teams = (*points, opponent)
    pairs = tuple((i, len(points)) for i in range(len(points)))
    return Experiment("sweep", teams, pairs, deals, seed, vary=tuple(grid), **options)


def _value_text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


# --- TOML ------------------------------------------------------------------------------------

_TOP = {"game", "players", "seating", "kind", "seed", "deals", "first_deal", "chunk", "threads", "out", "margin",
        "rules", "sprt", "match", "tournament", "sweep", "backend", "scheduler", "workers", "keep"}
BACKENDS = ("local", "dask")
KEEPS = ("plays", "sets", "summary")
_SECTION_FIELDS = {"match": {"a", "b"}, "tournament": {"teams"}, "sweep": {"base", "vs", "vary", "vary_rule"},
                   "sprt": {"delta", "alpha", "beta"}}


@dataclass(frozen=True)
class ExperimentFile:
    """An experiment read from TOML, with the run options the file may also give (how to run
    it, not what it is: none of them is part of the experiment's identity)."""

    experiment: Experiment
    threads: int | None = None
    out: str | None = None
    backend: str | None = None  # "local" or "dask" (sim.runner.run_experiment)
    scheduler: str | None = None  # a Dask scheduler address
    workers: int | None = None  # worker processes of a LocalCluster
    keep: str | None = None  # "plays", "sets" or "summary" (sim.runner.keep)
    rule_sweep: dict | None = None  # a sweep with vary_rule: base, vs, vary, vary_rule, rules (sim.rule_sweep)


def load_toml(path: str | Path, deals: int | None = None) -> ExperimentFile:
    """Read and validate an experiment file; ``deals`` overrides the file's ``deals``."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise
    except tomllib.TOMLDecodeError as e:
        raise ExperimentError(f"{path}: malformed TOML: {e}") from None
    except UnicodeDecodeError:
        raise ExperimentError(f"{path}: not a UTF-8 text file") from None
    try:
        return parse_experiment_dict(data, deals)
    except ExperimentError as e:
        raise ExperimentError(f"{path}: {e}") from None
    except ValueError as e:  # spec, rule and seed errors from the registry and rules
        raise ExperimentError(f"{path}: {e}") from None


def parse_experiment_dict(data: dict[str, Any], deals: int | None = None) -> ExperimentFile:
    """Validate the contents of an experiment file (see experiments/example.toml)."""
    unknown = sorted(set(data) - _TOP)
    if unknown:
        raise ExperimentError(f"unknown field(s) {', '.join(unknown)}; known: {', '.join(sorted(_TOP))}")
    kind = _field(data, "kind", str, required=True)
    if kind not in KINDS:
        raise ExperimentError(f"field 'kind': {kind!r} is not one of {', '.join(KINDS)}")
    for other in set(KINDS) - {kind}:
        if other in data:
            raise ExperimentError(f"section [{other}] does not belong in a kind = {kind!r} experiment")
    section = data.get(kind)
    if not isinstance(section, dict):
        raise ExperimentError(f"missing section [{kind}] (a table)")
    _check_section(kind, section)
    n = deals if deals is not None else _field(data, "deals", int, required=True)
    options: dict[str, Any] = {
        "game": _field(data, "game", str, default=DEFAULT_GAME),
        "players": _field(data, "players", int, default=0),
        "seating_mode": _field(data, "seating", str, default=""),
        "seed": _field(data, "seed", int, default=0),
        "first_deal": _field(data, "first_deal", int, default=0),
        "chunk": _field(data, "chunk", int, default=0),
        "margin": float(_field(data, "margin", (int, float), default=1.0)),
    }
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise ExperimentError("field 'rules' must be a table, e.g. [rules] out_bonus = 30")
    try:
        options["rules"] = get_game(_game_of(options)).rules(rules)
    except (TypeError, ValueError) as e:
        raise ExperimentError(f"[rules]: {e}") from None
    if "sprt" in data:
        s = data["sprt"]
        if not isinstance(s, dict):
            raise ExperimentError("field 'sprt' must be a table with delta (and alpha, beta)")
        _check_section("sprt", s)
        options["sprt"] = SprtSpec(
            delta=float(_field(s, "delta", (int, float), required=True, where="sprt.")),
            alpha=float(_field(s, "alpha", (int, float), default=0.05, where="sprt.")),
            beta=float(_field(s, "beta", (int, float), default=0.05, where="sprt.")),
        )
    where = f"{kind}."
    if kind == "match":
        exp = match(_field(section, "a", str, required=True, where=where),
                    _field(section, "b", str, required=True, where=where), n, **options)
    elif kind == "tournament":
        teams = _field(section, "teams", list, required=True, where=where)
        if not all(isinstance(t, str) for t in teams):
            raise ExperimentError("field 'tournament.teams' must be a list of spec strings")
        exp = tournament(teams, n, **options)
    else:
        vary_rule = _field(section, "vary_rule", dict, default=None, where=where)
        if vary_rule is not None:
            return _rule_sweep_file(data, section, vary_rule, n, options)
        vary = _field(section, "vary", dict, required=True, where=where)
        grid = []
        for key, values in vary.items():
            if not isinstance(values, list) or not values:
                raise ExperimentError(f"field 'sweep.vary.{key}' must be a non-empty list of values")
            grid.append((key, values))
        exp = sweep(_field(section, "base", str, required=True, where=where), grid,
                    _field(section, "vs", str, required=True, where=where), n, **options)
    threads = _field(data, "threads", int, default=None)
    if threads is not None and threads < 1:
        raise ExperimentError(f"field 'threads' must be a positive integer, got {threads}")
    backend = _field(data, "backend", str, default=None)
    if backend is not None and backend not in BACKENDS:
        raise ExperimentError(f"field 'backend': {backend!r} is not one of {', '.join(BACKENDS)}")
    keep = _field(data, "keep", str, default=None)
    if keep is not None and keep not in KEEPS:
        raise ExperimentError(f"field 'keep': {keep!r} is not one of {', '.join(KEEPS)}")
    workers = _field(data, "workers", int, default=None)
    if workers is not None and workers < 1:
        raise ExperimentError(f"field 'workers' must be a positive integer, got {workers}")
    return ExperimentFile(exp, threads, _field(data, "out", str, default=None), backend,
                          _field(data, "scheduler", str, default=None), workers, keep)


def _rule_sweep_file(data: dict, section: dict, vary_rule: dict, n: int, options: dict) -> ExperimentFile:
    """A sweep section with ``vary_rule``: its first rule variant as the experiment (checked by
    sim.rule_sweep, which plays every variant), the variants in ``vary_rule``."""
    from sim.rule_sweep import rule_sweep_experiments

    for key, values in vary_rule.items():
        if not isinstance(values, list) or not values:
            raise ExperimentError(f"field 'sweep.vary_rule.{key}' must be a non-empty list of values")
    vary = _field(section, "vary", dict, default=None, where="sweep.")
    rules = options.pop("rules")
    base = _field(section, "base", str, required=True, where="sweep.")
    vs = _field(section, "vs", str, required=True, where="sweep.")
    _, exps = rule_sweep_experiments(base, vary_rule, vs, n, vary=vary, rules=rules, **options)
    threads = _field(data, "threads", int, default=None)
    if data.get("out") is not None:
        raise ExperimentError("field 'out': a rule sweep (sweep.vary_rule) keeps its statistics in memory")
    return ExperimentFile(exps[0], threads, None, rule_sweep={"base": base, "vs": vs, "vary": vary,
                                                              "vary_rule": dict(vary_rule), "rules": rules})


def _check_section(name: str, section: dict) -> None:
    unknown = sorted(set(section) - _SECTION_FIELDS[name])
    if unknown:
        raise ExperimentError(f"unknown field(s) {', '.join(f'{name}.{u}' for u in unknown)}; "
                              f"known: {', '.join(sorted(_SECTION_FIELDS[name]))}")


_TYPE_NAMES = {str: "a string", int: "an integer", list: "a list", dict: "a table"}


def _field(d: dict, key: str, kind, required: bool = False, default=None, where: str = ""):
    if key not in d:
        if required:
            raise ExperimentError(f"missing field '{where}{key}'")
        return default
    value = d[key]
    bad = isinstance(value, bool) and kind is not bool or not isinstance(value, kind)
    if bad:
        want = _TYPE_NAMES.get(kind, "a number")
        raise ExperimentError(f"field '{where}{key}' must be {want}, got {value!r}")
    return value
