"""Readable terminal replay of one Persian Rummy deal from its ``rummy-log/1`` object.

The replay only uses the log: hands start as dealt, draws add cards, plays and
discards remove them, so what is shown is exactly what the log claims happened.
Each turn is one line; the melds it created or extended are printed under it
(numbered as in the log, with owner). The deal ends with the whole table, the
cards left in each hand and the per-team score breakdown.
"""

from __future__ import annotations

from sim.games.persian.cards import card_value, parse_card, pretty, sort_key
from sim.games.persian.enums import N_SEATS

TEAM_OF = (0, 1, 0, 1)  # P2: partners sit opposite


def _show(names: list[str], color: bool, sort: bool = True) -> str:
    """Cards in terminal form, sorted for display unless ``sort`` is False."""
    ids = [parse_card(n) for n in names]
    if sort:
        ids.sort(key=sort_key)
    return " ".join(pretty(c, color) for c in ids) or "-"


def _meld_line(number: int, meld: tuple[int, list[str]], color: bool) -> str:
    """One table meld: its number, owner (and team) and cards."""
    owner, cards = meld
    return f"        meld {number:>2} (seat {owner}, team {TEAM_OF[owner]}): {_show(cards, color)}"


def _remove(hand: list[str], card: str, seat: int, turn_no: int) -> None:
    """Take one ``card`` out of a replayed hand (the log would be inconsistent otherwise)."""
    try:
        hand.remove(card)
    except ValueError:
        raise ValueError(f"T{turn_no}: seat {seat} plays {card} which its replayed hand lacks") from None


def render_deal(log: dict, color: bool = False) -> str:
    """Replay one deal log as text: header, dealt hands, every turn, table melds, end and score."""
    hands = [list(h) for h in log["hands"]]
    lines = _header_lines(log, hands, color)
    melds: list[tuple[int, list[str]]] = []  # (owner seat, cards)
    for t, turn in enumerate(log["turns"], 1):
        lines += _turn_lines(log, t, turn, hands[turn["seat"]], melds, color)
    lines.append("")
    lines += _end_lines(log, hands, melds, color)
    return "\n".join(lines) + "\n"


def _header_lines(log: dict, hands: list[list[str]], color: bool) -> list[str]:
    """Seed, deal, dealer, who plays each seat, the rules, the dealt hands, pile and stock."""
    strategies = log["strategies"]
    lines = [f"Persian Rummy  seed {log['seed']}  deal {log['deal']}  dealer seat {log['dealer']}"]
    for s in range(N_SEATS):
        lines.append(f"  seat {s} (team {TEAM_OF[s]}): {strategies[s]}")
    if log.get("rules"):
        lines.append("  rules: " + ", ".join(f"{k}={v}" for k, v in log["rules"].items()))
    lines.append("Dealt hands:")
    for s in range(N_SEATS):
        lines.append(f"  seat {s}: {_show(hands[s], color)}")
    lines.append(f"Discard: {_show(log['discard'], color)}    Stock: {len(log['stock'])} cards")
    lines.append("")
    return lines


def _turn_lines(log: dict, t: int, turn: dict, hand: list[str], melds: list, color: bool) -> list[str]:
    """Turn ``t``: its draw, melds and lay-offs, discard (the seat's ``hand`` and the table's
    ``melds`` follow), then the melds it created or extended."""
    seat = turn["seat"]
    parts = []
    draw = turn["draw"]
    if draw == "pass":
        parts.append("passes")
    elif "stock" in draw:
        hand.append(draw["stock"])
        parts.append(f"draws from stock {_show([draw['stock']], color)}")
    else:
        hand.extend(draw["cards"])
        parts.append(f"takes from pile at depth {draw['depth']}: "
                     f"{_show(draw['cards'], color, sort=False)} (target {_show(draw['cards'][-1:], color)})")
    changed = _plays(turn["plays"], hand, melds, seat, t, parts, color)
    if turn["discard"] is not None:
        _remove(hand, turn["discard"], seat, t)
        parts.append(f"discards {_show([turn['discard']], color)}")
    if draw != "pass" and not hand and log["end"] == "out" and log["out_seat"] == seat \
            and t == len(log["turns"]):
        parts.append("GOES OUT")
    lines = [f"T{t:<3} seat {seat} ({log['strategies'][seat]}): " + " | ".join(parts) + f"   [hand {len(hand)}]"]
    return lines + [_meld_line(m, melds[m], color) for m in sorted(set(changed))]


def _plays(plays: list, hand: list[str], melds: list, seat: int, t: int, parts: list[str], color: bool) -> list[int]:
    """A turn's melds and lay-offs applied to ``hand`` and ``melds``, described into ``parts``;
    the meld numbers they created or extended."""
    changed: list[int] = []
    for play in plays:
        if "meld" in play:
            for c in play["meld"]:
                _remove(hand, c, seat, t)
            melds.append((seat, list(play["meld"])))
            changed.append(len(melds) - 1)
            parts.append(f"melds {_show(play['meld'], color)} (meld {len(melds) - 1})")
        else:
            _remove(hand, play["layoff"], seat, t)
            onto = play["onto"]
            if not 0 <= onto < len(melds):
                raise ValueError(f"T{t}: lay-off onto meld {onto}, but {len(melds)} melds exist")
            melds[onto][1].append(play["layoff"])
            changed.append(onto)
            parts.append(f"lays off {_show([play['layoff']], color)} onto meld {onto}")
    return changed


def _end_lines(log: dict, hands: list[list[str]], melds: list, color: bool) -> list[str]:
    """How the deal ended, the table, the cards left in hand and the score."""
    how = {"out": f"seat {log['out_seat']} (team {TEAM_OF[log['out_seat']]}) went out"
           if log["out_seat"] is not None else "out",
           "passes": "four passes in a row on an empty stock",
           "cap": "turn cap reached"}.get(log["end"], log["end"])
    lines = [f"End after {len(log['turns'])} turns: {how}", "Table:" if melds else "Table: no melds"]
    lines += [_meld_line(m, meld, color) for m, meld in enumerate(melds)]
    lines.append("Left in hand:")
    for s in range(N_SEATS):
        pts = sum(card_value(parse_card(c)) for c in hands[s])
        lines.append(f"  seat {s}: {_show(hands[s], color)}  ({pts} pts)")
    sc = log["score"]
    lines.append("Score        team 0  team 1")
    for k, label in (("table", "table"), ("hand", "hand (-)"), ("bonus", "bonus"), ("total", "total")):
        lines.append(f"  {label:<9} {sc[k][0]:>7} {sc[k][1]:>7}")
    return lines
