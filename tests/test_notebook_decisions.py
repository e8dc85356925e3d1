"""Execute notebooks/08_decisions.ipynb top to bottom at a tiny size and fail on any error.

The committed notebook must be what notebooks/build_decisions.py writes (same cell
sources), and its executed run must end with the computed "Answer" lines.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NB = ROOT / "notebooks" / "08_decisions.ipynb"
TINY = {"RUMMY_WORLDS": "24", "RUMMY_AUDIT": "2", "RUMMY_DEALS": "2"}


def test_notebook_is_built_from_its_builder():
    spec = importlib.util.spec_from_file_location("build_decisions", ROOT / "notebooks" / "build_decisions.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    nb = nbformat.read(NB, as_version=4)
    assert [c.source for c in nb.cells] == [src for _, src in mod.CELLS], "08_decisions.ipynb is stale: rebuild it"
    assert nb.cells[-1].cell_type == "code" and "Answer" in nb.cells[-2].source


def test_notebook_runs_small(monkeypatch, tmp_path):
    for k, v in TINY.items():
        monkeypatch.setenv(k, v)
    nb = nbformat.read(NB, as_version=4)
    client = NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "RUMMY_WORLDS = 24, RUMMY_AUDIT = 2, RUMMY_DEALS = 2" in text
    answer = "".join(o.get("text", "") for o in nb.cells[-1].get("outputs", []))
    assert "Deep take (depth" in answer and "Three jokers" in answer and "Audit of expert's takes" in answer
