"""The Dask backend: every chunk one task on a ``dask.distributed`` cluster, gathered in deal order.

Each task calls :func:`chunk_task` on a worker, which checks the worker runs the
experiment's code version (sim.core.version), plays the chunk with the pure
sim.runner.play_chunk and reduces it there (sim.runner.keep.compute_chunk) to the chunk's
statistics and the table its file keeps (a few kilobytes with ``--keep summary``). A worker
that sees the run's parts folder (same machine or shared filesystem) writes the chunk file
itself and returns only the statistics and the file's name; otherwise the table travels to
the client, which writes it. :class:`DaskChunks` keeps a bounded window of tasks in flight (twice the
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
import socket
import time
import uuid
from collections import deque
from pathlib import Path

from sim.core.version import check_version
from sim.experiment import Experiment
from sim.plugin.user_files import UserFileError, load_user_file, loaded_files
from sim.runner.files import write_chunk_file
from sim.runner.keep import ChunkOutput, compute_chunk
from sim.runner.results import RunError

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
               want_frame: bool = False, threads: int = 1, check: bool = False, delay: float = 0.0,
               parts: str | None = None, token: str | None = None, meta: dict | None = None,
               diffs: bool = False, load: tuple[str, ...] = ()) -> ChunkOutput:
    """What one Dask task runs on a worker: load the client's user files (``load``: --load FILE.py,
    plain-Python strategies included), refuse another code version, then compute the chunk.

    When the worker sees the run's parts folder (``parts`` holds the file ``token`` the client
    put there for this run: the same machine, or a shared filesystem), it writes the chunk file
    itself, with the run's metadata ``meta``, and returns only its path and statistics: the
    rows then never cross the network nor get copied by the client. Otherwise the table comes
    back to the client, which writes it. ``delay`` (seconds, tests only) holds the task before
    it starts, so tests can make chunks finish out of order."""
    where = f"Dask worker on {socket.gethostname()} (pid {os.getpid()})"
    for path in load:  # the user files the client loaded: they register the strategies it seats
        try:
            load_user_file(path)
        except UserFileError as e:
            raise RunError(f"{where}: {e} (a worker must see the files --load names)") from None
    exp = _experiment(exp_json)
    check_version(exp.version, where)
    if delay:
        time.sleep(delay)
    out = compute_chunk(exp, start, stop, keep=keep, write=write, want_frame=want_frame, threads=threads,
                        check=check, diffs=diffs)
    if out.table is not None and parts is not None and token is not None and os.path.exists(
            os.path.join(parts, token)):
        t0 = time.perf_counter()
        out.path = str(write_chunk_file(out.table, meta, start, stop, Path(parts)))
        out.table = None
        out.timings["worker_write"] = time.perf_counter() - t0
    return out


# Dask's own monitoring, turned down on the clusters this module starts (they have no dashboard
# to feed): the workers' statistical profiler (a stack sample every 10 ms), the event-loop tick
# monitor (every 20 ms in every process), the system monitor (500 ms) and the memory monitor
# (100 ms) together took 2-3% of a core in every worker and in the client's process (which hosts
# a LocalCluster's scheduler) even when idle: a tax on a 2-core machine (docs/distributed.md).
QUIET_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "200ms",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}


def local_cluster(workers: int, timeout: float = 60.0, **options):
    """(cluster, client): a LocalCluster of ``workers`` single-threaded worker processes on this
    machine, with Dask's monitoring turned down (QUIET_CONFIG), and a client of it."""
    import dask
    from distributed import Client, LocalCluster  # first: it adds Dask's "distributed" defaults, which a

    # dask.config.set entered before that import would delete again on exit

    with dask.config.set(QUIET_CONFIG):
        # no dashboard; the scheduler's small HTTP server (health checks) on a free port, not 8787
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                               scheduler_kwargs={"dashboard": False}, **options)
        try:
            return cluster, Client(cluster, timeout=timeout)
        except BaseException:
            cluster.close()
            raise


def open_client(scheduler=None, workers: int | None = None, timeout: float = 60.0):
    """(client, owned): a ``distributed.Client`` for ``scheduler`` (an address, a Client, or None:
    $RUMMY_SIM_SCHEDULER, else a new LocalCluster of ``workers`` single-threaded worker processes);
    ``owned`` is what :func:`close_client` must shut down (None for a Client passed in)."""
    try:
        from distributed import Client
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
    cluster, client = local_cluster(workers or os.cpu_count() or 1, timeout=timeout)
    return client, (cluster,)


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
                 check: bool = False, window: int | None = None, delays: dict | None = None,
                 parts: Path | None = None, meta: dict | None = None, diffs: bool = False):
        self.client, self._owned = open_client(scheduler, workers)
        self._token_file = None
        try:
            self.exp = exp
            self._json = json.dumps(exp.to_dict(), sort_keys=True)
            load = loaded_files()
            self._opts = {"keep": keep, "write": write, "want_frame": want_frame, "threads": threads or 1,
                          "check": check, **({"diffs": True} if diffs else {}), **({"load": load} if load else {})}
            if parts is not None and write and meta is not None:
                # workers that see this file write their chunk files themselves (see chunk_task)
                token = f".dask-run-{uuid.uuid4().hex}"
                self._token_file = Path(parts) / token
                self._token_file.write_text("workers that see this file write their chunk files here\n")
                self._opts.update(parts=str(Path(parts).resolve()), token=token, meta=meta)
            self._queue = deque(todo)
            self._futures: dict[tuple[int, int], object] = {}
            self._delays = delays or {}
            if window is None:
                cores = sum(self.client.nthreads().values()) or 1
                window = max(4, 2 * cores)
            self._window = window
            self._fill()
        except BaseException:
            self._drop_token()
            close_client(self.client, self._owned)
            raise

    def _drop_token(self) -> None:
        if self._token_file is not None:
            self._token_file.unlink(missing_ok=True)
            self._token_file = None

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
            self._drop_token()
            close_client(self.client, self._owned)
