"""What every ``rummy-sim`` command shares: its errors, the game option, rule options."""

from __future__ import annotations

import argparse
from typing import Sequence

PROG = "rummy-sim"
EXIT_USAGE = 2


class CliError(ValueError):
    """Bad command-line input detected by the CLI itself."""


def add_game_arguments(p: argparse.ArgumentParser, players: bool = True, default: str | None = "") -> None:
    """``--game NAME`` (and ``--players N``) on a command; ``default`` "" is the default game
    (sim.plugin.registry.DEFAULT_GAME), None means the game comes from the input."""
    from sim.plugin.registry import DEFAULT_GAME, game_names

    if default == "":
        default = DEFAULT_GAME

    p.add_argument("--game", default=default, metavar="NAME",
                   help=f"the game: {', '.join(game_names())} (default {default or 'from the input'})")
    if players:
        p.add_argument("--players", type=int, default=None, metavar="N",
                       help="players at the table (default: the game's; Persian Rummy has exactly 4)")


def add_load_argument(p: argparse.ArgumentParser) -> None:
    """``--load FILE.py``: user strategies, on every command that takes a strategy name."""
    p.add_argument("--load", action="append", default=None, metavar="FILE.py",
                   help="import a Python file that registers user strategies first (repeatable); see "
                        "strategies/<game>/examples/ and docs/strategies.md")


def add_strategy_arguments(p: argparse.ArgumentParser) -> None:
    """``--load FILE.py`` (user strategies) and ``--check-strategies``."""
    add_load_argument(p)
    p.add_argument("--check-strategies", action="store_true",
                   help="play user strategies with numba's bounds checks, one deal at a time: an index past "
                        "the end of obs, moves or params stops the run naming the strategy (slower)")


def load_strategy_files(args: argparse.Namespace) -> None:
    """Import every ``--load`` file (each registers its strategies) as a module numba's cache can
    find again in a later process (sim.plugin.user_files); errors name the file."""
    from sim.plugin.user_files import UserFileError, load_user_file

    for name in getattr(args, "load", None) or ():
        try:
            load_user_file(name)
        except UserFileError as e:
            raise CliError(str(e)) from None


def game_of(args: argparse.Namespace):
    """The game named by ``--game``, with a clear error for an unknown name."""
    from sim.plugin.registry import get_game

    return get_game(getattr(args, "game", None))


def parse_rules(items: Sequence[str] | None, game=None):
    """``KEY=VALUE`` strings -> the game's rule options, each value converted to the option's type
    (sim.experiment.rule_text)."""
    from sim.experiment.rule_text import rule_kinds, rule_value
    from sim.plugin.registry import get_game

    known = rule_kinds(game)
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
        try:
            values[key] = rule_value(known[key], raw)
        except ValueError as e:
            raise CliError(f"rule option {key}: {e}") from None
    return get_game(game).rules_type.from_dict(values)


def positive(value: int, option: str) -> int:
    if value <= 0:
        raise CliError(f"{option} must be a positive integer, got {value}")
    return value
