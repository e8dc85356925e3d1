"""Deal logs (``rummy-log/1``) written by the compiled engine in recording mode.

``record_logs`` runs ``run_deals(..., record=1)``: the very kernels that produce the
statistics, asked to also write one event row per action. Each deal's events are
then turned into its JSON object by ``build_deal_log``, which replays them against
the dealt cards (re-created with ``shuffled_deck``) and raises on any mismatch.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from sim.games.persian import enums as E
from sim.games.persian.engine import DealRun, Table, deal_indices, run_deals
from sim.games.persian.engine_nb import shuffled_deck
from sim.games.persian.log import build_deal_log
from sim.games.persian.rules import RuleOptions
from sim.plugin.specs import StrategySpec

# Deals per run_deals call: each recorded deal reserves MAX_EVENTS_PER_DEAL event rows
# (160 kB), so long runs are recorded in chunks to keep memory flat.
CHUNK = 1024


def deal_cards(seed: int, deal: int) -> tuple[list[list[int]], int, list[int]]:
    """(hands per seat, first discard, stock top first) of one deal, as card ids (P3)."""
    deck = [int(c) for c in shuffled_deck(np.int64(seed), np.int64(deal))]
    hs = E.HAND_SIZE
    hands = [deck[hs * s : hs * (s + 1)] for s in range(E.N_SEATS)]
    first = hs * E.N_SEATS
    return hands, deck[first], deck[first + 1 :]


def result_of(row: np.ndarray) -> dict:
    """The ``result`` mapping ``build_deal_log`` expects, from one result row."""

    def pair(col: int) -> list[int]:
        return [int(row[col]), int(row[col + 1])]

    return {
        "end": E.END_NAMES[int(row[E.C_END])],
        "out_seat": int(row[E.C_OUT_SEAT]),
        "table": pair(E.C_TABLE),
        "hand": pair(E.C_HAND),
        "bonus": pair(E.C_BONUS),
        "total": pair(E.C_TOTAL),
    }


def _logs_of_run(run: DealRun, idx: np.ndarray) -> Iterator[dict]:
    names = run.table.names()
    rules = run.rules.to_dict()
    for i, deal in enumerate(idx):
        deal = int(deal)
        hands, discard, stock = deal_cards(run.seed, deal)
        row = run.results[i]
        yield build_deal_log(
            seed=run.seed,
            deal=deal,
            dealer=int(row[E.C_DEALER]),
            rules=rules,
            strategies=names,
            hands=hands,
            discard=discard,
            stock=stock,
            events=run.deal_events(i),
            result=result_of(row),
        )


def record_logs(
    table: Table | Sequence[str | StrategySpec] | str,
    deals,
    seed: int,
    rules: RuleOptions | dict | None = None,
    threads: int | None = None,
    check: bool = False,
) -> list[dict]:
    """Play ``deals`` (a count, a range or deal indices) under ``seed`` in recording mode
    and return one ``rummy-log/1`` object per deal, in the order of the indices.

    Raises ValueError for bad input, StrategyError if a strategy moves illegally.
    """
    if not isinstance(table, Table):
        table = Table.of(table)
    rules = rules if isinstance(rules, RuleOptions) else RuleOptions.from_dict(rules)
    idx = deal_indices(deals)
    logs: list[dict] = []
    for start in range(0, idx.size, CHUNK):
        part = idx[start : start + CHUNK]
        run = run_deals(table, part, seed, rules=rules, threads=threads, record=1, check=check)
        logs.extend(_logs_of_run(run, part))
    return logs
