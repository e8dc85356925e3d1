"""Execute every notebook top to bottom with a small deal count (RUMMY_DEALS) and fail on any error.

The notebooks are built from notebooks/build_notebooks.py and committed executed (``make notebooks``);
the test checks that the committed cell sources are what the builder writes (outputs are not compared;
the run-time cell is the one cell whose text ``make notebooks`` fills in), and that every notebook ends
with an Answer section whose sentences come out of the computation, with intervals.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
NOTEBOOKS = ["01_quickstart", "02_deep_discards", "03_jokers_and_fours", "04_expected_scores", "05_tournament"]
SMALL = {"01_quickstart": 1500, "02_deep_discards": 600, "03_jokers_and_fours": 800,
         "04_expected_scores": 1500, "05_tournament": 600}
FIGURES = {"01_quickstart": 3, "02_deep_discards": 4, "03_jokers_and_fours": 3, "04_expected_scores": 4,
           "05_tournament": 4}
CELL_TIMEOUT = 240


def test_every_notebook_is_listed_and_built():
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_notebooks", NB_DIR / "build_notebooks.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert sorted(mod.NOTEBOOKS) == NOTEBOOKS
    for name, cells in mod.NOTEBOOKS.items():
        nb = nbformat.read(NB_DIR / f"{name}.ipynb", as_version=4)
        committed = [c.source for c in nb.cells]
        built = [src for _, src in cells]
        assert len(committed) == len(built), f"{name}.ipynb is stale: rebuild it (make notebooks)"
        for k, (have, want) in enumerate(zip(committed, built)):
            if want == mod.RUNTIME:  # the one cell make notebooks fills in with the measured run time
                assert have.startswith(mod.RUNTIME_PREFIX), f"{name}.ipynb cell {k}: run-time cell changed"
            else:
                assert have == want, f"{name}.ipynb cell {k} is stale: rebuild it (make notebooks)"
        text = "\n".join(built)
        assert "RUMMY_DEALS" in text and "SEED = " in text and "rummy-sim" in text
        assert cells[-2] == ("md", "## Answer") and "answer(" in cells[-1][1], f"{name}: no Answer section at the end"
        assert "estimate" in text and ("chunk_bar(" in text or "tqdm" in text), f"{name}: no estimate/progress"


def test_committed_notebooks_are_executed_with_answers():
    """Opened without running anything, every notebook shows its charts and its Answer sentences."""
    for name in NOTEBOOKS:
        nb = nbformat.read(NB_DIR / f"{name}.ipynb", as_version=4)
        assert not nb.cells[1].source.startswith("**Run time:** not executed"), f"{name} was committed unexecuted"
        outs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
        assert not [o for o in outs if o.output_type == "error"], f"{name}: committed with an error"
        assert sum("image/png" in o.get("data", {}) for o in outs) == FIGURES[name]
        assert _answer_text(nb), f"{name}: the Answer cell has no output"


def _answer_text(nb) -> str:
    """The Markdown the last code cell (the Answer) displayed."""
    last = [c for c in nb.cells if c.cell_type == "code"][-1]
    return "".join(o.get("data", {}).get("text/markdown", "") for o in last.get("outputs", []))


def check_small_run(nb, name: str, deals: int) -> None:
    """What a notebook executed at ``deals`` must show: no error, the deal count, its charts and
    an Answer built from the numbers (also used by tests/test_notebook_setup.py)."""
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert f"RUMMY_DEALS = {deals:,}" in text
    images = sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code"
                 for o in c.get("outputs", []))
    assert images == FIGURES[name], f"{name}: {images} charts shown, expected {FIGURES[name]}"
    answer = _answer_text(nb)
    # sentences built from the numbers: at least one estimate with its interval "x [lo, hi]", no NaN
    assert re.search(r"[+-]?\d+\.\d \[[+-]?\d+\.\d+, [+-]?\d+\.\d+\]", answer), f"{name}: {answer!r}"
    assert not re.search(r"\bnan\b|n/a", answer.lower()), f"{name}: the answer has a missing number: {answer!r}"


#: executed by tests/test_notebook_setup.py through its printed rerun command (with check_small_run)
RUN_BY_THE_RERUN_TEST = "01_quickstart"


@pytest.mark.parametrize("name", [n for n in NOTEBOOKS if n != RUN_BY_THE_RERUN_TEST])
def test_notebook_runs(name, monkeypatch, tmp_path):
    monkeypatch.setenv("RUMMY_DEALS", str(SMALL[name]))
    nb = nbformat.read(NB_DIR / f"{name}.ipynb", as_version=4)
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    check_small_run(nb, name, SMALL[name])
