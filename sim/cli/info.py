"""``rummy-sim games``, ``strategies``, ``bench`` and ``demo``: what there is, how fast it runs."""

from __future__ import annotations

import argparse
import json
import sys

from sim.cli.common import CliError, add_game_arguments, add_load_argument, game_of, load_strategy_files, positive


def _param_range(p) -> str:
    if p.kind is bool:
        return "true/false"
    if p.kind is str:
        return "|".join(p.choices)
    return f"{p.format(p.low)}..{p.format(p.high)}"


def format_strategies(game=None) -> str:
    """Every registered strategy of ``game`` with its kind (baseline, heuristic, search, learned or
    user: sim.plugin.specs.STRATEGY_KINDS), its description and parameters."""
    from sim.plugin.registry import get_game

    registry = get_game(game).strategies
    out = []
    for name in registry.names():
        info = registry.get(name)
        out.append(f"{name}  [{info.kind}]")
        out.append(f"    {' '.join(info.doc.split()) or '(no description)'}")
        if not info.params:
            out.append("    parameters: none")
            continue
        out.append("    parameters:")
        for p in info.params:
            out.append(
                f"      {p.name}: {p.kind.__name__}, range {_param_range(p)}, default {p.format(p.default)}"
                + (f" - {p.help}" if p.help else "")
            )
    out.append("")
    first = next(((n, registry.get(n).params[0]) for n in registry.names() if registry.get(n).params), None)
    example = f"{first[0]}:{first[1].name}={first[1].format(first[1].default)}" if first else "greedy"
    out.append(f"Use a strategy as NAME or NAME:KEY=VALUE[,KEY=VALUE...], e.g. {example}")
    return "\n".join(out) + "\n"


def format_games() -> str:
    """Every registered game: player counts, sides, rule options with defaults, strategies."""
    from sim.plugin.registry import game_names, get_game

    out = []
    for name in game_names():
        d = get_game(name).describe()
        out.append(f"{name}: {d['title']} ({d['rules']})")
        counts = d["players"]
        out.append(f"    players: {', '.join(str(n) for n in counts)} (default {d['default_players']})")
        n = d["default_players"]
        sides = d["sides"][n]
        kind = "each seat alone" if all(len(s) == 1 for s in sides) else \
            "; ".join(f"side {k} = seats {', '.join(map(str, s))}" for k, s in enumerate(sides))
        out.append(f"    sides at {n} players: {kind}")
        if d.get("seatings"):
            out.append(f"    seatings (--seating): {', '.join(d['seatings'])} (default {d['seatings'][0]})")
        out.append("    rule options: " + ", ".join(f"{k}={_rule_text(v)}" for k, v in d["rule_options"].items()))
        out.append(f"    strategies: {', '.join(d['strategies'])}")
    return "\n".join(out) + "\n"


def _rule_text(v) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def cmd_games(args: argparse.Namespace) -> int:
    load_strategy_files(args)
    if args.json:
        from sim.plugin.registry import game_names, get_game

        print(json.dumps([get_game(n).describe() for n in game_names()]))
    else:
        sys.stdout.write(format_games())
    return 0


def cmd_strategies(args: argparse.Namespace) -> int:
    load_strategy_files(args)
    sys.stdout.write(format_strategies(game_of(args)))
    return 0


def _show(result: dict, as_json: bool, render) -> None:
    """Print the bench's JSON object on one line, or its table (``render(result)``)."""
    if as_json:
        print(json.dumps(result))
    else:
        sys.stdout.write(render(result))


def _bench_dask(args: argparse.Namespace, say) -> int:
    from sim.apps.bench.dask_backend import format_dask, run_dask_bench

    if args.repeat is not None or args.spec:
        raise CliError("--repeat and --spec apply to the deals/s bench, not to --backend dask")
    keeps = ("plays", "summary") if args.keep == "both" else (args.keep,)
    result = run_dask_bench(args.deals, args.quick, progress=say, keeps=keeps)
    _show(result, args.json, format_dask)
    return 0


def _bench_runner(args: argparse.Namespace, game, say) -> int:
    from sim.apps.bench.runner import format_runner, run_runner_bench
    from sim.plugin.registry import get_game

    default = get_game(None)  # the runner bench plays matches of the default game
    if game.name != default.name:
        raise CliError(f"--runner measures the runner on {default.title} matches; leave out --game")
    if args.spec:
        raise CliError("--spec applies to the deals/s bench; --runner always plays greedy vs random")
    extra = {} if args.repeat is None else {"repeats": args.repeat}
    result = run_runner_bench(args.deals, args.quick, progress=say, **extra)
    _show(result, args.json, format_runner)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from sim.apps.bench.speed import format_speed, run_speed_bench

    if args.deals is not None:
        positive(args.deals, "--deals")
    if args.repeat is not None:
        positive(args.repeat, "--repeat")
    game = game_of(args)

    def progress(msg: str) -> None:
        print(f"  {msg}", file=sys.stderr, flush=True)

    say = None if args.json else progress
    if getattr(args, "backend", None) == "dask":
        return _bench_dask(args, say)
    if args.runner:
        return _bench_runner(args, game, say)
    result = run_speed_bench(game, args.deals, args.quick, progress=say, repeat=args.repeat or 1, specs=args.spec)
    _show(result, args.json, lambda r: format_speed(r, game))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    positive(args.deals, "--deals")
    from sim.plugin.runs import check_seed

    check_seed(args.seed)
    try:
        from sim.apps.demo import run_demo
    except ModuleNotFoundError as e:
        if e.name != "sim.apps.demo":
            raise
        raise CliError("the demo is not available in this installation (sim.apps.demo is missing)") from None
    return int(run_demo(args) or 0)


def add_commands(sub) -> None:
    p = sub.add_parser("games", help="list the games with their player counts, rule options and strategies")
    p.add_argument("--json", action="store_true", help="print a JSON list instead of the text")
    add_load_argument(p)
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("strategies", help="list the strategies of a game and their parameters")
    add_game_arguments(p, players=False)
    add_load_argument(p)
    p.set_defaults(func=cmd_strategies)

    p = sub.add_parser("bench", help="measure engine speed, compile time and JIT speed-up")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--deals", type=int, default=None, metavar="N",
                   help="deals per speed run (default 200,000 on all threads, 100,000 on one)")
    p.add_argument("--quick", action="store_true", help="small runs (5,000 deals) for a fast check")
    p.add_argument("--repeat", type=int, default=None, metavar="N",
                   help="measure every deals/s cell N times, round robin over the cells, and report the "
                        "median with min and max (default 1; with --runner: its alternating runs, default 3)")
    p.add_argument("--spec", action="append", default=None, metavar="NAME",
                   help="bench only this strategy (repeatable), e.g. --spec greedy --spec expert")
    p.add_argument("--backend", choices=("local", "dask"), default="local",
                   help="dask: deals/s of 1 and 2 single-threaded Dask workers vs a local run, per-chunk overhead")
    p.add_argument("--keep", choices=("plays", "summary", "both"), default="both",
                   help="with --backend dask: what the measured runs keep (default both, one after the other)")
    p.add_argument("--runner", action="store_true",
                   help="measure the experiment runner's overhead over the bare engine (default 1,000,000 deals)")
    add_game_arguments(p, players=False)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("demo", help="a greedy vs random match with a short report")
    p.add_argument("--deals", type=int, default=20_000, metavar="N", help="deals (default 20000)")
    p.add_argument("--out", default="reports/demo", metavar="DIR", help="report directory (default reports/demo)")
    p.add_argument("--seed", type=int, default=2026, metavar="S", help="seed (default 2026)")
    p.set_defaults(func=cmd_demo)
