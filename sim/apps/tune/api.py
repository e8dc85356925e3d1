"""``tune``: the best parameters of a strategy against a field, found and then validated.

    from sim.apps.tune import tune
    result = tune("deep_taker", ["max_depth=0..55", "min_gain=-60..60"], ["greedy"], budget=2_000_000, seed=1)
    result.history        # one row per trial (DataFrame): parameters, rung reached, value, CI
    result.rungs          # one row per trial and rung played
    result.validation     # the best re-played on fresh deals vs the field and the defaults
    result.best           # the best spec (StrategySpec); str(result.best) is its spec text
    result.write_report("reports/tune_deep_taker")

How the budget is spent: sim.apps.tune.plan; the search: sim.apps.tune.search; the validation:
sim.apps.tune.validate; the report: sim.apps.tune.report.
"""

from __future__ import annotations

import shlex
import time
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path
from typing import Any, Callable, Sequence

import pandas as pd

from sim.apps.tune.evaluate import Evaluator
from sim.apps.tune.field import Field, parse_field
from sim.apps.tune.plan import Plan, make_plan
from sim.apps.tune.report import summary_dict, write_report
from sim.apps.tune.search import SAMPLERS, SearchRecord, run_search
from sim.apps.tune.space import Space, TuneError, parse_space
from sim.apps.tune.validate import Validation, validate
from sim.experiment import Team
from sim.plugin.registry import DEFAULT_GAME, get_game
from sim.plugin.runs import MAX_SEED, check_seed
from sim.plugin.specs import StrategySpec
from sim.runner.metadata import versions
from sim.runner.results import RunInterrupted


@dataclass
class TuneResult:
    """A finished tuning run (the validation is None when it was interrupted)."""

    space: Space
    field: Field
    plan: Plan
    search: SearchRecord
    best: StrategySpec
    validation_run: Validation | None
    settings: dict
    command: str
    seconds: float
    versions: dict = dc_field(default_factory=dict)

    @property
    def history(self) -> pd.DataFrame:
        """One row per trial: bracket, spec, tuned values, rung reached, its deals and value (CI)."""
        return pd.DataFrame(self.search.trials)

    @property
    def rungs(self) -> pd.DataFrame:
        """One row per trial and rung: value on deals 0 .. deals-1, rank, paired gap to the leader."""
        return pd.DataFrame(self.search.rungs)

    @property
    def validation(self) -> pd.DataFrame | None:
        return None if self.validation_run is None else self.validation_run.table

    @property
    def best_values(self) -> dict[str, Any]:
        return self.space.values_of(self.best)

    @property
    def baseline(self) -> StrategySpec:
        return self.space.baseline()

    def summary(self) -> dict:
        return summary_dict(self)

    def write_report(self, out: str | Path) -> Path:
        return write_report(self, Path(out))


def derived_validation_seed(seed: int) -> int:
    """The default validation seed: a fixed odd-multiplier mix of the search seed (never equal to it)."""
    v = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % MAX_SEED
    return v if v != seed else (v + 1) % MAX_SEED


def tune(spec: str | StrategySpec, params: Sequence[str | tuple[str, Any]], vs: Sequence[str | tuple[str, float]],
         budget: int, seed: int = 0, *, game: str | None = None, players: int | None = None, rules=None,
         validation_seed: int | None = None, validation_share: float = 0.2, eta: int = 3, rungs: int = 4,
         min_deals: int = 0, brackets: int = 0, sampler: str = "tpe", racing: float = 0.05,
         compare: Sequence[str] = (), threads: int | None = None, backend: str = "local",
         backend_options: dict | None = None, check_strategies: bool = False,
         log: Callable[[str], None] | None = None, command: str | None = None) -> TuneResult:
    """Tune ``spec``'s ``params`` against the field ``vs`` within ``budget`` plays (module doc).

    ``params``: ``KEY=LOW..HIGH[:log]``, ``KEY=V1,V2,...`` or ``KEY`` (bool / choice), see
    sim.apps.tune.space; ``vs``: ``TEAM`` or ``TEAM@WEIGHT``; ``compare``: specs validated beside the
    defaults (e.g. a sweep's best point). ``seed`` decides the search's deals and the
    optimizer's draws; the validation plays the deals of ``validation_seed`` (by default one
    derived from ``seed``; it must differ from it). ``log`` receives a line per bracket.
    """
    t0 = time.perf_counter()
    g = get_game(game or DEFAULT_GAME)
    seed = check_seed(seed)
    vseed = derived_validation_seed(seed) if validation_seed is None else check_seed(validation_seed)
    if vseed == seed:
        raise TuneError(f"validation seed {vseed} is the search seed: the validation must use deals the search "
                        "never saw")
    if sampler not in SAMPLERS:
        raise TuneError(f"sampler {sampler!r} is not one of {', '.join(SAMPLERS)}")
    base = g.parse_spec(spec)
    space = parse_space(base, list(params))
    fld = parse_field(list(vs), g.name)
    cmp_specs = [g.parse_spec(c) for c in compare]
    evaluator = Evaluator(g.name, g.check_players(players), g.rules(rules), threads, backend,
                          dict(backend_options or {}), check_strategies)
    cand = Team(base, base)
    per_cand = evaluator.plays_per_deal(cand, fld)
    n_val = 2 + len(cmp_specs)
    dpg = evaluator.deals_per_game
    h2h = evaluator.experiment([cand, cand], fld, 0, dpg, 0, extra=[(0, 1)])
    vppd = n_val * per_cand + h2h.rotations(len(h2h.pairings) - 1) * (n_val - 1)
    plan = make_plan(budget, plays_per_candidate_deal=per_cand, validation_plays_per_deal=vppd,
                     deals_per_game=dpg, eta=eta, rungs=rungs, min_deals=min_deals, brackets=brackets,
                     validation_share=validation_share)
    settings = {"spec": str(base), "params": space.describe(), "vs": fld.texts(), "field": fld.describe(),
                "budget": budget, "seed": seed, "validation_seed": vseed, "validation_share": validation_share,
                "eta": eta, "rungs": rungs, "min_deals": plan.min_deals, "brackets_target": plan.target_brackets,
                "sampler": sampler, "racing": racing, "compare": [str(c) for c in cmp_specs], "game": g.name,
                "players": evaluator.players, "rules": evaluator.rules.to_dict(), "threads": threads,
                "backend": backend, "plan": plan.describe()}
    if command is None:
        command = command_line(settings, default_min_deals=min_deals == 0, default_brackets=brackets == 0)
    if log is not None:
        log(f"plan: {plan.describe()}")
    try:
        return _search_and_validate(space, fld, plan, evaluator, cmp_specs, settings, command, seed, vseed, sampler,
                                    racing, log, g, t0)
    finally:
        evaluator.close()


def _search_and_validate(space, fld, plan, evaluator, cmp_specs, settings, command, seed, vseed, sampler, racing,
                         log, g, t0) -> TuneResult:
    search = run_search(space, fld, plan, evaluator, seed, sampler, racing, log)
    complete = [t for t in search.trials if t["state"] == "complete"]
    best_row = max(complete, key=lambda t: t["value"])
    best = g.parse_spec(best_row["spec"])  # float values are rounded to 4 digits, so the text is exact
    if search.stopped == "interrupt":
        return TuneResult(space, fld, plan, search, best, None, settings, command, time.perf_counter() - t0,
                          _versions())
    if log is not None:
        log(f"validating {best} against the field and the defaults on {plan.validation_deals:,} fresh deal "
            f"indices (seed {vseed})")
    try:
        val = validate(evaluator, fld, best, space.baseline(), cmp_specs, plan.validation_deals, vseed)
    except (RunInterrupted, KeyboardInterrupt):  # keep the search: the report says the validation is missing
        search.stopped = "interrupt"
        val = None
    return TuneResult(space, fld, plan, search, best, val, settings, command, time.perf_counter() - t0, _versions())


def _versions() -> dict:
    import optuna


    return {**versions(), "optuna": optuna.__version__}


def command_line(settings: dict, default_min_deals: bool = True, default_brackets: bool = True) -> str:
    """The ``rummy-sim tune`` command that repeats a run with these settings."""
    parts = ["rummy-sim", "tune", settings["spec"]]
    for p in settings["params"]:
        parts += ["--param", p]
    for v in settings["vs"]:
        parts += ["--vs", v]
    parts += ["--budget", str(settings["budget"]), "--seed", str(settings["seed"]),
              "--validation-seed", str(settings["validation_seed"])]
    if settings["game"] != DEFAULT_GAME:
        parts += ["--game", settings["game"]]
    if settings["players"] != get_game(settings["game"]).default_players:
        parts += ["--players", str(settings["players"])]
    defaults = get_game(settings["game"]).rules().to_dict()
    for k, v in settings["rules"].items():
        if defaults.get(k) != v:
            parts += ["--rule", f"{k}={str(v).lower() if isinstance(v, bool) else v}"]
    for key, flag, default in (("validation_share", "--validation-share", 0.2), ("eta", "--eta", 3),
                               ("rungs", "--rungs", 4), ("sampler", "--sampler", "tpe"),
                               ("racing", "--racing", 0.05)):
        if settings[key] != default:
            parts += [flag, str(settings[key])]
    if not default_min_deals:
        parts += ["--min-deals", str(settings["min_deals"])]
    if not default_brackets:
        parts += ["--brackets", str(settings["brackets_target"])]
    for c in settings["compare"]:
        parts += ["--compare", c]
    if settings["backend"] != "local":
        parts += ["--backend", settings["backend"]]
    return " ".join(shlex.quote(p) for p in parts)
