"""Plain-Python strategies: a Python function plays a seat of any game's compiled engine.

A Python strategy is an ordinary function ``decide(decision, obs, moves, params, rng) -> int``
(or a callable object with that ``__call__``): ``moves`` holds exactly the legal rows, the
return value is the index of the chosen row. The game's compiled engine plays the deal and,
at each of the seat's decisions, calls back into Python: the seat's function slot is a small
compiled STRATEGY_SIG function (:func:`python_slot`) that enters numba's object mode and calls
the Python function. So a Python strategy goes through exactly the rules, the random streams
and the checks of the compiled engine, and it sits at a table with compiled strategies.

Why a callback and not the engine's steps driven from Python: the deal loop, the legal moves
and the scoring stay compiled, and only the strategy's own work is Python; the callback costs
about 7 microseconds a decision (docs/strategies.md has the figures).

What the adapter guarantees and checks (issue 27):

- ``obs``, ``moves`` and ``params`` are read-only numpy arrays: writing to them raises, and the
  run stops naming the strategy (a strategy that changes what it was given). ``rng`` is the
  seat's own random stream (sim.core.rng_nb.rand_below / rand_float advance it in place).
- An exception, or an answer that is not an int in ``0 .. len(moves) - 1``, stops the run:
  the slot returns an index the engine refuses, the engine ends that deal with its error row,
  and the game's ``run_deals`` raises a StrategyError (sim.plugin.runs.raise_on_errors) whose
  one line names the strategy, the seat, the deal, the turn, the decision and what went wrong.
  The runner keeps every chunk finished before (``--out`` / ``--resume``).
- Threads: a Python strategy runs single-threaded. The engine plays every deal of a run with
  a Python strategy seated on one thread (sim.plugin.runs.play_on_threads asks
  :func:`has_python`); use processes (Dask) for more cores.

The compiled slot cannot be cached by numba (it calls a Python object), so registering a
Python strategy compiles a tiny function, about 0.5-1 s once per process.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from numba import njit, objmode

from sim.plugin.strategy import STRATEGY_SIG

REFUSED = -1  # the index a slot returns for a failed call: the engine ends the deal with its error row

_SLOTS: dict[int, object] = {}  # id() -> every compiled Python-strategy slot (kept alive)
_FAILURES: list[dict] = []  # the first failure since the last take_failure()


def has_python(fns) -> bool:
    """Whether any seat's function slot in ``fns`` is a Python strategy's."""
    return any(id(f) in _SLOTS for f in fns)


def is_python(fn) -> bool:
    """Whether ``fn`` (a registered strategy's function) is a Python strategy's slot."""
    return fn is not None and id(fn) in _SLOTS


def clear_failures() -> None:
    """Forget any failure recorded before a run starts."""
    _FAILURES.clear()


def take_failure() -> dict | None:
    """The first failure of a Python strategy since the last call (and forget them):
    {'name', 'decision', 'obs', 'what'}; None when there was none."""
    first = _FAILURES[0] if _FAILURES else None
    _FAILURES.clear()
    return first


def _fail(name: str, decision: int, obs: np.ndarray, what: str) -> int:
    if not _FAILURES:
        _FAILURES.append({"name": name, "decision": int(decision), "obs": np.array(obs), "what": what})
    return REFUSED


def index_of(answer, n: int) -> int | None:
    """``answer`` as a legal move index (an int, numpy ints included, not bool), else None."""
    if isinstance(answer, (bool, np.bool_)) or not isinstance(answer, (int, np.integer)):
        return None
    i = int(answer)
    return i if 0 <= i < n else None


def python_caller(name: str, fn: Callable) -> Callable:
    """The plain-Python function the slot calls: it freezes the arguments, calls ``fn`` and
    turns anything wrong into a recorded failure and the refused index."""

    def call(decision, obs, moves, params, rng) -> int:
        # the slot boxed fresh array objects for this call: freezing them freezes nothing else
        obs.flags.writeable = moves.flags.writeable = params.flags.writeable = False
        n = len(moves)
        try:
            answer = fn(decision, obs, moves, params, rng)
        except ValueError as e:
            if "read-only" in str(e):
                return _fail(name, decision, obs, f"changed what it was given ({e})")
            return _fail(name, decision, obs, f"raised ValueError: {e}")
        except Exception as e:  # the user's code: any error stops the run, named
            return _fail(name, decision, obs, f"raised {type(e).__name__}: {e}")
        if type(answer) is int and 0 <= answer < n:  # the common case, checked first
            return answer
        i = index_of(answer, n)
        if i is None:
            return _fail(name, decision, obs, f"returned {answer!r}, not a legal move index 0..{n - 1}")
        return i

    return call


def python_slot(name: str, fn: Callable):
    """A compiled STRATEGY_SIG function that calls the Python strategy ``fn`` (registered as
    ``name``) through numba's object mode; it fills a seat's function slot like any user
    strategy's."""
    call = python_caller(name, fn)

    def slot(decision, obs, moves, n_moves, params, rng):
        legal = moves[:n_moves]
        with objmode(r="int64"):
            r = call(decision, obs, legal, params, rng)
        return r

    compiled = njit(STRATEGY_SIG)(slot)
    _SLOTS[id(compiled)] = compiled
    return compiled
