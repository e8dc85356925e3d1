"""Indian Rummy's sweep and tournament text never calls a play that beat the other side's mean
net a "game" won (issue 27, item 6): the outcome columns say what they count."""

from __future__ import annotations

from sim.studies.sweep import format_sweep, play_sweep
from sim.studies.tournament import format_tournament, play_tournament


def test_sweep_and_tournament_say_what_their_outcome_share_counts():
    sweep = format_sweep(play_sweep("dropper", {"first_drop_deadwood": [60, 200]}, vs="greedy", deals=30, seed=2,
                                    game="indian", players=4, progress=False))
    tour = format_tournament(play_tournament(["greedy", "random"], deals=30, seed=2, game="indian", players=3,
                                             progress=False))
    for text in (sweep, tour):
        assert "game%" not in text and "games won" not in text and "a game" not in text
    assert "A>B%" in sweep and "net > B's mean" in tour and "a deal | net < B's mean" in tour
