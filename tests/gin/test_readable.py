"""The Gin readable view (sim/games/gin/readable.py, issue 27 item 2): uniform over view.moves with
view.random gives the built-in `random`'s rows bit for bit, and the view says what the observation
holds (G9): the hand, the upcard, the stock, the moves' cards among the hand."""

from __future__ import annotations

import numpy as np

from sim.games.gin import enums as E
from sim.plugin.readable import Move, View
from sim.plugin.registry import get_game, register_readable_strategy

KINDS = {"upcard", "stock", "pass", "knock", "discard", "layoff", "meld"}
SEEN = {"views": 0, "kinds": set()}


def uniform_checked(view: View) -> Move:
    obs = view.obs
    assert view.game == "gin" and view.decision in E.DECISION_NAMES
    assert len(view.hand) == bin(int(obs[E.O_HAND])).count("1") and view.stock == obs[E.O_STOCK_N]
    assert len(view.pile) == (obs[E.O_UPCARD] >= 0)
    for m in view.moves:
        assert m.kind in KINDS
        if m.kind in ("discard", "meld"):
            assert set(m.cards) <= set(view.hand)
        SEEN["kinds"].add(m.kind)
    SEEN["views"] += 1
    return view.moves[view.random.below(len(view.moves))]


def test_a_readable_uniform_strategy_is_the_built_in_random():
    register_readable_strategy("uniform_readable", uniform_checked, game="gin")
    g = get_game("gin")
    want = g.run_deals(["random", "random"], 12, 3).results
    got = g.run_deals(["uniform_readable", "uniform_readable"], 12, 3).results
    assert SEEN["views"] > 100 and {"upcard", "stock", "discard", "knock"} <= SEEN["kinds"]
    np.testing.assert_array_equal(got, want)


def test_the_example_on_names_plays():
    """strategies/gin/python_examples/by_names.py, the documented example, plays legal moves."""
    import strategies.gin.python_examples.by_names  # noqa: F401  (registers by_names)

    res = get_game("gin").run_deals(["by_names"] + ["greedy"] * 1, 4, 5).results
    assert len(res) == 4
