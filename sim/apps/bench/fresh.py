"""What only a fresh interpreter can measure: the first call (import, compile or load from the
numba cache, one deal) and the engine run as plain Python (``NUMBA_DISABLE_JIT=1``).

Each game is reached through the registry by name and plays greedy in every seat of its
default table.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
SUBPROCESS_TIMEOUT = 1800  # seconds; a cold compile takes well under a minute

_FIRST_CALL_CODE = """
import sys, time
t0 = time.perf_counter()
from sim.plugin.registry import get_game
for name in sys.argv[1:]:
    g = get_game(name)
    g.run_deals(["greedy"] * g.default_players, 1, 1, threads=1)
print(time.perf_counter() - t0)
"""

_NOJIT_CODE = """
import sys, time
from sim.plugin.registry import get_game
g = get_game(sys.argv[1])
n = int(sys.argv[2])
table = ["greedy"] * g.default_players
g.run_deals(table, 1, 1, threads=1)
t0 = time.perf_counter()
g.run_deals(table, n, 1, threads=1)
print(n / (time.perf_counter() - t0))
"""


def python_subprocess(code: str, env_changes: dict[str, str], args: Sequence[str] = (),
                      flags: Sequence[str] = ()) -> float:
    """Run ``code`` in a fresh interpreter at the repository root; return the number it prints last."""
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    env.update(env_changes)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH", "")) if p)
    proc = subprocess.run(
        [sys.executable, *flags, "-c", code, *args],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT,
    )
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        tail = "\n".join(proc.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"benchmark subprocess failed (exit {proc.returncode}): {tail}")
    return float(lines[-1])


def first_call_seconds(games: Sequence[str]) -> tuple[float, float]:
    """(cold compile, from cache): import + a first 1-deal run of every game in ``games``, in fresh
    processes sharing one temporary NUMBA_CACHE_DIR, empty for the first and filled for the second."""
    with tempfile.TemporaryDirectory(prefix="rummy-bench-cache-") as cache:
        cold = python_subprocess(_FIRST_CALL_CODE, {"NUMBA_CACHE_DIR": cache}, tuple(games))
        warm = python_subprocess(_FIRST_CALL_CODE, {"NUMBA_CACHE_DIR": cache}, tuple(games))
    return cold, warm


def nojit_deals_per_second(game: str, deals: int) -> float:
    """Greedy deals per second of ``game`` on one thread with the JIT disabled (plain Python)."""
    return python_subprocess(_NOJIT_CODE, {"NUMBA_DISABLE_JIT": "1"}, (game, str(deals)), ("-W", "ignore"))
