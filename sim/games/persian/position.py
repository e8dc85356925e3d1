"""Step through one Persian Rummy deal by hand with the compiled rule kernels.

``Position`` exposes the same legal-move generation and move application the
engine uses, one decision at a time, with moves as readable tuples:
``("stock",)``, ``("take", depth)``, ``("pass",)``, ``("meld", cards)``,
``("layoff", card, meld_no)``, ``("stop",)``, ``("discard", card)`` (cards are
names such as "QS" or "JK"; meld cards sorted by name). It is meant for tests,
notebooks and for exploring a position, not for speed.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from sim.games.persian import enums as E
from sim.games.persian import state_nb as K
from sim.games.persian.cards import card_name, mask_to_names, names_to_mask, parse_card
from sim.games.persian.cards_nb import JOKERS, RANK_MASKS
from sim.games.persian.engine_nb import shuffled_deck
from sim.games.persian.melds_nb import meld_kind_key, refresh_table
from sim.games.persian.rules import RuleOptions

_PHASES = E.DECISION_NAMES  # the phase names of Position, indexed by D_*


class _CardIds:
    """Card ids for names, in the order given: each "JK" gets the next joker id (P1: four)."""

    def __init__(self):
        self.jokers_used = 0
        self.all_ids: list[int] = []

    def __call__(self, names: Sequence[str]) -> list[int]:
        out = []
        for n in names:
            c = parse_card(n)
            if c >= E.JOKER0:
                if self.jokers_used == E.N_JOKERS:
                    raise ValueError("more than 4 jokers given (P1)")
                c = E.JOKER0 + self.jokers_used
                self.jokers_used += 1
            out.append(c)
        self.all_ids.extend(out)
        return out

    def check_distinct(self) -> None:
        if len(self.all_ids) != len(set(self.all_ids)):
            dup = sorted({card_name(c) for c in self.all_ids if self.all_ids.count(c) > 1})
            raise ValueError(f"cards given more than once: {', '.join(dup)}")


def _set_cards(st: np.ndarray, hands, discard_pile, stock, ids: _CardIds) -> None:
    """The hands, the discard pile and the stock into the state (pile and stock stored bottom first)."""
    if len(hands) != E.N_SEATS:
        raise ValueError(f"Position needs {E.N_SEATS} hands, got {len(hands)}")
    for s in range(E.N_SEATS):
        hid = ids(hands[s])
        st[E.S_HANDS + s] = sum(1 << c for c in hid)
        st[E.O_HAND_SIZES + s] = len(hid)
    pile = ids(discard_pile)[::-1]
    st[E.O_PILE : E.O_PILE + len(pile)] = pile
    st[E.O_PILE_N] = len(pile)
    stk = ids(stock)[::-1]
    st[E.S_STOCK : E.S_STOCK + len(stk)] = stk
    st[E.O_STOCK_N] = len(stk)


def _set_melds(st: np.ndarray, melds, ids: _CardIds) -> None:
    """The melds already on the table (P5: each a set, joker set or run) and the derived slots."""
    for k, (owner, cards) in enumerate(melds):
        m = sum(1 << c for c in ids(cards))
        if not is_meld(m):
            raise ValueError(f"table meld {k} {list(cards)} is not a set, joker set or run (P5)")
        kind, key = meld_kind_key(np.int64(m))
        st[E.O_MELD_MASK + k] = m
        st[E.O_MELD_KIND + k] = kind
        st[E.O_MELD_KEY + k] = key
        st[E.O_MELD_OWNER + k] = owner
        st[E.O_PLACED + owner] |= m
    st[E.O_N_MELDS] = len(melds)
    refresh_table(st)  # the derived table slots (O_TABLE_CARDS ..) follow the melds


class Position:
    """A deal in progress: the state array ``st`` plus its phase and end."""

    def __init__(
        self,
        hands: Sequence[Sequence[str]],
        discard_pile: Sequence[str],
        stock: Sequence[str],
        dealer: int = 0,
        rules: RuleOptions | dict | None = None,
        melds: Sequence[tuple[int, Sequence[str]]] = (),
        to_move: int | None = None,
    ):
        """Cards by name; ``discard_pile`` and ``stock`` top first (LOG_FORMAT.md);
        ``melds`` already on the table as (owner seat, cards) (they score nothing)."""
        self.rules = rules if isinstance(rules, RuleOptions) else RuleOptions.from_dict(rules)
        st = np.zeros(E.ST_SIZE, dtype=np.int64)
        ids = _CardIds()
        _set_cards(st, hands, discard_pile, stock, ids)
        _set_melds(st, melds, ids)
        ids.check_distinct()
        st[E.O_TARGET] = -1
        st[E.O_LAST_DISCARD] = -1
        st[E.O_LAST_DISCARDER] = -1
        st[E.O_DEALER] = dealer
        st[E.O_SEAT] = K.next_seat(dealer) if to_move is None else to_move
        st[E.O_RULES : E.O_RULES + E.N_RULES] = self.rules.to_array()
        self.st = st
        self.res = np.zeros(E.N_RESULT_COLS, dtype=np.int64)
        self.res[E.C_MAX_DEPTH : E.C_MAX_DEPTH + E.N_SEATS] = -1
        self.phase = "draw"
        self.end: str | None = None
        self.out_seat: int | None = None
        self._moves = np.zeros((E.MAX_MOVES, E.MOVE_COLS), dtype=np.int64)

    @classmethod
    def from_deal(cls, seed: int, deal: int, rules=None) -> "Position":
        """The position at the start of deal ``deal`` of a run with ``seed``."""
        deck = [card_name(int(c)) for c in shuffled_deck(seed, deal)]
        h, seats = E.HAND_SIZE, E.N_SEATS
        hands = [deck[h * s : h * s + h] for s in range(seats)]
        return cls(hands, [deck[h * seats]], deck[h * seats + 1 :], dealer=deal % seats, rules=rules)

    # -- what anyone can read -------------------------------------------------------
    @property
    def seat(self) -> int:
        return int(self.st[E.O_SEAT])

    @property
    def turns(self) -> int:
        """Turns played, counting the one that ended the deal (as the result column C_TURNS)."""
        return int(self.st[E.O_TURN]) + (self.end in ("out", "passes"))

    def hand(self, seat: int) -> list[str]:
        return mask_to_names(int(self.st[E.S_HANDS + seat]))

    def melds(self) -> list[list[str]]:
        return [mask_to_names(int(self.st[E.O_MELD_MASK + k])) for k in range(self.st[E.O_N_MELDS])]

    def pile(self) -> list[str]:
        """The discard pile, top first."""
        n = self.st[E.O_PILE_N]
        return [card_name(int(c)) for c in self.st[E.O_PILE : E.O_PILE + n][::-1]]

    def stock(self) -> list[str]:
        n = self.st[E.O_STOCK_N]
        return [card_name(int(c)) for c in self.st[E.S_STOCK : E.S_STOCK + n][::-1]]

    def observation(self) -> np.ndarray:
        """What the seat to move may see (P10), as strategies receive it."""
        obs = self.st[: E.OBS_SIZE].copy()
        obs[E.O_HAND] = self.st[E.S_HANDS + self.seat]
        obs[E.O_DECISION] = _PHASES.index(self.phase)
        return obs

    # -- moves ------------------------------------------------------------------------
    def legal_rows(self) -> np.ndarray:
        """The legal moves as the engine's (kind, a, b, c) rows, in engine order."""
        if self.phase == "over":
            return self._moves[:0].copy()
        n = K.legal_moves(self.st, _PHASES.index(self.phase), self._moves)
        return self._moves[:n].copy()

    def legal_moves(self) -> set[tuple]:
        return {row_to_move(r) for r in self.legal_rows()}

    def apply(self, move: tuple) -> None:
        """Apply a move given as a tuple; ValueError if it is not legal here."""
        rows = self.legal_rows()
        for r in rows:
            if row_to_move(r) == move:
                self.apply_row(r)
                return
        raise ValueError(f"illegal move {move!r} in the {self.phase} phase for seat {self.seat}")

    def apply_row(self, r: np.ndarray) -> None:
        """Apply a legal move row exactly as the engine's deal loop does (state_nb.apply_row)."""
        if self.phase == "over":
            raise ValueError("the deal is over")
        st, res = self.st, self.res
        seat = self.seat
        decision = _PHASES.index(self.phase)
        if decision == E.D_DRAW:
            res[E.C_TURNS_SEAT + seat] += 1
        end = K.apply_row(st, decision, r[0], r[1], r[2], res)
        if end != K.GOING_ON:
            return self._finish(end, seat if end == E.END_OUT else -1)
        self.phase = _PHASES[st[E.O_DECISION]]
        if self.phase == "draw" and st[E.O_TURN] >= self.rules.turn_cap:
            self._finish(E.END_CAP, -1)

    def _finish(self, end: int, out_seat: int) -> None:
        self.phase = "over"
        self.end = E.END_NAMES[end]
        self.out_seat = None if out_seat < 0 else out_seat
        K.score_deal(self.st, end, out_seat, self.res)

    def score(self) -> dict:
        """Per-team score breakdown (P8) once the deal is over."""
        r = self.res
        return {k: [int(r[c]), int(r[c + 1])] for k, c in
                (("table", E.C_TABLE), ("hand", E.C_HAND), ("bonus", E.C_BONUS), ("total", E.C_TOTAL))}


def is_meld(mask: int) -> bool:
    """Is ``mask`` a valid P5 meld: 3-4 jokers, 3-4 of one rank, or a 3+ run of one suit?"""
    n = bin(mask).count("1")
    if n < 3:
        return False
    if mask & int(JOKERS):
        return mask & ~int(JOKERS) == 0
    low = (mask & -mask).bit_length() - 1
    if mask & ~int(RANK_MASKS[low % E.N_RANKS]) == 0:
        return True
    shift = E.N_RANKS * (low // E.N_RANKS)
    bits = mask >> shift
    return bits << shift == mask and bits <= E.RANK_BITS and bits & (bits + (bits & -bits)) == 0


def row_to_move(r) -> tuple:
    """A move row of the engine as a readable tuple (see the module docstring)."""
    kind = int(r[0])
    if kind == E.MV_STOCK:
        return ("stock",)
    if kind == E.MV_TAKE:
        return ("take", int(r[1]))
    if kind == E.MV_PASS:
        return ("pass",)
    if kind == E.MV_MELD:
        return ("meld", tuple(sorted(mask_to_names(int(r[1])))))
    if kind == E.MV_LAYOFF:
        return ("layoff", card_name(int(r[1])), int(r[2]))
    if kind == E.MV_STOP:
        return ("stop",)
    if kind == E.MV_DISCARD:
        return ("discard", card_name(int(r[1])))
    raise ValueError(f"unknown move kind {kind}")


__all__ = ["Position", "row_to_move", "names_to_mask"]
