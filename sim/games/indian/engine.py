"""Python face of the compiled Indian Rummy engine: validate, run, collect.

``run_deals(specs, deals, seed)`` plays deals between 2..6 seated strategy specs (one
per seat, I1) and returns a :class:`DealRun`: the raw result matrix (one int64 row per
deal, columns C_* of enums.py) and, in recording mode, the events of each deal.
``results_frame`` turns the matrix into a DataFrame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np

from sim.games.indian import enums as E
from sim.games.indian.engine_nb import play_deals_kernel
from sim.games.indian.rules import RuleOptions, check_players
from sim.plugin.registry import registry_for
from sim.plugin.runs import (  # noqa: F401  (StrategyError, MAX_SEED and check_seed re-exported)
    MAX_SEED,
    Engine,
    StrategyError,
    check_record,
    check_seed,
    deal_indices,
    seat_args,
    set_threads,
)
from sim.plugin.specs import StrategySpec

if TYPE_CHECKING:  # running deals never imports pandas (first call < 1 s, issue 14)
    import pandas as pd

GAME = "indian"
MAX_EVENTS_RECORD2 = 100_000
ENGINE = Engine(play_deals_kernel, E, MAX_EVENTS_RECORD2)


def parse_specs(specs: Sequence[str | StrategySpec] | str | StrategySpec) -> tuple[StrategySpec, ...]:
    """One validated Indian strategy spec per seat (2..6 seats, I1)."""
    if isinstance(specs, (str, StrategySpec)):
        specs = [specs]
    reg = registry_for(GAME)
    parsed = tuple(reg.parse_spec(s) for s in specs)
    check_players(len(parsed))
    return parsed


def kernel_args(specs: tuple[StrategySpec, ...]):
    """(strategy ids, parameter matrix, six function slots) for the kernel: a seat's slot
    holds its strategy's kernel (a user function or a built-in's, sim.plugin.strategy.seat_function),
    an empty seat's ``unused_slot``."""
    return seat_args(specs, E.MAX_SEATS)


@dataclass
class DealRun:
    """Raw output of ``run_deals``."""

    specs: tuple[StrategySpec, ...]
    rules: RuleOptions
    seed: int
    deals: np.ndarray  # the deal indices played, in row order
    results: np.ndarray  # (n_deals, N_RESULT_COLS) int64
    events: np.ndarray | None = None  # (n_deals, max_events, EVENT_COLS) when recording
    event_counts: np.ndarray | None = None

    @property
    def players(self) -> int:
        return len(self.specs)

    def names(self) -> list[str]:
        return [str(s) for s in self.specs]

    def deal_events(self, i: int) -> np.ndarray:
        """The event rows of the i-th deal of this run."""
        return self.events[i, : self.event_counts[i]]


def run_deals(
    specs: Sequence[str | StrategySpec] | str,
    deals,
    seed: int,
    rules: RuleOptions | dict | None = None,
    threads: int | None = None,
    record: int = 0,
    max_events: int | None = None,
    check: bool = False,
) -> DealRun:
    """Play ``deals`` (a count or deal indices) under ``seed`` with one spec per seat.

    Raises ValueError on bad input (player count, decks that cannot deal, unknown rule
    option, seed, deals) and StrategyError (a ValueError) naming strategy, seat, seed
    and deal when a strategy answers illegally; the error carries every deal's results.
    ``check``: play user strategies bounds-checked, deal by deal on one thread
    (``--check-strategies``; sim.plugin.runs.run_checked), so an index past the end of an
    argument stops the run with a StrategyError naming the strategy.
    """
    specs = parse_specs(specs)
    players = len(specs)
    rules = rules if isinstance(rules, RuleOptions) else RuleOptions.from_dict(rules)
    rules_arr = rules.to_array(players)
    seed = check_seed(seed)
    idx = deal_indices(deals)
    record = check_record(record)
    set_threads(threads)
    res, ev, ev_n = ENGINE.play(seed, idx, rules_arr, kernel_args(specs), [str(s) for s in specs], record,
                                max_events, check)
    return DealRun(specs, rules, seed, idx, res, ev, ev_n)


def results_frame(run: DealRun) -> pd.DataFrame:
    """One row per deal: end, winner, turns and per-seat columns ``{name}_s{seat}``
    (points lost and gained, net, drop, wrong declaration, counters) for the seated seats."""
    import pandas as pd

    r = run.results
    p = run.players
    cols: dict[str, np.ndarray] = {
        "deal": r[:, E.C_DEAL],
        "dealer": r[:, E.C_DEALER].astype(np.int8),
        "players": r[:, E.C_PLAYERS].astype(np.int8),
        "end": pd.Categorical.from_codes(r[:, E.C_END], categories=list(E.END_NAMES)),
        "winner": r[:, E.C_WINNER].astype(np.int8),
        "turns": r[:, E.C_TURNS].astype(np.int32),
    }
    for name, c in E.SEAT_COLUMNS:
        for seat in range(p):
            cols[f"{name}_s{seat}"] = r[:, c + seat].astype(np.int32)
    for seat in range(p):
        cols[f"net_s{seat}"] = (r[:, E.C_GAIN + seat] - r[:, E.C_LOST + seat]).astype(np.int32)
    df = pd.DataFrame(cols)
    for seat, spec in enumerate(run.names()):
        df[f"strategy_s{seat}"] = pd.Categorical([spec] * len(df))
    return df
