"""What every game's engine shares through sim.plugin.runs.Engine: the recording level is
checked, the event buffer holds what a deal recorded and a too small one is refused.

Every game's run_deals plays through one Engine.play (issue 23, item 4), so these run over
every registered game with its cheapest built-in and a handful of deals.
"""

from __future__ import annotations

import numpy as np
import pytest

from game_modules import engine_of
from sim.games import game_names, get_game

GAMES = game_names()
SEED = 23


def _table(game):
    return ["random"] * game.default_players


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("record", [3, -1, True, 1.5])
def test_a_recording_level_outside_0_1_2_is_refused(name, record):
    game = get_game(name)
    with pytest.raises(ValueError, match="record must be 0, 1 or 2"):
        game.run_deals(_table(game), 2, SEED, record=record)


@pytest.mark.parametrize("name", GAMES)
def test_recorded_events_fill_their_rows_and_change_no_result(name):
    game = get_game(name)
    plain = game.run_deals(_table(game), 4, SEED)
    run = game.run_deals(_table(game), 4, SEED, record=1)
    assert np.array_equal(plain.results, run.results)
    assert plain.events is None and plain.event_counts is None
    assert run.events.shape[0] == 4 and (run.event_counts > 0).all()
    for i in range(4):
        assert run.deal_events(i).shape[0] == run.event_counts[i]


@pytest.mark.parametrize("name", GAMES)
def test_a_too_small_event_buffer_is_refused(name):
    table = _table(get_game(name))
    with pytest.raises(RuntimeError, match="event buffer too small \\(3 rows per deal\\)"):
        engine_of(name).run_deals(table, 2, SEED, record=1, max_events=3)
