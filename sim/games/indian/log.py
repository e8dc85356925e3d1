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
from sim.games.indian.deal_nb import deal_order, shuffled_shoe
from sim.plugin.logfile import read_jsonl, write_jsonl  # noqa: F401  (re-exported: files are common to games)

FORMAT = "rummy-log/1"


def dealt_cards(seed: int, deal: int, players: int, decks: int):
    """(hands as dealt, kinds per seat in dealing order; first discard; stock top first
    with the cut joker last; cut joker) of a deal, from the compiled deal kernels (I2)."""
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
    EV_LEGAL / EV_DECISION rows are ignored) and its engine result row.

    Three steps: the deal's cards (``dealt_cards``), the events replayed against them into
    the turns (``_Replay``), the end checked against the result row and the object written
    (``_log_object``)."""
    ev = np.asarray(events, dtype=np.int64)
    if ev.ndim != 2 or ev.shape[1] != E.EVENT_COLS:
        raise ValueError(f"events must have shape (n, {E.EVENT_COLS}), got {ev.shape}")
    if int(result_row[E.C_END]) == E.END_ERROR:
        raise ValueError(f"deal {deal} was abandoned (a strategy's illegal move): no log")
    hands_seq, first, stock_list, cut = dealt_cards(seed, deal, players, decks)
    replay = _Replay(deal, players, hands_seq, first, stock_list)
    end_code, winner = replay.run(ev)
    if end_code != int(result_row[E.C_END]):
        raise ValueError(f"deal {deal}: the end event ({end_code}) disagrees with the result row")
    return _log_object(
        seed=seed, deal=deal, players=players, decks=decks, rules=rules, strategies=strategies,
        hands_seq=hands_seq, first=first, stock_list=stock_list, cut=cut,
        turns=replay.turns, end_code=end_code, winner=winner, result_row=result_row,
    )


class _Replay:
    """The deal's cards moved by its events, one kind of event per method, and the turns
    of the log written on the way. Any event the cards disagree with raises ValueError
    naming the deal and the event's row."""

    def __init__(self, deal: int, players: int, hands_seq: list[list[int]], first: int, stock_list: list[int]):
        self.deal = deal
        self.players = players
        self.held = [Counter(h) for h in hands_seq]
        self.stock = list(stock_list)  # top first
        self.pile = [first]  # bottom first
        self.out = [False] * players
        self.turns: list[dict] = []
        self.turn: dict | None = None  # the turn drawn and not yet ended by a discard

    def fail(self, j: int, msg: str) -> ValueError:
        return ValueError(f"deal {self.deal}, event {j}: {msg}")

    def run(self, ev: np.ndarray) -> tuple[int, int | None]:
        """Replay every event row up to the end row: (end code, winning seat or None)."""
        j = 0
        n = ev.shape[0]
        while j < n:
            kind, seat, a, b, c = (int(x) for x in ev[j])
            j += 1
            if kind in (E.EV_LEGAL, E.EV_DECISION):
                continue
            if kind == E.EV_END:
                return a, (seat if seat >= 0 else None)
            if not 0 <= seat < self.players or self.out[seat]:
                raise self.fail(j - 1, f"seat {seat} is not in the deal")
            if kind == E.EV_RESHUFFLE:
                j = self.reshuffle(ev, j, a)
            elif kind == E.EV_DROP:
                self.drop(seat)
            elif kind in (E.EV_STOCK, E.EV_PILE):
                self.draw(j - 1, kind, seat, a)
            else:
                j = self.end_turn(ev, j, kind, seat, a, b, c)
        raise ValueError(f"deal {self.deal}: the events have no end row")

    def reshuffle(self, ev: np.ndarray, j: int, count: int) -> int:
        """I8: the pile but its top card becomes the stock, in the order of the ``count``
        card rows from row ``j`` on; returns the row after them."""
        cards = []
        while len(cards) < count:
            if j >= ev.shape[0] or int(ev[j, 0]) != E.EV_CARD:
                raise self.fail(j, "reshuffle: missing card rows")
            cards.append(int(ev[j, 2]))
            j += 1
        if self.stock:
            raise self.fail(j, "reshuffle while the stock is not empty (I8)")
        if Counter(cards) != Counter(self.pile[:-1]):
            raise self.fail(j, "reshuffle: the new stock is not the pile without its top card (I8)")
        self.stock = cards
        self.pile = self.pile[-1:]
        self.turns.append({"reshuffle": [kind_name(k) for k in cards]})
        return j

    def drop(self, seat: int) -> None:
        """A drop instead of a draw: the seat leaves the deal with its cards."""
        self.turns.append({"seat": seat, "draw": "drop"})
        self.held[seat] = Counter()
        self.out[seat] = True

    def draw(self, j: int, kind: int, seat: int, card: int) -> None:
        """A draw of ``card`` from the top of the stock or of the discard pile (I3), row ``j``."""
        if kind == E.EV_STOCK:
            if not self.stock or self.stock[0] != card:
                raise self.fail(j, f"stock draw {kind_name(card)} is not the top of the stock")
            self.stock.pop(0)
            self.turn = {"seat": seat, "draw": {"stock": kind_name(card)}}
        else:
            if not self.pile or self.pile[-1] != card:
                raise self.fail(j, f"pile draw {kind_name(card)} is not the top discard")
            self.pile.pop()
            self.turn = {"seat": seat, "draw": {"discard": kind_name(card)}}
        self.held[seat][card] += 1
        self.turns.append(self.turn)

    def end_turn(self, ev: np.ndarray, j: int, kind: int, seat: int, card: int, valid: int, n_groups: int) -> int:
        """The discard that ends the drawn turn, alone or with a declaration (its group rows
        from row ``j`` on); returns the row after them."""
        if self.turn is None or self.turn["seat"] != seat:
            raise self.fail(j - 1, "a discard or declaration without a draw")
        if self.held[seat][card] <= 0:
            raise self.fail(j - 1, f"discard of {kind_name(card)}, not in seat {seat}'s hand")
        self.held[seat][card] -= 1
        self.pile.append(card)
        if kind == E.EV_DISCARD:
            self.turn["discard"] = kind_name(card)
        elif kind == E.EV_DECLARE:
            j = self.declare(ev, j, seat, card, valid, n_groups)
        else:
            raise self.fail(j - 1, f"unknown event kind {kind}")
        self.turn = None
        return j

    def declare(self, ev: np.ndarray, j: int, seat: int, card: int, valid: int, n_groups: int) -> int:
        """A declaration (I5): the ``n_groups`` groups of the group rows from row ``j`` on
        must be the 13 cards held; a wrong one takes the seat out of the deal."""
        groups: list[list[str]] = [[] for _ in range(n_groups)]
        shown = Counter()
        while j < ev.shape[0] and int(ev[j, 0]) == E.EV_GROUP:
            g, k = int(ev[j, 2]), int(ev[j, 3])
            if not 0 <= g < n_groups:
                raise self.fail(j, f"group index {g} outside 0..{n_groups - 1}")
            groups[g].append(kind_name(k))
            shown[k] += 1
            j += 1
        if +shown != +self.held[seat]:
            raise self.fail(j, "declaration: the groups are not the 13 cards held")
        self.turn["declare"] = {"discard": kind_name(card), "groups": groups}
        if not valid:  # I5: a wrong declaration, the seat leaves
            self.held[seat] = Counter()
            self.out[seat] = True
        return j


def _log_object(*, seed, deal, players, decks, rules, strategies, hands_seq, first, stock_list, cut,
                turns, end_code, winner, result_row) -> dict:
    """The ``rummy-log/1`` object (LOG_FORMAT.md) of a replayed deal."""
    return {
        "format": FORMAT,
        "game": "indian",
        "rules": rules,
        "seed": int(seed),
        "deal": int(deal),
        "dealer": int(deal % players),
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
