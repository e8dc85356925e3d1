"""Digests of every game's result rows, to show that a change changed no result.

Usage (once per source tree, then compare the two outputs; ``diff`` prints nothing when equal)::

    PYTHONPATH=OLD_TREE .venv/bin/python benchmarks/result_digests.py > old.txt
    PYTHONPATH=NEW_TREE .venv/bin/python benchmarks/result_digests.py > new.txt
    diff old.txt new.txt

One line per (game, table, threads) with the SHA-1 of the raw result rows, and for a few
tables the SHA-1 of the recorded events (the deal logs' source):

* Persian Rummy: every built-in x4 (mc_search on a few deals) and two mixed tables;
* Indian Rummy: every built-in at 2, 4 and 6 players (mc_search on a few deals), two mixed
  tables, and a two-deck table with the cut joker's rules;
* Gin Rummy: every built-in heads-up, three mixed pairs, three rule variants, one recorded.

Each on 1 and 2 threads. The fixture test (tests/persian/test_fixtures.py) and the Indian
determinism tests pin recorded rows in CI; this script covers more tables and deals in
about a minute (after the kernels are compiled), for the before/after of any engine,
strategy or runner change. ``--game`` limits it to one game.
"""

from __future__ import annotations

import argparse
import hashlib

from sim.games import get_game

PERSIAN = ("random", "greedy", "deep_taker", "quad_holder", "defensive", "expert")
PERSIAN_MIXED = (("greedy", "expert", "random", "defensive"), ("quad_holder", "deep_taker", "expert", "greedy"))
INDIAN = ("random", "greedy", "dropper", "joker_keeper", "defensive", "expert")
INDIAN_MIXED = (("expert", "greedy", "dropper", "random"), ("defensive", "joker_keeper", "expert", "greedy", "dropper", "random"))
GIN = ("random", "greedy", "simple", "knocker", "expert")
GIN_MIXED = (("simple", "expert"), ("greedy", "knocker"), ("random", "simple"))
GIN_RULES = ({"knock_card": 5}, {"oklahoma": True}, {"gin_bonus": 0, "undercut_bonus": 0})


def _sha(array) -> str:
    return hashlib.sha1(array.tobytes()).hexdigest()


def tables(game: str, deals: int, search_deals: int) -> list[tuple[tuple[str, ...], int, dict, bool]]:
    """(seats, deals, rules, record) of every table digested for ``game``."""
    if game == "persian":
        out = [((s,) * 4, deals, {}, False) for s in PERSIAN] + [(t, deals, {}, False) for t in PERSIAN_MIXED]
        out.append((("mc_search", "greedy", "mc_search", "greedy"), search_deals, {}, False))
        out.append((PERSIAN_MIXED[0], deals // 10, {}, True))
        return out
    if game == "gin":
        out = [((s,) * 2, deals, {}, False) for s in GIN] + [(t, deals, {}, False) for t in GIN_MIXED]
        out += [(GIN_MIXED[0], deals // 3, rules, False) for rules in GIN_RULES]
        out.append((GIN_MIXED[0], deals // 10, {}, True))
        return out
    out = []
    for players in (2, 4, 6):
        per = deals // 5 if players == 2 else deals // 10
        out += [((s,) * players, per, {}, False) for s in INDIAN]
        out.append((("mc_search",) + ("greedy",) * (players - 1), search_deals // 2, {}, False))
    out += [(t, deals // 10, {}, False) for t in INDIAN_MIXED]
    out.append((INDIAN_MIXED[0], deals // 20, {"decks": 2}, False))
    out.append((INDIAN_MIXED[1], deals // 50, {}, True))
    return out


def digests(game: str, deals: int, seed: int, search_deals: int) -> list[str]:
    """One line per (table, threads): the game, the table, the thread count and the SHA-1 of its rows."""
    g = get_game(game)
    out = []
    for table, n, rules, record in tables(game, deals, search_deals):
        for threads in (1, 2):
            run = g.run_deals(list(table), n, seed, rules=rules or None, threads=threads, record=int(record))
            line = f"{game} {','.join(table)} deals={n} rules={rules or '-'} threads={threads} {_sha(run.results)}"
            if record:
                used = [run.deal_events(i) for i in range(len(run.results))]  # the rows past a deal's count are scratch
                line += f" events={hashlib.sha1(b''.join(e.tobytes() for e in used)).hexdigest()}"
            out.append(line)
    return out


def _has_game(name: str) -> bool:
    """Whether the tree on PYTHONPATH has ``name`` (an older tree may predate a game)."""
    try:
        get_game(name)
    except (KeyError, ValueError, ImportError):
        return False
    return True


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--search-deals", type=int, default=20, help="deals of the mc_search tables")
    ap.add_argument("--game", action="append", choices=("persian", "indian", "gin"),
                    help="only this game (repeatable; default: every game the tree has)")
    args = ap.parse_args(argv)
    for game in args.game or [g for g in ("persian", "indian", "gin") if _has_game(g)]:
        print("\n".join(digests(game, args.deals, args.seed, args.search_deals)), flush=True)


if __name__ == "__main__":
    main()
