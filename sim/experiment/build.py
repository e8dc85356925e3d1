"""The constructors of experiments: a match, a tournament, a sweep of strategy parameters, and
the rule variants of a rule sweep (one experiment per combination of rule options)."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Sequence

from sim.experiment.rule_text import rule_kinds, rule_value
from sim.experiment.types import Experiment, ExperimentError, Team
from sim.plugin.registry import DEFAULT_GAME, get_game
from sim.plugin.specs import spec_with


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


def _convert(game, key: str, value):
    """A rule option's value from text ("true", "30") or a Python value, checked by the game's rules."""
    known = rule_kinds(game)
    if key not in known:
        raise ExperimentError(f"vary_rule: unknown rule option {key!r}; known: {', '.join(sorted(known))}")
    try:
        return rule_value(known[key], value)
    except ValueError as e:
        raise ExperimentError(f"vary_rule {key}: {e}") from None


def rule_variants(vary_rule: Sequence[tuple[str, Sequence]] | dict, game: str = DEFAULT_GAME) -> list[dict]:
    """Every combination of the varied rule options, as {key: value} dicts in grid order."""
    grid = list(vary_rule.items()) if isinstance(vary_rule, dict) else list(vary_rule)
    if not grid:
        raise ExperimentError("vary_rule: give at least one rule option with its values")
    keys = [k for k, _ in grid]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ExperimentError(f"vary_rule: rule option {', '.join(dup)} given more than once")
    axes = []
    for key, values in grid:
        vals = [_convert(game, key, v) for v in values]
        if not vals:
            raise ExperimentError(f"vary_rule: {key} has no values")
        if len(set(map(repr, vals))) != len(vals):
            raise ExperimentError(f"vary_rule: {key} lists a value more than once")
        axes.append(vals)
    return [dict(zip(keys, combo)) for combo in itertools.product(*axes)]


def rule_sweep_experiments(base: str, vary_rule, vs: str, deals: int, seed: int = 0, vary=None, rules=None,
                           **options) -> tuple[list[dict], list[Experiment]]:
    """The variants and one experiment per variant (a match, or a sweep when ``vary`` is given)."""
    game = options.get("game") or DEFAULT_GAME
    g = get_game(game)
    base_rules = g.rules(rules).to_dict()
    variants = rule_variants(vary_rule, g.name)
    exps = []
    for v in variants:
        r = {**base_rules, **v}
        try:
            if vary:
                e = sweep(base, list(vary.items()) if isinstance(vary, dict) else list(vary), vs, deals, seed,
                            rules=r, **options)
            else:
                e = match(base, vs, deals, seed, rules=r, **options)
        except ExperimentError as err:
            raise ExperimentError(f"rule variant {v}: {err}") from None
        exps.append(e)
    chunk = min(e.chunk for e in exps)
    dpgs = {e.rules.deals_per_game for e in exps}
    if len(dpgs) > 1:
        raise ExperimentError("vary_rule: deals_per_game cannot vary (games would not line up)")
    return variants, [replace(e, chunk=chunk) for e in exps]
