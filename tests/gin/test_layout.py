"""Gin Rummy's slot values: the numeric values its recorded fixtures, deal logs and
result files depend on have not moved (the values when the layouts were pinned, issue 23).
That every layout tiles its array and every slot constant is listed is checked for every
game by tests/contract/test_layout.py."""

from __future__ import annotations

from sim.games.gin import enums as E

RECORDED = {
    "R_KNOCK_CARD": 0, "R_GIN_BONUS": 1, "R_UNDERCUT_BONUS": 2, "R_OKLAHOMA": 3, "N_RULES": 4, "O_DECISION": 0,
    "O_SEAT": 1, "O_FIRST": 2, "O_HAND": 3, "O_UPCARD": 4, "O_STOCK_N": 5, "O_KNOCK_CARD": 6, "O_OUT": 7,
    "O_KNOWN": 8, "O_PICKUPS": 10, "O_PASSED": 12, "O_TURN": 14, "O_UPCARD_DRAWS": 15, "O_PREV_UPCARD": 16,
    "O_REPEATED": 17, "O_KNOCKER": 18, "O_MELDS": 19, "O_LAYOFFS": 21, "O_N_LAYOFFS": 22, "O_N_LAID": 23,
    "O_KNOCKER_MELD_IDS": 25, "O_KNOCK_DISCARD": 29, "O_GIN": 30, "O_FIRST_UPCARD": 31, "OBS_SIZE": 32,
    "S_HANDS": 32, "S_STOCK_POS": 34, "S_STOCK": 35, "ST_SIZE": 66, "C_DEAL": 0, "C_FIRST": 1, "C_END": 2,
    "C_KNOCKER": 3, "C_TURNS": 4, "C_STOCK_LEFT": 5, "C_KNOCK_CARD": 6, "C_SCORE": 7, "C_DEADWOOD": 9,
    "C_PICKUPS": 11, "C_LAYOFFS": 13, "C_UNDERCUT": 15, "C_ERR_SEAT": 16, "C_ERR_DECISION": 17, "C_ERR_VALUE": 18,
    "C_ERR_N_MOVES": 19, "N_RESULT_COLS": 20,
}


def test_recorded_values_do_not_move() -> None:
    moved = {k: (getattr(E, k), v) for k, v in RECORDED.items() if getattr(E, k) != v}
    assert not moved, f"slot constants moved (now, recorded): {moved}"
