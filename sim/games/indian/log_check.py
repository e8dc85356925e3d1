"""Reading and structure checks of Indian Rummy deal logs (``rummy-log/1``, /work/shared/LOG_FORMAT.md).

``read_jsonl(path)`` reads every deal of a JSON Lines file, ``read_deal(path, deal)``
one deal by its ``"deal"`` field, and ``validate_log(d)`` checks the structure and
types of one Indian deal object; it raises ``ValueError`` whose message starts
with the offending field, and for a turn with its index (``turns[12].draw: ...``).

What ``validate_log`` checks (structure, not the rules of play):

* the common fields (``format`` = "rummy-log/1", ``game`` = "indian", ``rules``,
  ``seed``, ``deal``, ``dealer``, ``strategies``, ``hands``, ``discard``,
  ``stock``, ``turns``, ``end``) and the Indian ones (``players`` 2..6, ``decks``,
  ``cut_joker``, ``winner``, ``points``);
* card names (``"TD"``, ``"AS"``, ``"JK"``; exact spelling), 13 cards per hand,
  one card in ``discard``, the cut joker equal to the stock's last card, and that
  hands + discard + stock are exactly one shoe of ``decks`` decks with
  ``2 * decks`` printed jokers (I1);
* every turn: ``{"reshuffle": [cards]}`` or ``{"seat", "draw", ...}`` with
  ``draw`` = ``{"stock": CARD}`` | ``{"discard": CARD}`` | ``"drop"``; a drop has no
  discard or declaration, a draw is followed by exactly one of ``"discard": CARD``
  or ``"declare": {"discard": CARD, "groups": [[CARD, ...], ...]}`` (the groups
  hold at most 13 cards; a valid declaration shows all 13, a wrong one may also
  list the cards outside its groups under ``"ungrouped"``);
* the end: ``end`` in declare / last_player / cap, ``winner`` a seat (null exactly
  for ``cap``), a declare-ended log whose last turn is the winner's declaration,
  ``points`` one non-negative integer per seat with 0 for the winner;
* that the recorded end follows from the turns (``log_follow.follow_turns``): the seat to
  move, the stock's and the pile's cards, each seat's cards, who left and what it lost,
  and no turn after the end.

Whether the moves were legal and the points right is checked by replaying the
log against the pure-Python reference rules (``tests/indian/naive_indian.py:
replay_log``), not here.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sim.games.indian.log_follow import follow_turns
from sim.plugin.logfile import read_deal, read_jsonl  # noqa: F401  (re-exported: files are common to games)

FORMAT = "rummy-log/1"
GAME = "indian"
RANKS = "23456789TJQKA"
SUITS = "CDHS"
JOKER = 52
HAND_SIZE = 13
MIN_SEATS, MAX_SEATS = 2, 6
MIN_DECKS, MAX_DECKS = 1, 3
END_KINDS = ("declare", "last_player", "cap")
TOP_KEYS = (
    "format", "game", "rules", "seed", "deal", "players", "decks", "dealer", "strategies",
    "hands", "discard", "stock", "cut_joker", "turns", "end", "winner", "points",
)
DECLARE_KEYS = {"discard", "groups"}
DECLARE_OPTIONAL = {"valid", "ungrouped"}


# --- structure check -------------------------------------------------------------------------


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def card_kind(x: Any, where: str) -> int:
    """Kind 0..52 of the exact card name ``x``, or ValueError naming ``where``."""
    if not isinstance(x, str):
        raise ValueError(f"{where}: card must be a string like 'TD' or 'JK', got {x!r}")
    if x == "JK":
        return JOKER
    if len(x) != 2 or x[0] not in RANKS or x[1] not in SUITS:
        raise ValueError(f"{where}: bad card {x!r} (rank in {RANKS!r} then suit in {SUITS!r}, or 'JK')")
    return SUITS.index(x[1]) * 13 + RANKS.index(x[0])


def _kind_name(k: int) -> str:
    return "JK" if k == JOKER else RANKS[k % 13] + SUITS[k // 13]


def _cards(x: Any, where: str) -> list[int]:
    if not isinstance(x, list):
        raise ValueError(f"{where}: expected a list of cards, got {type(x).__name__}")
    return [card_kind(c, f"{where}[{j}]") for j, c in enumerate(x)]


def _seat(x: Any, players: int, where: str) -> None:
    if not _is_int(x) or not 0 <= x < players:
        raise ValueError(f"{where}: expected a seat 0..{players - 1}, got {x!r}")


def _int(d: dict, key: str, low: int | None = None, high: int | None = None) -> int:
    v = d[key]
    if not _is_int(v):
        raise ValueError(f"{key}: expected an integer, got {v!r}")
    if (low is not None and v < low) or (high is not None and v > high):
        raise ValueError(f"{key}: {v} is outside [{low}, {high}]")
    return v


def _check_turn(t: int, turn: Any, players: int) -> None:
    w = f"turns[{t}]"
    if not isinstance(turn, dict):
        raise ValueError(f"{w}: expected an object, got {type(turn).__name__}")
    if "reshuffle" in turn:
        if set(turn) != {"reshuffle"}:
            raise ValueError(f"{w}: a reshuffle entry has only the key 'reshuffle', got {sorted(turn)}")
        if not _cards(turn["reshuffle"], f"{w}.reshuffle"):
            raise ValueError(f"{w}.reshuffle: the new stock is empty")
        return
    for k in ("seat", "draw"):
        if k not in turn:
            raise ValueError(f"{w}.{k}: missing")
    extra = set(turn) - {"seat", "draw", "discard", "declare"}
    if extra:
        raise ValueError(f"{w}: unknown key(s) {sorted(extra)}")
    _seat(turn["seat"], players, f"{w}.seat")
    draw = turn["draw"]
    if draw == "drop":
        if turn.get("discard") is not None or "declare" in turn:
            raise ValueError(f"{w}: a drop has no discard or declaration")
        return
    if isinstance(draw, dict) and set(draw) == {"stock"}:
        card_kind(draw["stock"], f"{w}.draw.stock")
    elif isinstance(draw, dict) and set(draw) == {"discard"}:
        card_kind(draw["discard"], f"{w}.draw.discard")
    else:
        raise ValueError(f"{w}.draw: expected {{'stock': CARD}}, {{'discard': CARD}} or 'drop', got {draw!r}")
    has_discard = turn.get("discard") is not None
    if has_discard == ("declare" in turn):
        raise ValueError(f"{w}: a draw must be followed by exactly one of 'discard' or 'declare'")
    if has_discard:
        card_kind(turn["discard"], f"{w}.discard")
        return
    dec = turn["declare"]
    if not isinstance(dec, dict) or not DECLARE_KEYS <= set(dec) or set(dec) - DECLARE_KEYS - DECLARE_OPTIONAL:
        raise ValueError(f"{w}.declare: expected {{'discard': CARD, 'groups': [[CARD, ...], ...]}}, got {dec!r}")
    card_kind(dec["discard"], f"{w}.declare.discard")
    groups = dec["groups"]
    if not isinstance(groups, list):
        raise ValueError(f"{w}.declare.groups: expected a list of groups")
    shown = 0
    for g, grp in enumerate(groups):
        n = len(_cards(grp, f"{w}.declare.groups[{g}]"))
        if n == 0:
            raise ValueError(f"{w}.declare.groups[{g}]: an empty group")
        shown += n
    if "ungrouped" in dec:
        shown += len(_cards(dec["ungrouped"], f"{w}.declare.ungrouped"))
    if "valid" in dec and not isinstance(dec["valid"], bool):
        raise ValueError(f"{w}.declare.valid: expected true or false, got {dec['valid']!r}")
    if shown > HAND_SIZE or ("ungrouped" in dec and shown != HAND_SIZE):
        raise ValueError(f"{w}.declare.groups: {shown} cards shown, a declaration shows the {HAND_SIZE} kept")


def validate_log(d: Any) -> None:
    """Check the structure and types of one Indian ``rummy-log/1`` deal.

    Raises ValueError naming the field (and the turn: ``turns[i]...``). Does not
    replay the rules (see the module docstring). In order: the deal's fields, its cards
    (one shoe, I1-I2), every turn, the end, and that the end is the one the turns lead to
    (log_follow.follow_turns)."""
    players, decks = _check_deal(d)
    _check_shoe(d, players, decks)
    turns = d["turns"]
    if not isinstance(turns, list):
        raise ValueError("turns: expected a list")
    for t, turn in enumerate(turns):
        _check_turn(t, turn, players)
    _check_end(d, players)
    follow_turns(d)


def _check_deal(d: Any) -> tuple[int, int]:
    """The format, the game, the rules, seed, deal, players, decks, dealer and strategies:
    (players, decks)."""
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
        raise ValueError(f"rules: expected an object, got {type(d['rules']).__name__}")
    _int(d, "seed")
    _int(d, "deal", 0)
    players = _int(d, "players", MIN_SEATS, MAX_SEATS)
    decks = _int(d, "decks", MIN_DECKS, MAX_DECKS)
    if players * HAND_SIZE + 2 >= decks * 54:
        raise ValueError(f"decks: {decks} deck(s) cannot deal {players} players")
    rule_decks = d["rules"].get("decks", 0)
    if rule_decks not in (0, decks):
        raise ValueError(f"rules.decks: {rule_decks!r} disagrees with decks = {decks}")
    _seat(d["dealer"], players, "dealer")
    st = d["strategies"]
    if not isinstance(st, list) or len(st) != players or not all(isinstance(s, str) for s in st):
        raise ValueError(f"strategies: expected {players} strings, got {st!r}")
    return players, decks


def _check_shoe(d: dict, players: int, decks: int) -> None:
    """The hands as dealt, the first discard and the stock (the cut joker last) are one
    shoe of ``decks`` decks and two jokers a deck (I1, I2)."""
    hands = d["hands"]
    if not isinstance(hands, list) or len(hands) != players:
        raise ValueError(f"hands: expected {players} lists of cards")
    dealt: list[int] = []
    for s, h in enumerate(hands):
        ids = _cards(h, f"hands[{s}]")
        if len(ids) != HAND_SIZE:
            raise ValueError(f"hands[{s}]: expected {HAND_SIZE} cards, got {len(ids)}")
        dealt += ids
    disc = _cards(d["discard"], "discard")
    if len(disc) != 1:
        raise ValueError(f"discard: expected one card, got {len(disc)}")
    stock = _cards(d["stock"], "stock")
    if not stock:
        raise ValueError("stock: empty")
    cut = card_kind(d["cut_joker"], "cut_joker")
    if stock[-1] != cut:
        raise ValueError(f"cut_joker: {d['cut_joker']} is not the stock's last card {_kind_name(stock[-1])}")
    shoe = Counter({k: decks for k in range(52)})
    shoe[JOKER] = 2 * decks
    have = Counter(dealt + disc + stock)
    if have != shoe:
        extra = sorted(_kind_name(k) for k in (have - shoe).elements())
        missing = sorted(_kind_name(k) for k in (shoe - have).elements())
        raise ValueError(f"hands/discard/stock: not one shoe of {decks} decks and {2 * decks} jokers "
                         f"(extra {extra}, missing {missing})")


def _check_end(d: dict, players: int) -> None:
    """The end, the winner (the last declarer when a declaration ended it) and the points."""
    turns = d["turns"]
    end = d["end"]
    if end not in END_KINDS:
        raise ValueError(f"end: expected one of {END_KINDS}, got {end!r}")
    winner = d["winner"]
    if end == "cap":
        if winner is not None:
            raise ValueError(f"winner: must be null when end is 'cap', got {winner!r}")
    else:
        _seat(winner, players, "winner")
    if end == "declare":
        last = next((turn for turn in reversed(turns) if "reshuffle" not in turn), None)
        if last is None or "declare" not in last or last["seat"] != winner:
            raise ValueError(f"turns[{len(turns) - 1}]: a deal ended by 'declare' ends with the winner's declaration")
    pts = d["points"]
    if not isinstance(pts, list) or len(pts) != players or not all(_is_int(p) and p >= 0 for p in pts):
        raise ValueError(f"points: expected {players} integers >= 0, got {pts!r}")
    if winner is not None and pts[winner] != 0:
        raise ValueError(f"points[{winner}]: the winner loses 0, got {pts[winner]}")
