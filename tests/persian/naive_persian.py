"""Naive pure-Python reference implementation of Persian Rummy (RULES.md Part 1).

This module is a slow, deliberately plain reading of the rule book, used to
check the compiled engine (in the spirit of stumpy's ``naive`` test helpers).
Clarity wins over speed everywhere; rule ids (P1..P10) are cited in comments.

Conventions
-----------
* Cards are 2-char strings, rank then suit: ranks ``23456789TJQKA``, suits
  ``CDHS``; the joker is ``"JK"`` (4 identical jokers, P1).
* Piles and the stock are lists written TOP FIRST (LOG_FORMAT.md).
* Moves are canonical tuples:
  draw phase    ("stock",) | ("take", depth) | ("pass",)
  play phase    ("meld", tuple(sorted(cards))) | ("layoff", card, meld_no) | ("stop",)
  discard phase ("discard", card)
"""
from itertools import combinations

RANKS = "23456789TJQKA"          # P1, low to high; aces are high only (P5)
SUITS = "CDHS"
JOKER = "JK"
FULL_DECK = [r + s for r in RANKS for s in SUITS] + [JOKER] * 4   # P1: 56 cards

DEFAULT_RULES = {
    "last_card": "meld",            # P6.5: "meld" | "discard"
    "out_bonus": 25,                # P8
    "four_of_a_kind_double": True,  # P8
    "deals_per_game": 2,            # P9 (not used inside a single deal)
    "turn_cap": 1000,               # P7 (engine safety cap)
}


class IllegalMove(ValueError):
    """A move (or log step) that the rules do not allow."""


def team_of(seat):
    """P2: seats {0, 2} are team 0, seats {1, 3} are team 1."""
    return seat % 2


def card_value(card):
    """P4: joker 20, ace 15, K/Q/J/T 10, 2-9 face value."""
    if card == JOKER:
        return 20
    rank = card[0]
    if rank == "A":
        return 15
    if rank in "TJQK":
        return 10
    return int(rank)


def rank_index(card):
    return RANKS.index(card[0])


def meld_kind(cards):
    """Classify a group of cards as a P5 meld, or return None if it is not one.

    Returns ("jokers",), ("set", rank) or ("run", suit).
    """
    cards = list(cards)
    if len(cards) < 3:
        return None
    n_jokers = cards.count(JOKER)
    if n_jokers:
        # P5 joker set: 3 or 4 jokers and nothing else (jokers are not wild).
        if n_jokers == len(cards) and len(cards) <= 4:
            return ("jokers",)
        return None
    ranks = {c[0] for c in cards}
    suits = {c[1] for c in cards}
    # P5 set: 3 or 4 cards of one rank (necessarily of different suits).
    if len(ranks) == 1 and len(cards) <= 4 and len(suits) == len(cards):
        return ("set", cards[0][0])
    # P5 run: one suit, consecutive ranks, aces high only (no wrap-around).
    if len(suits) == 1:
        idx = sorted(rank_index(c) for c in cards)
        if idx == list(range(idx[0], idx[0] + len(idx))):
            return ("run", cards[0][1])
    return None


def is_four_of_a_kind(cards):
    """P8: four cards of one rank (jokers included) put down as one meld."""
    kind = meld_kind(cards)
    return len(cards) == 4 and kind is not None and kind[0] in ("set", "jokers")


def can_lay_off(card, meld_cards):
    """P6.3: a lay-off is legal iff the meld plus the card is still a meld of
    the same kind.  That covers exactly: the 4th card of a set of 3, a joker
    on a joker set of 3, and the card of the run's suit directly below its
    lowest / above its highest card (there is nothing below 2 or above A)."""
    before = meld_kind(meld_cards)
    after = meld_kind(list(meld_cards) + [card])
    return after is not None and after == before


def can_place(target, hand, melds):
    """P6.1: can a player holding `hand` (which contains the target) put the
    target on the table this turn, by any sequence of plays?

    Plays only move cards from the hand to the table, so the target can land:
      * in a new set of its rank        -> >= 3 cards of that rank in hand;
      * in a new run                    -> a run of >= 3 consecutive cards of
                                           its suit in hand containing it;
      * as a lay-off on a table set     -> a set of 3 of its rank on the table;
      * as a lay-off on a table run     -> the cards of its suit between that
        run's end and the target are all in hand (a lay-off chain: run
        5H6H7H, target 9H, hand 8H).
    A joker target is satisfied by any joker reaching the table (P6.1): three
    jokers in hand, or a joker set of 3 on the table.
    (Lay-offs onto runs made this turn from the hand are covered by the
    "new run" case, since those runs plus the chain are one run in hand.)
    """
    hand = list(hand)
    if target == JOKER:
        return hand.count(JOKER) >= 3 or any(
            can_lay_off(JOKER, m["cards"]) for m in melds)
    rank, suit = target[0], target[1]
    if sum(1 for c in hand if c[0] == rank and c != JOKER) >= 3:
        return True
    held = {rank_index(c) for c in hand if c != JOKER and c[1] == suit}
    t = rank_index(target)
    lo = t
    while lo - 1 in held:
        lo -= 1
    hi = t
    while hi + 1 in held:
        hi += 1
    if hi - lo + 1 >= 3:
        return True
    for m in melds:
        kind = meld_kind(m["cards"])
        if kind == ("set", rank) and can_lay_off(target, m["cards"]):
            return True
        if kind == ("run", suit):
            idx = [rank_index(c) for c in m["cards"]]
            if max(idx) < t and all(i in held for i in range(max(idx) + 1, t)):
                return True
            if min(idx) > t and all(i in held for i in range(t + 1, min(idx))):
                return True
    return False


class NaiveDeal:
    """One Persian Rummy deal, driven move by move (P3-P8)."""

    def __init__(self, hands, discard_pile, stock, dealer, rules=None,
                 melds=None, to_move=None):
        if len(hands) != 4:
            raise ValueError("Persian Rummy needs exactly 4 hands (P2)")
        self.rules = dict(DEFAULT_RULES)
        self.rules.update(rules or {})
        if self.rules["last_card"] not in ("meld", "discard"):
            raise ValueError("last_card must be 'meld' or 'discard'")
        self.hands = [list(h) for h in hands]
        self.pile = list(discard_pile)      # top first
        self.stock = list(stock)            # top first
        self.dealer = dealer
        # Table melds: {"owner": seat, "cards": [...]}, numbered by position.
        self.melds = []
        for owner, cards in (melds or []):
            if meld_kind(cards) is None:
                raise ValueError("not a meld: %r" % (cards,))
            self.melds.append({"owner": owner, "cards": list(cards)})
        self.seat = (dealer + 1) % 4 if to_move is None else to_move  # P3
        self.phase = "draw"
        self.target = None         # P6.1 pending discard-pile target, or None
        self.table_points = [0, 0]
        self.passes = 0            # consecutive passes (P7)
        self.turns = 0
        self.end = None
        self.out_seat = None

    # ------------------------------------------------------------ queries
    def all_cards(self):
        """Every card in the deal (hands, pile, stock, table), for checks."""
        cards = self.pile + self.stock
        for h in self.hands:
            cards = cards + h
        for m in self.melds:
            cards = cards + m["cards"]
        return cards

    def legal_moves(self):
        if self.phase == "draw":
            return self._draw_moves()
        if self.phase == "play":
            return self._play_moves()
        if self.phase == "discard":
            # P6.5: any card in hand may be discarded.
            return {("discard", c) for c in self.hands[self.seat]}
        return set()

    def _draw_moves(self):
        hand = self.hands[self.seat]
        moves = set()
        if self.stock:
            moves.add(("stock",))     # P6.1 top card of the stock
        else:
            moves.add(("pass",))      # P6.2 pass only on an empty stock
        # P6.1: take at depth d only if the target can reach the table.
        for d in range(len(self.pile)):
            if can_place(self.pile[d], hand + self.pile[:d + 1], self.melds):
                moves.add(("take", d))
        return moves

    def _candidate_plays(self):
        """Every meld and lay-off the hand allows (P6.3), ignoring P6.1."""
        hand = self.hands[self.seat]
        plays = set()
        by_rank = {}
        for c in hand:
            if c != JOKER:
                by_rank.setdefault(c[0], []).append(c)
        for cards in by_rank.values():          # P5 sets of 3 or 4
            for size in (3, 4):
                for combo in combinations(cards, size):
                    plays.add(("meld", tuple(sorted(combo))))
        n_jokers = hand.count(JOKER)             # P5 joker sets
        for size in (3, 4):
            if n_jokers >= size:
                plays.add(("meld", (JOKER,) * size))
        for suit in SUITS:                       # P5 runs, every stretch >= 3
            held = sorted(rank_index(c) for c in hand
                          if c != JOKER and c[1] == suit)
            for i in range(len(held)):
                for j in range(i + 2, len(held)):
                    if held[j] - held[i] != j - i:
                        break
                    cards = [RANKS[k] + suit for k in held[i:j + 1]]
                    plays.add(("meld", tuple(sorted(cards))))
        for c in set(hand):                      # P6.3 lay-offs, any meld
            for n, m in enumerate(self.melds):
                if can_lay_off(c, m["cards"]):
                    plays.add(("layoff", c, n))
        return plays

    def _play_moves(self):
        plays = self._candidate_plays()
        if self.target is None:
            return plays | {("stop",)}
        # P6.1: while the target is pending, "stop" is illegal and a play is
        # offered only if afterwards the target is placed or still placeable.
        legal = set()
        for play in plays:
            cards, new_melds = self._after(play)
            if self._places_target(cards):
                legal.add(play)
                continue
            hand = list(self.hands[self.seat])
            for c in cards:
                hand.remove(c)
            if can_place(self.target, hand, new_melds):
                legal.add(play)
        return legal

    def _after(self, play):
        """Cards a play puts down and the table melds afterwards."""
        melds = [{"owner": m["owner"], "cards": list(m["cards"])}
                 for m in self.melds]
        if play[0] == "meld":
            cards = list(play[1])
            melds.append({"owner": self.seat, "cards": cards})
        else:
            cards = [play[1]]
            melds[play[2]]["cards"].append(play[1])
        return cards, melds

    def _places_target(self, cards):
        # A joker target is satisfied by any joker (P6.1).
        return self.target is not None and self.target in cards

    # ------------------------------------------------------------ moves
    def apply(self, move):
        move = tuple(move)
        if move not in self.legal_moves():
            raise IllegalMove("illegal move %r for seat %d in phase %r"
                              % (move, self.seat, self.phase))
        hand = self.hands[self.seat]
        kind = move[0]
        if kind == "stock":
            hand.append(self.stock.pop(0))
            self.passes = 0
            self.phase = "play"
        elif kind == "take":
            depth = move[1]
            self.target = self.pile[depth]     # the deepest card taken
            hand.extend(self.pile[:depth + 1])
            del self.pile[:depth + 1]
            self.passes = 0
            self.phase = "play"
        elif kind == "pass":
            self.passes += 1                   # P6.2 ends the turn at once
            self._end_turn()
        elif kind in ("meld", "layoff"):
            self._play(move)
        elif kind == "stop":
            self.phase = "discard"
        elif kind == "discard":
            hand.remove(move[1])
            self.pile.insert(0, move[1])       # P6.5 on top of the pile
            if not hand and self.rules["last_card"] == "discard":
                self._go_out()                 # P6.5 option "discard"
            else:
                self._end_turn()               # P6.5 default: deal goes on

    def _play(self, move):
        hand = self.hands[self.seat]
        cards, self.melds = self._after(move)
        for c in cards:
            hand.remove(c)
        points = sum(card_value(c) for c in cards)           # P6.3 / P8
        if (move[0] == "meld" and self.rules["four_of_a_kind_double"]
                and is_four_of_a_kind(cards)):
            points *= 2                                      # P8 doubling
        self.table_points[team_of(self.seat)] += points
        if self._places_target(cards):
            self.target = None
        if not hand:
            self._go_out()                                   # P6.4

    def _go_out(self):
        self.turns += 1
        self.phase = "over"
        self.end = "out"
        self.out_seat = self.seat

    def _end_turn(self):
        self.turns += 1
        self.target = None
        if self.passes >= 4:                   # P7 (b) four passes in a row
            self.phase, self.end = "over", "passes"
        elif self.turns >= self.rules["turn_cap"]:
            self.phase, self.end = "over", "cap"   # P7 turn cap
        else:
            self.seat = (self.seat + 1) % 4    # P3 clockwise
            self.phase = "draw"

    # ------------------------------------------------------------ scoring
    def score(self):
        """P8 per team: table points - hand penalty + out bonus."""
        hand = [0, 0]
        for seat, cards in enumerate(self.hands):
            hand[team_of(seat)] += sum(card_value(c) for c in cards)
        bonus = [0, 0]
        if self.end == "out":
            bonus[team_of(self.out_seat)] = self.rules["out_bonus"]
        table = list(self.table_points)
        total = [table[t] - hand[t] + bonus[t] for t in (0, 1)]
        return {"table": table, "hand": hand, "bonus": bonus, "total": total}


def replay_log(log):
    """Replay one rummy-log/1 Persian deal; raise IllegalMove at the first
    step that breaks the rules or disagrees with the deal's own state."""
    deal = NaiveDeal(log["hands"], log["discard"], log["stock"],
                     log["dealer"], rules=log.get("rules"))

    def do(i, move):
        try:
            deal.apply(move)
        except IllegalMove as exc:
            raise IllegalMove("turn %d: %s" % (i, exc)) from None

    for i, turn in enumerate(log["turns"]):
        if deal.phase == "over":
            raise IllegalMove("turn %d: the deal is already over" % i)
        if turn["seat"] != deal.seat:
            raise IllegalMove("turn %d: seat %r plays, but seat %d is to move"
                              % (i, turn["seat"], deal.seat))
        draw = turn["draw"]
        if draw == "pass":
            if turn.get("plays") or turn.get("discard") is not None:
                raise IllegalMove("turn %d: a pass has no plays or discard" % i)
            do(i, ("pass",))
            continue
        if "stock" in draw:
            if not deal.stock or deal.stock[0] != draw["stock"]:
                raise IllegalMove("turn %d: stock top is not %r"
                                  % (i, draw["stock"]))
            do(i, ("stock",))
        else:
            d = draw["depth"]
            if list(draw["cards"]) != deal.pile[:d + 1]:
                raise IllegalMove("turn %d: pile top %r is not %r"
                                  % (i, deal.pile[:d + 1], draw["cards"]))
            do(i, ("take", d))
        for play in turn["plays"]:
            if deal.phase == "over":
                raise IllegalMove("turn %d: play after going out" % i)
            if "meld" in play:
                do(i, ("meld", tuple(sorted(play["meld"]))))
            else:
                do(i, ("layoff", play["layoff"], play["onto"]))
        if turn["discard"] is None:
            if deal.phase != "over":
                raise IllegalMove("turn %d: no discard but not out" % i)
        else:
            if deal.phase == "over":
                raise IllegalMove("turn %d: discard after going out" % i)
            do(i, ("stop",))
            do(i, ("discard", turn["discard"]))
    if deal.phase != "over":
        raise IllegalMove("log ends after %d turns but the deal is not over"
                          % len(log["turns"]))
    return deal
