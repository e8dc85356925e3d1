"""The slot layouts of sim.games.persian.enums (observation, full state, result row) are
built from ordered (name, width) lists: every slot has its constant, the slots tile
their array without gaps or overlaps, and the numeric values recorded fixtures, logs
and result files depend on have not moved (issue 8, "the house in order")."""

from __future__ import annotations

import pytest

from sim.games.persian import enums as E

# (fields, first offset, name of the size constant, prefix of the slot constants)
LAYOUTS = (
    (E.OBS_FIELDS, 0, "OBS_SIZE", "O_"),
    (E.STATE_FIELDS, E.OBS_SIZE, "ST_SIZE", "S_"),
    (E.RESULT_FIELDS, 0, "N_RESULT_COLS", "C_"),
)

# the values of main before the layouts were built from lists (tests/persian/fixtures)
RECORDED = {
    "O_SEAT": 0, "O_DEALER": 1, "O_TURN": 2, "O_HAND": 3, "O_STOCK_N": 4, "O_PILE_N": 5, "O_TARGET": 6,
    "O_N_MELDS": 7, "O_PASSES": 8, "O_DECISION": 9, "O_HAND_SIZES": 10, "O_TAKEN": 14, "O_PLACED": 18,
    "O_TEAM_TABLE": 22, "O_PILE": 24, "O_MELD_MASK": 80, "O_MELD_KIND": 100, "O_MELD_KEY": 120,
    "O_MELD_OWNER": 140, "O_RULES": 160, "O_LAST_DISCARD": 165, "O_LAST_DISCARDER": 166,
    # derived table slots appended by issue 14: the observation grew, no slot before them moved
    "O_TABLE_CARDS": 167, "O_LAYOFF_CARDS": 168, "O_BRIDGE_CARDS": 169, "O_RUN_UP": 170, "O_RUN_DOWN": 171,
    "O_SET_RANKS": 172, "O_JOKER_ROOM": 173, "OBS_SIZE": 174,
    "C_DEAL": 0, "C_DEALER": 1, "C_END": 2, "C_OUT_SEAT": 3, "C_TURNS": 4, "C_TABLE": 5, "C_HAND": 7,
    "C_BONUS": 9, "C_TOTAL": 11, "C_ERR_SEAT": 13, "C_ERR_DECISION": 14, "C_ERR_VALUE": 15,
    "C_ERR_N_MOVES": 16, "C_TAKES": 17, "C_TAKE_DEPTH": 21, "C_MAX_DEPTH": 25, "C_CARDS_TAKEN": 29,
    "C_FOURS": 33, "C_JOKER_FOURS": 37, "C_LAYOFF_OPP": 41, "C_HAND_PTS": 45, "C_TURNS_SEAT": 49,
    "C_TABLE_SEAT": 53, "C_DISCARDS": 57, "C_FED": 61, "N_RESULT_COLS": 65,
    "S_HANDS": 174, "S_STOCK": 178, "ST_SIZE": 205,
}


def _slot_constants(prefix: str) -> dict[str, int]:
    return {k: v for k, v in vars(E).items() if k.startswith(prefix) and isinstance(v, int)}


@pytest.mark.parametrize("fields,start,size_name,prefix", LAYOUTS, ids=[x[2] for x in LAYOUTS])
def test_slots_tile_their_array(fields, start, size_name, prefix) -> None:
    """Sorted by offset, every slot starts where the previous one ends, from ``start`` to
    the size constant: no gap, no overlap, no zero-width slot, no name twice."""
    names = [n for n, _ in fields]
    assert len(names) == len(set(names)), "a slot is listed twice"
    spans = sorted((getattr(E, n), w, n) for n, w in fields)
    pos = start
    for offset, width, name in spans:
        assert width >= 1, f"{name} has width {width}"
        assert offset == pos, f"{name} starts at {offset}, the previous slot ends at {pos}"
        pos += width
    assert pos == getattr(E, size_name)
    # the listed order is the array order
    assert [n for _, _, n in spans] == names


@pytest.mark.parametrize("fields,start,size_name,prefix", LAYOUTS, ids=[x[2] for x in LAYOUTS])
def test_every_slot_constant_is_listed(fields, start, size_name, prefix) -> None:
    """No slot constant is defined by hand beside its list (it could shift silently)."""
    listed = {n for n, _ in fields}
    assert set(_slot_constants(prefix)) == listed


def test_recorded_values_do_not_move() -> None:
    moved = {k: (getattr(E, k), v) for k, v in RECORDED.items() if getattr(E, k) != v}
    assert not moved, f"slot constants moved (now, recorded): {moved}"


def test_state_starts_with_the_observation() -> None:
    """The full state is the observation layout followed by the hidden part (P10)."""
    assert min(getattr(E, n) for n, _ in E.STATE_FIELDS) == E.OBS_SIZE
    assert E.ST_SIZE == E.OBS_SIZE + sum(w for _, w in E.STATE_FIELDS)


def test_counters_are_result_columns() -> None:
    per_seat = {n for n, w in E.RESULT_FIELDS if w == E.N_SEATS}
    for _, col in E.COUNTER_NAMES:
        assert any(getattr(E, n) == col for n in per_seat)


def test_layout_rejects_bad_lists() -> None:
    assert E.layout((("A", 2), ("B", 1)), 5) == ({"A": 5, "B": 7}, 8)
    with pytest.raises(ValueError):
        E.layout((("A", 1), ("A", 1)))
    with pytest.raises(ValueError):
        E.layout((("A", 0),))


def test_card_constants() -> None:
    assert (E.N_RANKS, E.JOKER0, E.N_CARDS, E.RANK_BITS, E.TOP_RANK) == (13, 52, 56, 0x1FFF, 12)
    assert E.JOKER_MASK == 0xF << 52
    assert E.STOCK_SIZE == 27 and E.N_SEATS * E.HAND_SIZE + 1 + E.STOCK_SIZE == E.N_CARDS
