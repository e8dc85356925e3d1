"""The Dask backend: every chunk one task on a ``dask.distributed`` cluster, gathered in deal order.

Each task calls :func:`chunk_task` on a worker, which checks the worker runs the
experiment's code version (sim.runner.version), plays the chunk with the pure
sim.runner.play_chunk and reduces it there (sim.runner.keep.compute_chunk): the client
receives the chunk's statistics and the table its file keeps, a few kilobytes with
``--keep summary``. :class:`DaskChunks` keeps a bounded window of tasks in flight (twice the
cluster's threads, at least 4) and hands chunks over strictly in deal order, whatever order
they finish in, so the client's writer, statistics and progress bar see exactly what a local
run sees. A worker that dies mid-task costs only that task: the scheduler runs it again on
another worker (chunks are pure, so the rows are the same).

Workers need the installed package (same version: the experiment's identity includes it) and
load its compiled kernels from their numba cache (NUMBA_CACHE_DIR, or the folder sim/__init__.py
derives from the sources): a worker compiles once, on its first chunk, if its cache is cold.
"""

from __future__ import annotations

import functools
import json
import os
import time
import uuid
from collections import deque

from sim.experiment import Experiment
from sim.runner.keep import ChunkOutput, compute_chunk
from sim.runner.results import RunError
from sim.runner.version import check_version

SCHEDULER_ENV = "RUMMY_SIM_SCHEDULER"


def scheduler_address(scheduler=None):
    """The scheduler to use: the argument, else $RUMMY_SIM_SCHEDULER, else None (a LocalCluster)."""
    if scheduler is None:
        scheduler = os.environ.get(SCHEDULER_ENV) or None
    return scheduler


@functools.lru_cache(maxsize=8)
def _experiment(text: str) -> Experiment:
    return Experiment.from_dict(json.loads(text))


def chunk_task(exp_json: str, start: int, stop: int, *, keep: str = "plays", write: bool = True,
               want_frame: bool = False, threads: int = 1, check: bool = False, delay: float = 0.0) -> ChunkOutput:
    """What one Dask task runs on a worker: refuse another code version, then compute the chunk.

    ``delay`` (seconds, tests only) holds the task before it starts, so tests can make chunks
    finish out of order."""
    import socket

    exp = _experiment(exp_json)
    check_version(exp.version, f"Dask worker on {socket.gethostname()} (pid {os.getpid()})")
    if delay:
        time.sleep(delay)
    return compute_chunk(exp, start, stop, keep=keep, write=write, want_frame=want_frame, threads=threads,
                         check=check)


def open_client(scheduler=None, workers: int | None = None, timeout: float = 60.0):
    """(client, owned): a ``distributed.Client`` for ``scheduler`` (an address, a Client, or None:
    $RUMMY_SIM_SCHEDULER, else a new LocalCluster of ``workers`` single-threaded worker processes);
    ``owned`` is what :func:`close_client` must shut down (None for a Client passed in)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RunError("the Dask backend needs dask.distributed: pip install 'rummy-sim[dask]'") from None
    scheduler = scheduler_address(scheduler)
    if isinstance(scheduler, Client):
        return scheduler, None
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=timeout)
        except OSError as e:
            raise RunError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        return client, (client,)
    n = workers or os.cpu_count() or 1
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster, timeout=timeout), (cluster,)


def close_client(client, owned) -> None:
    if owned is None:
        return
    client.close()
    for thing in owned:
        if thing is not None and thing is not client:
            thing.close()


class DaskChunks:
    """The chunks ``todo`` computed on a Dask cluster; :meth:`get` returns them in the order asked."""

    def __init__(self, exp: Experiment, todo: list[tuple[int, int]], *, scheduler=None, workers: int | None = None,
                 threads: int | None = None, keep: str = "plays", write: bool = True, want_frame: bool = False,
                 check: bool = False, window: int | None = None, delays: dict | None = None):
        self.client, self._owned = open_client(scheduler, workers)
        try:
            self.exp = exp
            self._json = json.dumps(exp.to_dict(), sort_keys=True)
            self._opts = {"keep": keep, "write": write, "want_frame": want_frame, "threads": threads or 1,
                          "check": check}
            self._queue = deque(todo)
            self._futures: dict[tuple[int, int], object] = {}
            self._delays = delays or {}
            if window is None:
                cores = sum(self.client.nthreads().values()) or 1
                window = max(4, 2 * cores)
            self._window = window
            self._fill()
        except BaseException:
            close_client(self.client, self._owned)
            raise

    def _fill(self) -> None:
        while self._queue and len(self._futures) < self._window:
            start, stop = self._queue.popleft()
            self._futures[(start, stop)] = self.client.submit(
                chunk_task, self._json, start, stop, **self._opts, delay=self._delays.get((start, stop), 0.0),
                key=f"rummy-sim-chunk-{start}-{stop}-{uuid.uuid4().hex[:12]}", pure=False)

    def get(self, start: int, stop: int) -> ChunkOutput:
        """Chunk ``start .. stop-1``, waiting for its task (later ones keep running meanwhile)."""
        if (start, stop) not in self._futures:
            self._fill()
        fut = self._futures.pop((start, stop), None)
        if fut is None:
            raise RunError(f"chunk {start}..{stop} was not submitted to the Dask cluster")
        t0 = time.perf_counter()
        out = fut.result()
        out.timings["gather_wait"] = out.timings.get("gather_wait", 0.0) + time.perf_counter() - t0
        self._fill()
        return out

    def close(self) -> None:
        """Cancel what is still queued or running and let go of the cluster (shut down if ours)."""
        try:
            if self._futures:
                self.client.cancel(list(self._futures.values()))
            self._futures.clear()
            self._queue.clear()
        finally:
            close_client(self.client, self._owned)
