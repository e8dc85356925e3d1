"""The search space of a tuning run: which parameters of a strategy vary, and over what.

A dimension is written as on the command line (``--param``)::

    max_depth=0..55          an int parameter over [0, 55] (both ends included)
    min_gain=-60..40         a float parameter over [-60, 40]
    risk_weight=0.05..5:log  a float (or int) range sampled on a log scale (low > 0)
    max_depth=0,5,55         any parameter restricted to a list of values (a choice)
    hold_jokers              a bool or choice parameter over all its values

Every value is checked against the strategy's declared range (sim.plugin.specs.Param),
so a dimension can never produce a spec the registry would refuse. A candidate is the
base spec with the dimensions' values set (:meth:`Space.spec`): parameters not tuned keep
the base spec's values (or the strategy's defaults).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from sim.plugin.specs import Param, StrategySpec, spec_with


class TuneError(ValueError):
    """A tuning run that cannot be done as described (the message names what and where)."""


@dataclass(frozen=True)
class Dimension:
    """One tuned parameter: a numeric range (``low``..``high``, int or float) or a list of
    ``choices`` (values as written in a spec: "true", "5", "greedy")."""

    name: str
    kind: type  # int, float, bool or str: the strategy parameter's type
    low: float | None = None
    high: float | None = None
    log: bool = False
    choices: tuple[str, ...] = ()

    @property
    def is_range(self) -> bool:
        return not self.choices

    def suggest(self, trial) -> str:
        """The value an optuna trial proposes, as spec text."""
        if self.choices:
            return str(trial.suggest_categorical(self.name, list(self.choices)))
        if self.kind is int:
            return str(trial.suggest_int(self.name, int(self.low), int(self.high), log=self.log))
        x = trial.suggest_float(self.name, float(self.low), float(self.high), log=self.log)
        # 4 significant digits: the spec's text (6 digits) then names the value played exactly
        return f"{min(max(float(f'{x:.4g}'), self.low), self.high)!r}"

    def optuna_value(self, param: Param, value: float) -> Any | None:
        """A kernel value as this dimension's optuna value (to enqueue a trial), or None when
        the value lies outside the dimension."""
        if self.choices:
            text = param.format(value)
            return text if text in self.choices else None
        if not (self.low <= value <= self.high):
            return None
        return int(value) if self.kind is int else float(value)

    def text(self) -> str:
        if self.choices:
            return f"{self.name}={','.join(self.choices)}"
        fmt = (lambda v: str(int(v))) if self.kind is int else (lambda v: f"{v:g}")
        return f"{self.name}={fmt(self.low)}..{fmt(self.high)}{':log' if self.log else ''}"


@dataclass(frozen=True)
class Space:
    """The base spec and its tuned dimensions."""

    base: StrategySpec
    dims: tuple[Dimension, ...]

    @property
    def names(self) -> list[str]:
        return [d.name for d in self.dims]

    def params(self) -> dict[str, Param]:
        return {p.name: p for p in self.base.info.params}

    def spec(self, values: Mapping[str, str]) -> StrategySpec:
        """The base spec with the tuned parameters set from spec text."""
        by_name = self.params()
        parsed = {k: by_name[k].parse(str(v), f"tuned parameter {k}") for k, v in values.items()}
        return spec_with(self.base, **parsed)

    def suggest(self, trial) -> StrategySpec:
        return self.spec({d.name: d.suggest(trial) for d in self.dims})

    def baseline(self) -> StrategySpec:
        """The base spec as given: untuned values as written, tuned ones at the strategy's defaults
        unless the base spec sets them (the 'defaults' the best candidate is validated against)."""
        return self.base

    def baseline_trial(self) -> dict[str, Any] | None:
        """The baseline as optuna parameters (to enqueue it as the first trial), or None when a
        baseline value lies outside its dimension."""
        values = dict(zip((p.name for p in self.base.info.params), self.base.param_array()))
        by_name = self.params()
        out = {}
        for d in self.dims:
            v = d.optuna_value(by_name[d.name], float(values[d.name]))
            if v is None:
                return None
            out[d.name] = v
        return out

    def values_of(self, spec: StrategySpec) -> dict[str, Any]:
        """The tuned parameters of ``spec`` as readable values (numbers, booleans, choice names)."""
        by_name = self.params()
        arr = dict(zip((p.name for p in spec.info.params), spec.param_array()))
        out: dict[str, Any] = {}
        for d in self.dims:
            p, v = by_name[d.name], float(arr[d.name])
            if p.kind is bool:
                out[d.name] = bool(v)
            elif p.kind is str:
                out[d.name] = p.choices[int(v)]
            elif p.kind is int:
                out[d.name] = int(v)
            else:
                out[d.name] = v
        return out

    def describe(self) -> list[str]:
        return [d.text() for d in self.dims]


def _number(text: str, p: Param, where: str) -> float:
    try:
        value = float(int(text)) if p.kind is int else float(text)
    except ValueError:
        want = "an integer" if p.kind is int else "a number"
        raise TuneError(f"{where}: {text!r} is not {want}") from None
    if not math.isfinite(value):
        raise TuneError(f"{where}: {text!r} is not a finite number")
    return value


def parse_dimension(item: str | tuple[str, Any], params: Mapping[str, Param], strategy: str) -> Dimension:
    """One dimension from ``KEY=LOW..HIGH[:log]``, ``KEY=V1,V2,...`` or ``KEY`` (see module doc),
    or from a (key, value) pair of a TOML table: "LOW..HIGH", [V1, V2, ...] or true (all values)."""
    key, raw, where = _toml_item(item) if isinstance(item, tuple) else _flag_item(item)
    key = key.strip()
    if key not in params:
        known = ", ".join(params) or "none"
        raise TuneError(f"{where}: strategy {strategy} has no parameter {key!r} (known: {known})")
    p = params[key]
    if raw is None:
        return _every_value(key, p, where)
    raw = raw.strip()
    log = False
    if raw.endswith(":log"):
        log, raw = True, raw[: -len(":log")].strip()
    if ".." in raw:
        return _range_dimension(key, p, raw, log, where)
    if log:
        raise TuneError(f"{where}: ':log' applies to a LOW..HIGH range only")
    return _list_dimension(key, p, raw, where)


def _toml_item(item: tuple[str, Any]) -> tuple[str, str | None, str]:
    """(key, text or None for "every value", where) of a TOML table entry."""
    key, raw = item
    where = f"param {key}"
    if raw is True:
        return key, None, where
    if isinstance(raw, list):
        if not raw:
            raise TuneError(f"{where}: an empty list of values")
        return key, ",".join(("true" if v else "false") if isinstance(v, bool) else str(v) for v in raw), where
    if isinstance(raw, str):
        return key, raw, where
    raise TuneError(f'{where}: expected "LOW..HIGH", a list of values or true, got {raw!r}')


def _flag_item(item: str) -> tuple[str, str | None, str]:
    """(key, text or None for "every value", where) of a ``--param`` flag."""
    key, eq, raw = item.partition("=")
    where = f"--param {item!r}"
    if not eq:
        return key, None, where
    if not raw.strip():
        raise TuneError(f"{where}: expected KEY=LOW..HIGH, KEY=V1,V2,... or KEY (a bool or choice parameter)")
    return key, raw, where


def _every_value(key: str, p: Param, where: str) -> Dimension:
    """A bare KEY: every value of a bool or choice parameter (a number needs its range)."""
    if p.kind is bool:
        return Dimension(key, bool, choices=("false", "true"))
    if p.kind is str:
        return Dimension(key, str, choices=tuple(p.choices))
    raise TuneError(f"{where}: {key} is a{'n int' if p.kind is int else ' float'} parameter: give its range, "
                    f"e.g. {key}={p.format(p.low)}..{p.format(p.high)}")


def _range_dimension(key: str, p: Param, raw: str, log: bool, where: str) -> Dimension:
    """LOW..HIGH inside the parameter's declared range (a log scale needs LOW > 0)."""
    if p.kind in (bool, str):
        raise TuneError(f"{where}: {key} is a {'bool' if p.kind is bool else 'choice'} parameter: "
                        f"list its values ({key}={','.join(('false', 'true') if p.kind is bool else p.choices)})"
                        f" or write just {key}")
    lo_text, _, hi_text = raw.partition("..")
    low, high = _number(lo_text.strip(), p, where), _number(hi_text.strip(), p, where)
    if not low < high:
        raise TuneError(f"{where}: LOW must be below HIGH, got {lo_text.strip()}..{hi_text.strip()}")
    if low < p.low or high > p.high:
        raise TuneError(f"{where}: {key} is declared over [{p.format(p.low)}, {p.format(p.high)}]; "
                        f"the range must lie inside it")
    if log and low <= 0:
        raise TuneError(f"{where}: a log-scale range needs LOW > 0")
    return Dimension(key, p.kind, low, high, log)


def _list_dimension(key: str, p: Param, raw: str, where: str) -> Dimension:
    """V1,V2,...: at least two distinct values, each valid for the parameter."""
    values = [v.strip() for v in raw.split(",")]
    if any(not v for v in values):
        raise TuneError(f"{where}: an empty value in the list")
    texts = []
    for v in values:
        try:
            texts.append(p.format(p.parse(v, where)))
        except ValueError as e:
            raise TuneError(str(e)) from None
    if len(set(texts)) != len(texts):
        raise TuneError(f"{where}: a value is listed more than once")
    if len(texts) < 2:
        raise TuneError(f"{where}: a tuned parameter needs at least two values (fix it in the spec instead)")
    return Dimension(key, p.kind, choices=tuple(texts))


def parse_space(base: StrategySpec, items: Sequence[str | tuple[str, Any]]) -> Space:
    """The space of ``base`` tuned over ``items`` (each a ``--param`` text or a TOML (key, value))."""
    params = {p.name: p for p in base.info.params}
    if not params:
        raise TuneError(f"strategy {base.name} has no parameters to tune")
    if not items:
        raise TuneError("give at least one --param to tune, e.g. --param "
                        f"{next(iter(params))}={_example(next(iter(params.values())))}")
    dims = [parse_dimension(it, params, base.name) for it in items]
    names = [d.name for d in dims]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise TuneError(f"--param: {', '.join(dup)} given more than once")
    return Space(base, tuple(dims))


def _example(p: Param) -> str:
    if p.kind in (bool, str):
        return ",".join(("false", "true") if p.kind is bool else p.choices)
    return f"{p.format(p.low)}..{p.format(p.high)}"
