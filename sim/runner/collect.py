"""Reading a results file chunk by chunk into the run's statistics and the report's sums (``collect``).

A results file (or the ``.parts`` folder of an unfinished run, docs/results.md) is
read one chunk at a time, so a report of tens of millions of plays needs the memory
of one chunk. Every chunk goes to the run's own statistics (sim.runner.aggregate.Totals: the
numbers ``rummy-sim match`` prints) and to every section's ``reduce`` (sim.runner.sums), which
keeps bounded sums only (binned counts, per deal-set moments); see the section
protocol in sim.plugin.game.Game.report_sections.

A ``--keep summary`` (or ``sets``) run stores, per chunk, its sufficient statistics and
every section's accumulator of that chunk alone (sim.runner.sums.chunk_parts); collecting then
merges those (sim.runner.sums.merge_parts) instead of reading per-play rows, with the same
result: accumulators are sums, merged in deal order as the rows would have been reduced.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import pandas as pd
import pyarrow.feather as pf

from sim.experiment import Experiment
from sim.runner.chunks import stats_of_frame
from sim.runner.files import iter_chunks
from sim.runner.keep import iter_summaries
from sim.runner.metadata import read_metadata
from sim.runner.results import RESULTS_FORMAT
from sim.runner.sums import Collected, merge_parts, start_collected


def chunk_files(folder: Path) -> list[Path]:
    """Finished chunk files of a parts folder (Arrow IPC or parquet, by deal range)."""
    return sorted(f for f in folder.glob("chunk-*") if f.suffix in (".arrow", ".parquet"))


def _chunks(path: Path, keep: str):
    """(start, stop, frame) of a finished results file or of the chunk files of a parts folder;
    with ``keep`` summary or sets, (start, stop, (ChunkStats, parts)) of the stored summaries."""
    if keep != "plays":
        yield from iter_summaries(path)
        return
    if not path.is_dir():
        yield from iter_chunks(path)
        return
    for f in chunk_files(path):
        start, stop = read_metadata(f)["deal_range"]
        if f.suffix == ".arrow":
            yield start, stop, pf.read_table(f).to_pandas()
        else:
            yield start, stop, pd.read_parquet(f)


def _metadata(path: Path) -> dict:
    """The results' metadata (of a parts folder: its first chunk's, with the deal range of all)."""
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such results file")
    if path.is_dir():
        files = chunk_files(path)
        if not files:
            raise ValueError(f"{path}: a folder without chunk files is not a rummy-sim results folder")
        meta = read_metadata(files[0])
        meta["deal_range"] = [meta["deal_range"][0], read_metadata(files[-1])["deal_range"][1]]
        meta.setdefault("stopped_by", "interrupt")
    else:
        meta = read_metadata(path)
    if meta.get("format") != RESULTS_FORMAT:
        raise ValueError(f"{path}: unknown results format {meta.get('format')!r}")
    return meta


def collect(path: str | Path, sections: list | Callable | None = None) -> Collected:
    """Reduce a results file (or an unfinished run's parts folder) to a ``Collected``.

    ``sections``: the sections whose sums to keep, or a function of the results' game giving them
    (the report passes sim.present.report.sections.report_sections); default
    sim.runner.sums.report_sums (the generic sums and the game's own sections).
    """
    path = Path(path)
    meta = _metadata(path)
    exp = Experiment.from_dict(meta["experiment"])
    keep = meta.get("keep", "plays")
    t0 = time.perf_counter()
    if callable(sections):
        sections = sections(exp.game_spec)
    col = start_collected(exp, meta, sections, path)
    totals = col.totals
    for start, stop, item in _chunks(path, keep):
        if keep == "plays":
            totals.add(stats_of_frame(exp, start, stop, item))
            for s in col.sections:
                s.reduce(item, col.parts[s.key])
        else:
            cstats, parts = item
            totals.add(cstats)
            merge_parts(col.sections, col.parts, parts)
        col.deals += stop - start
    col.summary = totals.summary()
    col.meta.setdefault("deals_played", col.deals)
    col.read_seconds = time.perf_counter() - t0
    return col


__all__ = ["collect", "chunk_files"]
