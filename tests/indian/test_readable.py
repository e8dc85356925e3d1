"""The Indian readable view (sim/games/indian/readable.py, issue 27 item 2): the built-in `random`
(strategies/indian/random_nb.py) rewritten on names, its parameters read by name, gives the
built-in's rows bit for bit; and a declare move's ``valid`` is what the engine then rules: every
declare played that was marked not valid is a wrong declaration (I5, I6), every one marked valid
wins the deal."""

from __future__ import annotations

import numpy as np

from sim.games.indian import enums as E
from sim.plugin.readable import Move, View
from sim.plugin.registry import get_game, register_readable_strategy

PLAYED = {"valid": 0, "invalid": 0, "views": 0}


def random_by_name(view: View) -> Move:
    """strategies/indian/random_nb.py on the view: drop with p_drop, declare with p_declare."""
    assert len(view.hand) == view.hand_sizes[view.seat] and view.public["status"][view.seat] == "in"
    PLAYED["views"] += 1
    moves, rnd = view.moves, view.random
    if view.decision == "draw":
        if moves[-1].kind == "drop":
            if rnd.uniform() < view.params["p_drop"] or len(moves) == 1:
                return moves[-1]
            return moves[rnd.below(len(moves) - 1)]
        return moves[rnd.below(len(moves))]
    discards, declares = view.moves_of("discard"), view.moves_of("declare")
    if declares and rnd.uniform() < view.params["p_declare"]:
        pick = declares[rnd.below(len(declares))]
        PLAYED["valid" if pick.valid else "invalid"] += 1
        return pick
    return discards[rnd.below(len(discards))]


def test_random_on_names_is_the_built_in_and_declares_are_marked_as_ruled():
    g = get_game("indian")
    register_readable_strategy("random_by_name", random_by_name, g.strategies.get("random").params, game="indian")
    spec = ":p_drop=0.05,p_declare=0.5"
    want = g.run_deals(["random" + spec, "random"], 30, 3).results
    got = g.run_deals(["random_by_name" + spec, "random"], 30, 3).results
    np.testing.assert_array_equal(got, want)
    assert PLAYED["views"] > 30 and PLAYED["invalid"] > 0
    wrong_seat0 = int(got[:, E.C_WRONG].sum())  # seat 0's wrong declarations (column per seat: first)
    assert wrong_seat0 == PLAYED["invalid"]
    assert int((got[:, E.C_WINNER] == 0).sum()) >= PLAYED["valid"]


def test_the_example_on_names_plays():
    """strategies/indian/python_examples/by_names.py, the documented example, plays legal moves."""
    import strategies.indian.python_examples.by_names  # noqa: F401  (registers by_names)

    res = get_game("indian").run_deals(["by_names", "greedy"], 4, 5).results
    assert len(res) == 4
