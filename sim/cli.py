"""The ``rummy-sim`` command line.

    rummy-sim log SPEC0 SPEC1 [SPEC2 SPEC3] --deals N --seed S --out FILE.jsonl [--rule KEY=VALUE ...] [--force]
    rummy-sim show FILE.jsonl --deal K [--color]
    rummy-sim strategies
    rummy-sim bench [--json] [--deals N] [--quick]
    rummy-sim demo [--deals N] [--out DIR] [--seed S]

A spec is ``NAME`` or ``NAME:KEY=VALUE[,KEY=VALUE...]``; with two specs the first
plays seats 0 and 2 (team 0) and the second seats 1 and 3. Bad input ends with
``rummy-sim: error: <message>`` on stderr and exit status 2.
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
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("demo", help="a greedy vs random match with a short report")
    p.add_argument("--deals", type=int, default=20_000, metavar="N", help="deals (default 20000)")
    p.add_argument("--out", default="reports/demo", metavar="DIR", help="report directory (default reports/demo)")
    p.add_argument("--seed", type=int, default=2026, metavar="S", help="seed (default 2026)")
    p.set_defaults(func=cmd_demo)
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
