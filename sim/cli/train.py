"""``rummy-sim train SPEC --game G --seed S --out DIR``: learn a strategy by expert iteration (issue 25).

Thin over the game's trainer (``Game.trainer``: strategies/persian/train.py, strategies/indian/train.py,
the latter at ``--players`` seats, the game's default when not given):
the game says whether it can train and which strategies (its ``TRAINS``); a game without a
trainer, another strategy or a bad budget ends in one line, exit 2, before anything is played.
"""

from __future__ import annotations

import argparse
import math

from sim.cli.common import CliError, add_game_arguments, game_of, positive


def train_options(args: argparse.Namespace, trainer) -> dict:
    """The trainer's keyword arguments from the command's options, every count and name checked."""
    per_deal = positive(args.per_deal, "--per-deal")
    kinds = []
    for word in args.kinds.split(","):
        if word.strip() not in trainer.KIND_NAMES:
            raise CliError(f"--kinds {args.kinds!r}: unknown decision kind {word.strip()!r}; "
                           f"known: {', '.join(trainer.KIND_NAMES)}")
        kinds.append(trainer.KIND_NAMES.index(word.strip()))
    if args.ridge < 0 or args.margin < 0:
        raise CliError(f"--ridge and --margin must be at least 0, got {args.ridge} and {args.margin}")
    decisions = positive(args.decisions, "--decisions")
    extra = {}
    if args.values is not None:  # a trainer without ``VALUES`` (only "true") is never handed the option
        known = getattr(trainer, "VALUES", ("true",))
        if args.values not in known:
            raise CliError(f"--values must be one of {', '.join(known)} for this game, got {args.values!r}")
        if hasattr(trainer, "VALUES"):
            extra["values"] = args.values
    return {
        "rounds": positive(args.rounds, "--rounds"), "deals": math.ceil(decisions / per_deal),
        "per_deal": per_deal, "samples": positive(args.worlds, "--worlds"), "seed": args.seed,
        "out": args.out, "eval_deals": positive(args.eval_deals, "--eval-deals"), "resume": args.resume,
        "kinds": tuple(sorted(set(kinds))), "margin": args.margin, "ridge": args.ridge, **extra,
    }


def cmd_train(args: argparse.Namespace) -> int:
    from sim.plugin.runs import check_seed

    game = game_of(args)
    trainer = game.trainer
    if trainer is None:
        raise CliError(f"train: learning a strategy is not built for {game.title} (--game {game.name})")
    spec = game.parse_spec(args.spec)
    if spec.name not in trainer.TRAINS or spec.values:
        raise CliError(f"train: {game.title} trains only {', '.join(trainer.TRAINS)} (no parameters), "
                       f"not {args.spec!r}")
    check_seed(args.seed)
    options = train_options(args, trainer)
    if getattr(trainer, "TAKES_PLAYERS", False):
        options["players"] = game.check_players(args.players)
    elif args.players is not None:
        game.check_players(args.players)  # a game of one table size: only that size is accepted
    state = trainer.train(**options)
    print(trainer.report(state), end="")
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser("train", help="learn a strategy from search values (expert iteration); a report per round",
                       description=__doc__.splitlines()[0])
    p.add_argument("spec", metavar="SPEC", help="the strategy to learn (Persian and Indian Rummy: learned)")
    p.add_argument("--rounds", type=int, default=1, metavar="R", help="rounds of expert iteration (default 1)")
    p.add_argument("--worlds", type=int, default=64, metavar="W",
                   help="stock orders (the true hands kept) every legal move of a decision is played out in "
                        "(default 64)")
    p.add_argument("--decisions", type=int, default=12000, metavar="D",
                   help="decisions valued per round (default 12,000)")
    p.add_argument("--per-deal", type=int, default=8, metavar="K",
                   help="decisions of the kinds learned valued per played deal (default 8): D / K deals a round")
    p.add_argument("--eval-deals", type=int, default=4000, metavar="N",
                   help="duplicate deal sets of the match against expert after each round (default 4,000)")
    p.add_argument("--kinds", default="draw", metavar="K,K",
                   help="the decision kinds learned, comma-separated (Persian Rummy: draw, play, discard; Indian "
                        "Rummy: draw, discard; default draw); every other kind plays expert's move")
    p.add_argument("--margin", type=float, default=0.0, metavar="PTS",
                   help="points a move must be fitted to gain over expert's before it is played (default 0)")
    p.add_argument("--ridge", type=float, default=1e-4, metavar="L",
                   help="ridge penalty of the fit, per fitted row (default 1e-4)")
    p.add_argument("--values", default=None, metavar="HOW",
                   help="how a move is valued (Persian Rummy): true (default: played out from the true hands, "
                        "the stock redrawn) or view (worlds drawn from the seat's view, as `audit` and `decision` "
                        "value moves)")
    p.add_argument("--seed", type=int, required=True, help="everything is drawn from it: same seed, same weights")
    p.add_argument("--out", required=True, metavar="DIR", help="state.json, weights.npz and report.md go here")
    p.add_argument("--resume", action="store_true", help="continue the rounds already in DIR")
    add_game_arguments(p)
    p.set_defaults(func=cmd_train)
