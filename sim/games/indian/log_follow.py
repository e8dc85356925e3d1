"""The recorded end of an Indian deal log is the one its turns lead to (I3, I5, I7, I8).

``follow_turns(d)`` runs after the structure check (``log_check.validate_log``) and follows
the deal without judging a single move: the seat to move (clockwise from the dealer's left,
skipping seats out of the deal), the stock (each stock draw is its next card, a reshuffle
only on an empty stock and made of the pile under its top card), the pile (a pile draw takes
its top card), each seat's cards (a seat never discards or shows a card it does not hold),
who has left (drops; a declaration that is not the last turn was a wrong one), and the
points those seats lost. The end must follow: ``declare`` the last turn a declaration,
``last_player`` one seat left after the last turn and it the winner, ``cap`` the rules'
turn cap reached with two or more seats in, and no turn after the end. Whether a move was
legal or a declaration valid is for the rules replay (tests/indian/naive_indian.py).
"""

from __future__ import annotations

from collections import Counter

from sim.games.indian.rules import RuleOptions

_DEFAULTS = RuleOptions()


class _Deal:
    """The public course of one deal as its log tells it, turn by turn."""

    def __init__(self, d: dict):
        rules = d["rules"]
        self.rule = lambda name: int(rules.get(name, getattr(_DEFAULTS, name)))
        self.players = d["players"]
        self.points = d["points"]
        self.hands = [Counter(h) for h in d["hands"]]
        self.stock = list(d["stock"])  # top first
        self.pile = list(d["discard"])  # top last
        self.seat = (d["dealer"] + 1) % self.players
        self.out: set[int] = set()
        self.drawn: set[int] = set()
        self.turns = 0  # turns played (reshuffles are not turns)
        self.ended = ""  # why the deal is over, once it is

    def leave(self, t: int, seat: int, loss: int, why: str) -> None:
        """The seat leaves the deal having lost ``loss`` points (I5, I7)."""
        if self.points[seat] != loss:
            raise ValueError(f"points[{seat}]: seat {seat} {why} at turns[{t}] and loses {loss}, "
                             f"the log says {self.points[seat]}")
        self.out.add(seat)
        self.hands[seat] = Counter()
        if self.players - len(self.out) == 1:
            self.ended = "one seat was left"

    def pass_turn(self) -> None:
        """I3: clockwise to the next seat still in."""
        self.turns += 1
        for _ in range(self.players):
            self.seat = (self.seat + 1) % self.players
            if self.seat not in self.out:
                return

    def give_up(self, t: int, seat: int, cards: list[str]) -> None:
        """The seat discards or shows ``cards``: it must hold every one of them."""
        for card in cards:
            if self.hands[seat][card] <= 0:
                raise ValueError(f"turns[{t}]: seat {seat} gives up {card}, which it does not hold")
            self.hands[seat][card] -= 1

    def reshuffle(self, t: int, cards: list[str]) -> None:
        """I8: on an empty stock, the pile under its top card becomes the new stock."""
        if self.stock:
            raise ValueError(f"turns[{t}].reshuffle: the stock still has {len(self.stock)} cards (I8)")
        if Counter(cards) != Counter(self.pile[:-1]):
            raise ValueError(f"turns[{t}].reshuffle: not the discard pile under its top card (I8)")
        self.stock, self.pile = list(cards), self.pile[-1:]

    def draw(self, t: int, seat: int, draw: dict) -> None:
        """I3: the stock's next card or the pile's top card into the seat's hand."""
        if "stock" in draw:
            if not self.stock:
                raise ValueError(f"turns[{t}].draw: a stock draw from an empty stock with no reshuffle (I8)")
            card, self.stock = self.stock[0], self.stock[1:]
            if draw["stock"] != card:
                raise ValueError(f"turns[{t}].draw.stock: the stock's next card is {card}, not {draw['stock']}")
        else:
            card = self.pile.pop() if self.pile else None
            if draw["discard"] != card:
                raise ValueError(f"turns[{t}].draw.discard: the pile's top card is {card}, not {draw['discard']}")
        self.hands[seat][card] += 1
        self.drawn.add(seat)

    def play(self, t: int, turn: dict, last: bool) -> None:
        """One turn: a drop, or a draw and then a discard or a declaration."""
        seat = turn["seat"]
        if self.ended or self.turns >= self.rule("turn_cap"):
            why = self.ended or f"the turn cap ({self.rule('turn_cap')} turns) was reached"
            raise ValueError(f"turns[{t}]: the deal ended before this turn ({why})")
        if seat != self.seat:
            raise ValueError(f"turns[{t}].seat: seat {seat} plays, but it is seat {self.seat}'s turn "
                             "(I3: clockwise, skipping seats out of the deal)")
        if turn["draw"] == "drop":
            first = seat not in self.drawn
            self.leave(t, seat, self.rule("first_drop" if first else "middle_drop"),
                       "drops " + ("before its first draw (first drop, I7)" if first else "after drawing (middle drop, I7)"))
            return self.pass_turn()
        self.draw(t, seat, turn["draw"])
        if "discard" in turn:
            self.give_up(t, seat, [turn["discard"]])
            self.pile.append(turn["discard"])
            return self.pass_turn()
        dec = turn["declare"]
        self.give_up(t, seat, [dec["discard"]])
        self.pile.append(dec["discard"])
        shown = [c for g in dec["groups"] for c in g] + list(dec.get("ungrouped", []))
        self.give_up(t, seat, shown)
        if last and dec.get("valid", True) and self.ended == "":
            self.ended = "a declaration"
            return
        if dec.get("valid") is True:
            raise ValueError(f"turns[{t}].declare.valid: a valid declaration ends the deal (I5), "
                             "but the log goes on")
        self.leave(t, seat, self.rule("wrong_declaration"), "declares wrongly (I5)")
        self.pass_turn()


def follow_turns(d: dict) -> None:
    """Follow every turn of a structurally valid Indian log (``validate_log``) and check that
    its recorded end, winner and the points of seats that left are what the turns lead to."""
    deal = _Deal(d)
    played = [t for t, turn in enumerate(d["turns"]) if "reshuffle" not in turn]
    last = played[-1] if played else -1
    for t, turn in enumerate(d["turns"]):
        if "reshuffle" in turn:
            deal.reshuffle(t, turn["reshuffle"])
        else:
            deal.play(t, turn, last=(t == last and d["end"] == "declare"))
    _check_end_reached(d, deal)


def _check_end_reached(d: dict, deal: _Deal) -> None:
    end, winner, left = d["end"], d["winner"], sorted(set(range(deal.players)) - deal.out)
    cap = deal.rule("turn_cap")
    if end == "declare" and deal.ended != "a declaration":
        raise ValueError("end: 'declare' needs the last turn to be a declaration by a seat still in (I5)")
    if end == "last_player":
        if len(left) != 1:
            raise ValueError(f"end: 'last_player' needs one seat left after the last turn (I7); "
                             f"seats {left} are still in")
        if winner != left[0]:
            raise ValueError(f"winner: seat {left[0]} is the last player left, not {winner}")
    if end == "cap":
        if deal.ended:
            raise ValueError(f"end: the deal ended before the turn cap ({deal.ended}), not 'cap'")
        if deal.turns < cap:
            raise ValueError(f"end: 'cap' needs the turn cap ({cap} turns) reached; the log has {deal.turns} "
                             f"turns, {len(deal.stock)} stock cards left")
        for s in left:
            if d["points"][s] != 0:
                raise ValueError(f"points[{s}]: at the turn cap a seat still in loses 0, the log says {d['points'][s]}")
