"""Indian Rummy's plain-Python greedy (strategies.indian.python_examples.greedy_py.py) gives the compiled
greedy's result rows bit for bit (I1-I9: the same deals, the same moves), alone and at a table
with compiled strategies, at every table size and with two decks (issue 27)."""

from __future__ import annotations

import numpy as np
import pytest

import strategies.indian.python_examples.greedy_py  # noqa: F401  (registers greedy_py)
from sim.games.indian.engine import run_deals


@pytest.mark.parametrize("table, rules", [
    (["greedy"] * 2, None),
    (["greedy", "random", "greedy", "greedy"], None),
    (["greedy"] * 6, {"decks": 2}),
])
def test_the_python_greedy_gives_the_compiled_rows(table, rules):
    python = [s.replace("greedy", "greedy_py") for s in table]
    a = run_deals(table, 30, seed=13, rules=rules)
    b = run_deals(python, 30, seed=13, rules=rules)
    assert np.array_equal(a.results, b.results)
