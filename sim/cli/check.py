"""``rummy-sim check-strategy A B``: two strategies on the same decisions (issue 27, item 3).

Exit 0 when they agree on every decision of the deals, 1 at the first difference (printed:
deal, turn, seat, the decision, both moves, the legal moves and the view), 2 on bad input.
"""

from __future__ import annotations

import argparse
import sys

from sim.cli.common import add_game_arguments, add_load_argument, game_of, load_strategy_files, positive


def cmd_check_strategy(args: argparse.Namespace) -> int:
    from sim.apps.check_strategy import agreement_lines, check_pair

    load_strategy_files(args)
    game = game_of(args)
    deals = positive(args.deals, "--deals")
    r = check_pair(args.a, args.b, game.name, deals=deals, seed=args.seed, players=args.players)
    sys.stdout.write("\n".join(agreement_lines(r, args.seed, game.name)) + "\n")
    return 0 if r.difference is None else 1


def add_commands(sub) -> None:
    p = sub.add_parser("check-strategy", help="play A and ask B on the same decisions; report the first difference",
                       description=__doc__.splitlines()[0])
    p.add_argument("a", metavar="A", help="the strategy that plays every seat (a spec: NAME[:KEY=VALUE,...])")
    p.add_argument("b", metavar="B", help="the strategy asked at each of A's decisions")
    p.add_argument("--deals", type=int, default=100, metavar="N", help="deals to play (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the deals' seed (default 0)")
    add_game_arguments(p)
    add_load_argument(p)
    p.set_defaults(func=cmd_check_strategy)
