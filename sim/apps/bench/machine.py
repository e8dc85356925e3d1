"""The machine's state beside the bench figures: load averages, CPUs, thread count, versions.

A figure taken on a loaded machine is not a figure of the code; these let a reader tell an
idle run from a loaded one (the ``machine`` object of the bench JSON and one table line).
"""

from __future__ import annotations

import os
import platform
from collections.abc import Sequence
from datetime import UTC, datetime

import numba
import numpy as np


def load_average() -> float | None:
    """The machine's 1-minute load average now (None where the OS has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def utc_now() -> str:
    """The time now, UTC, to the second (ISO 8601)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def machine_info(threads: int, load_before: float | None, load_after: float | None,
                 started: str | None = None, finished: str | None = None,
                 load_rounds: Sequence[float | None] = ()) -> dict:
    """The ``machine`` object of the bench JSON: what a reader needs to tell an idle run
    from a loaded one. The load averages are taken by the caller before the first and
    after the last measurement (and at the start of each round of deals/s cells); the
    bench's own threads raise the later ones."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = None
    return {
        "loadavg_1m_before": load_before,
        "loadavg_1m_after": load_after,
        "cpus": os.cpu_count(),
        "cpus_usable": usable,
        "numba_threads": int(threads),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "loadavg_1m_rounds": list(load_rounds),
        "started_utc": started,
        "finished_utc": finished,
    }


def format_machine(result: dict) -> str:
    """One line of the machine's state during the run ("" for a result without it)."""
    m = result.get("machine")
    if not m:
        return ""

    def load(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.2f}"

    usable = m.get("cpus_usable")
    cpus = f"{m.get('cpus')} CPUs" + (f" ({usable} usable)" if usable not in (None, m.get("cpus")) else "")
    when = f"; {m['started_utc']} to {m['finished_utc']}" if m.get("started_utc") and m.get("finished_utc") else ""
    rounds = m.get("loadavg_1m_rounds") or []
    by_round = f" (at each round: {', '.join(load(x) for x in rounds)})" if len(rounds) > 1 else ""
    return (f"  machine: {cpus}, {m.get('numba_threads')} numba threads, load average (1 min) "
            f"{load(m.get('loadavg_1m_before'))} before, {load(m.get('loadavg_1m_after'))} after{by_round}{when}")
