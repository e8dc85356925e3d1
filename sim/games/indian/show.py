"""Readable replay of one Indian Rummy deal from its ``rummy-log/1`` object (RULES.md Part 2).

``render_deal(d, color=False)`` uses only the log: hands start as dealt, draws add
cards, discards, drops and declarations remove them, so what is shown is exactly
what the log claims happened (an inconsistent log raises ValueError naming the turn).

Shown: a header (seed, deal, players, decks, dealer, the cut joker and the wild
rank, the strategy of each seat, the rules), the hands as dealt sorted by suit with
every joker marked ``*`` (printed jokers and the wild rank, I2), the first discard
and the stock size; then one line per turn (seat, strategy, the draw, the discard or
the declaration with its groups and whether it was valid, drops with their points,
I7), every reshuffle of the pile into a new stock (I8); finally how the deal ended,
the cards still held by the seats in play, and the points each seat lost (and the
winner's gain).
"""

from __future__ import annotations

from collections import Counter

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RED = "\x1b[31m"
BOLD = "\x1b[1m"
RESET = "\x1b[0m"
END_TEXT = {
    "declare": "a valid declaration",
    "last_player": "every other player dropped or declared wrongly",
    "cap": "the turn cap (no winner)",
}


def _wild_rank(cut: str) -> str:
    """I2: the cut joker's rank is wild; a printed-joker cut makes the aces wild."""
    return "A" if cut == "JK" else cut[0]


def _sort_key(card: str) -> tuple[int, int]:
    if card == "JK":
        return (4, 0)
    return (SUITS.index(card[1]), RANKS.index(card[0]))


def _card(card: str, wild: str, color: bool) -> str:
    is_joker = card == "JK" or card[0] == wild
    text = card + ("*" if is_joker and card != "JK" else "")
    if not color:
        return text
    if is_joker:
        return BOLD + text + RESET
    if card[1] in "DH":
        return RED + text + RESET
    return text


def _cards(cards: list[str], wild: str, color: bool, sort: bool = True) -> str:
    cards = sorted(cards, key=_sort_key) if sort else list(cards)
    return " ".join(_card(c, wild, color) for c in cards) or "-"


def _by_suit(cards: list[str], wild: str, color: bool) -> str:
    """A hand sorted by suit, one block per suit (jokers last)."""
    blocks = []
    for s in SUITS:
        cs = [c for c in cards if c != "JK" and c[1] == s]
        if cs:
            blocks.append(SUIT_SYMBOLS[s] + " " + _cards(cs, wild, color))
    n_jk = cards.count("JK")
    if n_jk:
        blocks.append(_cards(["JK"] * n_jk, wild, color))
    return "  ".join(blocks) or "-"


def _remove(hand: Counter, card: str, seat: int, t: int) -> None:
    if hand[card] <= 0:
        raise ValueError(f"turns[{t}]: seat {seat} gives up {card}, which its replayed hand lacks")
    hand[card] -= 1


def render_deal(d: dict, color: bool = False) -> str:
    """Replay one Indian deal log as text (see the module docstring): the header and the
    dealt hands, one line per turn, the end."""
    wild = _wild_rank(d["cut_joker"])
    hands = [Counter(h) for h in d["hands"]]  # replayed: what each seat holds after each turn
    in_play = [True] * d["players"]
    lines = _header(d, wild, color)
    turns, n_turn = _turn_lines(d, hands, in_play, wild, color)
    lines += turns
    lines += _end_lines(d, hands, in_play, n_turn, wild, color)
    return "\n".join(lines) + "\n"


def _header(d: dict, wild: str, color: bool) -> list[str]:
    """The deal, its seats and rules, the hands as dealt, the first discard and the stock."""
    players = d["players"]
    cut = d["cut_joker"]
    wild_txt = "aces (the cut card is a printed joker)" if cut == "JK" else f"every {wild}"
    lines = [
        f"Indian Rummy  seed {d['seed']}  deal {d['deal']}  {players} players  {d['decks']} decks  "
        f"dealer seat {d['dealer']}",
        f"  cut joker {_card(cut, wild, color)}: wild jokers are {wild_txt}; printed jokers JK; jokers marked *",
    ]
    for s in range(players):
        lines.append(f"  seat {s}: {d['strategies'][s]}")
    if d.get("rules"):
        lines.append("  rules: " + ", ".join(f"{k}={v}" for k, v in d["rules"].items()))
    lines.append("Dealt hands:")
    for s in range(players):
        lines.append(f"  seat {s}: {_by_suit(list(d['hands'][s]), wild, color)}")
    lines.append(f"Discard: {_cards(d['discard'], wild, color)}    Stock: {len(d['stock'])} cards "
                 f"(the cut joker {_card(cut, wild, color)} at the bottom)")
    lines.append("")
    return lines


def _turn_lines(d: dict, hands: list[Counter], in_play: list[bool], wild: str, color: bool) -> tuple[list[str], int]:
    """One line per turn and per reshuffle (I8), replaying ``hands`` and ``in_play``; and
    the number of turns."""
    drawn = [False] * d["players"]
    n_turn = 0
    last_turn = max((t for t, x in enumerate(d["turns"]) if "reshuffle" not in x), default=-1)
    lines = []
    for t, turn in enumerate(d["turns"]):
        if "reshuffle" in turn:
            lines.append(f"      stock empty: the pile below its top card is shuffled into a new stock of "
                         f"{len(turn['reshuffle'])} cards (I8)")
            continue
        n_turn += 1
        seat = turn["seat"]
        if not 0 <= seat < d["players"] or not in_play[seat]:
            raise ValueError(f"turns[{t}]: seat {seat} is not in the deal")
        head = f"T{n_turn:<4} seat {seat} ({d['strategies'][seat]}): "
        if turn["draw"] == "drop":  # I7
            kind = "middle drop" if drawn[seat] else "first drop"
            lines.append(head + f"DROPS ({kind}, loses {d['points'][seat]})")
            in_play[seat] = False
            hands[seat] = Counter()
            continue
        drawn[seat] = True
        parts = [_draw_text(turn["draw"], hands[seat], wild, color)]
        if "declare" in turn:
            valid = d["end"] == "declare" and d["winner"] == seat and t == last_turn
            parts.append(_declaration_text(d, turn["declare"], hands[seat], seat, t, valid, wild, color))
            if not valid:  # I5: a wrong declaration, the seat leaves
                in_play[seat] = False
                hands[seat] = Counter()
        else:
            _remove(hands[seat], turn["discard"], seat, t)
            parts.append(f"discards {_card(turn['discard'], wild, color)}")
        lines.append(head + " | ".join(parts))
    return lines, n_turn


def _draw_text(draw: dict, hand: Counter, wild: str, color: bool) -> str:
    """A draw from the stock or the pile (I3), added to ``hand``."""
    if "stock" in draw:
        card = draw["stock"]
        text = f"draws {_card(card, wild, color)} from the stock"
    else:
        card = draw["discard"]
        text = f"takes {_card(card, wild, color)} from the pile"
    hand[card] += 1
    return text


def _declaration_text(d: dict, dec: dict, hand: Counter, seat: int, t: int, valid: bool, wild: str,
                      color: bool) -> str:
    """A declaration (I5): its discard taken from ``hand``, its groups, and the verdict."""
    _remove(hand, dec["discard"], seat, t)
    groups = " ".join("[" + _cards(g, wild, color, sort=False) + "]" for g in dec["groups"])
    if dec.get("ungrouped"):
        groups += " + ungrouped " + _cards(dec["ungrouped"], wild, color)
    verdict = "VALID" if valid else f"WRONG declaration (loses {d['points'][seat]}, leaves the deal)"
    return f"DECLARES discarding {_card(dec['discard'], wild, color)}: {groups} -> {verdict}"


def _end_lines(d: dict, hands: list[Counter], in_play: list[bool], n_turn: int, wild: str, color: bool) -> list[str]:
    """How the deal ended, the cards still held, the points lost and the winner's gain."""
    players = d["players"]
    winner = d["winner"]
    how = END_TEXT.get(d["end"], d["end"])
    who = f": seat {winner} wins" if winner is not None else ""
    lines = ["", f"End after {n_turn} turns: {how}{who}", "Cards held at the end:"]
    for s in range(players):
        if in_play[s]:
            lines.append(f"  seat {s}: {_by_suit(list(hands[s].elements()), wild, color)}")
        else:
            lines.append(f"  seat {s}: out of the deal")
    pts = d["points"]
    lines.append("Points lost: " + "  ".join(f"seat {s}: {pts[s]}" for s in range(players)))
    if winner is not None:
        lines.append(f"Seat {winner} gains {sum(pts)}")
    return lines
