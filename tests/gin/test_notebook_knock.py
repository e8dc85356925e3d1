"""notebooks/10_gin_knock (issue 26, item 5): the committed notebook is what notebooks/build_gin.py
writes, executed, with its Answer; its code cells run top to bottom at a tiny deal count in this
process (the Gin kernels the other tests compiled are reused, so this costs a few seconds, not a
kernel start and a compile) and write an Answer with numbers and intervals."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import matplotlib
import nbformat

ROOT = Path(__file__).resolve().parents[2]
NB = ROOT / "notebooks" / "10_gin_knock.ipynb"


def _builder():
    spec = importlib.util.spec_from_file_location("build_gin", ROOT / "notebooks" / "build_gin.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_committed_notebook_is_built_and_executed():
    mod = _builder()
    cells = mod.NOTEBOOKS["10_gin_knock"]
    nb = nbformat.read(NB, as_version=4)
    assert len(nb.cells) == len(cells), "10_gin_knock.ipynb is stale: rerun notebooks/build_gin.py --execute"
    for k, (cell, (_, want)) in enumerate(zip(nb.cells, cells)):
        if want == mod.RUNTIME:
            assert cell.source.startswith(mod.RUNTIME_PREFIX) and "not executed" not in cell.source
        else:
            assert cell.source == want, f"10_gin_knock.ipynb cell {k} is stale: rerun notebooks/build_gin.py --execute"
    outs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outs if o.output_type == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outs) == 4
    assert "**When to knock.**" in "".join(o.get("data", {}).get("text/markdown", "") for o in nb.cells[-1].outputs)


def test_the_cells_run_small_and_answer_from_the_numbers(monkeypatch, capsys):
    matplotlib.use("Agg")
    monkeypatch.setenv("RUMMY_DEALS", "24")
    ns: dict = {}
    for kind, src in _builder().NOTEBOOKS["10_gin_knock"]:
        if kind == "code":
            exec(compile(src, "10_gin_knock", "exec"), ns)
    matplotlib.pyplot.close("all")
    text = capsys.readouterr().out
    assert "RUMMY_DEALS = 24, seed = 1010" in text
    answer = text[text.index("**When to knock.**"):]
    for part in ("**Going for gin.**", "**The undercut risk.**", "All from 24 deals (seed 1010)"):
        assert part in answer
    # the numbers are the computed ones: the best policy and its paired difference as the grid says
    best = ns["best"]
    assert f"at most {int(best['knock_at'])} deadwood" in answer
    assert f"{best['mean_diff']:+.2f} [{best['ci_low']:+.2f}, {best['ci_high']:+.2f}]" in answer
    assert len(re.findall(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", answer)) >= 8
