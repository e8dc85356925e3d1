"""Every built-in strategy of every game says how it chooses (issue 25: ``rummy-sim strategies``
marks heuristic, search and learned ones): a kind of sim.plugin.specs.STRATEGY_KINDS, never the
"user" a registered user function gets."""

from sim.games import game_names
from sim.plugin.registry import get_game
from sim.plugin.specs import STRATEGY_KINDS


def test_every_builtin_declares_its_kind():
    for game in game_names():
        registry = get_game(game).strategies
        for name in registry.names():
            info = registry.get(name)
            if info.function is not None:  # a user strategy registered by another test
                continue
            assert info.kind in STRATEGY_KINDS and info.kind != "user", (game, name, info.kind)
            assert (info.kind == "search") == name.startswith("mc_search"), (game, name)
            assert (info.kind == "baseline") == (name == "random"), (game, name)
