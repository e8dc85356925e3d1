"""The readable view of a Persian Rummy decision for plain-Python strategies (issue 27).

Built from the seat's observation (P10) and its legal rows only. ``public`` holds: ``dealer``,
``turn``, ``passes`` (consecutive passes on an empty stock), ``target`` (the card taken from the
pile that must still go on the table this turn, P6.1, or None), ``meld_owners`` (the seat that
put down each table meld), ``taken`` (per seat, every card it took from the pile so far),
``team_table`` (table points of team 0 and 1, P8), ``last_discard`` and ``last_discarder``.
Moves: ``stock``, ``take`` (``depth``; ``cards`` the cards taken, top first: the last is the
target), ``pass``, ``meld`` (its cards), ``layoff`` (the card, ``onto`` the meld number),
``stop``, ``discard`` (the card).
"""

from __future__ import annotations

import numpy as np

from sim.games.persian import enums as E
from sim.games.persian.cards import card_name, mask_to_names
from sim.plugin.readable import Move


def _names(mask: int) -> tuple[str, ...]:
    return tuple(mask_to_names(mask))


def view_fields(decision: int, obs: np.ndarray, moves: np.ndarray) -> dict:
    """The View fields (sim.plugin.readable) of a Persian decision."""
    pile = tuple(card_name(c) for c in obs[E.O_PILE: E.O_PILE + obs[E.O_PILE_N]][::-1].tolist())
    n_melds = int(obs[E.O_N_MELDS])
    target = int(obs[E.O_TARGET])
    last = int(obs[E.O_LAST_DISCARD])
    public = {
        "dealer": int(obs[E.O_DEALER]), "turn": int(obs[E.O_TURN]), "passes": int(obs[E.O_PASSES]),
        "target": card_name(target) if target >= 0 else None,
        "meld_owners": tuple(int(obs[E.O_MELD_OWNER + k]) for k in range(n_melds)),
        "taken": tuple(_names(int(obs[E.O_TAKEN + s])) for s in range(E.N_SEATS)),
        "team_table": tuple(int(obs[E.O_TEAM_TABLE + t]) for t in range(E.N_TEAMS)),
        "last_discard": card_name(last) if last >= 0 else None,
        "last_discarder": int(obs[E.O_LAST_DISCARDER]) if last >= 0 else None,
    }
    return {
        "decision": E.DECISION_NAMES[decision], "seat": int(obs[E.O_SEAT]),
        "hand": _names(int(obs[E.O_HAND])),
        "moves": tuple(_move(i, row, pile) for i, row in enumerate(moves.tolist())),
        "pile": pile, "stock": int(obs[E.O_STOCK_N]),
        "hand_sizes": tuple(int(obs[E.O_HAND_SIZES + s]) for s in range(E.N_SEATS)),
        "table": tuple(_names(int(obs[E.O_MELD_MASK + k])) for k in range(n_melds)),
        "public": public,
    }


def _move(i: int, row: list, pile: tuple[str, ...]) -> Move:
    kind, a, b, _c = row
    if kind == E.MV_TAKE:
        return Move(i, "take", pile[: a + 1], depth=a)
    if kind == E.MV_MELD:
        return Move(i, "meld", _names(a))
    if kind == E.MV_LAYOFF:
        return Move(i, "layoff", (card_name(a),), onto=b)
    if kind == E.MV_DISCARD:
        return Move(i, "discard", (card_name(a),))
    return Move(i, {E.MV_STOCK: "stock", E.MV_PASS: "pass", E.MV_STOP: "stop"}[kind])
