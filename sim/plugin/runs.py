"""What every game's engine wrapper shares: seeds, deal indices, threads, strategy errors,
the seats' kernel arguments, the event buffers and the threaded run of the deal kernel.

A game's ``engine.py`` validates its input with these and plays its deals through an
:class:`Engine` (its compiled serial ``play_deals_kernel``, whose signature
:func:`play_deals_sig` gives, and its enums), which raises :class:`StrategyError` when a
strategy answered illegally.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import ModuleType
from typing import Callable, Sequence

import numba
import numpy as np
from numba import njit, types

from sim.plugin.pystrategy import clear_failures, has_python, take_failure
from sim.plugin.specs import StrategySpec
from sim.plugin.strategy import SID_USER, STRATEGY_SIG, seat_function, unused_slot

MAX_SEED = 2**63 - 1


class StrategyError(ValueError):
    """A strategy returned an illegal move. ``results`` keeps every finished deal."""

    def __init__(self, message: str, results: np.ndarray):
        super().__init__(message)
        self.results = results


def raise_on_errors(results: np.ndarray, deals: np.ndarray, seed: int, names: list[str], enums) -> None:
    """Raise StrategyError for the first deal a strategy abandoned with an illegal index.

    ``enums`` is the game's enums module: its C_END / END_ERROR / C_ERR_* columns and
    DECISION_NAMES. The error names strategy, seat, decision, the value, seed and deal,
    and carries every deal's result rows."""
    E = enums
    bad = np.flatnonzero(results[:, E.C_END] == E.END_ERROR)
    failure = take_failure()
    if bad.size == 0:
        return
    row = results[bad[0]]
    seat = int(row[E.C_ERR_SEAT])
    decision = E.DECISION_NAMES[int(row[E.C_ERR_DECISION])]
    if failure is not None:  # a Python strategy (sim.plugin.pystrategy): one thread, so deals fail in order
        turn = int(failure["obs"][E.O_TURN])
        raise StrategyError(
            f"strategy {failure['name']!r} in seat {seat} failed at deal {int(deals[bad[0]])}, turn {turn}, "
            f"a {decision} decision: it {failure['what']} (seed {seed})", results)
    msg = (
        f"strategy {names[seat]!r} in seat {seat} made an illegal move at a {decision} "
        f"decision: it returned move index {int(row[E.C_ERR_VALUE])} but only 0..{int(row[E.C_ERR_N_MOVES]) - 1} "
        f"are legal (seed {seed}, deal {int(deals[bad[0]])})"
    )
    if bad.size > 1:
        msg += f"; {bad.size - 1} more deal(s) failed the same way"
    raise StrategyError(msg, results)


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed {seed!r} is not an integer")
    if not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"seed {seed} is outside [0, 2**63 - 1]")
    return int(seed)


def deal_indices(deals) -> np.ndarray:
    """Deal indices from a count, a range or an array (validated, int64)."""
    if isinstance(deals, (int, np.integer)) and not isinstance(deals, bool):
        if deals <= 0:
            raise ValueError(f"number of deals must be positive, got {deals}")
        return np.arange(int(deals), dtype=np.int64)
    arr = np.ascontiguousarray(np.asarray(deals, dtype=np.int64))
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("deals must be a positive count or a non-empty 1-D list of deal indices")
    if (arr < 0).any():
        raise ValueError("deal indices must be non-negative")
    return arr


def set_threads(threads: int | None) -> int:
    """Use ``threads`` numba threads (None: all cores); returns the count in force."""
    top = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        threads = top
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    threads = min(int(threads), top)
    if os.environ.get("NUMBA_DISABLE_JIT") != "1":
        numba.set_num_threads(threads)
    return threads


def check_record(record) -> int:
    """The recording level: 0 (results only), 1 (the moves made) or 2 (also what was legal)."""
    if isinstance(record, bool) or record not in (0, 1, 2):
        raise ValueError(f"record must be 0, 1 or 2, got {record!r}")
    return int(record)


def seat_args(specs: Sequence[StrategySpec], slots: int | None = None):
    """(strategy ids, parameter matrix, function slots) for a game's kernels: seat s's slot
    holds its strategy's kernel, a user function or a built-in's (strategy.seat_function);
    a game with ``slots`` function slots for fewer seats fills the rest with ``unused_slot``."""
    infos = [s.info for s in specs]
    sids = np.array([i.sid for i in infos], dtype=np.int64)
    params = np.ascontiguousarray(np.stack([s.param_array() for s in specs]))
    fns = [seat_function(i) for i in infos]
    fns += [unused_slot] * ((slots or len(fns)) - len(fns))
    return sids, params, tuple(fns)


def play_deals_sig(seat_fns):
    """The signature of a game's serial deal kernel ``play_deals_kernel``, the same in every
    game but for the tuple of function slots (``strategy.seat_fns_type(seats)``)."""
    return types.void(
        types.int64,  # seed
        types.int64[::1],  # deal indices
        types.int64[::1],  # rules
        types.int64[::1],  # strategy id per seat
        types.float64[:, ::1],  # parameters per seat
        seat_fns,  # strategy function per seat
        types.int64[:, ::1],  # results, one row per deal
        types.int64[:, :, ::1],  # events per deal (recording)
        types.int64[::1],  # event count per deal
        types.int64,  # record level
    )


@dataclass(frozen=True)
class Engine:
    """A game's compiled deal kernel with what its Python face needs to run it.

    ``kernel``: the serial ``play_deals_kernel`` (nogil, :func:`play_deals_sig`); ``enums``:
    the game's enums module (N_RESULT_COLS, EVENT_COLS, MAX_EVENTS_PER_DEAL and the columns
    :func:`raise_on_errors` reads); ``record2_events``: the event rows per deal at record level 2.
    """

    kernel: Callable
    enums: ModuleType
    record2_events: int

    def play(self, seed: int, idx: np.ndarray, rules: np.ndarray, seats: tuple, names: list[str],
             record: int = 0, max_events: int | None = None, check: bool = False):
        """Play the deals ``idx`` (validated) and return (results, events, event counts), the
        last two None unless recording. ``seats``: :func:`seat_args`. ``check``: user strategies
        bounds-checked, deal by deal (:func:`run_checked`). Raises StrategyError on an illegal
        move and RuntimeError when the event buffer (``max_events`` rows a deal) overflowed."""
        E = self.enums
        sids, params, fns = seats
        res = np.zeros((idx.size, E.N_RESULT_COLS), dtype=np.int64)
        if record:
            n_ev = max_events or (E.MAX_EVENTS_PER_DEAL if record == 1 else self.record2_events)
            ev = np.empty((idx.size, n_ev, E.EVENT_COLS), dtype=np.int64)
            ev_n = np.zeros(idx.size, dtype=np.int64)
        else:
            ev = np.zeros((1, 1, E.EVENT_COLS), dtype=np.int64)
            ev_n = np.zeros(1, dtype=np.int64)
        user_seats = [s for s, sid in enumerate(sids) if sid == SID_USER]
        if check and user_seats:
            run_checked(self.kernel, seed, idx, rules, sids, params, fns, res, ev, ev_n, record, names, user_seats)
        else:
            play_on_threads(self.kernel, seed, idx, rules, sids, params, fns, res, ev, ev_n, np.int64(record))
        raise_on_errors(res, idx, seed, names, E)
        if record and (ev_n < 0).any():
            raise RuntimeError(f"event buffer too small ({ev.shape[1]} rows per deal); pass a larger max_events")
        return res, (ev if record else None), (ev_n if record else None)


# --- checking strategies (``--check-strategies``) ---------------------------------------------

_CHECKED: dict[int, object] = {}


def checked_strategy(function):
    """``function`` (a user strategy compiled with STRATEGY_SIG) recompiled with numba's bounds
    checking, so an index past the end of ``obs``, ``moves`` or ``params`` raises IndexError
    instead of reading other memory."""
    key = id(function)
    if key not in _CHECKED:
        _CHECKED[key] = njit(STRATEGY_SIG, boundscheck=True)(function.py_func)
    return _CHECKED[key]


def run_checked(serial_kernel, seed: int, idx: np.ndarray, rules: np.ndarray, sids: np.ndarray,
                params: np.ndarray, fns: tuple, res: np.ndarray, ev: np.ndarray, ev_n: np.ndarray,
                record: int, names: list[str], user_seats: list[int]) -> None:
    """Play deal by deal through a game's serial kernel with the user strategies bounds-checked.

    The trust model: a strategy is code running in this process. The engine hands it
    copies and checks every answer, which guards against accidents and honest mistakes;
    this mode adds numba's bounds checks to the user strategies' own code (not to what
    they call), so reading past an argument's end stops the run with a StrategyError
    naming the strategy. It is no defence against deliberately malicious code.
    """
    checked = tuple(checked_strategy(f) if s in user_seats else f for s, f in enumerate(fns))
    for i in range(idx.size):
        one = idx[i:i + 1]
        slot = slice(i, i + 1) if record else slice(0, 1)
        try:
            serial_kernel(seed, one, rules, sids, params, checked, res[i:i + 1], ev[slot], ev_n[slot], record)
        except IndexError as e:
            culprit = _culprit(serial_kernel, seed, one, rules, sids, params, fns, ev[slot], ev_n[slot], record,
                               user_seats, res.shape[1])
            who = (f"strategy {names[culprit]!r} in seat {culprit}" if culprit is not None else
                   "one of the user strategies " + ", ".join(f"{names[s]!r} (seat {s})" for s in user_seats))
            raise StrategyError(
                f"{who} indexed outside its arguments (numba bounds check: {e}) (seed {seed}, deal {int(idx[i])}); "
                f"a strategy may read only obs, moves[:n_moves] and params", res[:i]) from None


def _culprit(serial_kernel, seed, one, rules, sids, params, fns, ev, ev_n, record, user_seats, n_cols):
    """The first user seat whose strategy alone, bounds-checked, fails on this deal."""
    for seat in user_seats:
        trial = tuple(checked_strategy(f) if s == seat else f for s, f in enumerate(fns))
        try:
            serial_kernel(seed, one, rules, sids, params, trial, np.zeros((1, n_cols), np.int64), ev, ev_n, record)
        except IndexError:
            return seat
    return None


CHUNKS_PER_THREAD = 8  # slices per thread: deals differ in length, small slices balance the threads


def play_on_threads(kernel, seed, deals, rules, sids, params, fns, res, ev, ev_n, record) -> None:
    """Run a game's compiled serial deal kernel (``play_deals_kernel``: nogil, the same
    arguments in both games) on ``numba.get_num_threads()`` Python threads, each on
    slices of the deals. Bit-identical for any thread count: a deal only touches its own
    result row, its own event slot and its own random streams, so the slicing changes
    nothing. When recording, each slice gets its own rows of the event buffers.

    One serial kernel serves these runs and the checked ones (:func:`run_checked`), and
    there is no ``prange`` region to compile: an engine's cold compile is about half what a
    parallel kernel cost (issues 9 and 14)."""
    n = deals.shape[0]
    threads = min(numba.get_num_threads(), n)
    clear_failures()
    if has_python(fns):  # a Python strategy runs single-threaded (sim.plugin.pystrategy)
        threads = 1
    if threads <= 1:
        kernel(seed, deals, rules, sids, params, fns, res, ev, ev_n, record)
        return
    size = -(-n // (threads * CHUNKS_PER_THREAD))

    def work(a):
        b = min(a + size, n)
        if record > 0:
            kernel(seed, deals[a:b], rules, sids, params, fns, res[a:b], ev[a:b], ev_n[a:b], record)
        else:
            kernel(seed, deals[a:b], rules, sids, params, fns, res[a:b], ev, ev_n, record)

    with ThreadPoolExecutor(threads) as pool:
        for _ in pool.map(work, range(0, n, size)):
            pass
