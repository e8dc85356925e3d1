"""``rummy-sim log`` (record deals as rummy-log/1 JSONL) and ``rummy-sim show`` (replay one)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sim.cli.common import (CliError, add_game_arguments, add_strategy_arguments, game_of, load_strategy_files,
                             parse_rules, positive)


def cmd_log(args: argparse.Namespace) -> int:
    from sim.plugin.runs import check_seed

    load_strategy_files(args)
    game = game_of(args)
    specs = list(args.specs)
    if len(game.sides(game.default_players)[0]) == 1:  # every player alone: one spec per seat, or one for all
        players = game.check_players(args.players if args.players is not None else
                                     (len(specs) if len(specs) > 1 else None))
        if len(specs) == 1:
            specs = specs * players
        elif len(specs) != players:
            raise CliError(f"log --players {players} needs 1 or {players} strategy specs, got {len(specs)}")
    elif args.players is not None:
        game.check_players(args.players)
    deals = positive(args.deals, "--deals")
    seed = check_seed(args.seed)
    parsed = [game.parse_spec(s) for s in specs]
    rules = parse_rules(args.rule, game)
    out = Path(args.out)
    if out.exists() and not args.force:
        raise CliError(f"{out} already exists; pass --force to overwrite it")
    if not out.parent.is_dir():
        raise CliError(f"directory {out.parent} does not exist")
    logs = game.record_logs(parsed, deals, seed, rules, threads=args.threads, check=args.check_strategies)
    game.write_logs(out, logs)
    seats = ", ".join(logs[0]["strategies"]) if logs else ""
    print(f"wrote {len(logs)} deals to {out} (seed {seed}; seats: {seats}): {game.log_summary(logs)}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from sim.plugin.registry import get_game
    from sim.plugin.logfile import read_deal

    path = Path(args.file)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    log = read_deal(path, args.deal)
    name = args.game or log.get("game")
    if not isinstance(name, str):
        raise CliError(f"{path}, deal {args.deal}: not a valid rummy-log/1 deal: it names no game "
                       "(field 'game'); pass --game")
    if args.game and log.get("game") != args.game:
        raise CliError(f"{path}, deal {args.deal}: a {log.get('game')!r} deal, not a {args.game!r} one")
    game = get_game(name)
    try:
        game.validate_log(log)
    except ValueError as e:
        raise CliError(f"{path}, deal {args.deal}: not a valid rummy-log/1 {game.title} deal: {e}") from None
    sys.stdout.write(game.render_deal(log, color=args.color))
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser("log", help="play deals in recording mode and write their rummy-log/1 JSONL",
                       description="Play deals with the compiled engine in recording mode and write one "
                                   "rummy-log/1 JSON object per deal. Persian Rummy: with two specs the first "
                                   "plays seats 0 and 2 (team 0), the second seats 1 and 3 (team 1).")
    p.add_argument("specs", nargs="+", metavar="SPEC",
                   help="strategy per seat: NAME or NAME:KEY=VALUE[,KEY=VALUE...] (Persian: 2 or 4 of them)")
    p.add_argument("--deals", type=int, required=True, metavar="N", help="number of deals (0..N-1)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed, 0..2**63-1 (default 0)")
    p.add_argument("--out", required=True, metavar="FILE.jsonl", help="output file")
    p.add_argument("--rule", action="append", metavar="KEY=VALUE",
                   help="rule option, repeatable (`rummy-sim games` lists each game's); Persian: "
                        "last_card=meld|discard, out_bonus=INT, four_of_a_kind_double=true|false, "
                        "deals_per_game=INT, turn_cap=INT")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.add_argument("--threads", type=int, default=None, metavar="T", help="numba threads (default: all)")
    add_game_arguments(p)
    add_strategy_arguments(p)
    p.set_defaults(func=cmd_log)

    p = sub.add_parser("show", help="replay one deal of a log file in the terminal")
    p.add_argument("file", metavar="FILE.jsonl")
    p.add_argument("--deal", type=int, required=True, metavar="K", help="the deal's index (its \"deal\" field)")
    p.add_argument("--color", action="store_true", help="colour the suits (ANSI)")
    add_game_arguments(p, players=False, default=None)
    p.set_defaults(func=cmd_show)
