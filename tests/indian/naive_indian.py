"""Naive pure-Python reference of Indian Rummy (RULES.md Part 2, I1-I9).

A slow, deliberately plain reading of the rule book, used to check the compiled
engine (``sim.games.indian``) and its deal logs. It never imports the compiled
solver: group validity (I4), declarations (I5) and deadwood (I6) are decided
here by brute force of its own.

Conventions (the shared engine design)
--------------------------------------
* A card *kind* k is 0..52: naturals k = suit*13 + rank (suits C D H S = 0..3,
  rank index 0..12 = 2..9, T, J, Q, K, A), k = 52 = printed joker ``JK``.
  Card names are rank then suit: ``"TD"``, ``"AS"``, ``"JK"``.
* Physical shoe (I1): ``decks*52`` naturals then ``2*decks`` printed jokers;
  physical id p has kind ``p % 52`` if ``p < decks*52`` else 52.
* Piles and the stock are lists of kinds, TOP FIRST (LOG_FORMAT.md).
* Moves are tuples ``(move, a, b, c)`` exactly as the engine's int64 rows:
  MV_STOCK=0, MV_PILE=1 (a = top kind), MV_DROP=2, MV_DISCARD=3 (a = kind),
  MV_DECLARE=4 (a = kind discarded). Legal-move lists are in the engine's order:
  draw decision: stock (if the stock is non-empty after any reshuffle), pile
  (if non-empty), drop (always); discard decision: one discard per distinct
  kind held ascending, then one declare per distinct kind held ascending.

Readings of the rule book made here (see also the module's functions)
---------------------------------------------------------------------
* I2: card i*players + j of the shuffled shoe goes to seat (dealer+1+j) % players,
  the next card starts the pile, the next is the cut joker, which becomes the
  LAST card of the stock (the stock is the rest in shoe order, then the cut
  joker). A printed-joker cut makes the aces wild. Dealer = deal % players.
* I3/I7: the drop is a move of the draw decision. First drop (20) if the seat
  has not drawn yet in this deal, middle drop (40) otherwise.
* I4: a run is 3+ cards of one suit at consecutive positions 0..13 (position 0
  = low ace, 1..12 = 2..K, 13 = high ace), so A-2-3 and Q-K-A are runs and no
  run wraps. A joker may stand for any position of the run, including at an end
  (4-5-JK) and a card that is also held. At most ``max_jokers_per_run`` jokers
  per run and ``max_jokers_per_set`` per set; every group has a natural card.
  A wild-rank card is either a joker or its natural self, chosen per group.
  With ``triple_is_run`` (three decks) three identical natural cards form a pure
  run of three that never counts as the run of four or more.
* I5: "at least two runs, at least one of them pure, and at least one run of 4
  or more cards": one pure run of 4+ satisfies both the pure and the long
  condition (with a second run of any kind). Following the shared design the
  engine arranges the declarer's 13 cards itself (the best arrangement), so a
  declaration is wrong exactly when no valid arrangement of the 13 cards exists.
* I6: min_deadwood is the smallest value left outside the groups of an
  arrangement meeting the I5 condition, else the value of all the cards; the
  loss is capped at ``max_points``. Every card of the wild rank is worth 0.
* I8: when the stock is empty at the start of a draw decision, the pile except
  its top card (taken bottom first) is shuffled with the deal's stream-0
  generator continued after the shoe shuffle; the result is the new stock, top
  first. A pile of one card cannot be reshuffled (the stock stays empty).
* End: ``declare`` (valid declaration), ``last_player`` (one seat left in the
  deal after a drop or wrong declaration; checked before the turn cap),
  ``cap`` (``turn_cap`` turns played; no winner; losses from drops and wrong
  declarations stand, nobody else loses, nobody gains).
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations, product

import numpy as np

RANKS = "23456789TJQKA"
SUITS = "CDHS"
JOKER = 52
JOKER_NAME = "JK"
ACE = 12
HAND = 13                      # I2: 13 cards each

MV_STOCK, MV_PILE, MV_DROP, MV_DISCARD, MV_DECLARE = 0, 1, 2, 3, 4
MOVE_NAMES = ("stock", "pile", "drop", "discard", "declare")

IN, DROP_FIRST, DROP_MIDDLE, WRONG = "in", "drop_first", "drop_middle", "wrong"

DEFAULT_RULES = {
    "decks": 0,                    # I1: 0 = by player count (2 for 2-3, 3 for 4-6)
    "max_jokers_per_run": 1,       # I4
    "max_jokers_per_set": 1,       # I4 [choice]
    "first_drop": 20,              # I7
    "middle_drop": 40,             # I7
    "max_points": 80,              # I6 cap
    "wrong_declaration": 80,       # I5
    "turn_cap": 1000,              # engine safety cap
}


class IllegalMove(ValueError):
    """A move (or log step) that the rules do not allow."""


# --------------------------------------------------------------------- cards (I1, I6)
def card_name(k: int) -> str:
    if k == JOKER:
        return JOKER_NAME
    if not 0 <= k < 52:
        raise ValueError(f"no card kind {k!r}")
    return RANKS[k % 13] + SUITS[k // 13]


def card_kind(name: str) -> int:
    if name == JOKER_NAME:
        return JOKER
    if not isinstance(name, str) or len(name) != 2 or name[0] not in RANKS or name[1] not in SUITS:
        raise ValueError(f"not a card name: {name!r}")
    return SUITS.index(name[1]) * 13 + RANKS.index(name[0])


def rank_of(k: int) -> int:
    return k % 13


def suit_of(k: int) -> int:
    return k // 13


def wild_rank_of(cut_kind: int) -> int:
    """I2: the cut joker's rank is wild; a printed-joker cut makes the aces wild."""
    return ACE if cut_kind == JOKER else rank_of(cut_kind)


def is_joker_card(k: int, wild_rank: int) -> bool:
    """A printed joker, or any card of the wild rank (I2)."""
    return k == JOKER or rank_of(k) == wild_rank


def card_value(k: int, wild_rank: int) -> int:
    """I6: A K Q J T = 10, 2-9 face value, every joker (printed or wild rank) 0."""
    if is_joker_card(k, wild_rank):
        return 0
    r = rank_of(k)
    return 10 if r >= 8 else r + 2


def decks_for(players: int, decks: int = 0) -> int:
    """I1: two decks for 2-3 players, three for 4-6 (``decks`` = 0), else as given."""
    if not 2 <= players <= 6:
        raise ValueError(f"players must be 2..6, got {players}")
    if decks == 0:
        return 2 if players <= 3 else 3
    if not 1 <= decks <= 3 or players * HAND + 2 >= decks * 54:
        raise ValueError(f"decks={decks} leave no stock for {players} players")
    return decks


def shoe_kinds(decks: int) -> Counter:
    """I1: every natural ``decks`` times, ``2*decks`` printed jokers."""
    c = Counter({k: decks for k in range(52)})
    c[JOKER] = 2 * decks
    return c


def physical_kind(p: int, decks: int) -> int:
    return p % 52 if p < decks * 52 else JOKER


def shoe_and_rng(seed: int, deal: int, decks: int):
    """I2: the shuffled shoe of (seed, deal, decks) (physical ids, from the engine's
    ``deal_nb.shuffled_shoe``) and the stream-0 generator state after the shoe
    shuffle, which the I8 reshuffles continue. The state is rebuilt here from
    ``sim.core.rng_nb``: a Fisher-Yates shuffle of ``arange(decks*54)`` driven by
    ``stream_key(seed, deal, STREAM_SHUFFLE)``; the shoe that rebuild gives must
    be the engine's shoe (checked here)."""
    from sim.games.indian.deal_nb import shuffled_shoe
    from sim.core.rng_nb import STREAM_SHUFFLE, shuffle_inplace, stream_key
    state = np.array([stream_key(seed, deal, STREAM_SHUFFLE)], dtype=np.uint64)
    mine = np.arange(decks * 54, dtype=np.int64)
    shuffle_inplace(mine, state)
    shoe = [int(p) for p in shuffled_shoe(seed, deal, decks)]
    if shoe != [int(p) for p in mine]:
        raise AssertionError("deal_nb.shuffled_shoe is not the stream-0 Fisher-Yates shuffle of the shoe")
    return shoe, state


# --------------------------------------------------------------------- groups (I4)
def _run_positions(rank: int) -> tuple:
    """Positions a natural of ``rank`` may take in a run: an ace is 0 or 13."""
    return (0, 13) if rank == ACE else (rank + 1,)


def group_interpretations(cards, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=False):
    """Every way the multiset ``cards`` (kinds) is one I4 group.

    Returns a set of ``(is_run, is_pure, length)``; empty if not a group. Every
    wild-rank card is tried both as a joker and as its natural self."""
    cards = sorted(cards)
    n = len(cards)
    out = set()
    if n < 3:
        return out
    printed = cards.count(JOKER)
    wild_kinds = sorted({k for k in cards if k != JOKER and rank_of(k) == wild_rank})
    choices = [range(cards.count(w) + 1) for w in wild_kinds]
    for as_joker in product(*choices):          # how many of each wild kind act as jokers
        naturals = [k for k in cards if k != JOKER]
        for w, x in zip(wild_kinds, as_joker):
            for _ in range(x):
                naturals.remove(w)
        j = printed + sum(as_joker)
        if not naturals:                        # every group holds a natural card
            continue
        suits = {suit_of(k) for k in naturals}
        ranks = [rank_of(k) for k in naturals]
        # Run: one suit, distinct ranks, all inside one window of n positions.
        if j <= max_j_run and len(suits) == 1 and len(set(ranks)) == len(ranks):
            for pos in product(*(_run_positions(r) for r in ranks)):
                if max(pos) - min(pos) + 1 <= n <= 13:
                    out.add((True, j == 0, n))
                    break
        # Set: 3 or 4 cards of one rank, naturals of different suits.
        if j <= max_j_set and n in (3, 4) and len(set(ranks)) == 1 and len(suits) == len(naturals):
            out.add((False, False, n))
        # Three decks: three identical naturals are a pure run of three.
        if triple_is_run and n == 3 and j == 0 and len(set(naturals)) == 1:
            out.add((True, True, 3))
    return out


def _flags_after(flags, interp):
    """Condition flags (runs capped at 2, has pure run, has run of 4+) after a group."""
    runs, pure, long_ = flags
    is_run, is_pure, length = interp
    if is_run:
        runs = min(2, runs + 1)
        pure = pure or is_pure
        long_ = long_ or length >= 4
    return (runs, pure, long_)


def _condition_met(flags) -> bool:
    """I5: at least two runs, one of them pure, and a run of four or more cards."""
    runs, pure, long_ = flags
    return runs >= 2 and pure and long_


def is_valid_declaration(groups, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=False) -> bool:
    """I5 as shown: every group valid (I4) and, choosing each group's reading,
    at least two runs, at least one pure, at least one of 4+ cards."""
    options = []
    for g in groups:
        interps = group_interpretations(g, wild_rank, max_j_run, max_j_set, triple_is_run)
        if not interps:
            return False
        options.append(interps)
    for pick in product(*options):
        flags = (0, False, False)
        for interp in pick:
            flags = _flags_after(flags, interp)
        if _condition_met(flags):
            return True
    return False


def candidate_groups(counts: Counter, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=False):
    """Every group (as a sorted tuple of kinds) that can be formed from ``counts``,
    with its interpretations: built constructively (windows of runs, sets by
    rank, triples) and then classified by ``group_interpretations``."""
    jokers = [k for k in sorted(counts) if counts[k] > 0 and is_joker_card(k, wild_rank)]
    found = set()

    def joker_fills(avail: Counter, j: int):
        pool = []
        for k in jokers:
            pool += [k] * min(avail[k], j)
        return set(combinations(pool, j))

    n_jokers = sum(counts[k] for k in jokers)
    for suit in range(4):                       # runs: windows of positions 0..13
        kind_at = [suit * 13 + (ACE if p in (0, 13) else p - 1) for p in range(14)]
        present = [counts[k] > 0 for k in kind_at]
        for length in range(3, 14):
            for start in range(0, 15 - length):
                window = range(start, start + length)
                missing = [p for p in window if not present[p]]
                if len(missing) > min(max_j_run, n_jokers) or len(missing) == length:
                    continue
                held = [p for p in window if present[p]]
                # the jokers stand for every missing card and maybe for held ones too
                for extra in range(0, min(max_j_run, n_jokers, length - 1) - len(missing) + 1):
                    for more in combinations(held, extra):
                        naturals = [kind_at[p] for p in held if p not in more]
                        if not naturals:
                            continue
                        rest = counts - Counter(naturals)
                        for fill in joker_fills(rest, len(missing) + extra):
                            found.add(tuple(sorted(naturals + list(fill))))
    for rank in range(13):                      # sets: distinct suits + jokers
        held = [s * 13 + rank for s in range(4) if counts[s * 13 + rank] > 0]
        for n_nat in range(1, min(4, len(held)) + 1):
            for nat in combinations(held, n_nat):
                for j in range(0, max_j_set + 1):
                    if n_nat + j not in (3, 4):
                        continue
                    rest = counts - Counter(nat)
                    for fill in joker_fills(rest, j):
                        found.add(tuple(sorted(list(nat) + list(fill))))
    if triple_is_run:                           # three identical naturals
        for k in range(52):
            if counts[k] >= 3:
                found.add((k, k, k))
    result = {}
    for g in found:
        interps = group_interpretations(g, wild_rank, max_j_run, max_j_set, triple_is_run)
        if interps:
            result[g] = interps
    return result


def has_pure_run(counts: Counter, triple_is_run=False) -> bool:
    """A pure run of three (three natural consecutive cards of one suit, ace low or
    high; or, with ``triple_is_run``, three identical cards) can be formed (I4)."""
    for suit in range(4):
        pos = [counts[suit * 13 + (ACE if p in (0, 13) else p - 1)] > 0 for p in range(14)]
        if any(pos[p] and pos[p + 1] and pos[p + 2] for p in range(12)):
            return True
    return triple_is_run and any(counts[k] >= 3 for k in range(52))


def _search(cards, wild_rank, opts, cost, max_left=None, exact=False, want_groups=False):
    """Smallest total ``cost`` of the cards left outside the groups of an
    arrangement meeting the I5 condition (None if no such arrangement; with
    ``max_left`` at most that many cards may be left out, with ``exact`` exactly
    that many). With ``want_groups``: (cost, groups of one best arrangement)."""
    counts = Counter(cards)
    if not has_pure_run(counts, opts[2]):       # I5 needs a pure run: no arrangement
        return (None, None) if want_groups else None
    groups = candidate_groups(counts, wild_rank, *opts)
    by_card = {}
    for g, interps in groups.items():
        for k in set(g):
            by_card.setdefault(k, []).append((g, Counter(g), interps))

    def options(remaining, flags, left):
        """(cost now, next state, group or None) of every way to place the first card."""
        first, rest = remaining[0], remaining[1:]
        if max_left is None or left < max_left:     # leave the first card out
            yield cost(first), (rest, flags, left + 1), None
        rem = Counter(remaining)
        for g, gc, interps in by_card.get(first, ()):
            if any(rem[k] < c for k, c in gc.items()):
                continue
            after = tuple(sorted((rem - gc).elements()))
            for interp in interps:
                yield 0, (after, _flags_after(flags, interp), left), g

    @lru_cache(maxsize=None)
    def best(remaining, flags, left):
        if not remaining:
            if exact and left != max_left:
                return None
            return 0 if _condition_met(flags) else None
        results = []
        for now, state, _g in options(remaining, flags, left):
            r = best(*state)
            if r is not None:
                results.append(now + r)
        return min(results) if results else None

    start = (tuple(sorted(cards)), (0, False, False), 0)
    total = best(*start)
    if not want_groups:
        return total
    if total is None:
        return None, None
    chosen, state, need = [], start, total
    while state[0]:
        for now, nxt, g in options(*state):
            r = best(*nxt)
            if r is not None and now + r == need:
                if g is not None:
                    chosen.append(list(g))
                state, need = nxt, need - now
                break
    return total, chosen


def min_deadwood(cards, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=False) -> int:
    """I6: uncapped points of a hand: the least value left outside the groups of
    an arrangement meeting the I5 condition, else the value of every card."""
    return _min_deadwood(tuple(sorted(cards)), wild_rank, max_j_run, max_j_set, bool(triple_is_run))


@lru_cache(maxsize=4096)
def _min_deadwood(cards, wild_rank, max_j_run, max_j_set, triple_is_run):
    value = lambda k: card_value(k, wild_rank)  # noqa: E731
    r = _search(list(cards), wild_rank, (max_j_run, max_j_set, triple_is_run), value)
    total = sum(value(k) for k in cards)
    return total if r is None else min(r, total)


def can_declare(cards, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=False) -> bool:
    """I5: the cards can be arranged so that every card is in a group and the
    condition holds."""
    return _search(list(cards), wild_rank, (max_j_run, max_j_set, triple_is_run),
                   lambda k: 1, max_left=0) == 0


def declaration_groups(cards, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=False):
    """The groups of one valid declaration of ``cards`` (I5), or None."""
    r, groups = _search(list(cards), wild_rank, (max_j_run, max_j_set, triple_is_run),
                        lambda k: 1, max_left=0, want_groups=True)
    return groups if r == 0 else None


def best_arrangement(cards, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=False):
    """(groups, ungrouped) of an arrangement with the least deadwood (I6) meeting
    I5, or ([], all cards) when none exists."""
    value = lambda k: card_value(k, wild_rank)  # noqa: E731
    r, groups = _search(list(cards), wild_rank, (max_j_run, max_j_set, triple_is_run),
                        value, want_groups=True)
    if r is None:
        return [], sorted(cards)
    left = Counter(cards) - Counter(k for g in groups for k in g)
    return groups, sorted(left.elements())


def can_declare_after_discard(cards14, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=False) -> bool:
    """Some discard from these 14 cards leaves a valid declaration (I5)."""
    return _search(list(cards14), wild_rank, (max_j_run, max_j_set, triple_is_run),
                   lambda k: 1, max_left=1, exact=True) == 1


# --------------------------------------------------------------------- the deal
class Deal:
    """One Indian Rummy deal, driven move by move (I2-I8)."""

    def __init__(self, hands, pile, stock, players, dealer, cut_joker, decks,
                 rules=None, rng_state=None):
        self.rules = dict(DEFAULT_RULES)
        self.rules.update(rules or {})
        self.players = players
        self.decks = decks
        self.dealer = dealer
        self.dealt = [list(h) for h in hands]   # each seat's cards in dealing order
        self.hands = [Counter(h) for h in hands]
        self.pile = list(pile)                  # top first
        self.stock = list(stock)                # top first; cut joker last
        self.cut_joker = cut_joker
        self.wild_rank = wild_rank_of(cut_joker)
        self.rng_state = rng_state              # uint64[1] stream 0 continued, or None
        self.status = [IN] * players
        self.has_drawn = [False] * players
        self.loss = [0] * players
        self.turns_played = [0] * players
        self.pickups = [0] * players
        self.jokers_at_leave = [0] * players    # jokers held when leaving the deal
        self.turns = 0
        self.end = None
        self.winner = None
        self.declared_groups = None
        self.reshuffles = []                    # each new stock, top first
        self.pending_reshuffle = None           # the last reshuffle, until a log reader consumes it
        self.seat = (dealer + 1) % players      # I3: left of the dealer starts
        self.decision = "draw"
        self._begin_turn()

    @classmethod
    def from_shoe(cls, shoe, players, dealer, decks, rules=None, rng_state=None):
        """I2 deal from a shuffled shoe of physical ids."""
        kinds = [physical_kind(p, decks) for p in shoe]
        hands = [[] for _ in range(players)]
        for i in range(HAND):
            for j in range(players):
                hands[(dealer + 1 + j) % players].append(kinds[i * players + j])
        n = HAND * players
        pile = [kinds[n]]
        cut = kinds[n + 1]
        stock = kinds[n + 2:] + [cut]
        return cls(hands, pile, stock, players, dealer, cut, decks, rules, rng_state)

    @classmethod
    def from_seed(cls, seed, deal, players, rules=None):
        rules = dict(DEFAULT_RULES, **(rules or {}))
        decks = decks_for(players, rules["decks"])
        shoe, state = shoe_and_rng(seed, deal, decks)
        return cls.from_shoe(shoe, players, deal % players, decks, rules, state)

    # ------------------------------------------------------------ options
    @property
    def opts(self):
        """(max_j_run, max_j_set, triple_is_run) for the group functions."""
        return (self.rules["max_jokers_per_run"], self.rules["max_jokers_per_set"],
                self.decks >= 3)

    def in_play(self):
        return [s for s in range(self.players) if self.status[s] == IN]

    # ------------------------------------------------------------ I8
    def _begin_turn(self):
        """Start the draw decision of ``self.seat``: I8 reshuffle if the stock is empty."""
        self.decision = "draw"
        if self.stock or len(self.pile) < 2:
            return
        cards = self.pile[1:][::-1]             # bottom first, top card stays
        self.pile = self.pile[:1]
        if self.rng_state is None:
            raise IllegalMove("the stock is empty but this deal has no generator to reshuffle")
        arr = np.array(cards, dtype=np.int64)
        from sim.core.rng_nb import shuffle_inplace
        shuffle_inplace(arr, self.rng_state)
        self.stock = [int(k) for k in arr]
        self.reshuffles.append(list(self.stock))
        self.pending_reshuffle = list(self.stock)

    def set_reshuffled_stock(self, new_stock):
        """Log replay without a generator: take the log's reshuffle (checked to be
        a permutation of the pile below its top card)."""
        if self.stock or len(self.pile) < 2:
            raise IllegalMove("reshuffle while the stock is not empty or the pile has < 2 cards")
        if Counter(new_stock) != Counter(self.pile[1:]):
            raise IllegalMove("the reshuffled stock is not the pile below its top card")
        self.pile = self.pile[:1]
        self.stock = list(new_stock)
        self.reshuffles.append(list(self.stock))

    # ------------------------------------------------------------ moves
    def legal_moves(self):
        if self.end is not None:
            return []
        if self.decision == "draw":
            moves = []
            if self.stock:
                moves.append((MV_STOCK, 0, 0, 0))
            if self.pile:
                moves.append((MV_PILE, self.pile[0], 0, 0))
            moves.append((MV_DROP, 0, 0, 0))     # I7: always allowed instead of drawing
            return moves
        held = sorted(k for k, c in self.hands[self.seat].items() if c > 0)
        return ([(MV_DISCARD, k, 0, 0) for k in held]
                + [(MV_DECLARE, k, 0, 0) for k in held])

    def apply(self, move):
        move = tuple(int(x) for x in move)
        if move not in self.legal_moves():
            raise IllegalMove(f"illegal move {move} for seat {self.seat} at decision {self.decision!r}")
        seat, kind, a = self.seat, move[0], move[1]
        hand = self.hands[seat]
        if kind == MV_STOCK:
            hand[self.stock.pop(0)] += 1
            self.has_drawn[seat] = True
            self.decision = "discard"
        elif kind == MV_PILE:
            hand[self.pile.pop(0)] += 1
            self.has_drawn[seat] = True
            self.pickups[seat] += 1
            self.decision = "discard"
        elif kind == MV_DROP:                   # I7
            if self.has_drawn[seat]:
                self.status[seat], self.loss[seat] = DROP_MIDDLE, self.rules["middle_drop"]
            else:
                self.status[seat], self.loss[seat] = DROP_FIRST, self.rules["first_drop"]
            self.jokers_at_leave[seat] = self.jokers_held(seat)
            self.hands[seat] = Counter()        # the dropped hand leaves play
            self._end_turn()
        elif kind == MV_DISCARD:
            self._take_out(hand, a)
            self.pile.insert(0, a)
            self._end_turn()
        elif kind == MV_DECLARE:                # I5
            self._take_out(hand, a)
            self.pile.insert(0, a)
            cards = list(hand.elements())
            if can_declare(cards, self.wild_rank, *self.opts):
                self.turns += 1
                self.turns_played[seat] += 1
                self.end, self.winner = "declare", seat
                self.declared_groups = cards
                for s in self.in_play():        # I6: others lose their capped deadwood
                    if s != seat:
                        dw = min_deadwood(list(self.hands[s].elements()), self.wild_rank, *self.opts)
                        self.loss[s] = min(self.rules["max_points"], dw)
                self.decision = "over"
            else:                               # wrong declaration: out of the deal
                self.status[seat], self.loss[seat] = WRONG, self.rules["wrong_declaration"]
                self.jokers_at_leave[seat] = self.jokers_held(seat)
                self.hands[seat] = Counter()
                self._end_turn()

    @staticmethod
    def _take_out(hand, k):
        hand[k] -= 1
        if hand[k] == 0:
            del hand[k]

    def _end_turn(self):
        self.turns += 1
        self.turns_played[self.seat] += 1
        left = self.in_play()
        if len(left) == 1:                      # I7: the last player wins
            self.end, self.winner, self.decision = "last_player", left[0], "over"
            return
        if self.turns >= self.rules["turn_cap"]:
            self.end, self.decision = "cap", "over"
            return
        s = self.seat
        while True:                             # I3: clockwise over seats still in
            s = (s + 1) % self.players
            if self.status[s] == IN:
                break
        self.seat = s
        self._begin_turn()

    # ------------------------------------------------------------ scoring
    def points(self):
        """Points lost per seat (winner 0)."""
        return list(self.loss)

    def gains(self):
        """I6: the winner gains the sum of every other seat's loss (none at ``cap``)."""
        g = [0] * self.players
        if self.winner is not None:
            g[self.winner] = sum(self.loss)
        return g

    def net(self):
        return [g - l for g, l in zip(self.gains(), self.loss)]

    def all_cards(self):
        """Every card still in play (hands, pile, stock) as a Counter."""
        c = Counter(self.pile) + Counter(self.stock)
        for h in self.hands:
            c += h
        return c

    def jokers_held(self, seat):
        return sum(c for k, c in self.hands[seat].items() if is_joker_card(k, self.wild_rank))


# --------------------------------------------------------------------- log replay
def _kinds(names, where):
    try:
        return [card_kind(n) for n in names]
    except ValueError as e:
        raise IllegalMove(f"{where}: {e}") from None


def replay_log(d, check_points=True):
    """Replay one Indian ``rummy-log/1`` deal with the reference rules.

    Checks the deal against (seed, deal) (I2: the shoe, the dealer, the hands,
    the pile, the cut joker and the stock), every draw, discard, drop and
    declaration (I3-I7), the reshuffles (I8: the generator's order), the end and
    the winner. Returns the points lost per seat (and, with ``check_points``,
    raises if they differ from the log's). Raises ``IllegalMove`` on any
    illegal or inconsistent step."""
    players, dealer = d["players"], d["dealer"]
    rules = dict(DEFAULT_RULES)
    rules.update({k: v for k, v in (d.get("rules") or {}).items() if k in DEFAULT_RULES})
    decks = d["decks"]
    if decks != decks_for(players, rules["decks"]):
        raise IllegalMove(f"decks {decks} does not follow rules.decks={rules['decks']} for {players} players")
    if dealer != d["deal"] % players:
        raise IllegalMove(f"dealer {dealer} is not deal % players = {d['deal'] % players}")
    ref = Deal.from_seed(d["seed"], d["deal"], players, dict(rules, decks=decks))
    hands = [_kinds(h, f"hands[{s}]") for s, h in enumerate(d["hands"])]
    if hands != ref.dealt:
        raise IllegalMove("hands: not the cards dealt from (seed, deal) in dealing order (I2)")
    if _kinds(d["discard"], "discard") != ref.pile:
        raise IllegalMove("discard: not the card after the hands (I2)")
    if _kinds(d["stock"], "stock") != ref.stock:
        raise IllegalMove("stock: not the rest of the shoe with the cut joker last (I2)")
    if card_kind(d["cut_joker"]) != ref.cut_joker:
        raise IllegalMove("cut_joker: not the card after the discard (I2)")

    for t, turn in enumerate(d["turns"]):
        where = f"turns[{t}]"
        if ref.end is not None:
            raise IllegalMove(f"{where}: the deal is already over ({ref.end})")
        if "reshuffle" in turn:
            new = _kinds(turn["reshuffle"], where)
            if ref.pending_reshuffle is None:
                raise IllegalMove(f"{where}: reshuffle, but the stock was not empty (I8)")
            if new != ref.pending_reshuffle:
                raise IllegalMove(f"{where}: reshuffled stock differs from the deal's generator (I8)")
            ref.pending_reshuffle = None
            continue
        if ref.pending_reshuffle is not None:
            raise IllegalMove(f"{where}: the stock was reshuffled but the log has no reshuffle entry (I8)")
        if turn["seat"] != ref.seat:
            raise IllegalMove(f"{where}: seat {turn['seat']} plays, but seat {ref.seat} is to move (I3)")

        def do(move):
            try:
                ref.apply(move)
            except IllegalMove as e:
                raise IllegalMove(f"{where}: {e}") from None

        draw = turn["draw"]
        if draw == "drop":
            if turn.get("discard") is not None or "declare" in turn:
                raise IllegalMove(f"{where}: a drop has no discard or declaration (I7)")
            do((MV_DROP, 0, 0, 0))
            continue
        if "stock" in draw:
            card = card_kind(draw["stock"])
            if not ref.stock or ref.stock[0] != card:
                raise IllegalMove(f"{where}: the stock top is not {draw['stock']}")
            do((MV_STOCK, 0, 0, 0))
        else:
            card = card_kind(draw["discard"])
            if not ref.pile or ref.pile[0] != card:
                raise IllegalMove(f"{where}: the pile top is not {draw['discard']}")
            do((MV_PILE, card, 0, 0))
        if "declare" in turn:
            dec = turn["declare"]
            k = card_kind(dec["discard"])
            seat = ref.seat
            rest = ref.hands[seat] - Counter([k])
            groups = [_kinds(g, f"{where}.declare.groups") for g in dec.get("groups", [])]
            shown = Counter(c for g in groups for c in g)
            left = Counter(_kinds(dec.get("ungrouped", []), f"{where}.declare.ungrouped"))
            if shown + left != rest:
                raise IllegalMove(f"{where}: the declaration does not show the 13 cards held (I5)")
            do((MV_DECLARE, k, 0, 0))
            if ref.end == "declare":
                if left:
                    raise IllegalMove(f"{where}: a valid declaration leaves no card outside its groups (I5)")
                if not is_valid_declaration(groups, ref.wild_rank, *ref.opts):
                    raise IllegalMove(f"{where}: the groups shown are not a valid declaration (I5)")
            elif is_valid_declaration(groups, ref.wild_rank, *ref.opts) and shown == rest:
                raise IllegalMove(f"{where}: a valid declaration was scored as wrong (I5)")
        elif turn.get("discard") is not None:
            do((MV_DISCARD, card_kind(turn["discard"]), 0, 0))
        else:
            raise IllegalMove(f"{where}: a draw must be followed by a discard or a declaration (I3)")

    if ref.end is None:
        # The log may end on a reshuffle? No: a deal only ends after a turn.
        raise IllegalMove(f"the log ends after {len(d['turns'])} entries but the deal is not over")
    if d["end"] != ref.end:
        raise IllegalMove(f"end: log says {d['end']!r}, the rules say {ref.end!r}")
    if d.get("winner") != ref.winner:
        raise IllegalMove(f"winner: log says {d.get('winner')!r}, the rules say {ref.winner!r}")
    pts = ref.points()
    if check_points and list(d["points"]) != pts:
        raise IllegalMove(f"points: log says {d['points']}, the rules say {pts}")
    return pts


# --------------------------------------------------------------------- reference logs
def play_log(seed, deal, players, choose, rules=None, strategies=None):
    """Play one deal with the reference, ``choose(ref, moves) -> move`` deciding,
    and return its ``rummy-log/1`` object (hand-made logs for tests; the engine's
    logs are written by the engine's own recording mode)."""
    rules = dict(DEFAULT_RULES, **(rules or {}))
    ref = Deal.from_seed(seed, deal, players, rules)
    log = {
        "format": "rummy-log/1", "game": "indian", "rules": dict(rules),
        "seed": seed, "deal": deal, "players": players, "decks": ref.decks,
        "dealer": ref.dealer, "strategies": list(strategies or ["reference"] * players),
        "hands": [[card_name(k) for k in h] for h in ref.dealt],
        "discard": [card_name(k) for k in ref.pile],
        "stock": [card_name(k) for k in ref.stock],
        "cut_joker": card_name(ref.cut_joker),
        "turns": [],
    }
    turn = None
    while ref.end is None:
        if ref.pending_reshuffle is not None:
            log["turns"].append({"reshuffle": [card_name(k) for k in ref.pending_reshuffle]})
            ref.pending_reshuffle = None
        move = tuple(choose(ref, ref.legal_moves()))
        seat = ref.seat
        if move[0] == MV_DROP:
            log["turns"].append({"seat": seat, "draw": "drop"})
        elif move[0] == MV_STOCK:
            turn = {"seat": seat, "draw": {"stock": card_name(ref.stock[0])}}
            log["turns"].append(turn)
        elif move[0] == MV_PILE:
            turn = {"seat": seat, "draw": {"discard": card_name(ref.pile[0])}}
            log["turns"].append(turn)
        elif move[0] == MV_DISCARD:
            turn["discard"] = card_name(move[1])
        else:
            rest = list((ref.hands[seat] - Counter([move[1]])).elements())
            groups = declaration_groups(rest, ref.wild_rank, *ref.opts)
            left = []
            if groups is None:                  # a wrong declaration shows its best try
                groups, left = best_arrangement(rest, ref.wild_rank, *ref.opts)
            dec = {"discard": card_name(move[1]),
                   "groups": [[card_name(k) for k in g] for g in groups]}
            if left:
                dec["ungrouped"] = [card_name(k) for k in left]
            turn["declare"] = dec
        ref.apply(move)
    log.update(end=ref.end, winner=ref.winner, points=ref.points())
    return log
