"""Step through one Indian Rummy deal by hand with the compiled rule kernels (I2-I9).

``Position`` holds a deal in progress as the engine's state array and takes the engine's
own steps (turn_nb: the I8 reshuffle at the start of a turn, draws and drops, discards and
declarations, the scoring), one decision at a time, with moves as readable tuples:
``("stock",)``, ``("pile", "7H")``, ``("drop",)``, ``("discard", "7H")``,
``("declare", "7H")`` (cards by their log names, "JK" the printed joker). It records the
engine's events of every move (``events()``, as ``run_deals(..., record=1)``) and fills
the engine's result row (``result_row()``), so a deal stepped here with the engine's
strategies is the engine's deal.

Two ways in:

* ``Position.from_deal(seed, deal, players)``: the start of a deal of a run, cards,
  dealer and random streams as the engine has them;
* ``Position(hands, discard_pile, stock, cut_joker, ...)``: a hand-entered position,
  checked for consistency (``check_state``: every problem is one clear ValueError), or
  ``Position.from_state(st)``: a state array (e.g. an information check's variant).

It is meant for tests, notebooks, decision analysis and exploring a position, not for speed.
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping, Sequence

import numpy as np

from sim.core.rng_nb import STREAM_SEAT0, STREAM_SHUFFLE, stream_key
from sim.games.indian import enums as E
from sim.games.indian.cards import kind_name, parse_kind
from sim.games.indian.engine_nb import record_declaration, record_draw
from sim.games.indian.rules import RuleOptions, check_players
from sim.games.indian.state_nb import discard_moves, draw_moves
from sim.games.indian.turn_nb import begin_turn, finish_deal, start_deal, step_discard, step_draw

GOING_ON = -1  # turn_nb.GOING_ON (not imported here: importing turn_nb loads numba's kernels)
_STATUS = {name: code for code, name in enumerate(E.STATUS_NAMES)}


class Position:
    """A deal in progress: the state array ``st``, its result row ``res`` and its events."""

    def __init__(
        self,
        hands: Sequence[Sequence[str]],
        discard_pile: Sequence[str],
        stock: Sequence[str],
        cut_joker: str,
        dealer: int = 0,
        rules: RuleOptions | dict | None = None,
        to_move: int | None = None,
        decision: str = "draw",
        turn: int = 0,
        out: Mapping[int, str] | None = None,
        discards: Sequence[tuple[int, str]] = (),
        pickups: Sequence[Sequence[str]] | None = None,
        has_drawn: Sequence[bool] | None = None,
        seed: int = 0,
        deal: int = 0,
    ):
        """A hand-entered position; cards by name, ``discard_pile`` and ``stock`` top first.

        ``hands``: one per seat (2..6 seats, I1); a seat out of the deal (``out``: seat ->
        "first_drop", "middle_drop" or "wrong_declaration") holds none. ``to_move``
        (default: left of the dealer) decides ``decision`` ("draw", or "discard" holding 14
        cards). ``discards``: the public history, (seat, card) in order (the observation
        keeps the last RING); ``pickups``: per seat, the cards it took from the pile (I9);
        ``has_drawn``: per seat, whether it drew in this deal (I7: first or middle drop;
        default: it discarded or picked up, or holds 14). ``seed``, ``deal``: the random
        streams of the seats' strategies and of later I8 reshuffles."""
        rules = rules if isinstance(rules, RuleOptions) else RuleOptions.from_dict(rules)
        players = check_players(len(hands))
        st = np.zeros(E.ST_SIZE, dtype=np.int64)
        st[E.O_RULES: E.O_RULES + E.N_RULES] = rules.to_array(players)
        st[E.O_PLAYERS] = players
        seat = _set_turn(st, players, dealer, to_move, decision, turn, cut_joker)
        _set_hands(st, hands, dict(out or {}), players)
        _set_piles(st, discard_pile, stock)
        _set_history(st, players, seat, decision, discards, pickups, has_drawn)
        check_state(st)
        self._setup(st, np.zeros(E.N_RESULT_COLS, dtype=np.int64), seed, deal)
        self.res[E.C_DEAL] = deal
        self.res[E.C_DEALER] = dealer
        self.res[E.C_PLAYERS] = players
        self.res[E.C_WINNER] = -1
        self.res[E.C_ERR_SEAT] = -1
        self.res[E.C_ERR_DECISION] = -1
        if decision == "draw":
            self._begin_turn()

    # -- other ways in ----------------------------------------------------------------------
    @classmethod
    def from_deal(cls, seed: int, deal: int, players: int = 4, rules: RuleOptions | dict | None = None) -> "Position":
        """The start of deal ``deal`` of a run with ``seed`` at a table of ``players``: the engine's
        cards, dealer (``deal % players``), seat streams and reshuffle stream (turn_nb.start_deal)."""
        rules = rules if isinstance(rules, RuleOptions) else RuleOptions.from_dict(rules)
        arr = rules.to_array(check_players(players))
        self = cls.__new__(cls)
        st = np.zeros(E.ST_SIZE, dtype=np.int64)
        res = np.zeros(E.N_RESULT_COLS, dtype=np.int64)
        self._setup(st, res, seed, deal)
        start_deal(np.int64(seed), np.int64(deal), arr, st, np.empty(E.MAX_SHOE, np.int64), self.rs, self.streams,
                   np.empty((E.MAX_SEATS, E.HAND_SIZE), np.int64), self._buf, res)
        self._begin_turn()
        return self

    @classmethod
    def from_state(cls, state: np.ndarray, seed: int = 0, deal: int = 0) -> "Position":
        """A position of the state array ``state`` (copied, checked: ``check_state``), at its
        decision; ``seed`` and ``deal`` key the seat streams and later reshuffles."""
        st = np.array(state, dtype=np.int64)
        if st.shape != (E.ST_SIZE,):
            raise ValueError(f"an Indian state has {E.ST_SIZE} slots, got shape {st.shape}")
        check_state(st)
        self = cls.__new__(cls)
        self._setup(st, np.zeros(E.N_RESULT_COLS, dtype=np.int64), seed, deal)
        self.res[E.C_WINNER] = -1
        return self

    def _setup(self, st: np.ndarray, res: np.ndarray, seed: int, deal: int) -> None:
        self.st = st
        self.res = res
        self.end: str | None = None
        self.winner: int | None = None
        self.rs = np.array([stream_key(seed, deal, STREAM_SHUFFLE)], dtype=np.uint64)
        self.streams = np.array([[stream_key(seed, deal, STREAM_SEAT0 + s)] for s in range(E.MAX_SEATS)],
                                dtype=np.uint64)
        self._buf = np.zeros(E.MAX_SHOE, dtype=np.int64)
        self._free = np.zeros(E.N_KINDS, dtype=np.int64)
        self._moves = np.zeros((E.MAX_MOVES, E.MOVE_COLS), dtype=np.int64)
        self._ev = np.zeros((1, E.MAX_EVENTS_PER_DEAL, E.EVENT_COLS), dtype=np.int64)
        self._ev_n = np.zeros(1, dtype=np.int64)

    # -- what anyone can read ------------------------------------------------------------------
    @property
    def players(self) -> int:
        return int(self.st[E.O_PLAYERS])

    @property
    def seat(self) -> int:
        """The seat to move."""
        return int(self.st[E.O_SEAT])

    @property
    def decision(self) -> str:
        """"draw", "discard", or "over" once the deal ended."""
        return "over" if self.end is not None else E.DECISION_NAMES[int(self.st[E.O_DECISION])]

    @property
    def turn(self) -> int:
        return int(self.st[E.O_TURN])

    @property
    def wild_rank(self) -> int:
        return int(self.st[E.O_WILD_RANK])

    def hand(self, seat: int) -> list[str]:
        b = E.S_HANDS + seat * E.N_KINDS
        return [kind_name(k) for k in range(E.N_KINDS) for _ in range(int(self.st[b + k]))]

    def pile(self) -> list[str]:
        """The discard pile, top first."""
        n = int(self.st[E.O_PILE_N])
        return [kind_name(k) for k in self.st[E.S_PILE: E.S_PILE + n][::-1]]

    def stock(self) -> list[str]:
        """The stock, top first."""
        n = int(self.st[E.O_STOCK_N])
        return [kind_name(k) for k in self.st[E.S_STOCK: E.S_STOCK + n][::-1]]

    def status(self, seat: int) -> str:
        return E.STATUS_NAMES[int(self.st[E.O_STATUS + seat])]

    def observation(self) -> np.ndarray:
        """What the seat to move sees (I9), as the engine gives it to its strategy: the state's
        public slots with its own hand in O_HAND."""
        obs = self.st[: E.OBS_SIZE].copy()
        b = E.S_HANDS + self.seat * E.N_KINDS
        obs[E.O_HAND: E.O_HAND + E.N_KINDS] = self.st[b: b + E.N_KINDS]
        return obs

    def view(self) -> tuple[np.ndarray, np.ndarray]:
        """(observation, legal move rows): all a strategy deciding here receives."""
        return self.observation(), self.legal_rows()

    # -- moves -----------------------------------------------------------------------------------
    def legal_rows(self) -> np.ndarray:
        """The legal moves as the engine's (kind, a, b, c) rows, in the engine's order (none once over)."""
        if self.end is not None:
            return self._moves[:0].copy()
        gen = draw_moves if self.st[E.O_DECISION] == E.D_DRAW else discard_moves
        n = gen(self.st, self._moves)
        return self._moves[:n].copy()

    def legal_moves(self) -> list[tuple]:
        """The legal moves as readable tuples, in the engine's order."""
        return [row_to_move(r) for r in self.legal_rows()]

    def apply(self, move: tuple) -> None:
        """Apply a move given as a tuple (module docstring); ValueError if it is not legal here."""
        for r in self.legal_rows():
            if row_to_move(r) == tuple(move):
                self.apply_row(r)
                return
        raise ValueError(f"illegal move {move!r} at seat {self.seat}'s {self.decision} decision; legal: "
                         f"{', '.join(map(str, self.legal_moves())) or 'none (the deal is over)'}")

    def apply_row(self, row) -> None:
        """Apply a legal move row exactly as the engine's deal loop does, recording its events."""
        if self.end is not None:
            raise ValueError("the deal is over")
        st, res = self.st, self.res
        kind, k = int(row[0]), int(row[1])
        if not any(int(r[0]) == kind and int(r[1]) == k for r in self.legal_rows()):
            raise ValueError(f"illegal move row {list(row)} at seat {self.seat}'s {self.decision} decision")
        seat = self.seat
        ev, ev_n = self._ev, self._ev_n
        if st[E.O_DECISION] == E.D_DRAW:
            if kind != E.MV_DROP:
                record_draw(ev, ev_n, np.int64(0), st, np.int64(kind))
            end = step_draw(st, np.int64(kind), res)
            if kind == E.MV_DROP:
                self._event(E.EV_DROP, seat, st[E.O_STATUS + seat], res[E.C_LOST + seat])
        else:
            if kind == E.MV_DECLARE:
                record_declaration(ev, ev_n, np.int64(0), st, np.int64(k),
                                   np.empty((E.MAX_GROUPS, E.GROUP_WIDTH), np.int64),
                                   np.empty(E.MAX_GROUPS, np.int64), np.empty(E.N_KINDS, np.int64))
            else:
                self._event(E.EV_DISCARD, seat, k)
            end = step_discard(st, np.int64(kind), np.int64(k), res, self._free, np.int64(-1))
        drew = kind in (E.MV_STOCK, E.MV_PILE)
        if end != GOING_ON:
            self._finish(end)
        elif not drew:  # the turn passed (a drop, a discard, a wrong declaration): the next draw
            self._begin_turn()

    def _event(self, kind: int, seat: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        """Append one event row as the engine's recorder does."""
        i = int(self._ev_n[0])
        if i >= self._ev.shape[1]:
            raise RuntimeError(f"more than {self._ev.shape[1]} events in one deal")
        self._ev[0, i] = (kind, seat, a, b, c)
        self._ev_n[0] = i + 1

    def _begin_turn(self) -> None:
        if self.st[E.O_TURN] >= self.st[E.O_RULES + E.R_TURN_CAP]:
            self._finish(GOING_ON)
            return
        seat = self.seat
        m = begin_turn(self.st, self.rs, self._buf, self.res)
        if m > 0:
            self._event(E.EV_RESHUFFLE, seat, m)
            for i in range(m):
                self._event(E.EV_CARD, seat, int(self._buf[i]))

    def _finish(self, end: int) -> None:
        winner = int(finish_deal(self.st, np.int64(end), self.res, self.st[:0]))
        self._event(E.EV_END, winner, int(self.res[E.C_END]))
        self.end = E.END_NAMES[int(self.res[E.C_END])]
        self.winner = None if winner < 0 else winner

    # -- what the deal has made --------------------------------------------------------------------
    def events(self) -> np.ndarray:
        """The engine's event rows of every move applied so far (``run_deals(..., record=1)``)."""
        return self._ev[0, : self._ev_n[0]].copy()

    def result_row(self) -> np.ndarray:
        """The engine's result row (C_* columns); complete once the deal is over."""
        return self.res.copy()

    def points(self) -> list[int]:
        """Points each seat lost so far (I5-I7; every seat's once the deal is over)."""
        return [int(self.res[E.C_LOST + s]) for s in range(self.players)]


def row_to_move(r) -> tuple:
    """An engine move row as a readable tuple (module docstring)."""
    kind = int(r[0])
    if kind == E.MV_STOCK:
        return ("stock",)
    if kind == E.MV_DROP:
        return ("drop",)
    if kind in (E.MV_PILE, E.MV_DISCARD, E.MV_DECLARE):
        return (E.MOVE_NAMES[kind], kind_name(int(r[1])))
    raise ValueError(f"unknown move kind {kind}")


def check_state(st: np.ndarray) -> None:
    """Raise one ValueError naming the first inconsistency of an Indian state array (cards
    more than the shoe holds, hand sizes, the pile's public counts, who is in the deal, what
    the seat is known to hold from its pickups, the wild rank)."""
    players = int(st[E.O_PLAYERS])
    check_players(players)
    seat = int(st[E.O_SEAT])
    decision = int(st[E.O_DECISION])
    if decision not in (E.D_DRAW, E.D_DISCARD):
        raise ValueError(f"decision code {decision}: expected {E.D_DRAW} (draw) or {E.D_DISCARD} (discard)")
    stock, pile = _stock_and_pile(st)
    total = Counter(map(int, stock)) + Counter(map(int, pile))
    in_play = 0
    for s in range(players):
        hand = _checked_hand(st, s, seat, decision)
        if hand is not None:
            in_play += 1
            total += Counter({k: int(hand[k]) for k in np.flatnonzero(hand)})
    _check_copies(st, total)
    _check_seats(st, players, seat, in_play)
    _check_public(st, pile)
    if decision == E.D_DRAW and stock.size == 0 and pile.size == 0:
        raise ValueError("nothing to draw: the stock and the pile are empty")


def _stock_and_pile(st: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The stock and the pile, each checked to hold 0..MAX_SHOE valid card kinds."""
    stock_n, pile_n = int(st[E.O_STOCK_N]), int(st[E.O_PILE_N])
    if not (0 <= stock_n <= E.MAX_SHOE and 0 <= pile_n <= E.MAX_SHOE):
        raise ValueError(f"stock of {stock_n} or pile of {pile_n} cards: each holds 0..{E.MAX_SHOE}")
    stock = st[E.S_STOCK: E.S_STOCK + stock_n]
    pile = st[E.S_PILE: E.S_PILE + pile_n]
    if ((stock < 0) | (stock >= E.N_KINDS)).any() or ((pile < 0) | (pile >= E.N_KINDS)).any():
        raise ValueError("the stock or the pile holds a card kind outside 0..52")
    return stock, pile


def _checked_hand(st: np.ndarray, s: int, seat: int, decision: int) -> np.ndarray | None:
    """Seat ``s``'s hand counts when it is in the deal (None when it is out, holding nothing),
    its size right for the decision (I2, I3) and its pile pickups still held (I9)."""
    hand = st[E.S_HANDS + s * E.N_KINDS: E.S_HANDS + (s + 1) * E.N_KINDS]
    if (hand < 0).any():
        raise ValueError(f"seat {s}'s hand has a negative count")
    size = int(hand.sum())
    if int(st[E.O_HAND_N + s]) != size:
        raise ValueError(f"seat {s}: hand size slot {int(st[E.O_HAND_N + s])} but it holds {size} cards")
    status = int(st[E.O_STATUS + s])
    if status not in range(len(E.STATUS_NAMES)):
        raise ValueError(f"seat {s}: status code {status} unknown")
    if status != E.ST_IN:
        if size:
            raise ValueError(f"seat {s} is out of the deal ({E.STATUS_NAMES[status]}) but holds {size} cards")
        return None
    want = E.HAND_SIZE + (1 if s == seat and decision == E.D_DISCARD else 0)
    if size != want:
        raise ValueError(f"seat {s} holds {size} cards; it should hold {want} at seat {seat}'s "
                         f"{E.DECISION_NAMES[decision]} decision (I2, I3)")
    picked = st[E.O_PICKED + s * E.N_KINDS: E.O_PICKED + (s + 1) * E.N_KINDS]
    gone = st[E.O_DISCARDED + s * E.N_KINDS: E.O_DISCARDED + (s + 1) * E.N_KINDS]
    short = np.flatnonzero(picked - gone > hand)
    if short.size:
        raise ValueError(f"seat {s} took {kind_name(int(short[0]))} from the pile and did not discard it, "
                         f"but does not hold it (I9)")
    if int(picked.sum()) != int(st[E.O_PICKUPS + s]):
        raise ValueError(f"seat {s}: {int(st[E.O_PICKUPS + s])} pickups counted but {int(picked.sum())} "
                         f"cards picked")
    return hand


def _check_copies(st: np.ndarray, total: Counter) -> None:
    """No card kind more often than the shoe holds (I1)."""
    decks = int(st[E.O_RULES + E.R_DECKS])
    jokers = int(st[E.O_RULES + E.R_N_JOKERS])
    for k, c in total.items():
        most = jokers if k == E.JOKER else decks
        if c > most:
            raise ValueError(f"{c} copies of {kind_name(k)} given; a shoe of {decks} decks holds {most} (I1)")


def _check_seats(st: np.ndarray, players: int, seat: int, in_play: int) -> None:
    """Two or more seats in the deal (I7), the seat to move among them, the dealer a seat."""
    if int(st[E.O_IN_PLAY]) != in_play:
        raise ValueError(f"in-play slot {int(st[E.O_IN_PLAY])} but {in_play} seats are in the deal")
    if in_play < 2:
        raise ValueError(f"{in_play} seat(s) in the deal: a deal goes on with two or more (I7)")
    if not 0 <= seat < players or st[E.O_STATUS + seat] != E.ST_IN:
        raise ValueError(f"seat {seat} to move is not in the deal")
    if not 0 <= int(st[E.O_DEALER]) < players:
        raise ValueError(f"dealer {int(st[E.O_DEALER])} is not a seat 0..{players - 1}")


def _check_public(st: np.ndarray, pile: np.ndarray) -> None:
    """The public slots follow the cards: the pile's counts and top, the cut joker's wild rank (I2)."""
    counts = np.bincount(pile, minlength=E.N_KINDS)
    if not np.array_equal(counts, st[E.O_PILE_COUNTS: E.O_PILE_COUNTS + E.N_KINDS]):
        raise ValueError("the pile's public counts (O_PILE_COUNTS) are not the pile's cards")
    top = int(pile[-1]) if pile.size else -1
    if int(st[E.O_TOP]) != top:
        raise ValueError(f"top slot {int(st[E.O_TOP])} but the pile's top card is {top}")
    cut = int(st[E.O_CUT_JOKER])
    if not 0 <= cut < E.N_KINDS:
        raise ValueError(f"cut joker kind {cut} outside 0..52")
    wild = E.ACE_RANK if cut == E.JOKER else cut % E.N_RANKS
    if int(st[E.O_WILD_RANK]) != wild:
        raise ValueError(f"wild rank {int(st[E.O_WILD_RANK])} but the cut joker {kind_name(cut)} makes it {wild} (I2)")


__all__ = ["Position", "row_to_move", "check_state"]


# -- the steps of Position.__init__: each fills its part of the state array st -----------------
def _set_turn(st: np.ndarray, players: int, dealer: int, to_move: int | None, decision: str, turn: int,
              cut_joker: str) -> int:
    """The dealer, the seat to move (default: left of the dealer, I3), its decision, the turn
    and the cut joker with its wild rank (I2); returns the seat to move."""
    if not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat 0..{players - 1}, got {dealer}")
    st[E.O_DEALER] = dealer
    seat = (dealer + 1) % players if to_move is None else to_move
    if not 0 <= seat < players:
        raise ValueError(f"to_move must be a seat 0..{players - 1}, got {seat}")
    st[E.O_SEAT] = seat
    if decision not in E.DECISION_NAMES:
        raise ValueError(f"decision must be one of {', '.join(E.DECISION_NAMES)}, got {decision!r}")
    st[E.O_DECISION] = E.DECISION_NAMES.index(decision)
    st[E.O_TURN] = turn
    cut = parse_kind(cut_joker)
    st[E.O_CUT_JOKER] = cut
    st[E.O_WILD_RANK] = E.ACE_RANK if cut == E.JOKER else cut % E.N_RANKS
    return seat


def _set_hands(st: np.ndarray, hands: Sequence[Sequence[str]], out: dict, players: int) -> None:
    """Every seat's cards and status (in, or out of the deal: I5, I7)."""
    for s, status in out.items():
        if status not in _STATUS or status == "in":
            raise ValueError(f"seat {s} out of the deal as {status!r}: expected first_drop, middle_drop or "
                             f"wrong_declaration")
        if not 0 <= s < players:
            raise ValueError(f"out: seat {s} is not at a table of {players}")
    for s in range(players):
        for c in hands[s]:
            st[E.S_HANDS + s * E.N_KINDS + parse_kind(c)] += 1
        st[E.O_HAND_N + s] = len(hands[s])
        st[E.O_STATUS + s] = _STATUS[out.get(s, "in")]
    st[E.S_FIRST_CHANCE: E.S_FIRST_CHANCE + E.MAX_SEATS] = -1
    st[E.O_IN_PLAY] = players - len(out)


def _set_piles(st: np.ndarray, discard_pile: Sequence[str], stock: Sequence[str]) -> None:
    """The discard pile and the stock, given top first, stored bottom first."""
    pile = [parse_kind(c) for c in discard_pile][::-1]
    st[E.S_PILE: E.S_PILE + len(pile)] = pile
    st[E.O_PILE_N] = len(pile)
    st[E.O_TOP] = pile[-1] if pile else -1
    for k in pile:
        st[E.O_PILE_COUNTS + k] += 1
    stk = [parse_kind(c) for c in stock][::-1]
    st[E.S_STOCK: E.S_STOCK + len(stk)] = stk
    st[E.O_STOCK_N] = len(stk)


def _set_history(st: np.ndarray, players: int, seat: int, decision: str, discards: Sequence[tuple[int, str]],
                 pickups: Sequence[Sequence[str]] | None, has_drawn: Sequence[bool] | None) -> None:
    """The public history (I9): every discard by seat (the last RING in order), the pile cards
    each seat took, and who has drawn in this deal (I7's first or middle drop)."""
    for j, (s, c) in enumerate(discards):
        if not 0 <= s < players:
            raise ValueError(f"discard {j}: seat {s} is not at a table of {players}")
        k = parse_kind(c)
        st[E.O_DISCARDED + s * E.N_KINDS + k] += 1
        st[E.O_RING + 2 * (j % E.RING)] = s
        st[E.O_RING + 2 * (j % E.RING) + 1] = k
    st[E.O_N_DISCARDS] = len(discards)
    if pickups is not None:
        if len(pickups) != players:
            raise ValueError(f"pickups: one list per seat ({players}), got {len(pickups)}")
        for s, cards in enumerate(pickups):
            for c in cards:
                st[E.O_PICKED + s * E.N_KINDS + parse_kind(c)] += 1
            st[E.O_PICKUPS + s] = len(cards)
    for s in range(players):
        if has_drawn is not None:
            drew = bool(has_drawn[s])
        else:
            drew = (st[E.O_PICKUPS + s] > 0 or any(d == s for d, _ in discards)
                    or (s == seat and decision == "discard"))
        st[E.O_HAS_DRAWN + s] = int(drew)
