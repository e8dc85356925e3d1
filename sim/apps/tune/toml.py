"""``kind = "tune"`` experiment files: a tuning run described in TOML (``rummy-sim run FILE.toml``).

    kind = "tune"
    game = "persian"          # optional, as in other experiment files; also players, [rules]
    seed = 2028
    threads = 2               # optional
    out = "reports/tune_deep" # optional: the report directory

    [tune]
    spec = "deep_taker"
    budget = 4_000_000        # plays, search and validation together
    vs = ["greedy"]           # TEAM or TEAM@WEIGHT strings, or a table { greedy = 1, defensive = 2 }
    compare = ["deep_taker:max_depth=55,min_gain=0"]   # optional; also validation_seed,
    # validation_share, eta, rungs, min_deals, brackets, sampler, racing,
    # backend ("local" or "dask"), scheduler, workers

    [tune.params]
    max_depth = "0..55"       # a range ("LOW..HIGH", "LOW..HIGH:log")
    min_gain = "-100..100"
    watch_table = true        # a bool or choice parameter over all its values
    near_hand = [0, 1, 2]     # a list of values

Every field is checked and a bad one is named (sim.apps.tune.space.TuneError, exit status 2).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from sim.plugin.registry import DEFAULT_GAME, get_game
from sim.apps.tune.space import TuneError

_TOP = {"kind", "game", "players", "seed", "threads", "out", "rules", "tune"}
_TUNE = {"spec", "budget", "vs", "params", "compare", "validation_seed", "validation_share", "eta", "rungs",
         "min_deals", "brackets", "sampler", "racing", "backend", "scheduler", "workers"}
_TYPES = {"spec": (str,), "budget": (int,), "validation_seed": (int,), "validation_share": (int, float),
          "eta": (int,), "rungs": (int,), "min_deals": (int,), "brackets": (int,), "sampler": (str,),
          "racing": (int, float), "backend": (str,)}


def read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise TuneError(f"{path}: malformed TOML: {e}") from None
    except UnicodeDecodeError:
        raise TuneError(f"{path}: not a UTF-8 text file") from None


def is_tune_file(path: str | Path) -> bool:
    """Whether an experiment file says ``kind = "tune"`` (other kinds go to sim.experiment)."""
    try:
        return read_toml(Path(path)).get("kind") == "tune"
    except TuneError:
        return False  # let the experiment loader report the malformed file


def load_tune_toml(path: str | Path) -> tuple[dict, str | None]:
    """(keyword arguments of sim.apps.tune.tune, the report directory or None) from a tune file."""
    path = Path(path)
    try:
        return parse_tune_dict(read_toml(path))
    except TuneError as e:
        if str(e).startswith(f"{path}:"):
            raise
        raise TuneError(f"{path}: {e}") from None
    except ValueError as e:  # spec, rule and seed errors
        raise TuneError(f"{path}: {e}") from None


def _get(d: dict, key: str, types: tuple, where: str, default: Any = None, required: bool = False):
    if key not in d:
        if required:
            raise TuneError(f"missing field '{where}{key}'")
        return default
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, types):
        want = {str: "a string", int: "an integer"}.get(types[0], "a number") if len(types) == 1 else "a number"
        raise TuneError(f"field '{where}{key}' must be {want}, got {v!r}")
    return v


def parse_tune_dict(data: dict) -> tuple[dict, str | None]:
    unknown = sorted(set(data) - _TOP)
    if unknown:
        raise TuneError(f"unknown field(s) {', '.join(unknown)} in a tune file; known: {', '.join(sorted(_TOP))}")
    if data.get("kind") != "tune":
        raise TuneError(f"field 'kind' must be \"tune\" here, got {data.get('kind')!r}")
    sec = data.get("tune")
    if not isinstance(sec, dict):
        raise TuneError("missing section [tune] (a table)")
    bad = sorted(set(sec) - _TUNE)
    if bad:
        raise TuneError(f"unknown field(s) {', '.join('tune.' + b for b in bad)}; known: {', '.join(sorted(_TUNE))}")
    game = _get(data, "game", (str,), "", DEFAULT_GAME)
    g = get_game(game)
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise TuneError("field 'rules' must be a table, e.g. [rules] out_bonus = 30")
    try:
        rules = g.rules(rules)
    except (TypeError, ValueError) as e:
        raise TuneError(f"[rules]: {e}") from None
    opts: dict[str, Any] = {"game": g.name, "players": _get(data, "players", (int,), "", None),
                            "seed": _get(data, "seed", (int,), "", 0), "rules": rules,
                            "threads": _get(data, "threads", (int,), "", None)}
    if opts["threads"] is not None and opts["threads"] < 1:
        raise TuneError(f"field 'threads' must be a positive integer, got {opts['threads']}")
    for key, types in _TYPES.items():
        if key in sec:
            opts[key] = _get(sec, key, types, "tune.")
    for key in ("spec", "budget"):
        if key not in opts:
            raise TuneError(f"missing field 'tune.{key}'")
    params = sec.get("params")
    if not isinstance(params, dict) or not params:
        raise TuneError('missing section [tune.params] (e.g. max_depth = "0..55")')
    opts["params"] = list(params.items())
    vs = sec.get("vs")
    if isinstance(vs, list) and vs and all(isinstance(v, str) for v in vs):
        opts["vs"] = list(vs)
    elif isinstance(vs, dict) and vs:
        opts["vs"] = list(vs.items())
    else:
        raise TuneError("field 'tune.vs' must be a non-empty list of team specs or a table {TEAM = weight}")
    backend_options = {}
    for key, types in (("scheduler", (str,)), ("workers", (int,))):
        if key in sec:
            backend_options[key] = _get(sec, key, types, "tune.")
    if backend_options:
        opts["backend_options"] = backend_options
    compare = sec.get("compare", [])
    if not isinstance(compare, list) or not all(isinstance(c, str) for c in compare):
        raise TuneError("field 'tune.compare' must be a list of spec strings")
    opts["compare"] = compare
    return opts, _get(data, "out", (str,), "", None)
