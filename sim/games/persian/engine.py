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
from sim.games.persian.engine_nb import play_deals, play_deals_serial
from sim.games.persian.rules import RuleOptions
from sim.plugin.registry import parse_spec
from sim.plugin.runs import (  # noqa: F401  (StrategyError, MAX_SEED, check_seed re-exported)
    MAX_SEED,
    StrategyError,
    check_seed,
    deal_indices,
    raise_on_errors,
    run_checked,
    set_threads,
)
from sim.plugin.specs import StrategySpec
from sim.plugin.strategy import SID_USER, seat_function

if TYPE_CHECKING:  # running deals never imports pandas (first call < 1 s, issue 14)
    import pandas as pd


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
        infos = [s.info for s in self.specs]
        sids = np.array([i.sid for i in infos], dtype=np.int64)
        params = np.ascontiguousarray(np.stack([s.param_array() for s in self.specs]))
        fns = tuple(seat_function(i) for i in infos)
        return sids, params, fns


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
    if record not in (0, 1, 2):
        raise ValueError(f"record must be 0, 1 or 2, got {record!r}")
    set_threads(threads)
    sids, params, fns = table.kernel_args()
    res = np.zeros((idx.size, E.N_RESULT_COLS), dtype=np.int64)
    if record:
        n_ev = max_events or (E.MAX_EVENTS_PER_DEAL if record == 1 else 200_000)
        ev = np.empty((idx.size, n_ev, E.EVENT_COLS), dtype=np.int64)
        ev_n = np.zeros(idx.size, dtype=np.int64)
    else:
        ev = np.zeros((1, 1, E.EVENT_COLS), dtype=np.int64)
        ev_n = np.zeros(1, dtype=np.int64)
    user_seats = [s for s, sid in enumerate(sids) if sid == SID_USER]
    if check and user_seats:
        run_checked(play_deals_serial(), seed, idx, rules.to_array(), sids, params, fns, res, ev, ev_n, record,
                    table.names(), user_seats)
    else:
        play_deals(seed, idx, rules.to_array(), sids, params, fns, res, ev, ev_n, record)
    run = DealRun(table, rules, seed, res, ev if record else None, ev_n if record else None)
    raise_on_errors(run.results, idx, run.seed, run.table.names(), E)
    if record and (ev_n < 0).any():
        raise RuntimeError(f"event buffer too small ({ev.shape[1]} rows per deal); pass a larger max_events")
    return run


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
