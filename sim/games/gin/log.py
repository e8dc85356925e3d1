"""Gin Rummy deal logs in the ``rummy-log/1`` format (LOG_FORMAT.md, its Gin section).

The compiled engine, in recording mode (``run_deals(..., record=1)``), writes one EV_ACTION
row per move (OpenSpiel's action id, the decision, the card a stock draw brought).
``build_deal_log`` turns one deal's rows into its JSON object; the cards as dealt come from
the same compiled deal kernel (state_nb.shuffled_deck). The log is then replayed through the
rules kernels (log_check.replay), so a log that does not follow the rules is never written.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from sim.games.gin import enums as E
from sim.games.gin.cards import card_name, meld_names, names
from sim.games.gin.log_check import replay
from sim.games.gin.state_nb import shuffled_deck

FORMAT = "rummy-log/1"


def dealt_cards(seed: int, deal: int) -> tuple[list[list[int]], int, list[int]]:
    """(hands by seat as dealt, the upcard, the stock top first) of a deal (G1, state_nb)."""
    deck = [int(c) for c in shuffled_deck(np.int64(seed), np.int64(deal))]
    first = deal % 2
    hands = [[], []]
    hands[first] = sorted(deck[: E.HAND_SIZE])
    hands[1 - first] = sorted(deck[E.HAND_SIZE: 2 * E.HAND_SIZE])
    return hands, deck[2 * E.HAND_SIZE], deck[2 * E.HAND_SIZE + 1:]


def turns_of(events: np.ndarray) -> list[dict]:
    """The ``turns`` entries of a deal's EV_ACTION rows (LOG_FORMAT.md)."""
    turns: list[dict] = []
    cur: dict | None = None
    defence: dict | None = None
    for kind, seat, action, decision, drawn in np.asarray(events, dtype=np.int64).tolist():
        if kind != E.EV_ACTION:
            continue
        if decision in (E.D_FIRST, E.D_DRAW):
            if action == E.A_PASS:
                turns.append({"seat": seat, "draw": "pass"})
                continue
            cur = {"seat": seat, "draw": "upcard" if action == E.A_UPCARD else {"stock": card_name(drawn)}}
            turns.append(cur)
        elif decision == E.D_DISCARD:
            if action == E.A_KNOCK:
                cur["knock"] = {"discard": None, "melds": []}
            else:
                cur["discard"] = card_name(action)
        elif decision == E.D_WALL:
            if action == E.A_PASS:
                turns.append({"seat": seat, "wall": "pass"})
            else:
                cur = {"seat": seat, "wall": "knock", "knock": {"discard": None, "melds": []}}
                turns.append(cur)
        elif decision == E.D_KNOCK_DISCARD:
            cur["knock"]["discard"] = card_name(action)
        elif decision == E.D_KNOCK_MELD:
            if action != E.A_PASS:
                cur["knock"]["melds"].append(meld_names(action - E.A_MELD0))
        else:  # the defender's lay-offs and melds: one entry
            if defence is None:
                defence = {"seat": seat, "layoffs": [], "melds": []}
                turns.append(defence)
            if action == E.A_PASS:
                continue
            if decision == E.D_LAYOFF:
                defence["layoffs"].append(card_name(action))
            else:
                defence["melds"].append(meld_names(action - E.A_MELD0))
    return turns


def build_deal_log(run, i: int) -> dict:
    """The ``rummy-log/1`` object of the i-th deal of ``run`` (a recorded DealRun)."""
    if run.events is None:
        raise ValueError("this run was not recorded: call run_deals(..., record=1)")
    row = run.results[i]
    deal = int(run.deals[i])
    if int(row[E.C_END]) == E.END_ERROR:
        raise ValueError(f"deal {deal} was abandoned (a strategy's illegal move): no log")
    hands, upcard, stock = dealt_cards(run.seed, deal)
    first = deal % 2
    knocker = int(row[E.C_KNOCKER])
    log = {
        "format": FORMAT,
        "game": "gin",
        "rules": run.rules.to_dict(),
        "seed": int(run.seed),
        "deal": deal,
        "dealer": 1 - first,
        "strategies": run.names(),
        "hands": [names(h) for h in hands],
        "discard": [card_name(upcard)],
        "stock": names(stock),
        "upcard": card_name(upcard),
        "turns": turns_of(run.deal_events(i)),
        "end": E.END_NAMES[int(row[E.C_END])],
        "knocker": knocker if knocker >= 0 else None,
        "deadwood": [int(row[E.C_DEADWOOD + s]) for s in range(2)],
        "score": [int(row[E.C_SCORE + s]) for s in range(2)],
    }
    replay(log)  # raises ValueError when the recorded moves do not follow the rules
    return log


def deal_logs(run) -> Iterator[dict]:
    """The log objects of every deal of a recorded run, in row order."""
    for i in range(run.results.shape[0]):
        yield build_deal_log(run, i)
