"""Indian Rummy's slot values: the numeric values its recorded fixtures, deal logs and
result files depend on have not moved (the values when the layouts were pinned, issue 23).
That every layout tiles its array and every slot constant is listed is checked for every
game by tests/contract/test_layout.py."""

from __future__ import annotations

from sim.games.indian import enums as E

RECORDED = {
    "R_PLAYERS": 0, "R_DECKS": 1, "R_N_JOKERS": 2, "R_SHOE": 3, "R_MAX_J_RUN": 4, "R_MAX_J_SET": 5,
    "R_TRIPLE_IS_RUN": 6, "R_FIRST_DROP": 7, "R_MIDDLE_DROP": 8, "R_MAX_POINTS": 9, "R_WRONG_DECL": 10,
    "R_TURN_CAP": 11, "R_DEALS_PER_GAME": 12, "N_RULES": 13, "O_SEAT": 0, "O_DEALER": 1, "O_PLAYERS": 2,
    "O_DECISION": 3, "O_TURN": 4, "O_STOCK_N": 5, "O_CUT_JOKER": 6, "O_WILD_RANK": 7, "O_TOP": 8, "O_PILE_N": 9,
    "O_IN_PLAY": 10, "O_N_DISCARDS": 11, "O_PILE_COUNTS": 12, "O_HAND_N": 65, "O_STATUS": 71, "O_HAS_DRAWN": 77,
    "O_PICKUPS": 83, "O_PICKED": 89, "O_DISCARDED": 407, "O_RING": 725, "O_RULES": 853, "O_HAND": 866,
    "OBS_SIZE": 919, "S_HANDS": 919, "S_STOCK": 1237, "S_PILE": 1399, "S_FIRST_CHANCE": 1561, "ST_SIZE": 1567,
    "C_DEAL": 0, "C_DEALER": 1, "C_PLAYERS": 2, "C_END": 3, "C_WINNER": 4, "C_TURNS": 5, "C_LOST": 6, "C_GAIN": 12,
    "C_DROP": 18, "C_WRONG": 24, "C_TURNS_SEAT": 30, "C_PICKUPS": 36, "C_JOKERS": 42, "C_DEADWOOD": 48,
    "C_FIRST_CHANCE": 54, "C_ERR_SEAT": 60, "C_ERR_DECISION": 61, "C_ERR_VALUE": 62, "C_ERR_N_MOVES": 63,
    "N_RESULT_COLS": 64,
}


def test_recorded_values_do_not_move() -> None:
    moved = {k: (getattr(E, k), v) for k, v in RECORDED.items() if getattr(E, k) != v}
    assert not moved, f"slot constants moved (now, recorded): {moved}"
