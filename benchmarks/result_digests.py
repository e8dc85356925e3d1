"""Digests of the Persian engine's result rows, to show that a speed change changed no result.

Usage (once per source tree, then compare the two outputs; ``diff`` prints nothing when equal)::

    PYTHONPATH=OLD_TREE .venv/bin/python benchmarks/result_digests.py > old.txt
    PYTHONPATH=NEW_TREE .venv/bin/python benchmarks/result_digests.py > new.txt
    diff old.txt new.txt

Every built-in strategy x4 (mc_search on a few deals) and two mixed tables, on 1 and 2
threads: one line per (table, threads) with the SHA-1 of the raw result rows. The
fixture test (tests/persian/test_fixtures.py) pins recorded rows in CI; this script
covers more tables and deals in a few seconds, for the A/B of an engine change.
"""

from __future__ import annotations

import argparse
import hashlib

from sim.games.persian.engine import run_deals

BUILTINS = ("random", "greedy", "deep_taker", "quad_holder", "defensive", "expert")
MIXED = (("greedy", "expert", "random", "defensive"), ("quad_holder", "deep_taker", "expert", "greedy"))


def digests(deals: int, seed: int, search_deals: int) -> list[str]:
    """One line per (table, threads): the table, the thread count and the SHA-1 of its rows."""
    tables = [((s,) * 4, deals) for s in BUILTINS] + [(t, deals) for t in MIXED]
    tables.append((("mc_search", "greedy", "mc_search", "greedy"), search_deals))
    out = []
    for table, n in tables:
        for threads in (1, 2):
            rows = run_deals(list(table), n, seed, threads=threads).results
            out.append(f"{','.join(table)} deals={n} threads={threads} {hashlib.sha1(rows.tobytes()).hexdigest()}")
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--search-deals", type=int, default=20, help="deals of the mc_search table")
    args = ap.parse_args(argv)
    print("\n".join(digests(args.deals, args.seed, args.search_deals)))


if __name__ == "__main__":
    main()
