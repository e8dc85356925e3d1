"""Checking a Gin Rummy deal log (``rummy-log/1``, LOG_FORMAT.md's Gin section).

``validate_log`` checks the fields (names the one that is wrong) and then ``replay`` plays
the logged moves through the rules kernels (state_nb: the engine's own rules, which
benchmarks/vs_openspiel.py checks against OpenSpiel): every move must be legal where it is
made, every stock draw the stock's top card, and the end, knocker, deadwood and score must
be what the moves lead to. Any difference is a ValueError naming the turn.
"""

from __future__ import annotations

import numpy as np

from sim.games.gin import enums as E
from sim.games.gin.cards import card_id, card_name, mask_of, meld_names
from sim.games.gin.melds_nb import MAX_HAND_MELDS, MELD_MASK, MELD_SCRATCH
from sim.games.gin.rules import RuleOptions
from sim.games.gin.state_nb import apply_move, deal_state, legal_moves, score

_COMMON = ("format", "game", "rules", "seed", "deal", "dealer", "strategies", "hands", "discard", "stock",
           "upcard", "turns", "end", "knocker", "deadwood", "score")


def _cards(value, field: str, count: int | None = None) -> list[int]:
    if not isinstance(value, list):
        raise ValueError(f"field {field}: expected a list of cards, got {value!r}")
    try:
        cards = [card_id(c) for c in value]
    except ValueError as e:
        raise ValueError(f"field {field}: {e}") from None
    if count is not None and len(cards) != count:
        raise ValueError(f"field {field}: expected {count} cards, got {len(cards)}")
    return cards


def validate_log(log: dict) -> None:
    """Raise ValueError naming the field when ``log`` is not a valid Gin Rummy deal log."""
    if not isinstance(log, dict):
        raise ValueError("a deal log is a JSON object")
    missing = [k for k in _COMMON if k not in log]
    if missing:
        raise ValueError(f"missing field(s): {', '.join(missing)}")
    if log["format"] != "rummy-log/1":
        raise ValueError(f"field format: expected 'rummy-log/1', got {log['format']!r}")
    if log["game"] != "gin":
        raise ValueError(f"field game: expected 'gin', got {log['game']!r}")
    if not isinstance(log["turns"], list) or not all(isinstance(t, dict) for t in log["turns"]):
        raise ValueError("field turns: expected a list of turn objects")
    if log["dealer"] not in (0, 1):
        raise ValueError(f"field dealer: expected 0 or 1, got {log['dealer']!r}")
    if not isinstance(log["strategies"], list) or len(log["strategies"]) != 2:
        raise ValueError("field strategies: expected two strategy names")
    if log["end"] not in E.END_NAMES[:-1]:
        raise ValueError(f"field end: {log['end']!r} is not one of {', '.join(E.END_NAMES[:-1])}")
    replay(log)


class _Replay:
    """The rules kernels stepped through a log's moves."""

    def __init__(self, log: dict):
        try:
            self.rules = RuleOptions.from_dict(log["rules"])
        except (TypeError, ValueError) as e:
            raise ValueError(f"field rules: {e}") from None
        if not isinstance(log["hands"], list) or len(log["hands"]) != 2:
            raise ValueError("field hands: expected two hands")
        hands = [_cards(log["hands"][s], f"hands[{s}]", E.HAND_SIZE) for s in range(2)]
        upcard = _cards(log["discard"], "discard", 1)[0]
        if _cards([log["upcard"]], "upcard", 1)[0] != upcard:
            raise ValueError("field upcard: not the card of field discard")
        stock = _cards(log["stock"], "stock", E.STOCK_AT_DEAL)
        deck = hands[1 - log["dealer"]] + hands[log["dealer"]] + [upcard] + stock
        if sorted(deck) != list(range(E.N_CARDS)):
            raise ValueError("fields hands, discard and stock: not the 52 cards once each")
        self.first = 1 - int(log["dealer"])
        self.st = np.zeros(E.ST_SIZE, np.int64)
        self.arr = self.rules.to_array(2)
        deal_state(self.st, np.array(deck, np.int64), np.int64(self.first), self.arr)
        self.moves = np.zeros((E.MAX_MOVES, E.MOVE_COLS), np.int64)
        self.ids = np.zeros(MAX_HAND_MELDS, np.int64)
        self.tmp = np.zeros(MAX_HAND_MELDS, np.int64)
        self.stack = np.zeros(MELD_SCRATCH, np.int64)
        self.end = -1
        self.where = ""

    def play(self, action: int, seat: int) -> None:
        """Play ``action`` for ``seat``; ValueError naming the turn when it is not legal there."""
        if self.end >= 0:
            raise ValueError(f"{self.where}: a move after the end of the hand")
        if int(self.st[E.O_SEAT]) != seat:
            raise ValueError(f"{self.where}: seat {seat} moves, but it is seat {int(self.st[E.O_SEAT])}'s turn")
        n = legal_moves(self.st, self.moves, self.ids, self.stack, self.tmp)
        rows = [i for i in range(n) if self.moves[i, 1] == action]
        if not rows:
            decision = E.DECISION_NAMES[int(self.st[E.O_DECISION])]
            raise ValueError(f"{self.where}: {_action_text(action)} is not legal at this {decision} decision")
        r = self.moves[rows[0]]
        self.end = apply_move(self.st, r[0], r[2], r[3])

    def stock_top(self) -> int:
        return int(self.st[E.S_STOCK + self.st[E.S_STOCK_POS]])


def _action_text(action: int) -> str:
    if action < E.N_CARDS:
        return card_name(action)
    if action >= E.A_MELD0:
        return "meld " + "".join(meld_names(action - E.A_MELD0))
    return {E.A_UPCARD: "drawing the upcard", E.A_STOCK: "drawing the stock", E.A_PASS: "pass",
            E.A_KNOCK: "knock"}[action]


def _meld_action(cards: list[int], where: str) -> int:
    m = mask_of(cards)
    hits = np.flatnonzero(MELD_MASK == m)
    if hits.size == 0:
        raise ValueError(f"{where}: {cards} is not a meld of 3 to 5 cards")
    return E.A_MELD0 + int(hits[0])


def _knock(rp: _Replay, knock, seat: int, where: str) -> None:
    if not isinstance(knock, dict) or not isinstance(knock.get("melds"), list):
        raise ValueError(f"{where}: knock must be an object with discard and melds")
    rp.play(_cards([knock.get("discard")], f"{where} knock discard", 1)[0], seat)
    for j, meld in enumerate(knock["melds"]):
        rp.play(_meld_action(_cards(meld, f"{where} knock melds[{j}]"), where), seat)
    rp.play(E.A_PASS, seat)


def replay(log: dict) -> None:
    """Play the log's moves through the rules kernels (module docstring)."""
    rp = _Replay(log)
    for t, turn in enumerate(log["turns"]):
        where = rp.where = f"turns[{t}]"
        seat = turn.get("seat")
        if seat not in (0, 1):
            raise ValueError(f"{where}: seat must be 0 or 1, got {seat!r}")
        if t == 0 and seat != rp.first:
            raise ValueError(f"{where}: the first turn must be the seat that acts first ({rp.first}: not the dealer)")
        if "wall" in turn:
            if turn["wall"] == "pass":
                rp.play(E.A_PASS, seat)
            elif turn["wall"] == "knock":
                rp.play(E.A_KNOCK, seat)
                _knock(rp, turn.get("knock"), seat, where)
            else:
                raise ValueError(f"{where}: wall must be 'pass' or 'knock', got {turn['wall']!r}")
            continue
        if "layoffs" in turn or "melds" in turn:
            layoffs, melds = turn.get("layoffs", []), turn.get("melds", [])
            if not isinstance(layoffs, list) or not isinstance(melds, list):
                raise ValueError(f"{where}: layoffs and melds must be lists")
            if rp.st[E.O_DECISION] == E.D_LAYOFF:
                for c in _cards(layoffs, f"{where} layoffs"):
                    rp.play(c, seat)
                rp.play(E.A_PASS, seat)
            elif layoffs:
                raise ValueError(f"{where}: lay-offs where none may be made (after gin, G5)")
            for j, meld in enumerate(melds):
                rp.play(_meld_action(_cards(meld, f"{where} melds[{j}]"), where), seat)
            rp.play(E.A_PASS, seat)
            continue
        draw = turn.get("draw")
        if draw == "pass":
            rp.play(E.A_PASS, seat)
            continue
        if draw == "upcard":
            rp.play(E.A_UPCARD, seat)
        elif isinstance(draw, dict) and "stock" in draw:
            card = _cards([draw["stock"]], f"{where} draw", 1)[0]
            if rp.end < 0 and rp.st[E.O_STOCK_N] > 0 and card != rp.stock_top():
                raise ValueError(f"{where}: the stock's top card is not {draw['stock']}")
            rp.play(E.A_STOCK, seat)
        else:
            raise ValueError(f"{where}: draw must be 'upcard', 'pass' or {{'stock': CARD}}, got {draw!r}")
        if rp.end >= 0:
            continue  # G8: the upcard-draw limit ended the hand at this draw
        if "knock" in turn:
            rp.play(E.A_KNOCK, seat)
            _knock(rp, turn["knock"], seat, where)
        elif "discard" in turn:
            rp.play(_cards([turn["discard"]], f"{where} discard", 1)[0], seat)
        else:
            raise ValueError(f"{where}: a turn ends with a discard or a knock")
    _check_end(rp, log)


def _check_end(rp: _Replay, log: dict) -> None:
    rp.where = "end"
    if rp.end < 0:
        raise ValueError("field turns: the hand has not ended after the last turn")
    res = np.zeros(E.N_RESULT_COLS, np.int64)
    score(rp.st, rp.end, rp.arr, res, rp.ids, rp.stack)
    knocker = int(res[E.C_KNOCKER])
    want = {"end": E.END_NAMES[rp.end], "knocker": knocker if knocker >= 0 else None,
            "deadwood": [int(res[E.C_DEADWOOD + s]) for s in range(2)],
            "score": [int(res[E.C_SCORE + s]) for s in range(2)]}
    for k, v in want.items():
        if log[k] != v:
            raise ValueError(f"field {k}: the moves give {v!r}, the log says {log[k]!r}")
