"""The results of a run: file format names, errors, chunk progress, the result object."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from sim.runner.aggregate import Totals
from sim.experiment import Experiment
from sim.runner.frames import games_frame, sets_frame

RESULTS_FORMAT = "rummy-sim-results/1"
RUN_FORMAT = "rummy-sim-run/1"
META_KEY = b"rummy_sim"
MANIFEST = "_manifest.json"
FINAL_TMP = ".final.parquet.tmp"  # the final file while it is being written (in the parts folder)
COMPRESSION = "snappy"
STATISTICS = ["pairing", "deal", "rotation"]  # min/max per row group: cheap filters on these columns
_CHUNK_RE = re.compile(r"^chunk-(\d{12})-(\d{12})\.arrow$")
STATS_COLUMNS = ["pairing", "rotation", "deal", "a_total", "b_total", "end"]


def stats_columns(exp: Experiment) -> list[str]:
    """The per-play columns the statistics of a chunk of ``exp`` are computed from (the game's
    figures may need more than :data:`STATS_COLUMNS`, sim.plugin.game.Game.figure_columns)."""
    return STATS_COLUMNS + [c for c in exp.game_spec.figure_columns(exp.players) if c not in STATS_COLUMNS]


class RunError(ValueError):
    """A run that cannot start or continue as asked (existing output, another experiment ...)."""


@dataclass
class ChunkInfo:
    """Passed to ``on_chunk`` after each chunk: return True from the callback to stop cleanly."""

    index: int
    start: int
    stop: int
    chunks_done: int
    chunks_total: int
    reused: bool
    seconds: float
    totals: Totals | None = None  # the run's statistics so far (do not modify; copy to keep)


@dataclass
class StudyStep:
    """Passed to a study's ``between`` after each chunk (sim.runner.run.run_study): the chunk's
    statistics of every cell still playing (with their per-set differences ``set_diffs``)."""

    index: int
    start: int
    stop: int
    stats: dict  # cell index -> ChunkStats of this chunk
    last: bool  # the plan's last chunk


@dataclass
class ExperimentResult:
    """What a run produced: the summary, totals, metadata and (if kept) the per-play rows."""

    experiment: Experiment
    totals: Totals
    summary: pd.DataFrame
    meta: dict
    plays: pd.DataFrame | None = None
    out: Path | None = None
    stopped_by: str = "deals"  # "deals", "sprt", "study" (a study's stopping rule) or "interrupt"
    sprt: dict | None = None
    seconds: float = 0.0
    timings: dict | None = None  # seconds per stage: engine, frames, stats, write, read, merge

    @property
    def deals_played(self) -> int:
        return self.totals.deals

    @property
    def complete(self) -> bool:
        return self.stopped_by in ("deals", "sprt", "study")

    @property
    def sets(self) -> pd.DataFrame:
        return sets_frame(self._need_plays())

    @property
    def games(self) -> pd.DataFrame:
        return games_frame(self._need_plays(), self.experiment.rules.deals_per_game)

    def _need_plays(self) -> pd.DataFrame:
        if self.plays is None:
            raise ValueError("the per-play rows were not kept: run with keep_plays=True or load the --out file")
        return self.plays


@dataclass
class StudyRun:
    """What :func:`sim.runner.run.run_study` produced: one result per cell (experiment), in order.
    ``stopped_by``: "deals" (the plan played), "study" (``between`` stopped every cell early),
    "sprt" or "interrupt" (Ctrl-C or ``on_chunk``: the finished chunks are kept in ``parts``)."""

    runs: list
    stopped_by: str
    seconds: float = 0.0
    parts: list | None = None

    @property
    def complete(self) -> bool:
        return self.stopped_by != "interrupt"


class RunInterrupted(Exception):
    """The run was stopped (Ctrl-C or ``on_chunk``); ``result`` covers the finished chunks."""

    def __init__(self, result: ExperimentResult, parts: Path | None):
        where = f"; finished chunks kept in {parts}, continue with --resume" if parts else ""
        super().__init__(f"interrupted after {result.deals_played:,} of {result.experiment.deals:,} deals{where}")
        self.result = result
        self.parts = parts
