"""What a results file says about itself: the experiment, versions, git commit."""

from __future__ import annotations

import datetime as _dt
import json
import platform
import subprocess
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

import sim
from sim.experiment import Experiment
from sim.runner.results import META_KEY, RESULTS_FORMAT, RunError


def versions() -> dict:
    import scipy
    import statsmodels


    return {"rummy_sim": sim.__version__, "git": _git_commit(), "python": platform.python_version(),
            "numpy": np.__version__, "numba": numba.__version__, "pandas": pd.__version__,
            "pyarrow": pa.__version__, "scipy": scipy.__version__, "statsmodels": statsmodels.__version__}


_GIT: list = []


def _git_commit() -> str | None:
    """HEAD of the source checkout (with '+dirty' when it has local edits), or None."""
    if not _GIT:
        root = Path(__file__).resolve().parent.parent
        try:
            head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                                  timeout=5).stdout.strip()
            dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                                   capture_output=True, text=True, timeout=5).stdout.strip()
            _GIT.append(f"{head}+dirty" if head and dirty else head or None)
        except (OSError, subprocess.SubprocessError):
            _GIT.append(None)
    return _GIT[0]


def base_metadata(exp: Experiment) -> dict:
    return {
        "format": RESULTS_FORMAT,
        "experiment": exp.to_dict(),
        "experiment_hash": exp.digest(),
        "game": exp.game,
        "players": exp.players,
        "seed": exp.seed,
        "rules": exp.rules.to_dict(),
        "teams": exp.team_labels(),
        "strategy_specs": exp.strategy_labels(),
        "rotations": exp.game_spec.describe_seating(exp.seating_mode) + "; see docs/results.md",
        **({"seating": exp.seating_mode} if exp.seating_mode else {}),
        "versions": versions(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


def read_metadata(path: str | Path) -> dict:
    """The rummy-sim metadata of a results file (parquet) or of a chunk file (Arrow IPC)."""
    path = Path(path)
    if path.suffix == ".arrow":
        with pa.memory_map(str(path)) as source:
            md = pa.ipc.open_file(source).schema.metadata or {}
    else:
        md = pq.read_metadata(path).metadata or {}
    if META_KEY not in md:
        raise RunError(f"{path} is not a rummy-sim results file (no rummy_sim metadata)")
    return json.loads(md[META_KEY])
