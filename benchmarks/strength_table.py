"""The strength table of every built-in against strong fields (issue 25, item 4), as Markdown.

    .venv/bin/python benchmarks/strength_table.py --game persian --vs learned --vs expert \
        [--deals 20000] [--slow-deals 1000] [--seed 20261204] [--players 4] [--threads 2]

For each built-in of the game (``rummy-sim strategies``) and each ``--vs`` field B, one duplicate
match ``rummy-sim match A B --deals N --seed S`` (Indian Rummy: A in each seat against a field of B,
once per ``--players``), and the row "A - B points per deal [95% CI] (deal sets)". Search
strategies (kind "search", a few hundred deals a second) play ``--slow-deals``. A strategy never
meets itself. The seed is printed with the table, so every cell is one command to rerun.
"""

from __future__ import annotations

import argparse
import time

from sim.games import get_game
from sim.studies.match import play_match


def cell(a: str, b: str, deals: int, seed: int, game: str, players: int | None, threads: int) -> str:
    """'+m [lo, hi]' of one match, with the deal sets when they are not the table's default."""
    r = play_match(a, b, deals, seed, threads=threads, game=game, players=players, keep_plays=False,
                   progress=False).row
    return f"{r['mean_diff']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}]"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="persian")
    ap.add_argument("--vs", action="append", help="the field B (repeatable; default learned and expert)")
    ap.add_argument("--players", type=int, action="append", help="Indian Rummy: table sizes (repeatable)")
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--slow-deals", type=int, default=1_000, help="deals for search strategies")
    ap.add_argument("--seed", type=int, default=20261204)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", action="append", help="only these strategies A, or specs such as mc_search:base=learned (repeatable)")
    args = ap.parse_args(argv)
    g = get_game(args.game)
    fields = args.vs or ["learned", "expert"]
    sizes = args.players or [None]
    names = args.only or list(g.strategies.names())
    cols = [(b, n) for b in fields for n in sizes]
    head = " | ".join(f"vs {b}" + (f", {n} players" if n else "") for b, n in cols)
    print(f"{args.game}, seed {args.seed}: `rummy-sim match A B --game {args.game} --deals N --seed {args.seed}`"
          f" (N = {args.deals:,}; search strategies {args.slow_deals:,})\n")
    print(f"| A | {head} |\n| --- |" + " --- |" * len(cols), flush=True)
    t0 = time.perf_counter()
    for a in names:
        slow = g.strategies.get(a.split(":")[0]).kind == "search"  # a spec: its strategy's kind
        deals = args.slow_deals if slow else args.deals
        cells = ["" if a == b else cell(a, b, deals, args.seed, args.game, n, args.threads) for b, n in cols]
        print(f"| {a}{' (' + format(deals, ',') + ')' if slow else ''} | " + " | ".join(cells) + " |", flush=True)
    print(f"\n{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
