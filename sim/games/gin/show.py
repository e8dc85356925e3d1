"""A readable replay of one Gin Rummy deal log (``rummy-sim show --game gin``)."""

from __future__ import annotations

from sim.games.gin.cards import SUITS, card_id

_RED = "\033[31m"
_RESET = "\033[0m"


def _card(name: str, color: bool) -> str:
    return f"{_RED}{name}{_RESET}" if color and name[1] in "DH" else name


def _cards(names, color: bool) -> str:
    order = sorted(names, key=lambda n: (SUITS.index(n[1]), card_id(n)))
    return " ".join(_card(n, color) for n in order)


def _melds(melds, color: bool) -> str:
    return ", ".join("[" + " ".join(_card(c, color) for c in m) + "]" for m in melds) or "none"


def _knock(k: dict, color: bool) -> str:
    return f"knocks, discards {_card(k['discard'], color)}, lays {_melds(k['melds'], color)}"


def render_deal(log: dict, color: bool = False) -> str:
    """The deal as text: who played, the hands as dealt, every turn, the end and the score."""
    names = log["strategies"]
    first = 1 - log["dealer"]
    rules = ", ".join(f"{k}={v}" for k, v in log["rules"].items())
    lines = [f"Gin Rummy, seed {log['seed']}, deal {log['deal']} ({rules})",
             f"seat {first} ({names[first]}) acts first; seat {log['dealer']} ({names[log['dealer']]}) dealt"]
    for s in range(2):
        lines.append(f"  seat {s} {names[s]:>12}: {_cards(log['hands'][s], color)}")
    knock = log["rules"].get("knock_card", 10)
    if log["rules"].get("oklahoma"):
        value = min(card_id(log["upcard"]) % 13 + 1, 10)
        knock = 0 if value == 1 else value  # G9: the first upcard's value; an ace, gin only
    lines.append(f"  upcard {_card(log['upcard'], color)}, stock {len(log['stock'])} cards, knock card {knock}")
    for i, t in enumerate(log["turns"], 1):
        who = f"{i:3d}. seat {t['seat']}"
        if "wall" in t:
            text = "at the wall: passes (a draw)" if t["wall"] == "pass" else "at the wall: takes the upcard and " \
                + _knock(t["knock"], color)
        elif "layoffs" in t:
            offs = " ".join(_card(c, color) for c in t["layoffs"]) or "nothing"
            text = f"lays off {offs}, lays {_melds(t['melds'], color)}"
        elif t["draw"] == "pass":
            text = "passes on the upcard"
        else:
            draw = "takes the upcard" if t["draw"] == "upcard" else f"draws {_card(t['draw']['stock'], color)}"
            if "knock" in t:
                text = f"{draw}, {_knock(t['knock'], color)}"
            elif "discard" in t:
                text = f"{draw}, discards {_card(t['discard'], color)}"
            else:
                text = f"{draw} (the 50th upcard draw ends the hand)"
        lines.append(f"{who}: {text}")
    knocker = log["knocker"]
    end = log["end"] + (f" by seat {knocker}" if knocker is not None else "")
    lines.append(f"end: {end}; deadwood {log['deadwood'][0]} / {log['deadwood'][1]}; "
                 f"score seat 0 {log['score'][0]:+d}, seat 1 {log['score'][1]:+d}")
    return "\n".join(lines)
