"""Experiment files: an experiment described in TOML (``rummy-sim run FILE.toml``), validated
with messages that name the field (experiments/example.toml)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.experiment.build import _game_of, match, rule_sweep_experiments, sweep, tournament
from sim.experiment.types import KINDS, Experiment, ExperimentError, SprtSpec
from sim.plugin.registry import DEFAULT_GAME, get_game

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
    rule_sweep: dict | None = None  # a sweep with vary_rule: base, vs, vary, vary_rule, rules (sim.studies.rule_sweep)


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
    """Validate the contents of an experiment file (see experiments/example.toml); the checks run
    in the file's order: the top-level fields, the kind and its section, the common options, the
    experiment itself, then how to run it."""
    unknown = sorted(set(data) - _TOP)
    if unknown:
        raise ExperimentError(f"unknown field(s) {', '.join(unknown)}; known: {', '.join(sorted(_TOP))}")
    kind, section = _kind_and_section(data)
    n = deals if deals is not None else _field(data, "deals", int, required=True)
    options = _common_options(data)
    if kind == "sweep":
        vary_rule = _field(section, "vary_rule", dict, default=None, where="sweep.")
        if vary_rule is not None:
            return _rule_sweep_file(data, section, vary_rule, n, options)
    return _run_options(data, _experiment_of(kind, section, n, options))


def _kind_and_section(data: dict[str, Any]) -> tuple[str, dict]:
    """The experiment's kind and its section, with no section of another kind beside it."""
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
    return kind, section


def _common_options(data: dict[str, Any]) -> dict[str, Any]:
    """The options every kind takes: game, table, seeds, chunking, margin, rules and SPRT."""
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
        options["sprt"] = _sprt_spec(data["sprt"])
    return options


def _sprt_spec(s: Any) -> SprtSpec:
    """The [sprt] table: delta required, alpha and beta 0.05 by default."""
    if not isinstance(s, dict):
        raise ExperimentError("field 'sprt' must be a table with delta (and alpha, beta)")
    _check_section("sprt", s)
    return SprtSpec(
        delta=float(_field(s, "delta", (int, float), required=True, where="sprt.")),
        alpha=float(_field(s, "alpha", (int, float), default=0.05, where="sprt.")),
        beta=float(_field(s, "beta", (int, float), default=0.05, where="sprt.")),
    )


def _experiment_of(kind: str, section: dict, n: int, options: dict[str, Any]) -> Experiment:
    """The match, tournament or (strategy-parameter) sweep the section describes."""
    where = f"{kind}."
    if kind == "match":
        return match(_field(section, "a", str, required=True, where=where),
                     _field(section, "b", str, required=True, where=where), n, **options)
    if kind == "tournament":
        teams = _field(section, "teams", list, required=True, where=where)
        if not all(isinstance(t, str) for t in teams):
            raise ExperimentError("field 'tournament.teams' must be a list of spec strings")
        return tournament(teams, n, **options)
    vary = _field(section, "vary", dict, required=True, where=where)
    grid = []
    for key, values in vary.items():
        if not isinstance(values, list) or not values:
            raise ExperimentError(f"field 'sweep.vary.{key}' must be a non-empty list of values")
        grid.append((key, values))
    return sweep(_field(section, "base", str, required=True, where=where), grid,
                 _field(section, "vs", str, required=True, where=where), n, **options)


def _run_options(data: dict[str, Any], exp: Experiment) -> ExperimentFile:
    """How to run the experiment: threads, output, backend, scheduler, workers, what to keep."""
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
    sim.studies.rule_sweep, which plays every variant), the variants in ``vary_rule``."""
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
