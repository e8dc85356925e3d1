"""The readable view of an Indian Rummy decision for plain-Python strategies (issue 27).

Built from the seat's observation (I9) and its legal rows only. ``pile`` is the top card (the
only one a seat can take, I3); ``public`` holds: ``players``, ``dealer``, ``turn``, ``cut_joker``
(the cut card, I2), ``wild_rank`` (the rank that is wild: "A" when the cut card is a printed
joker), ``pile_cards`` (every card in the discard pile, by name: count), ``discards`` (the last
discards, most recent first, as (seat, card)), ``status`` (per seat: "in", "first_drop",
"middle_drop", "wrong_declaration"), ``has_drawn`` (per seat), ``pickups`` (per seat, draws from
the pile) and ``held_pickups`` (per seat, the cards it took from the pile and has not discarded
since: it still holds them). Moves: ``stock``, ``pile`` (the top card), ``drop`` (I7),
``discard`` (the card) and ``declare`` (the card discarded; ``valid`` says whether the 13 shown
cards make a valid declaration, I5: a wrong one costs the seat, I6).
"""

from __future__ import annotations

import numpy as np

from sim.games.indian import enums as E
from sim.games.indian.cards import RANKS, counts_to_names, kind_name
from sim.games.indian.solver_nb import can_declare
from sim.games.indian.state_nb import has_long_run_seed, has_pure_run
from sim.plugin.readable import Move


def view_fields(decision: int, obs: np.ndarray, moves: np.ndarray) -> dict:
    """The View fields (sim.plugin.readable) of an Indian decision."""
    players = int(obs[E.O_PLAYERS])
    hand = obs[E.O_HAND: E.O_HAND + E.N_KINDS]
    top = int(obs[E.O_TOP])
    return {
        "decision": E.DECISION_NAMES[decision], "seat": int(obs[E.O_SEAT]),
        "hand": tuple(counts_to_names(hand)),
        "moves": _moves(moves, hand, obs),
        "pile": (kind_name(top),) if top >= 0 else (), "stock": int(obs[E.O_STOCK_N]),
        "hand_sizes": tuple(int(obs[E.O_HAND_N + s]) for s in range(players)),
        "public": _public(obs, players),
    }


def _public(obs: np.ndarray, players: int) -> dict:
    n_disc = int(obs[E.O_N_DISCARDS])
    slots = obs[E.O_RING: E.O_RING + 2 * E.RING].tolist()
    ring = [(slots[2 * (j % E.RING)], kind_name(slots[2 * (j % E.RING) + 1]))
            for j in range(n_disc - 1, max(-1, n_disc - 1 - E.RING), -1)]
    pile_counts = obs[E.O_PILE_COUNTS: E.O_PILE_COUNTS + E.N_KINDS]

    def per_seat(slot: int, s: int) -> np.ndarray:
        return obs[slot + s * E.N_KINDS: slot + (s + 1) * E.N_KINDS]

    wild = int(obs[E.O_WILD_RANK])
    return {
        "players": players, "dealer": int(obs[E.O_DEALER]), "turn": int(obs[E.O_TURN]),
        "cut_joker": kind_name(int(obs[E.O_CUT_JOKER])), "wild_rank": RANKS[wild],
        "pile_cards": {kind_name(k): int(pile_counts[k]) for k in np.flatnonzero(pile_counts).tolist()},
        "discards": tuple(ring),
        "status": tuple(E.STATUS_NAMES[int(obs[E.O_STATUS + s])] for s in range(players)),
        "has_drawn": tuple(bool(obs[E.O_HAS_DRAWN + s]) for s in range(players)),
        "pickups": tuple(int(obs[E.O_PICKUPS + s]) for s in range(players)),
        "held_pickups": tuple(tuple(counts_to_names(per_seat(E.O_PICKED, s) - per_seat(E.O_DISCARDED, s)))
                              for s in range(players)),
    }


def _moves(moves: np.ndarray, hand: np.ndarray, obs: np.ndarray) -> tuple[Move, ...]:
    rows = moves.tolist()
    declares = [row[1] for row in rows if row[0] == E.MV_DECLARE]
    valid = _valid_declares(declares, hand, obs) if declares else set()
    out = []
    for i, (kind, a, _b, _c) in enumerate(rows):
        if kind == E.MV_DECLARE:
            out.append(Move(i, "declare", (kind_name(a),), valid=a in valid))
        elif kind in (E.MV_PILE, E.MV_DISCARD):
            out.append(Move(i, E.MOVE_NAMES[kind], (kind_name(a),)))
        else:
            out.append(Move(i, E.MOVE_NAMES[kind]))
    return tuple(out)


def _valid_declares(kinds: list[int], hand: np.ndarray, obs: np.ndarray) -> set[int]:
    """The kinds whose discard leaves a valid declaration of the other 13 (I5: the solver's
    can_declare). Its two necessary conditions (state_nb.has_pure_run, has_long_run_seed) are
    tested on the 14 cards first (a 13-card subset has either only if the 14 do), so most
    decisions skip the solver."""
    wild, mjr = obs[E.O_WILD_RANK], obs[E.O_RULES + E.R_MAX_J_RUN]
    mjs, tir = obs[E.O_RULES + E.R_MAX_J_SET], obs[E.O_RULES + E.R_TRIPLE_IS_RUN]
    if not has_pure_run(hand, tir) or not has_long_run_seed(hand, wild, mjr):
        return set()
    out = set()
    shown = hand.copy()
    for k in kinds:
        shown[k] -= 1
        if can_declare(shown, wild, mjr, mjs, tir):
            out.add(k)
        shown[k] += 1
    return out
