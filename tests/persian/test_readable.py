"""The Persian readable view (sim/games/persian/readable.py, issue 27 item 2): a strategy reading
names plays through the same engine (uniform over view.moves with view.random gives the built-in
`random`'s rows bit for bit), and the view says what the observation holds (P10): the hand, the
pile top first, the stock, the table, the cards of each take (the deepest last: the target, P6.1)."""

from __future__ import annotations

import numpy as np

from sim.games.persian import enums as E
from sim.games.persian.cards import mask_to_names
from sim.plugin.readable import Move, View
from sim.plugin.registry import get_game, register_readable_strategy

SEEN = {"views": 0, "takes": 0}


def uniform_checked(view: View) -> Move:
    obs = view.obs
    assert view.game == "persian" and view.decision in E.DECISION_NAMES
    assert list(view.hand) == mask_to_names(int(obs[E.O_HAND])) and len(view.hand) == view.hand_sizes[view.seat]
    assert len(view.pile) == obs[E.O_PILE_N] and view.stock == obs[E.O_STOCK_N] and len(view.table) == obs[E.O_N_MELDS]
    rows = [int(r) for r in obs[E.O_PILE: E.O_PILE + obs[E.O_PILE_N]]]
    assert view.pile == tuple(mask_to_names(1 << c)[0] for c in rows[::-1])
    for m in view.moves_of("take"):
        assert m.cards == view.pile[: m.depth + 1]
        SEEN["takes"] += 1
    for m in view.moves_of("discard") + view.moves_of("layoff"):
        assert m.cards[0] in view.hand
    SEEN["views"] += 1
    return view.moves[view.random.below(len(view.moves))]


def test_a_readable_uniform_strategy_is_the_built_in_random():
    register_readable_strategy("uniform_readable", uniform_checked, game="persian")
    g = get_game("persian")
    want = g.run_deals(["random", "greedy", "random", "greedy"], 6, 3).results
    got = g.run_deals(["uniform_readable", "greedy", "uniform_readable", "greedy"], 6, 3).results
    assert SEEN["views"] > 100 and SEEN["takes"] > 10
    np.testing.assert_array_equal(got, want)


def test_the_example_on_names_plays():
    """strategies/persian/python_examples/by_names.py, the documented example, plays legal moves."""
    import strategies.persian.python_examples.by_names  # noqa: F401  (registers by_names)

    res = get_game("persian").run_deals(["by_names"] + ["greedy"] * 3, 4, 5).results
    assert len(res) == 4
