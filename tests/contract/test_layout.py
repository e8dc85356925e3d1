"""Every game's array layouts (issue 8, "the house in order"; issue 23: over every game).

A game's ``enums`` module lists each array its kernels exchange (rules, observation, full
state, result row) as ordered ``(name, width)`` fields in ``LAYOUTS`` and reads its slot
constants back from them (sim.core.layout). Parametrized over every registered game: the
slots tile their array without gaps or overlaps, every slot constant is listed (none
defined by hand beside its list, where it could shift silently), the full state is the
observation followed by the hidden part, and the observation carries the whole rules
array where it has one. The recorded values each game's fixtures and files depend on are
pinned in the game's own folder (tests/<game>/test_layout.py).
"""

from __future__ import annotations

import pytest

from game_modules import enums_of
from sim.core.layout import layout
from sim.games import game_names

GAMES = game_names()
CASES = [(name, i) for name in GAMES for i in range(len(enums_of(name).LAYOUTS))]


def _id(case) -> str:
    name, i = case
    return f"{name}-{enums_of(name).LAYOUTS[i][2]}"


def _slot_constants(E, prefix: str) -> dict[str, int]:
    return {k: v for k, v in vars(E).items() if k.startswith(prefix) and isinstance(v, int) and not isinstance(v, bool)}


@pytest.mark.parametrize("name", GAMES)
def test_every_game_lists_its_layouts(name) -> None:
    """Rules, observation, state and result row, each once."""
    E = enums_of(name)
    assert sorted(size for _, _, size, _ in E.LAYOUTS) == ["N_RESULT_COLS", "N_RULES", "OBS_SIZE", "ST_SIZE"]


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_slots_tile_their_array(case) -> None:
    """Sorted by offset, every slot starts where the previous one ends, from the layout's
    start to its size constant: no gap, no overlap, no zero-width slot, no name twice."""
    name, i = case
    E = enums_of(name)
    fields, start, size_name, prefix = E.LAYOUTS[i]
    names = [n for n, _ in fields]
    assert len(names) == len(set(names)), "a slot is listed twice"
    assert all(n.startswith(prefix) for n in names)
    spans = sorted((getattr(E, n), w, n) for n, w in fields)
    pos = start
    for offset, width, slot in spans:
        assert width >= 1, f"{slot} has width {width}"
        assert offset == pos, f"{slot} starts at {offset}, the previous slot ends at {pos}"
        pos += width
    assert pos == getattr(E, size_name)
    assert [n for _, _, n in spans] == names  # the listed order is the array order


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_every_slot_constant_is_listed(case) -> None:
    name, i = case
    E = enums_of(name)
    fields, _, _, prefix = E.LAYOUTS[i]
    assert set(_slot_constants(E, prefix)) == {n for n, _ in fields}


@pytest.mark.parametrize("name", GAMES)
def test_state_starts_with_the_observation(name) -> None:
    """The full state is the observation layout followed by the hidden part."""
    E = enums_of(name)
    starts = {size: start for _, start, size, _ in E.LAYOUTS}
    assert starts["OBS_SIZE"] == 0 and starts["ST_SIZE"] == E.OBS_SIZE
    state = next(fields for fields, _, size, _ in E.LAYOUTS if size == "ST_SIZE")
    assert E.ST_SIZE == E.OBS_SIZE + sum(w for _, w in state)


@pytest.mark.parametrize("name", GAMES)
def test_observation_rules_slot_holds_the_rules_array(name) -> None:
    E = enums_of(name)
    obs = dict(next(fields for fields, _, size, _ in E.LAYOUTS if size == "OBS_SIZE"))
    if "O_RULES" in obs:
        assert obs["O_RULES"] == E.N_RULES


def test_layout_rejects_bad_lists() -> None:
    assert layout((("A", 2), ("B", 1)), 5) == ({"A": 5, "B": 7}, 8)
    with pytest.raises(ValueError):
        layout((("A", 1), ("A", 1)))
    with pytest.raises(ValueError):
        layout((("A", 0),))
