"""What every registered game must satisfy (issue 8): the game contract of sim/plugin/game.py.

Parametrized over ``sim.games.game_names()``, so a newly registered game is checked
without a line added here:

* 1 and 2 threads give identical result rows;
* a deal's cards do not depend on who plays it (the dealt hands, up card and stock of
  a deal's log are the same for two different tables);
* the observation never holds hidden information: at every decision of real deals,
  states that differ only in what the deciding seat cannot see give the same
  observation and the same legal moves (so any strategy, built-in or user-written,
  decides the same);
* deal logs round-trip through the JSONL file, validate, and replay readably;
* the per-play frame of a small match matches the declared result schema;
* bad player counts, unknown rule options and unknown strategies are clear errors.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from sim.games import game_names, get_game
from sim.plugin.game import Decisions
from sim.studies.match import play_match

GAMES = game_names()
SEED = 8080


def _specs(game, *names):
    n = game.default_players
    names = list(names) or ["greedy", "random"]
    return [names[s % len(names)] for s in range(n)]


@pytest.mark.parametrize("name", GAMES)
def test_threads_do_not_change_results(name) -> None:
    game = get_game(name)
    specs = _specs(game)
    one = game.run_deals(specs, 300, SEED, threads=1).results
    two = game.run_deals(specs, 300, SEED, threads=2).results
    assert np.array_equal(one, two)


@pytest.mark.parametrize("name", GAMES)
def test_deal_cards_do_not_depend_on_who_plays(name, tmp_path) -> None:
    game = get_game(name)
    a = game.record_logs(_specs(game, "greedy"), 20, SEED)
    b = game.record_logs(_specs(game, "random", "greedy"), 20, SEED)
    for x, y in zip(a, b):
        keys = ("hands", "discard", "stock", "dealer")
        assert [x[k] for k in keys] == [y[k] for k in keys]
    assert a[0]["turns"] != b[0]["turns"] or a[1]["turns"] != b[1]["turns"]


@pytest.mark.parametrize("name", GAMES)
def test_observation_holds_no_hidden_information(name) -> None:
    game = get_game(name)
    gen = np.random.default_rng(5)
    decisions = moved = 0
    for deal in range(8):
        for state in game.decision_states(_specs(game), SEED, deal):
            obs, rows = game.view(state)
            for _ in range(3):
                alt = game.hidden_variant(state, gen)
                moved += not np.array_equal(alt, state)
                obs2, rows2 = game.view(alt)
                assert np.array_equal(obs, obs2), f"{name}: deal {deal}: the observation changed with hidden cards"
                assert np.array_equal(rows, rows2), f"{name}: deal {deal}: the legal moves changed with hidden cards"
            decisions += 1
    assert decisions > 50 and moved > 0.8 * 3 * decisions


@pytest.mark.parametrize("name", GAMES)
def test_logs_round_trip_validate_and_replay(name, tmp_path) -> None:
    game = get_game(name)
    logs = game.record_logs(_specs(game), 10, SEED)
    path = tmp_path / "deals.jsonl"
    game.write_logs(path, logs)
    for d in logs:
        back = game.read_deal(path, d["deal"])
        assert back == json.loads(json.dumps(d))
        assert back["format"] == "rummy-log/1" and back["game"] == name
        game.validate_log(back)
        text = game.render_deal(back)
        assert str(d["seed"]) in text and len(text.splitlines()) > 5
    broken = dict(logs[0], turns="nope")
    with pytest.raises(ValueError):
        game.validate_log(broken)


@pytest.mark.parametrize("name", GAMES)
def test_result_frame_matches_the_schema(name) -> None:
    game = get_game(name)
    result = play_match("greedy", "random", 40, SEED, game=name)
    plays = result.plays
    schema = game.schema
    for col in schema.columns:
        assert col.name in plays.columns, col.name
    side = f"a_{schema.side_word}"
    for col in ("pairing", "a", "b", "deal", "rotation", side, "a_total", "b_total",
                *[f"strategy_s{s}" for s in range(game.default_players)]):
        assert col in plays.columns, col
    assert isinstance(plays[schema.end_column].dtype, pd.CategoricalDtype)
    assert list(plays[schema.end_column].cat.categories) == list(schema.end_names)
    assert plays["deal"].nunique() == 40
    assert len(plays) == 40 * result.run.experiment.plays_per_deal
    summary = result.summary
    assert summary["game"] == name and summary["plays"] == len(plays)


@pytest.mark.parametrize("name", GAMES)
def test_bad_input_is_a_clear_error(name) -> None:
    game = get_game(name)
    with pytest.raises(ValueError, match="players"):
        game.check_players(max(game.seat_counts) + 1)
    with pytest.raises(ValueError, match="no_such_option"):
        game.rules({"no_such_option": 1})
    with pytest.raises(ValueError, match="unknown strategy 'no_such'"):
        game.parse_spec("no_such")
    d = game.describe()
    assert d["name"] == name and d["players"] and d["rule_options"] and "random" in d["strategies"]


@pytest.mark.parametrize("name", GAMES)
def test_decision_analysis_is_declared_or_absent(name) -> None:
    """Game.decisions is None or a Decisions whose names, audit kinds and features are usable (issue 23):
    the command line asks the game, never its name."""
    support = get_game(name).decisions
    if support is None:
        return
    assert isinstance(support, Decisions)
    assert support.decisions and all(isinstance(d, str) for d in support.decisions)
    assert support.audit_kinds and all(isinstance(f, list) for f in support.audit_features.values())
    for fn in (support.analyze_log, support.analyze, support.decision_from_log, support.audit,
               support.write_report, support.summarize):
        assert callable(fn)
