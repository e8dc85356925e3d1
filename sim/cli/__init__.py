"""The ``rummy-sim`` command line, one module per group of commands.

    rummy-sim                            the commands, one line each
    rummy-sim --version                  version, code hash (sim.core.version) and git commit of a checkout

    rummy-sim games                      the registered games, their players and rule options
    rummy-sim strategies [--game G]      a game's strategies and parameters
    rummy-sim log SPEC... --deals N --seed S --out FILE.jsonl [--game G] [--rule KEY=VALUE ...]
    rummy-sim show FILE.jsonl --deal K [--color]
    rummy-sim bench [--game G] [--json] [--deals N] [--quick] [--repeat N] [--spec NAME ...] [--runner]
    rummy-sim demo [--deals N] [--out DIR] [--seed S]
    rummy-sim match A B --deals N [--game G] [--players N] [--seed S] [--out FILE.parquet] [--json] ...
    rummy-sim tournament TEAM TEAM [TEAM ...] --deals N [...]
    rummy-sim sweep SPEC --vary KEY=V1,V2,... [--vary ...] --vs TEAM --deals N [...]
    rummy-sim run EXPERIMENT.toml [--deals N] [--threads T] [--out FILE.parquet] [--json] [--resume] [--force]
    rummy-sim report RESULTS.parquet --out DIR
    rummy-sim analyze LOG.jsonl --deal K --turn T [--decision draw|play|discard] [--samples N] [--policy SPEC] [--json]
    rummy-sim audit STRATEGY --decision take|hold|discard --deals N [--vs TEAM] [--out DIR]
    rummy-sim tune SPEC --param KEY=LOW..HIGH [...] --vs TEAM [...] --budget PLAYS [--seed S] [--out DIR]
    rummy-sim train SPEC --seed S --out DIR [--game G] [--rounds R] [--worlds W] [--decisions D] [--resume]

Modules: ``common`` (errors, --game, rule options), ``info`` (games, strategies,
bench, demo), ``deal_logs`` (log, show), ``experiments`` (match, tournament, sweep,
run, report). A spec is ``NAME`` or ``NAME:KEY=VALUE[,KEY=VALUE...]``; a Persian team
is a spec for both partners or ``SPEC+SPEC``. Bad input ends with
``rummy-sim: error: <message>`` on stderr and exit status 2; an interrupted experiment
(Ctrl-C) keeps its finished chunks and exits with status 130.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from sim.cli import analysis, check, deal_logs, experiments, info, train, tune
from sim.cli.common import EXIT_USAGE, PROG, CliError, parse_rules

__all__ = ["main", "build_parser", "parse_rules", "CliError"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Rummy Monte Carlo toolkit (numba-compiled engines): Persian Rummy and more."
    )
    parser.add_argument("--version", action=_Version, help="print the version (and the git commit of a checkout)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    deal_logs.add_commands(sub)
    info.add_commands(sub)
    experiments.add_commands(sub)
    analysis.add_commands(sub)
    tune.add_commands(sub)
    train.add_commands(sub)
    check.add_commands(sub)
    return parser


class _Version(argparse.Action):
    """``--version``: computed only when asked (it hashes the sources and may ask git)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from sim.core.version import version_text

        print(version_text())
        parser.exit()


def format_commands(parser: argparse.ArgumentParser) -> str:
    """Every command with its one-line help, what a bare ``rummy-sim`` prints."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    rows = [(a.dest, a.help or "") for a in sub._choices_actions]
    width = max(len(name) for name, _ in rows)
    lines = [f"usage: {PROG} COMMAND [options]   ({PROG} COMMAND --help for a command's options)", "", "commands:"]
    lines += [f"  {name:<{width}}  {text}" for name, text in rows]
    return "\n".join(lines) + "\n"


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
    if getattr(args, "func", None) is None:  # a bare rummy-sim (report's --command is another dest)
        sys.stdout.write(format_commands(parser))
        return 0
    try:
        return args.func(args)
    except FileNotFoundError as e:
        return _error(str(e) if e.filename is None else f"{e.filename}: {e.strerror or 'no such file'}")
    except OSError as e:
        return _error(f"{e.filename or ''}: {e.strerror or e}".lstrip(": "))
    except ValueError as e:  # StrategyError, bad specs, rules, seeds, games, missing deals, CliError
        return _error(str(e))
    except RuntimeError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
