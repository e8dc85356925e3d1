"""Persian Rummy deal logs in the ``rummy-log/1`` format (docs: /work/shared/LOG_FORMAT.md).

The compiled engine, in recording mode, writes one row of event codes per action
(``EV_*`` in ``sim.games.persian.enums``). ``build_deal_log`` turns those rows into the
JSON object of one deal, replaying the discard pile, the stock and the hands as
it goes so that any disagreement between the engine's events and the cards
(a take whose cards are not on top of the pile, a play of a card not in hand,
...) is raised instead of silently written. The JSONL helpers read and write
files of such deals; ``validate_log`` checks the structure of one deal object.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from sim.plugin.logfile import _plain, read_deal, read_jsonl, write_jsonl  # noqa: F401  (re-exported)
from sim.games.persian.cards import card_name, mask_to_names, parse_card
from sim.games.persian.enums import (
    END_NAMES,
    EV_DECISION,
    EV_DISCARD,
    EV_END,
    EV_LAYOFF,
    EV_LEGAL,
    EV_MELD,
    EV_PASS,
    EV_STOCK,
    EV_TAKE,
    EVENT_COLS,
    HAND_SIZE,
    JOKER0,
    N_CARDS,
    N_SEATS,
    STOCK_SIZE,
)

FORMAT = "rummy-log/1"
GAME = "persian"
END_KINDS = tuple(n for n in END_NAMES if n != "error")  # the ends a finished deal can have (P7)
SCORE_KEYS = ("table", "hand", "bonus", "total")
TOP_KEYS = (
    "format", "game", "rules", "seed", "deal", "dealer", "strategies", "hands",
    "discard", "stock", "turns", "end", "out_seat", "score",
)
TURN_KEYS = ("seat", "draw", "plays", "discard")


def _mask_str(mask: int) -> str:
    return "[" + " ".join(mask_to_names(mask)) + "]"


def build_deal_log(
    *,
    seed: int,
    deal: int,
    dealer: int,
    rules: dict,
    strategies: list[str],
    hands: list[list[int]],
    discard: int,
    stock: list[int],
    events: np.ndarray,
    result: dict,
) -> dict:
    """Build the ``rummy-log/1`` object of one Persian deal from the engine's recorded events.

    ``hands`` are the dealt card ids per seat, ``discard`` the card that starts
    the pile, ``stock`` the stock top first, ``events`` the (n, 5) int64 rows of
    this deal in order (EV_LEGAL / EV_DECISION rows are ignored) and ``result``
    the deal result (keys end, out_seat, table, hand, bonus, total).
    Raises ValueError when the events contradict the cards they act on.
    """
    ev = np.asarray(events, dtype=np.int64)
    if ev.ndim != 2 or ev.shape[1] != EVENT_COLS:
        raise ValueError(f"events must have shape (n, {EVENT_COLS}), got {ev.shape}")
    if len(hands) != N_SEATS:
        raise ValueError(f"hands: expected {N_SEATS} seats, got {len(hands)}")
    replay = _Replay(deal, hands, discard, stock)
    for i, row in enumerate(ev):
        replay.event(i, *(int(x) for x in row))
    end, out_seat = _check_end(deal, result, replay)
    return {
        "format": FORMAT,
        "game": GAME,
        "rules": _plain(dict(rules)),
        "seed": int(seed),
        "deal": int(deal),
        "dealer": int(dealer),
        "strategies": [str(s) for s in strategies],
        "hands": [[card_name(c) for c in h] for h in hands],
        "discard": [card_name(discard)],
        "stock": [card_name(c) for c in replay.stock],
        "turns": replay.turns,
        "end": end,
        "out_seat": out_seat,
        "score": {k: [int(v) for v in result[k]] for k in SCORE_KEYS},
    }


class _Replay:
    """The cards replayed event by event: the pile (bottom first), the stock position, the
    hands as masks, the melds made, the turns written so far."""

    def __init__(self, deal: int, hands: list[list[int]], discard: int, stock: list[int]):
        self.deal = deal
        self.pile: list[int] = [int(discard)]
        self.stock = [int(c) for c in stock]
        self.stock_pos = 0
        self.held = [0] * N_SEATS
        for s, h in enumerate(hands):
            for c in h:
                self.held[s] |= 1 << int(c)
        self.n_melds = 0
        self.turns: list[dict] = []
        self.open_turn: dict | None = None  # the turn still waiting for plays or a discard
        self.end_row: tuple[int, int] | None = None

    def fail(self, i: int, msg: str) -> ValueError:
        return ValueError(f"deal {self.deal}, event {i}: {msg}")

    def event(self, i: int, kind: int, seat: int, a: int, b: int, _c: int) -> None:
        if kind in (EV_LEGAL, EV_DECISION):
            return
        if self.end_row is not None:
            raise self.fail(i, f"event kind {kind} after the end event")
        if kind == EV_END:
            self.end_row = (seat, a)
            return
        if not 0 <= seat < N_SEATS:
            raise self.fail(i, f"seat {seat} out of range")
        if kind in (EV_STOCK, EV_TAKE, EV_PASS):
            self.draw(i, kind, seat, a, b)
        elif self.open_turn is None or self.open_turn["seat"] != seat:
            raise self.fail(i, f"seat {seat} plays or discards outside its turn")
        else:
            self.play(i, kind, seat, a, b)

    def draw(self, i: int, kind: int, seat: int, a: int, b: int) -> None:
        """A stock draw, a take of the top ``a + 1`` cards of the pile (mask ``b``) or a pass."""
        if self.open_turn is not None:
            raise self.fail(i, f"seat {seat} draws but the turn of seat {self.open_turn['seat']} "
                               "ended without a discard")
        if kind == EV_STOCK:
            if self.stock_pos >= len(self.stock):
                raise self.fail(i, f"seat {seat} draws {card_name(a)} from an empty stock")
            if a != self.stock[self.stock_pos]:
                raise self.fail(i, f"seat {seat} draws {card_name(a)} but the stock top is "
                                   f"{card_name(self.stock[self.stock_pos])}")
            self.stock_pos += 1
            self.held[seat] |= 1 << a
            draw: Any = {"stock": card_name(a)}
        elif kind == EV_TAKE:
            depth, mask, pile = a, b, self.pile
            if not 0 <= depth < len(pile):
                raise self.fail(i, f"take at depth {depth} from a pile of {len(pile)} cards")
            taken = pile[len(pile) - 1 - depth:][::-1]  # top first; last is the target
            taken_mask = sum(1 << c for c in taken)
            if taken_mask != mask:
                raise self.fail(i, f"seat {seat} takes depth {depth}: event mask {_mask_str(mask)} "
                                   f"but the pile's top {depth + 1} cards are {_mask_str(taken_mask)}")
            del pile[len(pile) - 1 - depth:]
            self.held[seat] |= mask
            draw = {"depth": depth, "cards": [card_name(c) for c in taken]}
        else:
            draw = "pass"
        turn = {"seat": seat, "draw": draw, "plays": [], "discard": None}
        self.turns.append(turn)
        self.open_turn = None if kind == EV_PASS else turn

    def play(self, i: int, kind: int, seat: int, a: int, b: int) -> None:
        """A meld (mask ``a``), a lay-off of card ``a`` onto meld ``b`` or the discard of ``a``."""
        held, turn = self.held, self.open_turn
        if kind == EV_MELD:
            if a & ~held[seat]:
                raise self.fail(i, f"seat {seat} melds {_mask_str(a)} but holds {_mask_str(held[seat])}")
            held[seat] &= ~a
            turn["plays"].append({"meld": mask_to_names(a)})
            self.n_melds += 1
        elif kind == EV_LAYOFF:
            if not held[seat] >> a & 1:
                raise self.fail(i, f"seat {seat} lays off {card_name(a)} which it does not hold")
            if not 0 <= b < self.n_melds:
                raise self.fail(i, f"lay-off onto meld {b} but only {self.n_melds} melds are on the table")
            held[seat] &= ~(1 << a)
            turn["plays"].append({"layoff": card_name(a), "onto": b})
        elif kind == EV_DISCARD:
            if not held[seat] >> a & 1:
                raise self.fail(i, f"seat {seat} discards {card_name(a)} which it does not hold")
            held[seat] &= ~(1 << a)
            self.pile.append(a)
            turn["discard"] = card_name(a)
            self.open_turn = None
        else:
            raise self.fail(i, f"unknown event kind {kind}")


def _check_end(deal: int, result: dict, replay: _Replay) -> tuple[str, int | None]:
    """(end, out seat) of the result, checked against the end event and the replayed cards."""
    end = result["end"]
    if end not in END_KINDS:
        raise ValueError(f"deal {deal}: result end {end!r} is not one of {END_KINDS}")
    out_seat = result.get("out_seat")
    out_seat = None if out_seat is None or int(out_seat) < 0 else int(out_seat)
    if (end == "out") != (out_seat is not None):
        raise ValueError(f"deal {deal}: end {end!r} with out_seat {out_seat!r}")
    if replay.end_row is not None:
        ev_seat, ev_code = replay.end_row
        ev_end = END_NAMES[ev_code] if 0 <= ev_code < len(END_NAMES) else str(ev_code)
        if ev_end != end or (ev_seat if ev_seat >= 0 else None) != out_seat:
            raise ValueError(f"deal {deal}: end event says {ev_end!r} seat {ev_seat}, "
                             f"result says {end!r} seat {out_seat}")
    open_turn = replay.open_turn
    if open_turn is not None and not (end == "out" and open_turn["seat"] == out_seat):
        raise ValueError(f"deal {deal}: the last turn (seat {open_turn['seat']}) has no discard "
                         f"but the deal ended {end!r}")
    if end == "out" and replay.held[out_seat]:
        raise ValueError(f"deal {deal}: seat {out_seat} went out still holding {_mask_str(replay.held[out_seat])}")
    return end, out_seat


# --- structure check -------------------------------------------------------------------------


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _card(x: Any, where: str) -> int:
    """Card id of the name ``x`` (jokers give 52), or ValueError naming ``where``."""
    if not isinstance(x, str):
        raise ValueError(f"{where}: card must be a string, got {x!r}")
    try:
        return parse_card(x)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def _cards(x: Any, where: str) -> list[int]:
    if not isinstance(x, list):
        raise ValueError(f"{where}: expected a list of cards, got {type(x).__name__}")
    return [_card(c, f"{where}[{j}]") for j, c in enumerate(x)]


def _seat(x: Any, where: str) -> None:
    if not _is_int(x) or not 0 <= x < N_SEATS:
        raise ValueError(f"{where}: expected a seat 0..{N_SEATS - 1}, got {x!r}")


def validate_log(d: dict) -> None:
    """Check the structure of one Persian ``rummy-log/1`` deal; ValueError names the bad field.

    Checks keys, types, card names, that the dealt cards are exactly the 56-card
    deck, the four keys of every turn, that each score total is table - hand + bonus,
    and that the recorded end is where the turns lead (P7, :func:`_check_end_follows`:
    the cards each seat holds and the stock are followed turn by turn). It does not
    replay the rest of the rules (which moves were legal).
    """
    if not isinstance(d, dict):
        raise ValueError(f"deal log must be an object, got {type(d).__name__}")
    for k in TOP_KEYS:
        if k not in d:
            raise ValueError(f"{k}: missing")
    if d["format"] != FORMAT:
        raise ValueError(f"format: expected {FORMAT!r}, got {d['format']!r}")
    if d["game"] != GAME:
        raise ValueError(f"game: expected {GAME!r}, got {d['game']!r}")
    if not isinstance(d["rules"], dict):
        raise ValueError("rules: expected an object")
    for k in ("seed", "deal"):
        if not _is_int(d[k]):
            raise ValueError(f"{k}: expected an integer, got {d[k]!r}")
    _seat(d["dealer"], "dealer")
    st = d["strategies"]
    if not isinstance(st, list) or len(st) != N_SEATS or not all(isinstance(s, str) for s in st):
        raise ValueError(f"strategies: expected {N_SEATS} strings, got {st!r}")

    _check_deck(d)
    if not isinstance(d["turns"], list):
        raise ValueError("turns: expected a list")
    for t, turn in enumerate(d["turns"]):
        _check_turn(t, turn)
    _check_end_and_score(d)
    _check_end_follows(d)


def _check_end_follows(d: dict) -> None:
    """The recorded end is the one the turns reach (P7), and nothing is played after it.

    Follows each seat's cards (dealt, drawn, taken, melded, laid off, discarded: a seat never
    gives up a card it does not hold) and the stock: ``passes`` needs the last four turns to be
    passes on an empty stock, ``out`` the out seat's hand empty after its own last turn, ``cap``
    the rules' turn cap reached; four passes on an empty stock or the cap before the last turn
    mean the log goes on after its end."""
    hands = [Counter(h) for h in d["hands"]]
    stock_left = len(d["stock"])
    cap = d["rules"].get("turn_cap", 1000) if isinstance(d["rules"], dict) else 1000
    turns = d["turns"]
    passes_on_empty = 0
    for t, turn in enumerate(turns):
        if passes_on_empty >= 4 or t >= cap:
            why = "four passes on an empty stock" if passes_on_empty >= 4 else f"the turn cap ({cap})"
            raise ValueError(f"turns[{t}]: the deal ended before this turn ({why}, P7)")
        hand, draw = hands[turn["seat"]], turn["draw"]
        if draw == "pass":
            passes_on_empty = passes_on_empty + 1 if stock_left == 0 else 0
            continue
        passes_on_empty = 0
        if "stock" in draw:
            if stock_left == 0:
                raise ValueError(f"turns[{t}].draw: a stock draw from an empty stock")
            stock_left -= 1
            hand[draw["stock"]] += 1
        else:
            hand.update(draw["cards"])
        given = [c for play in turn["plays"] for c in (play["meld"] if "meld" in play else [play["layoff"]])]
        for card in given + ([turn["discard"]] if turn["discard"] is not None else []):
            if hand[card] <= 0:
                raise ValueError(f"turns[{t}]: seat {turn['seat']} gives up {card}, which it does not hold")
            hand[card] -= 1
    end, n = d["end"], len(turns)
    if end == "passes" and passes_on_empty < 4:
        raise ValueError(f"end: 'passes' needs the last four turns to be passes on an empty stock (P7); "
                         f"{stock_left} stock cards left, {passes_on_empty} such passes at the end")
    if end == "out" and (not n or turns[-1]["seat"] != d["out_seat"] or +hands[d["out_seat"]]):
        raise ValueError(f"end: 'out' needs seat {d['out_seat']}'s hand empty after its own last turn (P6.4, P7)")
    if end == "cap" and (n < cap or passes_on_empty >= 4):
        raise ValueError(f"end: 'cap' needs the turn cap ({cap} turns) reached, the log has {n}")


def _check_deck(d: dict) -> None:
    """The dealt hands, up card and stock are exactly one 56-card deck (P1, P3)."""
    if not isinstance(d["hands"], list) or len(d["hands"]) != N_SEATS:
        raise ValueError(f"hands: expected {N_SEATS} lists of cards")
    dealt: list[int] = []
    for s, h in enumerate(d["hands"]):
        ids = _cards(h, f"hands[{s}]")
        if len(ids) != HAND_SIZE:
            raise ValueError(f"hands[{s}]: expected {HAND_SIZE} cards, got {len(ids)}")
        dealt += ids
    disc = _cards(d["discard"], "discard")
    if len(disc) != 1:
        raise ValueError(f"discard: expected one card, got {len(disc)}")
    stock = _cards(d["stock"], "stock")
    if len(stock) != STOCK_SIZE:
        raise ValueError(f"stock: expected {STOCK_SIZE} cards, got {len(stock)}")
    deck = Counter(dealt + disc + stock)
    full = Counter({c: 1 for c in range(JOKER0)} | {JOKER0: N_CARDS - JOKER0})
    if deck != full:
        extra = sorted(card_name(c) for c in (deck - full).elements())
        missing = sorted(card_name(c) for c in (full - deck).elements())
        raise ValueError(f"hands/discard/stock: not one 56-card deck (extra {extra}, missing {missing})")


def _check_turn(t: int, turn: Any) -> None:
    """One turn: its four keys, its draw, its plays and its discard (LOG_FORMAT.md)."""
    w = f"turns[{t}]"
    if not isinstance(turn, dict):
        raise ValueError(f"{w}: expected an object")
    for k in TURN_KEYS:
        if k not in turn:
            raise ValueError(f"{w}.{k}: missing")
    _seat(turn["seat"], f"{w}.seat")
    draw = turn["draw"]
    if draw == "pass":
        if turn["plays"] or turn["discard"] is not None:
            raise ValueError(f"{w}: a pass must have no plays and a null discard")
    elif isinstance(draw, dict) and set(draw) == {"stock"}:
        _card(draw["stock"], f"{w}.draw.stock")
    elif isinstance(draw, dict) and set(draw) == {"depth", "cards"}:
        if not _is_int(draw["depth"]) or draw["depth"] < 0:
            raise ValueError(f"{w}.draw.depth: expected an integer >= 0, got {draw['depth']!r}")
        if len(_cards(draw["cards"], f"{w}.draw.cards")) != draw["depth"] + 1:
            raise ValueError(f"{w}.draw.cards: expected depth + 1 = {draw['depth'] + 1} cards")
    else:
        raise ValueError(f"{w}.draw: expected {{'stock': CARD}}, {{'depth', 'cards'}} or 'pass', got {draw!r}")
    if not isinstance(turn["plays"], list):
        raise ValueError(f"{w}.plays: expected a list")
    for p, play in enumerate(turn["plays"]):
        wp = f"{w}.plays[{p}]"
        if isinstance(play, dict) and set(play) == {"meld"}:
            if len(_cards(play["meld"], f"{wp}.meld")) < 3:
                raise ValueError(f"{wp}.meld: a meld has at least 3 cards")
        elif isinstance(play, dict) and set(play) == {"layoff", "onto"}:
            _card(play["layoff"], f"{wp}.layoff")
            if not _is_int(play["onto"]) or play["onto"] < 0:
                raise ValueError(f"{wp}.onto: expected a meld number >= 0, got {play['onto']!r}")
        else:
            raise ValueError(f"{wp}: expected {{'meld': [...]}} or {{'layoff', 'onto'}}, got {play!r}")
    if turn["discard"] is not None:
        _card(turn["discard"], f"{w}.discard")


def _check_end_and_score(d: dict) -> None:
    """The end reason, the out seat and the score (total = table - hand + bonus, P8)."""
    if d["end"] not in END_KINDS:
        raise ValueError(f"end: expected one of {END_KINDS}, got {d['end']!r}")
    if d["end"] == "out":
        _seat(d["out_seat"], "out_seat")
    elif d["out_seat"] is not None:
        raise ValueError(f"out_seat: must be null when end is {d['end']!r}, got {d['out_seat']!r}")
    sc = d["score"]
    if not isinstance(sc, dict):
        raise ValueError("score: expected an object")
    for k in SCORE_KEYS:
        v = sc.get(k)
        if not isinstance(v, list) or len(v) != 2 or not all(_is_int(x) for x in v):
            raise ValueError(f"score.{k}: expected a list of 2 integers, got {v!r}")
    for team in range(2):
        if sc["total"][team] != sc["table"][team] - sc["hand"][team] + sc["bonus"][team]:
            raise ValueError(f"score.total[{team}]: {sc['total'][team]} != table - hand + bonus")
