"""Python face of the compiled Persian Rummy engine: validate, run, collect.

``run_deals`` plays deals between four seated strategy specs and returns the raw
result matrix (one int64 row per deal, columns C_* of enums.py) and, in recording
mode, the events of each deal. ``results_frame`` turns the matrix into a DataFrame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np

from sim.games.persian import enums as E
from sim.games.persian.engine_nb import play_deals_kernel
from sim.games.persian.rules import RuleOptions
from sim.plugin.registry import parse_spec
from sim.plugin.runs import (  # noqa: F401  (StrategyError, MAX_SEED, check_seed re-exported)
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

ENGINE = Engine(play_deals_kernel, E, 200_000)  # record 2: up to 200,000 event rows a deal

@dataclass(frozen=True)
class Table:
    """Four seated strategy specs (seat s plays ``specs[s]``; team = seat % 2, P2)."""

    specs: tuple[StrategySpec, StrategySpec, StrategySpec, StrategySpec]

    @classmethod
    def of(cls, specs: Sequence[str | StrategySpec] | str | StrategySpec) -> "Table":
        """One spec for every seat, two specs (team 0 = seats 0 and 2, team 1 = 1 and 3), or four."""
        if isinstance(specs, (str, StrategySpec)):
            specs = [specs]
        parsed = [parse_spec(s) for s in specs]
        if len(parsed) == 1:
            parsed = parsed * 4
        elif len(parsed) == 2:
            parsed = [parsed[0], parsed[1], parsed[0], parsed[1]]
        elif len(parsed) != 4:
            raise ValueError(f"a table needs 1, 2 or 4 strategy specs, got {len(parsed)}")
        return cls(tuple(parsed))

    def names(self) -> list[str]:
        return [str(s) for s in self.specs]

    def kernel_args(self):
        """(strategy ids, parameter matrix, strategy functions) for the kernels: every
        seat's function slot holds its strategy's kernel, a user function or a built-in's
        (sim.plugin.strategy.seat_function)."""
        return seat_args(self.specs)


@dataclass
class DealRun:
    """Raw output of ``run_deals``."""

    table: Table
    rules: RuleOptions
    seed: int
    results: np.ndarray  # (n_deals, N_RESULT_COLS) int64
    events: np.ndarray | None = None  # (n_deals, max_events, EVENT_COLS) when recording
    event_counts: np.ndarray | None = None

    def deal_events(self, i: int) -> np.ndarray:
        """The event rows of the i-th deal of this run."""
        return self.events[i, : self.event_counts[i]]


def run_deals(
    table: Table | Sequence[str | StrategySpec] | str,
    deals,
    seed: int,
    rules: RuleOptions | dict | None = None,
    threads: int | None = None,
    record: int = 0,
    max_events: int | None = None,
    check: bool = False,
) -> DealRun:
    """Play ``deals`` (a count or deal indices) under ``seed`` and return their results.

    Raises StrategyError (a ValueError) naming strategy, seat, seed, deal and move when
    a strategy answers illegally; the error carries every other deal's results.
    ``check``: play user strategies bounds-checked, deal by deal on one thread
    (``--check-strategies``; sim.plugin.runs.run_checked), so an index past the end of an
    argument stops the run with a StrategyError naming the strategy.
    """
    if not isinstance(table, Table):
        table = Table.of(table)
    rules = rules if isinstance(rules, RuleOptions) else RuleOptions.from_dict(rules)
    seed = check_seed(seed)
    idx = deal_indices(deals)
    record = check_record(record)
    set_threads(threads)
    res, ev, ev_n = ENGINE.play(seed, idx, rules.to_array(), table.kernel_args(), table.names(), record,
                                max_events, check)
    return DealRun(table, rules, seed, res, ev, ev_n)


def results_frame(run: DealRun) -> pd.DataFrame:
    """One row per deal: scores per team (P8), end, turns and per-seat counters."""
    import pandas as pd

    r = run.results
    cols: dict[str, np.ndarray] = {
        "deal": r[:, E.C_DEAL],
        "dealer": r[:, E.C_DEALER].astype(np.int8),
        "end": pd.Categorical.from_codes(r[:, E.C_END], categories=list(E.END_NAMES)),
        "out_seat": r[:, E.C_OUT_SEAT].astype(np.int8),
        "turns": r[:, E.C_TURNS].astype(np.int32),
    }
    for part, c in (("table", E.C_TABLE), ("hand", E.C_HAND), ("bonus", E.C_BONUS), ("total", E.C_TOTAL)):
        for team in range(2):
            cols[f"{part}_{team}"] = r[:, c + team].astype(np.int32)
    for name, c in E.COUNTER_NAMES:
        for seat in range(4):
            cols[f"{name}_s{seat}"] = r[:, c + seat].astype(np.int32)
    df = pd.DataFrame(cols)
    for seat, spec in enumerate(run.table.names()):
        df[f"strategy_s{seat}"] = pd.Categorical([spec] * len(df))
    return df
