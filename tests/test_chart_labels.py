"""The value labels of bar charts never overlap (issue 27, item 6): with many bars in a panel
they stand upright on one line, then show the value alone, and the panel grows to hold them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.present import charts


def _overlaps(fig) -> list[str]:
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    found = []
    for ax in fig.axes:
        texts = [t for t in ax.texts if t.get_visible() and t.get_text()]
        boxes = [t.get_window_extent(renderer) for t in texts]
        found += [f"{texts[i].get_text()!r} / {texts[j].get_text()!r}" for i in range(len(boxes))
                  for j in range(i + 1, len(boxes)) if boxes[i].overlaps(boxes[j])]
    return found


def _inside(fig) -> bool:
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return all(ax.get_window_extent(renderer).y1 + 1 >= t.get_window_extent(renderer).y1
               for ax in fig.axes for t in ax.texts if t.get_visible())


def test_counter_panels_with_many_bars_keep_their_labels_apart():
    rng = np.random.default_rng(3)
    n = 12  # a sweep's grid points, one bar each
    table = pd.DataFrame({"team": [f"max_depth={k},min_gain={k * 10}" for k in range(n)]})
    for col in ("takes", "cards_taken", "discards_fed"):
        m = rng.normal(5, 3, n)
        table[col], table[f"{col}_low"], table[f"{col}_high"] = m, m - 0.8, m + 0.8
    fig = charts.counters_figure(table, [(c, "per deal") for c in ("takes", "cards_taken", "discards_fed")])
    assert not _overlaps(fig)
    assert _inside(fig)
    assert any(t.get_rotation() == 90 for ax in fig.axes for t in ax.texts)  # the case needed the fallback


def test_share_bars_keep_their_labels_apart():
    rows = [{"end": end, "match": f"point {g}", "share": s, "ci_low": s - 0.01, "ci_high": s + 0.01}
            for g in range(3) for end, s in zip(("out", "passes", "cap", "drop", "wrong", "other", "more"),
                                                (0.61, 0.2, 0.05, 0.07, 0.03, 0.02, 0.02))]
    fig = charts.shares_figure(pd.DataFrame(rows), "end", "match", "End reason")
    assert not _overlaps(fig)
    assert _inside(fig)


def test_few_bars_keep_the_two_line_label():
    table = pd.DataFrame({"team": ["A - B"], "takes": [1.5], "takes_low": [1.0], "takes_high": [2.0]})
    fig = charts.counters_figure(table, [("takes", "per deal")])
    assert [t.get_text() for t in fig.axes[0].texts] == ["+1.50\n[+1.00, +2.00]"]
