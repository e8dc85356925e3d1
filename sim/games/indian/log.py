"""Indian Rummy deal logs in the ``rummy-log/1`` format (/work/shared/LOG_FORMAT.md).

The compiled engine, in recording mode (``run_deals(..., record=1)``), writes one row
of event codes per action (``EV_*`` in enums.py). ``build_deal_log`` turns the rows of
one deal into its JSON object. The deal itself (hands, first discard, stock, cut
joker) comes from the same compiled deal kernels the engine uses (deal_nb.py). While
building, the stock, the pile and every hand are replayed, so any disagreement between
the events and the cards (a draw that is not the top card, a discard not in hand, a
reshuffle that is not the pile, ...) raises ValueError instead of being written.

A declaration is written with the 13 shown cards in the groups the engine's solver
arranged (``arrange``); for a wrong declaration (I5) the cards left outside every
group, if any, form one last list, so a checker finds the arrangement invalid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import numpy as np

from sim.games.indian import enums as E
from sim.games.indian.cards import kind_name
from sim.plugin.logfile import read_jsonl, write_jsonl  # noqa: F401  (re-exported: files are common to games)

FORMAT = "rummy-log/1"


def dealt_cards(seed: int, deal: int, players: int, decks: int):
    """(hands as dealt, kinds per seat in dealing order; first discard; stock top first
    with the cut joker last; cut joker) of a deal, from the compiled deal kernels (I2)."""
    from sim.games.indian.deal_nb import deal_order, shuffled_shoe

    shoe = shuffled_shoe(seed, deal, decks)
    hands = np.zeros((E.MAX_SEATS, E.HAND_SIZE), dtype=np.int64)
    stock = np.zeros(E.MAX_SHOE, dtype=np.int64)
    first, cut, n = deal_order(shoe, decks, players, deal % players, hands, stock)
    return [list(map(int, hands[s])) for s in range(players)], int(first), list(map(int, stock[:n])), int(cut)


def build_deal_log(run, i: int) -> dict:
    """The ``rummy-log/1`` object of the i-th deal of ``run`` (a recorded DealRun)."""
    if run.events is None:
        raise ValueError("this run was not recorded: call run_deals(..., record=1)")
    row = run.results[i]
    players = run.players
    rules_arr = run.rules.to_array(players)
    decks = int(rules_arr[E.R_DECKS])
    deal = int(run.deals[i])
    rules = run.rules.to_dict()
    rules["decks"] = decks
    return deal_log(
        seed=run.seed,
        deal=deal,
        players=players,
        decks=decks,
        rules=rules,
        strategies=run.names(),
        events=run.deal_events(i),
        result_row=row,
    )


def deal_logs(run) -> Iterator[dict]:
    """The log objects of every deal of a recorded run, in row order."""
    for i in range(run.results.shape[0]):
        yield build_deal_log(run, i)


def deal_log(*, seed: int, deal: int, players: int, decks: int, rules: dict, strategies: list[str],
             events: np.ndarray, result_row: np.ndarray) -> dict:
    """Build one deal's log from its recorded ``events`` ((n, EVENT_COLS) rows in order;
    EV_LEGAL / EV_DECISION rows are ignored) and its engine result row."""
    ev = np.asarray(events, dtype=np.int64)
    if ev.ndim != 2 or ev.shape[1] != E.EVENT_COLS:
        raise ValueError(f"events must have shape (n, {E.EVENT_COLS}), got {ev.shape}")
    if int(result_row[E.C_END]) == E.END_ERROR:
        raise ValueError(f"deal {deal} was abandoned (a strategy's illegal move): no log")
    hands_seq, first, stock_list, cut = dealt_cards(seed, deal, players, decks)
    dealer = deal % players

    # replayed state
    held = [Counter(h) for h in hands_seq]
    stock = list(stock_list)  # top first
    pile = [first]  # bottom first
    out = [False] * players
    turns: list[dict] = []
    end_code = None
    winner = None

    def fail(j: int, msg: str) -> ValueError:
        return ValueError(f"deal {deal}, event {j}: {msg}")

    j = 0
    n = ev.shape[0]
    turn: dict | None = None
    while j < n:
        kind, seat, a, b, c = (int(x) for x in ev[j])
        j += 1
        if kind in (E.EV_LEGAL, E.EV_DECISION):
            continue
        if kind == E.EV_END:
            end_code = a
            winner = seat if seat >= 0 else None
            break
        if not 0 <= seat < players or out[seat]:
            raise fail(j - 1, f"seat {seat} is not in the deal")
        if kind == E.EV_RESHUFFLE:
            cards = []
            while len(cards) < a:
                if j >= n or int(ev[j, 0]) != E.EV_CARD:
                    raise fail(j, "reshuffle: missing card rows")
                cards.append(int(ev[j, 2]))
                j += 1
            if stock:
                raise fail(j, "reshuffle while the stock is not empty (I8)")
            if Counter(cards) != Counter(pile[:-1]):
                raise fail(j, "reshuffle: the new stock is not the pile without its top card (I8)")
            stock = cards
            pile = pile[-1:]
            turns.append({"reshuffle": [kind_name(k) for k in cards]})
            continue
        if kind == E.EV_DROP:
            turns.append({"seat": seat, "draw": "drop"})
            held[seat] = Counter()
            out[seat] = True
            continue
        if kind in (E.EV_STOCK, E.EV_PILE):
            if kind == E.EV_STOCK:
                if not stock or stock[0] != a:
                    raise fail(j - 1, f"stock draw {kind_name(a)} is not the top of the stock")
                stock.pop(0)
                turn = {"seat": seat, "draw": {"stock": kind_name(a)}}
            else:
                if not pile or pile[-1] != a:
                    raise fail(j - 1, f"pile draw {kind_name(a)} is not the top discard")
                pile.pop()
                turn = {"seat": seat, "draw": {"discard": kind_name(a)}}
            held[seat][a] += 1
            turns.append(turn)
            continue
        if turn is None or turn["seat"] != seat:
            raise fail(j - 1, "a discard or declaration without a draw")
        if held[seat][a] <= 0:
            raise fail(j - 1, f"discard of {kind_name(a)}, not in seat {seat}'s hand")
        held[seat][a] -= 1
        pile.append(a)
        if kind == E.EV_DISCARD:
            turn["discard"] = kind_name(a)
        elif kind == E.EV_DECLARE:
            groups: list[list[str]] = [[] for _ in range(c)]
            shown = Counter()
            while j < n and int(ev[j, 0]) == E.EV_GROUP:
                g, k = int(ev[j, 2]), int(ev[j, 3])
                if not 0 <= g < c:
                    raise fail(j, f"group index {g} outside 0..{c - 1}")
                groups[g].append(kind_name(k))
                shown[k] += 1
                j += 1
            if +shown != +held[seat]:
                raise fail(j, "declaration: the groups are not the 13 cards held")
            turn["declare"] = {"discard": kind_name(a), "groups": groups}
            if not b:  # I5: a wrong declaration, the seat leaves
                held[seat] = Counter()
                out[seat] = True
        else:
            raise fail(j - 1, f"unknown event kind {kind}")
        turn = None
    if end_code is None:
        raise ValueError(f"deal {deal}: the events have no end row")
    if end_code != int(result_row[E.C_END]):
        raise ValueError(f"deal {deal}: the end event ({end_code}) disagrees with the result row")

    return {
        "format": FORMAT,
        "game": "indian",
        "rules": rules,
        "seed": int(seed),
        "deal": int(deal),
        "dealer": int(dealer),
        "players": int(players),
        "decks": int(decks),
        "cut_joker": kind_name(cut),
        "strategies": list(strategies),
        "hands": [[kind_name(k) for k in h] for h in hands_seq],
        "discard": [kind_name(first)],
        "stock": [kind_name(k) for k in stock_list],
        "turns": turns,
        "end": E.END_NAMES[end_code],
        "winner": winner,
        "points": [int(result_row[E.C_LOST + s]) for s in range(players)],
    }
