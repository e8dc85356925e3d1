"""``rummy-sim tune``: the best parameters of a strategy against a field (sim.apps.tune, docs/tuning.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sim.cli.common import PROG, CliError, add_game_arguments, add_strategy_arguments, load_strategy_files, parse_rules


def _budget(text: str) -> int:
    """Plays: 2000000, 2_000_000 or 2e6."""
    try:
        value = float(text.replace("_", "")) if any(c in text for c in "eE.") else int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of plays") from None
    if value != int(value) or value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number of plays")
    return int(value)


def run_tune(options: dict, out: str | None, as_json: bool, quiet: bool, command: str | None = None) -> int:
    """Run ``sim.apps.tune.tune(**options)``, print the answer, write the report into ``out``."""
    from sim.apps.tune import tune
    from sim.apps.tune.report import answer_lines, summary_dict

    def log(line: str) -> None:
        if not quiet:
            print(f"{PROG} tune: {line}", file=sys.stderr, flush=True)

    result = tune(**options, log=log, command=command)
    if out is not None:
        path = result.write_report(out)
        log(f"report: {path}")
    if as_json:
        print(json.dumps(summary_dict(result), allow_nan=False))
    else:
        print("\n".join(answer_lines(result)))
        if result.validation is not None:
            v = result.validation
            print(f"validation ({result.validation_run.deals:,} deal indices, seed {result.validation_run.seed}; "
                  "points per deal, paired 95% CI):")
            for _, r in v.iterrows():
                what = r["comparison"].replace("_", " ")
                print(f"  {what:<13}{r['spec']}  vs  {r['against']}: {r['mean_diff']:+.2f} "
                      f"[{r['ci_low']:+.2f}, {r['ci_high']:+.2f}]")
        print(f"reproduce: {result.command}")
    return 130 if result.search.stopped == "interrupt" else 0


def cmd_tune(args: argparse.Namespace) -> int:
    from sim.plugin.registry import get_game
    from sim.plugin.runs import check_seed

    load_strategy_files(args)
    game = get_game(args.game)
    if args.threads is not None and args.threads < 1:
        raise CliError(f"--threads must be a positive integer, got {args.threads}")
    options = {
        "spec": args.spec, "params": args.param, "vs": args.vs, "budget": args.budget,
        "seed": check_seed(args.seed), "game": game.name, "players": args.players,
        "rules": parse_rules(args.rule, game), "validation_seed": args.validation_seed,
        "validation_share": args.validation_share, "eta": args.eta, "rungs": args.rungs,
        "min_deals": args.min_deals, "brackets": args.brackets, "sampler": args.sampler, "racing": args.racing,
        "compare": args.compare or (), "threads": args.threads, "backend": args.backend,
        "backend_options": _backend_options(args), "check_strategies": args.check_strategies,
    }
    return run_tune(options, args.out, args.json, args.json or args.quiet)


def _backend_options(args: argparse.Namespace) -> dict:
    out = {}
    for flag, key in (("--scheduler", "scheduler"), ("--workers", "workers")):
        value = getattr(args, key)
        if value is not None:
            if args.backend != "dask":
                raise CliError(f"{flag} goes with --backend dask")
            out[key] = value
    if "workers" in out and out["workers"] < 1:
        raise CliError(f"--workers must be a positive integer, got {out['workers']}")
    return out


def add_commands(sub) -> None:
    from sim.apps.tune.samplers import SAMPLERS

    p = sub.add_parser(
        "tune", help="the best parameters of a strategy against a field, validated on fresh deals",
        description="Search the parameters of SPEC against the field (--vs, one or several teams, TEAM@WEIGHT for "
                    "a weighted mixture) with optuna and successive halving on common random numbers, then "
                    "re-play the best on fresh deals (another seed) against the field and the defaults with "
                    "paired CIs. docs/tuning.md explains the method and the report.")
    p.add_argument("spec", metavar="SPEC", help="the strategy (fixed values in NAME:KEY=VALUE,... stay fixed)")
    p.add_argument("--param", action="append", required=True, metavar="KEY=LOW..HIGH",
                   help="a tuned parameter, repeatable: KEY=LOW..HIGH (int or float), KEY=LOW..HIGH:log, "
                        "KEY=V1,V2,... (a choice of values), or KEY alone (a bool or choice parameter)")
    p.add_argument("--vs", action="append", required=True, metavar="TEAM[@W]",
                   help="an opponent team of the field, repeatable; @W weights it in the mixture (default 1)")
    p.add_argument("--budget", type=_budget, required=True, metavar="PLAYS",
                   help="plays (engine deals, every seating counted) for search and validation together, "
                        "e.g. 20000000 or 2e7; never exceeded")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the search's deals and draws (0)")
    p.add_argument("--validation-seed", type=int, default=None, metavar="S",
                   help="seed of the validation's deals (default: derived from --seed; must differ from it)")
    p.add_argument("--validation-share", type=float, default=0.2, metavar="F",
                   help="share of the budget for the validation (0.2)")
    p.add_argument("--compare", action="append", metavar="SPEC",
                   help="also validate the best against this spec (e.g. a sweep's best point), repeatable")
    p.add_argument("--sampler", choices=SAMPLERS, default="tpe", help="optuna sampler (tpe)")
    p.add_argument("--eta", type=int, default=3, help="successive-halving factor: 1/eta of a rung goes on (3)")
    p.add_argument("--rungs", type=int, default=4, help="rungs per bracket; eta**(rungs-1) candidates each (4)")
    p.add_argument("--min-deals", type=int, default=0, metavar="D",
                   help="deal indices of the first rung (default: from the budget, about 8 brackets)")
    p.add_argument("--brackets", type=int, default=0, metavar="B",
                   help="brackets the first rung's size is planned for (default 8; more if racing saves plays)")
    p.add_argument("--racing", type=float, default=0.05, metavar="ALPHA",
                   help="drop a promoted candidate whose paired CI at this level vs the rung's leader is below 0 "
                        "(0.05; 0 = off)")
    p.add_argument("--rule", action="append", metavar="KEY=VALUE", help="rule option, repeatable")
    add_game_arguments(p)
    p.add_argument("--threads", type=int, default=None, metavar="T", help="numba threads (default: all)")
    p.add_argument("--backend", choices=("local", "dask"), default="local",
                   help="where the chunks of every evaluation run (local)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="Dask scheduler address (with --backend dask; default $RUMMY_SIM_SCHEDULER, else a "
                        "LocalCluster here, started once for the whole run)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="worker processes of that LocalCluster (default: one per core)")
    p.add_argument("--out", default=None, metavar="DIR", help="write the report (Markdown, CSV, PNG) into DIR")
    p.add_argument("--json", action="store_true", help="print one JSON object (no progress lines)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    add_strategy_arguments(p)
    p.set_defaults(func=cmd_tune)


def cmd_run_tune(args: argparse.Namespace, path: Path) -> int:
    """``rummy-sim run FILE.toml`` for a ``kind = "tune"`` file: its options, --threads / --out / --json
    override the file's threads / out."""
    from sim.apps.tune.toml import load_tune_toml

    for flag, given in (("--deals", args.deals is not None), ("--resume", args.resume), ("--force", args.force)):
        if given:
            raise CliError(f"{flag} does not apply to a tune file ({path}: kind = \"tune\"; its budget is "
                           "tune.budget)")
    load_strategy_files(args)
    options, out = load_tune_toml(path)
    if args.game is not None and args.game != options["game"]:
        raise CliError(f"--game {args.game}: {path} describes a {options['game']!r} tuning run (its field 'game')")
    if args.threads is not None:
        if args.threads < 1:
            raise CliError(f"--threads must be a positive integer, got {args.threads}")
        options["threads"] = args.threads
    options["check_strategies"] = args.check_strategies
    quiet = args.json or args.no_progress
    return run_tune(options, args.out or out, args.json, quiet)
