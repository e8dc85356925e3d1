"""The readable view of a Gin Rummy decision for plain-Python strategies (issue 27).

Built from the seat's observation (G9) and its legal rows only. ``pile`` is the upcard (the
only card of the discard pile in play, G3), ``table`` the knocker's melds in the order laid;
``hand_sizes`` is left empty (every hand holds 10 cards between turns). ``public`` holds:
``first`` (the seat that acts first, OpenSpiel's player 0), ``knock_card`` (in force for the
deal), ``turn``, ``upcard_draws`` (counted for G8), ``knocker`` (None before a knock), ``gin``,
``knock_discard``, ``out_of_play`` (the cards under the upcard, G3), ``known`` (per seat, the
upcards it took and still holds), ``pickups`` and ``passed`` (per seat), ``laid`` (per seat,
every card laid in melds) and ``layoffs``. Moves: ``upcard``, ``stock``, ``pass``, ``knock``,
``discard`` (the card; also the knocker's discard that keeps the knock legal, G4), ``layoff``
(the card, G5) and ``meld`` (its cards).
"""

from __future__ import annotations

import numpy as np

from sim.games.gin import enums as E
from sim.games.gin.cards import card_name, mask_cards, meld_names, names
from sim.plugin.readable import Move


def _card(c: int) -> str | None:
    return card_name(c) if c >= 0 else None


def view_fields(decision: int, obs: np.ndarray, moves: np.ndarray) -> dict:
    """The View fields (sim.plugin.readable) of a Gin decision."""
    up = int(obs[E.O_UPCARD])
    knocker = int(obs[E.O_KNOCKER])
    ids = [int(m) for m in obs[E.O_KNOCKER_MELD_IDS: E.O_KNOCKER_MELD_IDS + E.MAX_LAID]]
    table = tuple(tuple(meld_names(m)) for m in ids[: ids.index(-1) if -1 in ids else len(ids)])
    public = {
        "first": int(obs[E.O_FIRST]), "knock_card": int(obs[E.O_KNOCK_CARD]), "turn": int(obs[E.O_TURN]),
        "upcard_draws": int(obs[E.O_UPCARD_DRAWS]), "knocker": knocker if knocker >= 0 else None,
        "gin": bool(obs[E.O_GIN]), "knock_discard": _card(int(obs[E.O_KNOCK_DISCARD])),
        "out_of_play": tuple(names(mask_cards(int(obs[E.O_OUT])))),
        "known": tuple(tuple(names(mask_cards(int(obs[E.O_KNOWN + s])))) for s in range(E.N_SEATS)),
        "pickups": tuple(int(obs[E.O_PICKUPS + s]) for s in range(E.N_SEATS)),
        "passed": tuple(bool(obs[E.O_PASSED + s]) for s in range(E.N_SEATS)),
        "laid": tuple(tuple(names(mask_cards(int(obs[E.O_MELDS + s])))) for s in range(E.N_SEATS)),
        "layoffs": tuple(names(mask_cards(int(obs[E.O_LAYOFFS])))),
    }
    card_kind = "layoff" if decision == E.D_LAYOFF else "discard"
    return {
        "decision": E.DECISION_NAMES[decision], "seat": int(obs[E.O_SEAT]),
        "hand": tuple(names(mask_cards(int(obs[E.O_HAND])))),
        "moves": tuple(_move(i, row, card_kind) for i, row in enumerate(moves.tolist())),
        "pile": (card_name(up),) if up >= 0 else (), "stock": int(obs[E.O_STOCK_N]),
        "table": table, "public": public,
    }


def _move(i: int, row: list, card_kind: str) -> Move:
    kind, _action, x, mask = row
    if kind == E.MV_CARD:
        return Move(i, card_kind, (card_name(x),))
    if kind == E.MV_MELD:
        return Move(i, "meld", tuple(names(mask_cards(mask))))
    return Move(i, {E.MV_UPCARD: "upcard", E.MV_STOCK: "stock", E.MV_PASS: "pass", E.MV_KNOCK: "knock"}[kind])
