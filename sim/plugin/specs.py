"""Strategy names, typed parameters and spec strings (``NAME`` or ``NAME:KEY=VALUE,...``).

Every game has its own :class:`StrategyRegistry` (``get_game("persian").strategies``): its
built-ins are declared as ``BUILTINS`` in the module its game names (``Game.strategies_module``,
``strategies/<game>/builtins.py``), loaded on first use, and users add their own with
``register_strategy(..., game=...)`` (sim.plugin.registry). A spec resolves to an integer id
(a built-in, whose ``StrategyInfo.kernel`` names its compiled function as text) or a user
function; either way the engine calls it through the seat's function slot
(sim.plugin.strategy.seat_function). Plus a float64 parameter vector.
Changing a parameter value never recompiles anything: parameters are data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from sim.plugin.strategy import SID_USER, STRATEGY_SIG

MAX_PARAMS = 24  # a strategy's parameter row (the Indian engine sizes its copy by it)
#: how a strategy chooses: a fixed baseline (random), hand-written rules, a search by play-outs, a
#: model fitted to search values (issue 25), or a user's function (not declared by the toolkit)
STRATEGY_KINDS = ("baseline", "heuristic", "search", "learned", "user")


@dataclass(frozen=True)
class Param:
    """One tunable parameter: its meaning, type, range and default.

    ``kind`` is int, float, bool or str; a str parameter takes one of ``choices`` and
    reaches the kernel as the index of that choice.
    """

    name: str
    default: float
    low: float
    high: float
    kind: type = float
    help: str = ""
    choices: tuple[str, ...] = ()

    def parse(self, text: str, where: str) -> float:
        """The kernel value of ``text`` (as written in a spec), validated."""
        text = text.strip()
        if self.kind is str:
            if text not in self.choices:
                raise ValueError(f"{where}: parameter {self.name}={text!r} is not one of {', '.join(self.choices)}")
            return float(self.choices.index(text))
        try:
            if self.kind is bool:
                low = text.lower()
                if low not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError
                value = float(low in ("true", "1", "yes"))
            elif self.kind is int:
                value = float(int(text))
            else:
                value = float(text)
        except ValueError:
            expected = {bool: "true or false", int: "an integer"}.get(self.kind, "a number")
            raise ValueError(f"{where}: parameter {self.name}={text!r} is not {expected}") from None
        return self.check(value, where)

    def check(self, value: float, where: str) -> float:
        if not (self.low <= value <= self.high) or value != value:
            raise ValueError(f"{where}: parameter {self.name}={value:g} is outside [{self.low:g}, {self.high:g}]")
        if self.kind in (int, bool, str) and value != int(value):
            raise ValueError(f"{where}: parameter {self.name}={value:g} must be a whole number")
        return float(value)

    def format(self, value: float) -> str:
        """``value`` as it is written in a spec."""
        if self.kind is bool:
            return "true" if value else "false"
        if self.kind is str:
            return self.choices[int(value)]
        if self.kind is int:
            return str(int(value))
        return f"{value:g}"


@dataclass(frozen=True)
class StrategyInfo:
    """A registered strategy: its id (or user function), parameters and description.

    A built-in names its kernel as text, ``kernel="strategies.<game>.NAME_nb:NAME_decide"``:
    the plug-in layer imports and compiles it on first use (sim.plugin.strategy.seat_function),
    so the game that seats it never imports strategies/ and a run compiles only what it seats.
    """

    name: str
    sid: int
    params: tuple[Param, ...] = ()
    doc: str = ""
    function: Callable | None = None  # user strategies only
    kernel: str = ""  # built-ins only: "module:function" of the STRATEGY_SIG kernel
    kind: str = "user"  # how it chooses, one of STRATEGY_KINDS (``rummy-sim strategies`` shows it)


@dataclass(frozen=True)
class StrategySpec:
    """A strategy with its parameter values, as sat at a table."""

    name: str
    values: tuple[tuple[str, float], ...] = field(default_factory=tuple)
    game: str = field(kw_only=True)  # the game whose registry knows ``name``

    @property
    def info(self) -> StrategyInfo:
        return registry_of(self.game).get(self.name)

    def param_array(self) -> np.ndarray:
        arr = np.zeros(MAX_PARAMS, dtype=np.float64)
        given = dict(self.values)
        for i, p in enumerate(self.info.params):
            arr[i] = given.get(p.name, p.default)
        return arr

    def __str__(self) -> str:
        if not self.values:
            return self.name
        by_name = {p.name: p for p in self.info.params}
        parts = [f"{k}={by_name[k].format(v)}" for k, v in self.values]
        return f"{self.name}:{','.join(parts)}"


class StrategyRegistry:
    """The strategies of one game: built-ins from ``strategies/<game>/builtins.py``
    (its ``BUILTINS`` tuple) and the user strategies registered since."""

    def __init__(self, game: str, builtins: tuple[StrategyInfo, ...] = ()):
        self.game = game
        self._infos: dict[str, StrategyInfo] = {}
        for info in builtins:
            self.register(info)

    def register(self, info: StrategyInfo) -> StrategyInfo:
        if len(info.params) > MAX_PARAMS:
            raise ValueError(f"strategy {info.name}: at most {MAX_PARAMS} parameters")
        self._infos[info.name] = info
        return info

    def register_strategy(self, name: str, function: Callable, params: tuple[Param, ...] = (),
                          doc: str = "") -> StrategyInfo:
        """Register a user strategy compiled with ``sim.plugin.strategy.STRATEGY_SIG``."""
        if not name or not name.replace("_", "").isalnum():
            raise ValueError(f"strategy name {name!r}: use letters, digits and underscores")
        if name in self._infos and self._infos[name].sid != SID_USER:
            raise ValueError(f"strategy name {name!r} is a built-in of {self.game}; choose another name")
        sigs = getattr(function, "signatures", None)
        if sigs is None or not any(tuple(s) == tuple(STRATEGY_SIG.args) for s in sigs):
            raise ValueError(
                f"strategy {name!r}: compile it with @njit(STRATEGY_SIG) from strategies.interface "
                "so the engine can call it without recompiling"
            )
        return self.register(StrategyInfo(name, SID_USER, tuple(params), doc or (function.__doc__ or ""), function))

    def get(self, name: str) -> StrategyInfo:
        try:
            return self._infos[name]
        except KeyError:
            raise ValueError(f"unknown strategy {name!r} ({self.game}); known: {', '.join(self.names())}") from None

    def names(self) -> list[str]:
        return sorted(self._infos)

    def parse_spec(self, text: "str | StrategySpec") -> StrategySpec:
        """Parse ``NAME`` or ``NAME:KEY=VALUE[,KEY=VALUE...]`` into a validated spec."""
        if isinstance(text, StrategySpec):
            if text.game != self.game:
                raise ValueError(f"strategy {text} is a {text.game} strategy, not a {self.game} one")
            return text
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"strategy spec {text!r}: expected NAME or NAME:KEY=VALUE,...")
        name, _, rest = text.strip().partition(":")
        info = self.get(name.strip())
        where = f"strategy spec {text!r}"
        by_name = {p.name: p for p in info.params}
        values: dict[str, float] = {}
        if rest.strip():
            for item in rest.split(","):
                key, eq, raw = item.partition("=")
                key = key.strip()
                if not eq or not key:
                    raise ValueError(f"{where}: {item!r} is not KEY=VALUE")
                if key not in by_name:
                    known = ", ".join(by_name) or "none"
                    raise ValueError(f"{where}: unknown parameter {key!r} for {info.name} (known: {known})")
                if key in values:
                    raise ValueError(f"{where}: parameter {key!r} given twice")
                values[key] = by_name[key].parse(raw.strip(), where)
        order = [p.name for p in info.params]
        return StrategySpec(info.name, tuple(sorted(values.items(), key=lambda kv: order.index(kv[0]))), game=self.game)


_REGISTRIES: dict[str, StrategyRegistry] = {}  # each game's registry, by game name, once its game built it


def registry_of(game: str) -> StrategyRegistry:
    """The strategy registry the game ``game`` built (sim.plugin.game.Game.strategies); ValueError
    when that game has not been loaded (sim.plugin.registry.get_game loads it)."""
    try:
        return _REGISTRIES[game]
    except KeyError:
        raise ValueError(f"the strategies of game {game!r} are not loaded: ask sim.plugin.registry.get_game"
                         f"({game!r}) first") from None


def adopt_registry(registry: StrategyRegistry) -> StrategyRegistry:
    """Keep ``registry`` as its game's (the first one kept for a game stays: user strategies live in it)."""
    return _REGISTRIES.setdefault(registry.game, registry)


def spec_with(spec: StrategySpec, **values: float) -> StrategySpec:
    """A copy of ``spec`` with some parameters set (validated)."""
    info = spec.info
    by_name = {p.name: p for p in info.params}
    merged = dict(spec.values)
    for k, v in values.items():
        if k not in by_name:
            raise ValueError(f"strategy {info.name}: unknown parameter {k!r}")
        merged[k] = by_name[k].check(float(v), f"strategy {info.name}")
    order = [p.name for p in info.params]
    return StrategySpec(info.name, tuple(sorted(merged.items(), key=lambda kv: order.index(kv[0]))), game=spec.game)
