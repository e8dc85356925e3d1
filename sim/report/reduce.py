"""Reading a results file chunk by chunk into what the report needs (``collect``).

A results file (or the ``.parts`` folder of an unfinished run, docs/results.md) is
read one chunk at a time, so a report of tens of millions of plays needs the memory
of one chunk. Every chunk goes to the run's own statistics (sim.aggregate.Totals: the
numbers ``rummy-sim match`` prints) and to every report section's ``reduce``, which
keeps bounded sums only (binned counts, per deal-set moments); see the section
protocol in sim.games.base.Game.report_sections.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.aggregate import Totals
from sim.experiment import Experiment
from sim.runner import RESULTS_FORMAT, ExperimentResult, iter_chunks, read_metadata, stats_of_frame


@dataclass
class Collected:
    """Everything a report needs, reduced from the per-play rows chunk by chunk.

    ``sections`` are the report's sections in order (generic and the game's);
    ``parts`` maps each section's ``key`` to the accumulator its ``reduce`` filled.
    """

    path: Path
    meta: dict
    exp: Experiment
    totals: Totals
    summary: pd.DataFrame
    sections: list = field(default_factory=list)
    parts: dict = field(default_factory=dict)
    deals: int = 0
    read_seconds: float = 0.0

    @property
    def result(self) -> ExperimentResult:
        return ExperimentResult(self.exp, self.totals, self.summary, self.meta, None, self.path,
                                self.meta.get("stopped_by", "deals"), self.meta.get("sprt"))

    def part(self, key: str):
        """The accumulator of the section called ``key``."""
        return self.parts[key]


def chunk_files(folder: Path) -> list[Path]:
    """Finished chunk files of a parts folder (Arrow IPC or parquet, by deal range)."""
    return sorted(f for f in folder.glob("chunk-*") if f.suffix in (".arrow", ".parquet"))


def _chunks(path: Path):
    """(start, stop, frame) of a finished results file or of the chunk files of a parts folder."""
    if not path.is_dir():
        yield from iter_chunks(path)
        return
    for f in chunk_files(path):
        start, stop = read_metadata(f)["deal_range"]
        if f.suffix == ".arrow":
            import pyarrow.feather as pf

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


def collect(path: str | Path, sections: list | None = None) -> Collected:
    """Reduce a results file (or an unfinished run's parts folder) to a ``Collected``.

    ``sections``: the report's sections (default: sim.report.sections.report_sections of
    the results' game, the generic ones and the game's own).
    """
    path = Path(path)
    meta = _metadata(path)
    exp = Experiment.from_dict(meta["experiment"])
    if sections is None:
        from sim.report.sections import report_sections

        sections = report_sections(exp.game_spec)
    totals = Totals(exp)
    t0 = time.perf_counter()
    col = Collected(path, meta, exp, totals, pd.DataFrame(), list(sections))
    col.parts = {s.key: s.start(col) for s in col.sections}
    for start, stop, frame in _chunks(path):
        totals.add(stats_of_frame(exp, start, stop, frame))
        col.deals += stop - start
        for s in col.sections:
            s.reduce(frame, col.parts[s.key])
    col.summary = totals.summary()
    col.meta.setdefault("deals_played", col.deals)
    col.read_seconds = time.perf_counter() - t0
    return col


# --- helpers for the sections' reduce ------------------------------------------------------------


def hist(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Counts per bin, values outside the edges clipped into the end bins (nothing hidden)."""
    v = np.clip(np.asarray(values, dtype=float), edges[0], edges[-1] - 1e-9)
    return np.histogram(v, bins=edges)[0].astype(np.int64)


def add_counts(store: dict, key, counts: np.ndarray) -> None:
    """``store[key] += counts`` (a copy of ``counts`` the first time)."""
    if key in store:
        store[key] += counts
    else:
        store[key] = counts.copy()


def set_means(pairing: np.ndarray, deal: np.ndarray, columns: dict) -> tuple[pd.DataFrame, np.ndarray]:
    """Per deal set (pairing, deal index) the mean over its rotations of every column of
    ``columns`` (name -> per-play values), and each set's pairing."""
    per_set = pd.DataFrame({"pairing": pairing, "deal": deal, **columns}).groupby(
        ["pairing", "deal"], sort=False).mean()
    return per_set, per_set.index.get_level_values("pairing").to_numpy()


def add_moments(acc: list, x: np.ndarray) -> None:
    """``acc = [n, sum, sum of squares]`` (over the rows of ``x``) updated with ``x``."""
    acc[0] += float(x.shape[0])
    acc[1] += x.sum(axis=0)
    acc[2] += (x * x).sum(axis=0)


__all__ = ["Collected", "collect", "chunk_files", "hist", "add_counts", "set_means", "add_moments"]
