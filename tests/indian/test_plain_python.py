"""The Indian engine and its built-ins also run as plain Python (NUMBA_DISABLE_JIT=1), so a reader
can step through a deal, a strategy or the solver in a debugger. The CPU intrinsics (population
count, lowest set bit) and the stack arrays have pure-Python stand-ins there; the rows must equal
the compiled engine's (I1-I9: the same deals, the same moves, the same scores)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from sim.games.indian.engine import run_deals

ROOT = Path(__file__).resolve().parents[2]
TABLES = (
    (("greedy", "random", "expert", "dropper", "defensive", "joker_keeper"), 2, 7, {"decks": 3}),
    (("learned", "mc_search:worlds=2,max_candidates=2", "greedy", "expert"), 1, 8, {}),
)
CODE = """
import sys
import numpy as np
from sim.games.indian.engine import run_deals
tables = eval(sys.argv[2])
rows = [np.asarray(run_deals(list(s), n, seed, threads=1, rules=r).results) for s, n, seed, r in tables]
np.save(sys.argv[1], np.concatenate(rows))
"""


def test_plain_python_engine_gives_the_compiled_rows(tmp_path):
    out = tmp_path / "rows.npy"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-W", "ignore", "-c", CODE, str(out), repr(TABLES)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    compiled = np.concatenate([np.asarray(run_deals(list(s), n, seed, threads=1, rules=r).results)
                               for s, n, seed, r in TABLES])
    assert np.array_equal(np.load(out), compiled)
