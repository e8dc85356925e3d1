"""Runs in the background, for notebooks: start a run, keep working, look at it now and then.

:func:`start_experiment` runs sim.runner.run_experiment on a thread (any backend) and returns a
:class:`RunHandle`: ``.done()``, ``.result(timeout)`` (the ExperimentResult, or the run's
error raised), ``.summary()`` / ``.totals`` (the statistics of the chunks gathered so far,
with the same columns as a finished run's summary), ``.progress`` (deals done, deals planned)
and ``.stop()`` (finish the running chunk and stop, keeping finished chunks: ``.result()`` then
raises RunInterrupted and ``resume=True`` continues the run). The progress bar is tqdm.auto's:
a widget in Jupyter.
"""

from __future__ import annotations

import copy
import threading
from concurrent.futures import Future

import pandas as pd

from sim.experiment import Experiment
from sim.runner.aggregate import Totals
from sim.runner.results import ChunkInfo, ExperimentResult
from sim.runner.run import run_experiment


class RunHandle:
    """A run going on in a background thread (see module doc)."""

    def __init__(self, exp: Experiment, options: dict):
        self.experiment = exp
        self._future: Future = Future()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._user_on_chunk = options.pop("on_chunk", None)
        self._totals: Totals | None = None
        self._done_deals = 0
        self._planned = exp.deals
        self._options = options
        self._thread = threading.Thread(target=self._run, name="rummy-sim-run", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        def on_chunk(info: ChunkInfo):
            with self._lock:
                self._done_deals += info.stop - info.start
                self._totals = copy.deepcopy(info.totals)
            user = bool(self._user_on_chunk(info)) if self._user_on_chunk is not None else False
            return user or self._stop.is_set()

        try:
            result = run_experiment(self.experiment, on_chunk=on_chunk, **self._options)
        except BaseException as e:  # handed to .result()
            self._future.set_exception(e)
        else:
            self._future.set_result(result)

    def done(self) -> bool:
        """Whether the run has ended (finished, stopped or failed)."""
        return self._future.done()

    def result(self, timeout: float | None = None) -> ExperimentResult:
        """Wait for the run (at most ``timeout`` seconds) and return its result, or raise its error."""
        return self._future.result(timeout)

    def stop(self) -> None:
        """Ask the run to stop after the running chunk (its finished chunks are kept)."""
        self._stop.set()

    @property
    def progress(self) -> tuple[int, int]:
        """(deals done, deals planned)."""
        with self._lock:
            return self._done_deals, self._planned

    @property
    def totals(self) -> Totals | None:
        """A copy of the statistics merged so far (None before the run has started)."""
        with self._lock:
            return copy.deepcopy(self._totals) if self._totals is not None else None

    def summary(self) -> pd.DataFrame:
        """The summary statistics of the chunks gathered so far (empty before the first chunk)."""
        t = self.totals
        if t is None or t.deals == 0:
            return pd.DataFrame()
        return t.summary()

    def __repr__(self) -> str:
        done, total = self.progress
        state = "done" if self.done() else "running"
        return f"<RunHandle {self.experiment.kind} {state}: {done:,} of {total:,} deals>"


def start_experiment(exp: Experiment, **options) -> RunHandle:
    """Start ``run_experiment(exp, **options)`` on a background thread and return its handle.

    Options are run_experiment's (``out``, ``backend``, ``scheduler``, ``keep``, ``progress`` ...)."""
    return RunHandle(exp, dict(options))
