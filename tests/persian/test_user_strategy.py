"""A user strategy plugs in without touching the engine, and four different strategies
share one compiled run (strategy interface, issue 2 section 3)."""

import numpy as np
import pytest
from numba import njit

from sim.games.persian import enums as E
from sim.games.persian.engine import StrategyError, run_deals, results_frame
from strategies.persian.examples import top_taker
from sim.plugin.strategy import STRATEGY_SIG
from sim.plugin.registry import get_strategy, parse_spec, register_strategy


def test_example_registers_and_plays_in_a_table_of_four_different_strategies():
    top_taker.register()
    run = run_deals(["random", "greedy", "top_taker", "greedy:max_extra=0"], deals=300, seed=11)
    df = results_frame(run)
    assert list(df.loc[0, [f"strategy_s{s}" for s in range(4)]]) == [
        "random", "greedy", "top_taker", "greedy:max_extra=0"]
    assert (df["end"] != "error").all()
    # top_taker takes from the pile (depth 0 only), random sometimes takes deeper
    assert df["takes_s2"].sum() > 0
    assert df["max_depth_s2"].max() == 0
    assert (df["total_0"] == df["table_0"] - df["hand_0"] + df["bonus_0"]).all()


def test_user_parameter_changes_behaviour_without_recompiling():
    top_taker.register()
    info = get_strategy("top_taker")
    assert info.params[0].name == "max_depth"
    deep = run_deals(["top_taker:max_depth=10", "random"], deals=300, seed=3)
    assert deep.results[:, E.C_MAX_DEPTH].max() > 0
    # compiled once: the kernel has a single signature whatever the parameter values
    from sim.games.persian.engine_nb import play_deals_kernel
    assert len(play_deals_kernel.signatures) == 1


@njit(STRATEGY_SIG)
def _always_out_of_range(decision, obs, moves, n_moves, params, rng):
    return n_moves  # one past the last legal move


def test_illegal_user_move_names_strategy_seat_seed_deal_and_move():
    register_strategy("broken_example", _always_out_of_range)
    with pytest.raises(StrategyError) as err:
        run_deals(["greedy", "broken_example"], deals=5, seed=99)
    msg = str(err.value)
    for part in ("'broken_example'", "seat 1", "seed 99", "deal 0", "move index"):
        assert part in msg
    assert err.value.results.shape == (5, E.N_RESULT_COLS)


def test_registration_rejects_functions_without_the_signature():
    @njit
    def loose(decision, obs, moves, n_moves, params, rng):
        return 0

    with pytest.raises(ValueError, match="STRATEGY_SIG"):
        register_strategy("loose_example", loose)
    with pytest.raises(ValueError, match="built-in"):
        register_strategy("greedy", _always_out_of_range)


def test_spec_parsing_errors_say_what_and_where():
    with pytest.raises(ValueError, match="unknown strategy 'nope'"):
        parse_spec("nope")
    with pytest.raises(ValueError, match="unknown parameter 'depth'"):
        parse_spec("greedy:depth=3")
    with pytest.raises(ValueError, match=r"outside \[0, 400\]"):
        parse_spec("greedy:max_extra=-1")
    with pytest.raises(ValueError, match="is not an integer"):
        parse_spec("greedy:max_extra=lots")
    assert str(parse_spec("greedy:max_extra=12")) == "greedy:max_extra=12"
    assert np.isclose(parse_spec("greedy").param_array()[0], 30)
