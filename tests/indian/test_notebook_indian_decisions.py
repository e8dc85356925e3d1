"""notebooks/09_indian_decisions.ipynb (issue 24, item 4): committed as its builder writes it, executed, with
its computed Answer; its helpers (notebooks/indian_decisions_cells.py) checked on a few recorded deals and a
made-up audit frame, without executing the notebook (the suite is over its time budget: no nbclient run).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
NB = ROOT / "notebooks" / "09_indian_decisions.ipynb"


def _builder():
    spec = importlib.util.spec_from_file_location("build_indian_decisions", ROOT / "notebooks" /
                                                  "build_indian_decisions.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_committed_cells_are_the_builders_and_executed_with_an_answer() -> None:
    nb = nbformat.read(NB, as_version=4)
    assert [c.source for c in nb.cells] == [src for _, src in _builder().CELLS], "09 is stale: rebuild it"
    assert nb.cells[-2].source.startswith("## Answer") and nb.cells[-1].cell_type == "code"
    outs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert outs and not [o for o in outs if o.output_type == "error"], "committed unexecuted or with an error"
    assert sum("image/png" in o.get("data", {}) for o in outs) == 2
    answer = "".join(o.get("text", "") for o in nb.cells[-1].get("outputs", []))
    for part in ("Drop decision:", "Pickup decision:", "Audit of expert's drop", "Audit of expert's pickup",
                 "--infer on the persian decision", "--infer on the indian decision", "95% CI"):
        assert part in answer, part


def test_the_helpers_find_and_word_the_results() -> None:
    sys.path.insert(0, str(ROOT / "notebooks"))
    from indian_decisions_cells import find_drop, find_pickup, losing_bins

    from sim.games import get_game
    from sim.games.indian.audit import summarize

    logs = get_game("indian").record_logs(["dropper", "greedy", "greedy", "greedy"], 2, 4)
    drop, pickup = find_drop(logs), find_pickup(logs)
    assert "drop" in drop.labels() and any(lab.startswith("take ") for lab in pickup.labels())
    assert drop.labels()[drop.played] == "drop"
    frame = pd.DataFrame({"deadwood": [70] * 6 + [5] * 6, "jokers": [1] * 12, "pure_run": [False] * 12,
                          "players_in": [4] * 12, "turn": [3] * 12, "opponent_pickups": [0] * 12,
                          "drop_cost": [20] * 12, "chose_best": [False] * 6 + [True] * 6,
                          "loss": [10.0, 12.0, 9.0, 11.0, 10.0, 8.0] + [0.0] * 6, "significantly_worse": [True] * 6 + [False] * 6})

    class Au:
        pass

    au = Au()
    au.frame = frame
    text = losing_bins(au, "drop", summarize)
    assert text.startswith("Its drop decisions lose significantly when deadwood = 61+ (10.0 points"), text
    assert "deadwood = 1-10" not in text
    au.frame = frame.assign(loss=0.0)
    assert losing_bins(au, "drop", summarize).startswith("No feature bin")
