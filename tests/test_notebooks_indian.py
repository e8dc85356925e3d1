"""The Indian Rummy notebooks (06_indian_drop, 07_indian_field, issue 10): built from
notebooks/build_indian.py, committed executed, and run here top to bottom with a small deal
count (RUMMY_DEALS) like tests/test_notebooks.py runs 01..05.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
NOTEBOOKS = ["06_indian_drop", "07_indian_field"]
SMALL = {"06_indian_drop": 45, "07_indian_field": 24}
FIGURES = {"06_indian_drop": 4, "07_indian_field": 4}
CELL_TIMEOUT = 240


def _builder():
    spec = importlib.util.spec_from_file_location("build_indian", NB_DIR / "build_indian.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _answer_text(nb) -> str:
    last = [c for c in nb.cells if c.cell_type == "code"][-1]
    return "".join(o.get("data", {}).get("text/markdown", "") for o in last.get("outputs", []))


def _images(nb) -> int:
    return sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))


def test_committed_notebooks_are_built_from_the_builder():
    mod = _builder()
    assert sorted(mod.NOTEBOOKS) == NOTEBOOKS
    for name, cells in mod.NOTEBOOKS.items():
        nb = nbformat.read(NB_DIR / f"{name}.ipynb", as_version=4)
        committed = [c.source for c in nb.cells]
        assert len(committed) == len(cells), f"{name}.ipynb is stale: rerun notebooks/build_indian.py --execute"
        for k, (have, (_, want)) in enumerate(zip(committed, cells)):
            if want == mod.RUNTIME:
                assert have.startswith(mod.RUNTIME_PREFIX), f"{name}.ipynb cell {k}: run-time cell changed"
            else:
                assert have == want, f"{name}.ipynb cell {k} is stale: rerun notebooks/build_indian.py --execute"
        text = "\n".join(src for _, src in cells)
        assert "RUMMY_DEALS" in text and "SEED = " in text and "rummy-sim" in text and "estimate(" in text
        assert cells[-2] == ("md", "## Answer") and "answer(" in cells[-1][1]


def test_committed_notebooks_are_executed_with_answers():
    for name in NOTEBOOKS:
        nb = nbformat.read(NB_DIR / f"{name}.ipynb", as_version=4)
        assert not nb.cells[1].source.startswith("**Run time:** not executed"), f"{name} was committed unexecuted"
        outs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
        assert not [o for o in outs if o.output_type == "error"], f"{name}: committed with an error"
        assert _images(nb) == FIGURES[name]
        assert _answer_text(nb), f"{name}: the Answer cell has no output"
        _asks_again_against_learned(name, _answer_text(nb))


def _asks_again_against_learned(name: str, answer: str) -> None:
    """Issue 25, item 3: the Answer goes on, after its greedy-field sentences, with figures against a
    field of learned and says whether the conclusion changes against strong play."""
    start = "against a field of learned" if name == "06_indian_drop" else "against a learned field"
    low = answer.lower()
    assert start in low, f"{name}: no sentences against learned: {answer!r}"
    tail = low[low.index(start):]
    assert "against strong play?" in tail, f"{name}: no sentence on strong play: {answer!r}"
    assert len(re.findall(r"[+-]?\d+\.\d+ \[[+-]?\d+\.\d+, [+-]?\d+\.\d+\]", tail)) >= 6, answer


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs(name, monkeypatch, tmp_path):
    monkeypatch.setenv("RUMMY_DEALS", str(SMALL[name]))
    nb = nbformat.read(NB_DIR / f"{name}.ipynb", as_version=4)
    NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    outs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outs if o.output_type == "error"]
    assert f"RUMMY_DEALS = {SMALL[name]:,}" in "".join(o.get("text", "") for o in outs)
    assert _images(nb) == FIGURES[name]
    answer = _answer_text(nb)
    # sentences built from the numbers: estimates with intervals "x [lo, hi]" at 2, 4 and 6 players, no NaN
    assert len(re.findall(r"[+-]?\d+\.\d+ \[[+-]?\d+\.\d+, [+-]?\d+\.\d+\]", answer)) >= 6, answer
    for p in (2, 4, 6):
        assert f"{p} players" in answer
    _asks_again_against_learned(name, answer)
    assert not re.search(r"\bnan\b|n/a|\binf\b", answer.lower()), f"{name}: the answer has a missing number: {answer!r}"
