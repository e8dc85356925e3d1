"""Every game's rules array, pinned per table size and variant (issue 23, item 4).

The compiled kernels read the rules as an int64 array (``RuleOptions.to_array(players)``),
and some of its slots are derived from the table rather than set by an option (Indian
Rummy: the decks, jokers and shoe by player count, and three identical cards a pure run
only with three decks, I4). A wrong derived slot plays every deal and changes what the
engine and the searches' play-outs score, yet no other test need notice: a planted bug
that set Indian's ``R_TRIPLE_IS_RUN`` for two decks passed them all. Each game writes the
arrays out value by value in ``tests/<game>/expected_rules.py`` (every table size it
allows, the default rules, every option changed at once, and its own variants); this test
builds each one and compares, so such a change fails until that table changes with it.
"""

from __future__ import annotations

import pytest

from game_modules import enums_of, game_test_module
from sim.games import game_names, get_game

GAMES = game_names()


def _expected(name: str):
    module = game_test_module(name, "expected_rules.py")
    assert module is not None, f"tests/{name}/expected_rules.py is missing: every game pins its rules arrays"
    return module


@pytest.mark.parametrize("name", GAMES)
def test_slots_are_in_the_pinned_order(name) -> None:
    E = enums_of(name)
    assert tuple(n for n, _ in E.RULE_FIELDS) == _expected(name).SLOTS


@pytest.mark.parametrize("name", GAMES)
def test_every_table_size_and_option_is_pinned(name) -> None:
    """The default rules and every option changed, at every table size the game allows."""
    game = get_game(name)
    ex = _expected(name)
    options = set(game.rules().to_dict())
    assert "default" in ex.VARIANTS and ex.VARIANTS["default"] == {}
    changed = {k for values in ex.VARIANTS.values() for k, v in values.items() if v != game.rules().to_dict()[k]}
    assert changed == options, f"options never changed in a variant: {sorted(options - changed)}"
    assert set(ex.ARRAYS) == {(v, n) for v in ex.VARIANTS for n in game.seat_counts}


@pytest.mark.parametrize("name", GAMES)
def test_rules_arrays_are_the_pinned_ones(name) -> None:
    game = get_game(name)
    ex = _expected(name)
    differ = {}
    for (variant, players), expected in ex.ARRAYS.items():
        rules = game.rules(ex.VARIANTS[variant])
        if expected is None:
            with pytest.raises(ValueError):
                rules.to_array(players)
            continue
        got = tuple(int(x) for x in rules.to_array(players))
        if got != expected:
            differ[(variant, players)] = {s: (g, e) for s, g, e in zip(ex.SLOTS, got, expected) if g != e}
    assert not differ, f"rules arrays changed (slot: (now, pinned)): {differ}"
