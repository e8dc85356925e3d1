"""Python face of the compiled Gin Rummy engine: validate, run, collect.

``run_deals(specs, deals, seed)`` plays deals between two seated strategy specs and returns
a :class:`DealRun`: the raw result matrix (one int64 row per deal, columns C_* of
enums.py) and, in recording mode, the events of each deal (engine_nb.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np

from sim.games.gin import enums as E
from sim.games.gin.engine_nb import play_deals_kernel
from sim.games.gin.rules import RuleOptions, check_players
from sim.plugin.registry import registry_for
from sim.plugin.runs import (  # noqa: F401  (StrategyError re-exported)
    Engine,
    StrategyError,
    check_record,
    check_seed,
    deal_indices,
    seat_args,
    set_threads,
)
from sim.plugin.specs import StrategySpec

if TYPE_CHECKING:  # running deals never imports pandas
    import pandas as pd

GAME = "gin"
MAX_EVENTS_RECORD2 = 4_000
ENGINE = Engine(play_deals_kernel, E, MAX_EVENTS_RECORD2)


def parse_specs(specs: Sequence[str | StrategySpec] | str | StrategySpec) -> tuple[StrategySpec, ...]:
    """One validated Gin strategy spec per seat (2 seats, G1); a single spec sits in both."""
    if isinstance(specs, (str, StrategySpec)):
        specs = [specs, specs]
    reg = registry_for(GAME)
    parsed = tuple(reg.parse_spec(s) for s in specs)
    check_players(len(parsed))
    return parsed


def kernel_args(specs: tuple[StrategySpec, ...]):
    """(strategy ids, parameter matrix, two function slots) for the kernel."""
    return seat_args(specs)


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
        return 2

    def names(self) -> list[str]:
        return [str(s) for s in self.specs]

    def deal_events(self, i: int) -> np.ndarray:
        """The event rows of the i-th deal of this run."""
        return self.events[i, : self.event_counts[i]]


def run_deals(specs, deals, seed: int, rules: RuleOptions | dict | None = None, threads: int | None = None,
              record: int = 0, max_events: int | None = None, check: bool = False) -> DealRun:
    """Play ``deals`` (a count or deal indices) under ``seed`` with one spec per seat.

    Raises ValueError on bad input and StrategyError (a ValueError) naming strategy, seat,
    seed and deal when a strategy answers illegally. ``record`` 1: the moves made (deal logs);
    2: also every legal action before each move. ``check``: user strategies bounds-checked.
    """
    specs = parse_specs(specs)
    rules = rules if isinstance(rules, RuleOptions) else RuleOptions.from_dict(rules)
    rules_arr = rules.to_array(2)
    seed = check_seed(seed)
    idx = deal_indices(deals)
    record = check_record(record)
    set_threads(threads)
    res, ev, ev_n = ENGINE.play(seed, idx, rules_arr, kernel_args(specs), [str(s) for s in specs], record,
                                max_events, check)
    return DealRun(specs, rules, seed, idx, res, ev, ev_n)


def results_frame(run: DealRun) -> pd.DataFrame:
    """One row per deal: who acted first, end, knocker, discards, stock left, knock card and the
    per-seat columns ``{name}_s{seat}`` (score, deadwood, pickups, lay-offs)."""
    import pandas as pd

    r = run.results
    cols: dict[str, np.ndarray] = {
        "deal": r[:, E.C_DEAL],
        "first": r[:, E.C_FIRST].astype(np.int8),
        "end": pd.Categorical.from_codes(r[:, E.C_END], categories=list(E.END_NAMES)),
        "knocker": r[:, E.C_KNOCKER].astype(np.int8),
        "turns": r[:, E.C_TURNS].astype(np.int16),
        "stock_left": r[:, E.C_STOCK_LEFT].astype(np.int8),
        "knock_card": r[:, E.C_KNOCK_CARD].astype(np.int8),
        "undercut": r[:, E.C_UNDERCUT].astype(np.int8),
    }
    for name, c in E.SEAT_COLUMNS:
        for seat in range(2):
            cols[f"{name}_s{seat}"] = r[:, c + seat].astype(np.int32)
    df = pd.DataFrame(cols)
    for seat, spec in enumerate(run.names()):
        df[f"strategy_s{seat}"] = pd.Categorical([spec] * len(df))
    return df
