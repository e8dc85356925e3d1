"""Where the chunk loop's chunks come from: played here, one at a time when asked for, or on a
Dask cluster, several in flight (sim.runner.dask_backend). One source serves every
experiment (cell) of a run; a cell a study stops early is dropped (its tasks cancelled)."""

from __future__ import annotations

import math

from sim.runner.keep import ChunkOutput, compute_chunk
from sim.runner.loop import CellLoop


def open_source(backend: str, loops: dict[int, CellLoop], todo: dict[int, list], scheduler, workers):
    """The source of the chunks ``todo[i]`` of each cell ``loops[i]``."""
    if backend == "dask" and any(todo.values()):
        return _DaskSource(loops, todo, scheduler, workers)
    return _LocalSource(loops)


class _LocalSource:
    """Chunks played in this process, one at a time, when asked for."""

    def __init__(self, loops: dict[int, CellLoop]):
        self.loops = loops

    def get(self, cell: int, start: int, stop: int) -> ChunkOutput:
        lp = self.loops[cell]
        return compute_chunk(lp.exp, start, stop, keep=lp.keep, write=lp.parts is not None,
                             want_frame=lp.keep_plays, threads=lp.threads, check=lp.check, schema=lp.schema,
                             diffs=lp.diffs)

    def drop(self, cell: int) -> None:
        pass

    def close(self) -> None:
        pass


class _DaskSource:
    """One Dask client for the run, a window of tasks in flight per cell (together about twice the
    cluster's threads, at least 2 each), handed over in deal order (sim.runner.dask_backend)."""

    def __init__(self, loops: dict[int, CellLoop], todo: dict[int, list], scheduler, workers):
        from sim.runner.dask_backend import DaskChunks, close_client, open_client

        self._close_client = close_client
        self.client, self._owned = open_client(scheduler, workers)
        self.cells: dict[int, DaskChunks] = {}
        try:
            cores = sum(self.client.nthreads().values()) or 1
            busy = [i for i in loops if todo.get(i)]
            window = max(2, math.ceil(max(4, 2 * cores) / max(len(busy), 1)))
            for i in busy:
                lp = loops[i]
                self.cells[i] = DaskChunks(lp.exp, todo[i], scheduler=self.client, threads=lp.threads, keep=lp.keep,
                                           write=lp.parts is not None, want_frame=lp.keep_plays, check=lp.check,
                                           window=window, parts=lp.parts, meta=lp.meta, diffs=lp.diffs)
        except BaseException:
            self.close()
            raise

    def get(self, cell: int, start: int, stop: int) -> ChunkOutput:
        return self.cells[cell].get(start, stop)

    def drop(self, cell: int) -> None:
        chunks = self.cells.pop(cell, None)
        if chunks is not None:
            chunks.close()

    def close(self) -> None:
        try:
            for cell in list(self.cells):
                self.drop(cell)
        finally:
            self._close_client(self.client, self._owned)
