"""Persian's slot values (issue 8, "the house in order"): the numeric values recorded
fixtures, logs and result files depend on have not moved. That every layout tiles its
array and every slot constant is listed is checked for every game by
tests/contract/test_layout.py."""

from __future__ import annotations

from sim.games.persian import enums as E

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
    "R_LAST_CARD": 0, "R_OUT_BONUS": 1, "R_FOUR_DOUBLE": 2, "R_DEALS_PER_GAME": 3, "R_TURN_CAP": 4, "N_RULES": 5,
}



def test_recorded_values_do_not_move() -> None:
    moved = {k: (getattr(E, k), v) for k, v in RECORDED.items() if getattr(E, k) != v}
    assert not moved, f"slot constants moved (now, recorded): {moved}"


def test_counters_are_result_columns() -> None:
    per_seat = {n for n, w in E.RESULT_FIELDS if w == E.N_SEATS}
    for _, col in E.COUNTER_NAMES:
        assert any(getattr(E, n) == col for n in per_seat)


def test_card_constants() -> None:
    assert (E.N_RANKS, E.JOKER0, E.N_CARDS, E.RANK_BITS, E.TOP_RANK) == (13, 52, 56, 0x1FFF, 12)
    assert E.JOKER_MASK == 0xF << 52
    assert E.STOCK_SIZE == 27 and E.N_SEATS * E.HAND_SIZE + 1 + E.STOCK_SIZE == E.N_CARDS
