"""The ``rummy-sim`` command line.

    rummy-sim log SPEC0 SPEC1 [SPEC2 SPEC3] --deals N --seed S --out FILE.jsonl [--rule KEY=VALUE ...] [--force]
    rummy-sim show FILE.jsonl --deal K [--color]
    rummy-sim strategies
    rummy-sim bench [--json] [--deals N] [--quick]
    rummy-sim demo [--deals N] [--out DIR] [--seed S]
    rummy-sim match A B --deals N [--seed S] [--threads T] [--out FILE.parquet] [--json] [--sprt DELTA] ...
    rummy-sim tournament TEAM TEAM [TEAM ...] --deals N [...]
    rummy-sim sweep SPEC --vary KEY=V1,V2,... [--vary ...] --vs TEAM --deals N [...]
    rummy-sim run EXPERIMENT.toml [--deals N] [--threads T] [--out FILE.parquet] [--json] [--resume] [--force]

A spec is ``NAME`` or ``NAME:KEY=VALUE[,KEY=VALUE...]``; with two specs the first
plays seats 0 and 2 (team 0) and the second seats 1 and 3. A team (match,
tournament, sweep) is a spec for both partners or ``SPEC+SPEC``. Bad input ends with
``rummy-sim: error: <message>`` on stderr and exit status 2; an interrupted experiment
(Ctrl-C) keeps its finished chunks and exits with status 130.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import fields
from pathlib import Path
from typing import Sequence

PROG = "rummy-sim"
EXIT_USAGE = 2


class CliError(ValueError):
    """Bad command-line input detected by the CLI itself."""


# --- argument helpers -----------------------------------------------------------------------


def _parse_bool(text: str) -> bool:
    low = text.strip().lower()
    if low in ("true", "yes", "1"):
        return True
    if low in ("false", "no", "0"):
        return False
    raise ValueError


def parse_rules(items: Sequence[str] | None):
    """``KEY=VALUE`` strings -> RuleOptions, each value converted to the option's type."""
    from sim.persian.rules import RuleOptions

    defaults = RuleOptions()
    known = {f.name: type(getattr(defaults, f.name)) for f in fields(RuleOptions)}
    values: dict[str, object] = {}
    for item in items or ():
        key, eq, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not eq or not key:
            raise CliError(f"--rule {item!r}: expected KEY=VALUE, e.g. --rule last_card=discard")
        if key not in known:
            raise CliError(f"--rule {item!r}: unknown rule option {key!r}; known: {', '.join(sorted(known))}")
        if key in values:
            raise CliError(f"--rule: rule option {key!r} given twice")
        kind = known[key]
        try:
            if kind is bool:
                values[key] = _parse_bool(raw)
            elif kind is int:
                values[key] = int(raw)
            else:
                values[key] = raw
        except ValueError:
            what = "true or false" if kind is bool else "an integer"
            raise CliError(f"rule option {key}: {raw!r} is not {what}") from None
    return RuleOptions.from_dict(values)


def _positive(value: int, option: str) -> int:
    if value <= 0:
        raise CliError(f"{option} must be a positive integer, got {value}")
    return value


# --- commands ---------------------------------------------------------------------------------


def cmd_log(args: argparse.Namespace) -> int:
    from sim.persian.engine import Table, check_seed
    from sim.persian.log import write_jsonl
    from sim.persian.recording import record_logs

    if len(args.specs) not in (2, 4):
        raise CliError(f"log needs 2 or 4 strategy specs (seats 0-3), got {len(args.specs)}")
    deals = _positive(args.deals, "--deals")
    seed = check_seed(args.seed)
    table = Table.of(args.specs)
    rules = parse_rules(args.rule)
    out = Path(args.out)
    if out.exists() and not args.force:
        raise CliError(f"{out} already exists; pass --force to overwrite it")
    if not out.parent.is_dir():
        raise CliError(f"directory {out.parent} does not exist")
    logs = record_logs(table, deals, seed, rules, threads=args.threads)
    write_jsonl(out, logs)
    ends = Counter(d["end"] for d in logs)
    totals = [sum(d["score"]["total"][t] for d in logs) / len(logs) for t in (0, 1)]
    print(
        f"wrote {len(logs)} deals to {out} (seed {seed}; seats: {', '.join(table.names())}): "
        f"{ends['out']} out, {ends['passes']} passes, {ends['cap']} cap; "
        f"mean total team 0 {totals[0]:.1f}, team 1 {totals[1]:.1f}"
    )
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from sim.persian.log import read_deal, validate_log
    from sim.persian.show import render_deal

    path = Path(args.file)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    log = read_deal(path, args.deal)
    try:
        validate_log(log)
    except ValueError as e:
        raise CliError(f"{path}, deal {args.deal}: not a valid rummy-log/1 Persian deal: {e}") from None
    sys.stdout.write(render_deal(log, color=args.color))
    return 0


def _param_range(p) -> str:
    if p.kind is bool:
        return "true/false"
    if p.kind is str:
        return "|".join(p.choices)
    return f"{p.format(p.low)}..{p.format(p.high)}"


def _param_default(p) -> str:
    return p.format(p.default)


def format_strategies() -> str:
    """Every registered strategy with its description and parameters."""
    from strategies.registry import get_strategy, strategy_names

    out = []
    for name in strategy_names():
        info = get_strategy(name)
        out.append(name)
        out.append(f"    {' '.join(info.doc.split()) or '(no description)'}")
        if not info.params:
            out.append("    parameters: none")
            continue
        out.append("    parameters:")
        for p in info.params:
            out.append(
                f"      {p.name}: {p.kind.__name__}, range {_param_range(p)}, default {_param_default(p)}"
                + (f" - {p.help}" if p.help else "")
            )
    out.append("")
    out.append("Use a strategy as NAME or NAME:KEY=VALUE[,KEY=VALUE...], e.g. greedy:max_extra=20")
    return "\n".join(out) + "\n"


def cmd_strategies(args: argparse.Namespace) -> int:
    sys.stdout.write(format_strategies())
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from sim import bench

    if args.deals is not None:
        _positive(args.deals, "--deals")

    def progress(msg: str) -> None:
        print(f"  {msg}", file=sys.stderr, flush=True)

    if args.runner:
        result = bench.run_runner_bench(args.deals, args.quick, progress=None if args.json else progress)
        print(json.dumps(result) if args.json else bench.format_runner(result), end="" if not args.json else "\n")
        return 0
    result = bench.run_bench(args.deals, args.quick, progress=None if args.json else progress)
    if args.json:
        print(json.dumps(result))
    else:
        sys.stdout.write(bench.format_human(result))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    _positive(args.deals, "--deals")
    from sim.persian.engine import check_seed

    check_seed(args.seed)
    try:
        from sim.demo import run_demo
    except ModuleNotFoundError as e:
        if e.name != "sim.demo":
            raise
        raise CliError("the demo is not available in this installation (sim.demo is missing)") from None
    return int(run_demo(args) or 0)


# --- experiments: match, tournament, sweep, run ---------------------------------------------------


def _run_options(args: argparse.Namespace) -> dict:
    """Checked options common to the experiment commands."""
    if args.threads is not None and args.threads < 1:
        raise CliError(f"--threads must be a positive integer, got {args.threads}")
    if getattr(args, "deals", None) is not None:
        _positive(args.deals, "--deals")
    if getattr(args, "chunk", None) is not None and args.chunk < 1:
        raise CliError(f"--chunk must be a positive integer, got {args.chunk}")
    if args.resume and args.out is None:
        raise CliError("--resume needs --out FILE.parquet (the run to continue)")
    if args.resume and args.force:
        raise CliError("--resume and --force contradict each other: choose one")
    progress = False if (args.json or args.no_progress) else None
    return {"out": args.out, "threads": args.threads, "resume": args.resume, "force": args.force,
            "progress": progress}


def _experiment_options(args: argparse.Namespace) -> dict:
    from sim.match import experiment_options

    if args.margin is not None and not args.margin > 0:
        raise CliError(f"--margin must be a positive number of points, got {args.margin}")
    if args.first_deal is not None and args.first_deal < 0:
        raise CliError(f"--first-deal must be a non-negative integer, got {args.first_deal}")
    sprt = None
    if getattr(args, "sprt", None) is not None:
        from sim.experiment import SprtSpec

        sprt = SprtSpec(args.sprt, args.sprt_alpha, args.sprt_beta)
    from sim.persian.engine import check_seed

    return {"seed": check_seed(args.seed), **experiment_options(
        parse_rules(args.rule), args.chunk or 0, sprt, args.margin or 1.0, args.first_deal or 0)}


def _report(run, as_json: bool) -> None:
    """Print the result of any experiment as text or one JSON object."""
    from sim.match import format_summary, match_summary
    from sim.sweep import format_sweep, sweep_json
    from sim.tournament import format_tournament, tournament_json

    kind = run.experiment.kind
    if as_json:
        obj = {"match": match_summary, "tournament": tournament_json, "sweep": sweep_json}[kind](run)
        print(json.dumps(obj, allow_nan=False))
        return
    print({"match": format_summary, "tournament": format_tournament, "sweep": format_sweep}[kind](run))
    if run.out is not None and run.complete:
        size = Path(run.out).stat().st_size
        print(f"results: {run.out} ({int(run.summary['plays'].sum()):,} plays, {size / 1e6:,.1f} MB, "
              f"{size / max(run.deals_played, 1):,.0f} bytes per deal; schema in docs/results.md)")


def _execute(exp, options: dict, as_json: bool) -> int:
    from sim.runner import RunInterrupted, run_experiment

    try:
        run = run_experiment(exp, **options)
    except RunInterrupted as e:
        _report(e.result, as_json)
        print(f"{PROG}: {e}", file=sys.stderr)
        return 130
    _report(run, as_json)
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    from sim.experiment import match

    options = _run_options(args)
    exp = match(args.a, args.b, args.deals, **_experiment_options(args))
    return _execute(exp, options, args.json)


def cmd_tournament(args: argparse.Namespace) -> int:
    from sim.experiment import tournament

    options = _run_options(args)
    exp = tournament(args.teams, args.deals, **_experiment_options(args))
    return _execute(exp, options, args.json)


def cmd_sweep(args: argparse.Namespace) -> int:
    from sim.experiment import parse_vary, sweep

    options = _run_options(args)
    exp = sweep(args.spec, parse_vary(args.vary), args.vs, args.deals, **_experiment_options(args))
    return _execute(exp, options, args.json)


def cmd_run(args: argparse.Namespace) -> int:
    from sim.experiment import load_toml

    path = Path(args.file)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such experiment file")
    options = _run_options(args)
    spec = load_toml(path, deals=args.deals)
    if options["threads"] is None:
        options["threads"] = spec.threads
    if options["out"] is None:
        options["out"] = spec.out
    if options["resume"] and options["out"] is None:
        raise CliError("--resume needs an output: --out FILE.parquet or out = ... in the experiment file")
    return _execute(spec.experiment, options, args.json)


def _add_run_arguments(p: argparse.ArgumentParser, deals_required: bool = True) -> None:
    if deals_required:
        p.add_argument("--deals", type=int, required=True, metavar="N",
                       help="deal indices per pairing (each played in 2 or 4 rotations)")
        p.add_argument("--seed", type=int, default=0, metavar="S", help="seed, 0..2**63-1 (default 0)")
        p.add_argument("--rule", action="append", metavar="KEY=VALUE", help="rule option, repeatable (see log)")
        p.add_argument("--chunk", type=int, default=None, metavar="C",
                       help="deal indices per chunk (default: about 200,000 plays per chunk)")
        p.add_argument("--margin", type=float, default=None, metavar="PTS",
                       help="report the deal sets needed to detect this difference (default 1 point)")
        p.add_argument("--first-deal", type=int, default=None, metavar="D",
                       help="first deal index (default 0; a multiple of deals_per_game)")
    else:
        p.add_argument("--deals", type=int, default=None, metavar="N", help="override the file's deals")
    p.add_argument("--threads", type=int, default=None, metavar="T", help="numba threads (default: all)")
    p.add_argument("--out", default=None, metavar="FILE.parquet",
                   help="write the per-play results (chunks go to FILE.parquet.parts/ while running)")
    p.add_argument("--resume", action="store_true", help="continue the interrupted run of --out")
    p.add_argument("--force", action="store_true", help="replace an existing --out (once the new run is done)")
    p.add_argument("--json", action="store_true", help="print one JSON object (no progress bar)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (it shows only on a terminal)")


# --- parser and entry point -----------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Persian Rummy Monte Carlo toolkit (numba-compiled engine)."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("log", help="play deals in recording mode and write their rummy-log/1 JSONL",
                       description="Play deals with the compiled engine in recording mode and write one "
                                   "rummy-log/1 JSON object per deal. With two specs the first plays seats "
                                   "0 and 2 (team 0), the second seats 1 and 3 (team 1).")
    p.add_argument("specs", nargs="+", metavar="SPEC",
                   help="strategy per seat: NAME or NAME:KEY=VALUE[,KEY=VALUE...] (2 or 4 of them)")
    p.add_argument("--deals", type=int, required=True, metavar="N", help="number of deals (0..N-1)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed, 0..2**63-1 (default 0)")
    p.add_argument("--out", required=True, metavar="FILE.jsonl", help="output file")
    p.add_argument("--rule", action="append", metavar="KEY=VALUE",
                   help="rule option, repeatable: last_card=meld|discard, out_bonus=INT, "
                        "four_of_a_kind_double=true|false, deals_per_game=INT, turn_cap=INT")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.add_argument("--threads", type=int, default=None, metavar="T", help="numba threads (default: all)")
    p.set_defaults(func=cmd_log)

    p = sub.add_parser("show", help="replay one deal of a log file in the terminal")
    p.add_argument("file", metavar="FILE.jsonl")
    p.add_argument("--deal", type=int, required=True, metavar="K", help="the deal's index (its \"deal\" field)")
    p.add_argument("--color", action="store_true", help="colour the suits (ANSI)")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("strategies", help="list the strategies and their parameters")
    p.set_defaults(func=cmd_strategies)

    p = sub.add_parser("bench", help="measure engine speed, compile time and JIT speed-up")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--deals", type=int, default=None, metavar="N",
                   help="deals per speed run (default 200,000 on all threads, 100,000 on one)")
    p.add_argument("--quick", action="store_true", help="small runs (5,000 deals) for a fast check")
    p.add_argument("--runner", action="store_true",
                   help="measure the experiment runner's overhead over the bare engine (default 1,000,000 deals)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("demo", help="a greedy vs random match with a short report")
    p.add_argument("--deals", type=int, default=20_000, metavar="N", help="deals (default 20000)")
    p.add_argument("--out", default="reports/demo", metavar="DIR", help="report directory (default reports/demo)")
    p.add_argument("--seed", type=int, default=2026, metavar="S", help="seed (default 2026)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("match", help="a duplicate match of team A against team B, with statistics",
                       description="Team A against team B on duplicate deals: every deal index with each team "
                                   "in both seat pairs (and partners swapped when they differ). Prints the mean "
                                   "A - B points per deal with a paired 95% CI, game win rates, effect size, "
                                   "deals needed and the variance reduction of duplication.")
    p.add_argument("a", metavar="A", help="team A: SPEC or SPEC+SPEC")
    p.add_argument("b", metavar="B", help="team B: SPEC or SPEC+SPEC")
    _add_run_arguments(p)
    p.add_argument("--sprt", type=float, default=None, metavar="DELTA",
                   help="sequential test H0: 0 vs H1: DELTA points per deal, checked after each chunk")
    p.add_argument("--sprt-alpha", type=float, default=0.05, metavar="A", help="SPRT type I error (0.05)")
    p.add_argument("--sprt-beta", type=float, default=0.05, metavar="B", help="SPRT type II error (0.05)")
    p.set_defaults(func=cmd_match)

    p = sub.add_parser("tournament", help="round robin of teams: crosstable and ranking with CIs",
                       description="Every pair of teams plays a duplicate match on the same deals. Prints the "
                                   "crosstable (Holm-adjusted) and a ranking by margin over the field with CIs.")
    p.add_argument("teams", nargs="+", metavar="TEAM", help="SPEC or SPEC+SPEC (at least 2)")
    _add_run_arguments(p)
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("sweep", help="a parameter grid of one strategy against a fixed opponent",
                       description="Every combination of the --vary values applied to SPEC, each against --vs, "
                                   "on the same deals.")
    p.add_argument("spec", metavar="SPEC", help="the strategy whose parameters vary")
    p.add_argument("--vary", action="append", required=True, metavar="KEY=V1,V2,...",
                   help="parameter values, repeatable (the grid is their product)")
    p.add_argument("--vs", required=True, metavar="TEAM", help="the fixed opponent: SPEC or SPEC+SPEC")
    _add_run_arguments(p)
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("run", help="run an experiment described in a TOML file",
                       description="Run a match, tournament or sweep described in a TOML file "
                                   "(see experiments/example.toml).")
    p.add_argument("file", metavar="EXPERIMENT.toml")
    _add_run_arguments(p, deals_required=False)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("report", help="write a Markdown + HTML report (figures, tables) of a results file",
                       description="Read a results parquet (or an unfinished run's .parts folder) and write "
                                   "report.md, report.html, PNG figures and CSV tables into --out.")
    p.add_argument("results", metavar="RESULTS.parquet")
    p.add_argument("--out", required=True, metavar="DIR", help="report directory (created if missing)")
    p.add_argument("--title", default=None, help="report title (default: from the experiment)")
    p.add_argument("--command", default=None, help="the command that made the results (default: rebuilt)")
    p.add_argument("--elapsed", type=float, default=None, metavar="SECONDS", help="measured run time to state")
    p.add_argument("--machine", default=None, help="machine the run took --elapsed on, e.g. '2 cores'")
    p.add_argument("--notes", default=None, help="a paragraph added under 'How it was made'")
    p.set_defaults(func=lambda a: __import__("sim.report", fromlist=["cmd_report"]).cmd_report(a))
    return parser


def _error(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``rummy-sim``; returns the exit status (0 ok, 2 bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse already printed usage and message
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    try:
        return args.func(args)
    except FileNotFoundError as e:
        return _error(str(e) if e.filename is None else f"{e.filename}: {e.strerror or 'no such file'}")
    except OSError as e:
        return _error(f"{e.filename or ''}: {e.strerror or e}".lstrip(": "))
    except ValueError as e:  # StrategyError, bad specs, rules, seeds, missing deals, CliError
        return _error(str(e))
    except RuntimeError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
