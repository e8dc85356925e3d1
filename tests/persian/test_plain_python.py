"""The Persian engine also runs as plain Python (NUMBA_DISABLE_JIT=1): `rummy-sim bench` measures
the JIT speed-up that way, and a reader can step through a deal in a debugger. The CPU intrinsics
(population count, leading zeros) have pure-Python stand-ins there; the rows must equal the
compiled engine's (P1-P10: the same deals, the same moves)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from sim.games.persian.engine import run_deals

ROOT = Path(__file__).resolve().parents[2]
CODE = """
import sys
import numpy as np
from sim.games.persian.engine import run_deals
run = run_deals(["greedy", "random", "greedy", "random"], 3, 7, threads=1)
np.save(sys.argv[1], np.asarray(run.results))
"""


def test_plain_python_engine_gives_the_compiled_rows(tmp_path):
    out = tmp_path / "rows.npy"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-W", "ignore", "-c", CODE, str(out)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    compiled = run_deals(["greedy", "random", "greedy", "random"], 3, 7, threads=1)
    assert np.array_equal(np.load(out), np.asarray(compiled.results))
