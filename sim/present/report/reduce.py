"""Reading a results file chunk by chunk into what the report needs (``collect``).

A results file (or the ``.parts`` folder of an unfinished run, docs/results.md) is
read one chunk at a time, so a report of tens of millions of plays needs the memory
of one chunk. Every chunk goes to the run's own statistics (sim.runner.aggregate.Totals: the
numbers ``rummy-sim match`` prints) and to every report section's ``reduce``, which
keeps bounded sums only (binned counts, per deal-set moments); see the section
protocol in sim.plugin.game.Game.report_sections.

A ``--keep summary`` (or ``sets``) run stores, per chunk, its sufficient statistics and
every section's accumulator of that chunk alone (:func:`chunk_parts`); the report then
merges those (:func:`merge_parts`) instead of reading per-play rows, with the same
result: accumulators are sums, merged in deal order as the rows would have been reduced.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.runner.aggregate import Totals
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


def _chunks(path: Path, keep: str):
    """(start, stop, frame) of a finished results file or of the chunk files of a parts folder;
    with ``keep`` summary or sets, (start, stop, (ChunkStats, parts)) of the stored summaries."""
    if keep != "plays":
        from sim.runner.keep import iter_summaries

        yield from iter_summaries(path)
        return
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


def _start_collected(exp: Experiment, meta: dict | None = None, sections: list | None = None,
                     path: Path | None = None) -> Collected:
    if sections is None:
        from sim.present.report.sections import report_sections

        sections = report_sections(exp.game_spec)
    col = Collected(path, meta or {}, exp, Totals(exp), pd.DataFrame(), list(sections))
    col.parts = {s.key: s.start(col) for s in col.sections}
    return col


def chunk_parts(exp: Experiment, frame: pd.DataFrame, sections: list | None = None) -> dict:
    """Every report section's accumulator of one chunk's per-play rows alone (section key -> acc)."""
    col = _start_collected(exp, sections=sections)
    for s in col.sections:
        s.reduce(frame, col.parts[s.key])
    return col.parts


def merge_parts(sections: list, parts: dict, other: dict) -> None:
    """Add the accumulators ``other`` (of later chunks) into ``parts``, section by section: a
    section's own ``merge(acc, other)`` if it has one, else :func:`merge_acc`."""
    for s in sections:
        merge = getattr(s, "merge", None)
        if merge is not None:
            merge(parts[s.key], other[s.key])
        else:
            parts[s.key] = merge_acc(parts[s.key], other[s.key], where=s.key)


def merge_acc(a, b, where: str = "", top: bool = True):
    """``a`` + ``b`` for accumulators built of sums: arrays and numbers inside them add, dicts
    merge key by key, lists and tuples element by element, dataclasses field by field. Numbers
    that are a dataclass's own fields (e.g. ``deals_per_game``), and strings, booleans and None
    anywhere, are settings, not sums: they must be equal."""
    import dataclasses

    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        if type(a) is not type(b):
            raise ValueError(f"{where}: cannot merge a {type(a).__name__} with a {type(b).__name__}")
        for f in dataclasses.fields(a):
            setattr(a, f.name, merge_acc(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}", True))
        return a
    if isinstance(a, dict):
        for k, v in b.items():
            a[k] = merge_acc(a[k], v, f"{where}[{k!r}]", False) if k in a else _copy(v)
        return a
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            raise ValueError(f"{where}: lengths {len(a)} and {len(b)} differ")
        out = [merge_acc(x, y, f"{where}[{i}]", False) for i, (x, y) in enumerate(zip(a, b))]
        return out if isinstance(a, list) else tuple(out)
    if isinstance(a, np.ndarray):
        return a + b
    if isinstance(a, (str, bool, np.bool_)) or a is None or top:
        if not (a == b or (isinstance(a, float) and a != a and b != b)):
            raise ValueError(f"{where}: setting {a!r} in one chunk and {b!r} in another")
        return a
    return a + b


def _copy(v):
    import copy

    return copy.deepcopy(v)


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

    ``sections``: the report's sections (default: sim.present.report.sections.report_sections of
    the results' game, the generic ones and the game's own).
    """
    path = Path(path)
    meta = _metadata(path)
    exp = Experiment.from_dict(meta["experiment"])
    keep = meta.get("keep", "plays")
    t0 = time.perf_counter()
    col = _start_collected(exp, meta, sections, path)
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


def add_hist(acc, key, values: np.ndarray, edges: np.ndarray) -> None:
    """Binned counts of ``values`` in ``acc.hists[key]`` and their exact moments [n, sum, sum of
    squares] in ``acc.moments[key]``: tables give exact means and sds, figures the bins."""
    add_counts(acc.hists, key, hist(values, edges))
    add_moments(acc.moments.setdefault(key, [0.0, 0.0, 0.0]), np.asarray(values, dtype=np.float64))


def add_moments(acc: list, x: np.ndarray) -> None:
    """``acc = [n, sum, sum of squares]`` (over the rows of ``x``) updated with ``x``."""
    acc[0] += float(x.shape[0])
    acc[1] += x.sum(axis=0)
    acc[2] += (x * x).sum(axis=0)


__all__ = ["Collected", "collect", "chunk_files", "chunk_parts", "merge_parts", "merge_acc", "hist", "add_counts",
           "add_hist", "set_means", "add_moments"]
