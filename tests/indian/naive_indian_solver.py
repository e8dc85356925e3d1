"""Brute-force reference for the Indian Rummy deadwood solver (RULES.md I4-I6).

Clarity over speed. A hand is a list of physical cards (kinds 0..52, see
``sim/games/indian/cards.py``). The reference

1. lists every subset of the hand's cards that is a valid group (I4), trying
   every role for each wild-rank card (joker or its natural self) and both
   places of an ace (low A-2-3 or high Q-K-A);
2. enumerates every arrangement: every way to pick disjoint valid groups,
   every other card being deadwood;
3. keeps the arrangements meeting the I5 conditions (>= 2 runs, >= 1 pure,
   >= 1 real run of >= 4 cards) and returns the smallest deadwood (I6) and
   whether one of them uses every card (can declare, I5).

Readings (the same as the compiled solver's module docstring):
* a joker in a run stands for any missing position, ends included (4-5-JK);
* an identical triple (``triple_is_run``, three decks) is three natural copies
  of one card; no joker stands in it; it is a pure run of three, never long;
* every card of the wild rank is worth 0 (I6) even standing as itself.
"""

from functools import lru_cache
from itertools import combinations

JOKER = 52


def card_value(k, wild_rank):
    """I6 points of one card: printed and wild-rank cards 0, A K Q J T 10."""
    if k == JOKER or k % 13 == wild_rank:
        return 0
    r = k % 13
    return 10 if r >= 8 else r + 2


def is_joker_capable(k, wild_rank):
    return k == JOKER or k % 13 == wild_rank


def _positions(rank):
    """Run positions of a rank index: 0 = ace low, 1..12 = 2..K, 13 = ace high."""
    return (0, 13) if rank == 12 else (rank + 1,)


def _placements(naturals):
    """Every list of run positions of the naturals (each ace low or high)."""
    choices = [[]]
    for k in naturals:
        choices = [c + [p] for c in choices for p in _positions(k % 13)]
    return choices


def _run_ok(naturals, n_jokers, max_j_run):
    """Naturals (kinds) + n_jokers form a run (I4)? Returns True/False."""
    if not naturals or n_jokers > max_j_run:
        return False
    size = len(naturals) + n_jokers
    if size < 3 or size > 13:
        return False
    suits = {k // 13 for k in naturals}
    ranks = [k % 13 for k in naturals]
    if len(suits) != 1 or len(set(ranks)) != len(ranks):
        return False
    # try every placement of the ace (low or high)
    for pos in _placements(naturals):
        lo, hi = min(pos), max(pos)
        span = hi - lo + 1
        # the jokers fill the gaps and extend the run; the window of `size`
        # positions must fit in 0..13 and never hold both aces (no wrap)
        if span <= size <= 13 and not (lo == 0 and hi == 13):
            return True
    return False


def _set_ok(naturals, n_jokers, max_j_set):
    if not naturals or n_jokers > max_j_set:
        return False
    size = len(naturals) + n_jokers
    if size < 3 or size > 4:
        return False
    ranks = {k % 13 for k in naturals}
    suits = [k // 13 for k in naturals]
    return len(ranks) == 1 and len(set(suits)) == len(suits)


def group_roles(cards, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=0):
    """Every role in which ``cards`` (a list of kinds) is a valid group (I4).

    Returns a set of tuples ``(is_run, is_pure, is_long)``; empty if invalid.
    A set has role (False, False, False); the identical triple (True, True, False).
    """
    roles = set()
    flex = [c for c in cards if c != JOKER and c % 13 == wild_rank]
    fixed = [c for c in cards if not (c != JOKER and c % 13 == wild_rank)]
    printed = sum(1 for c in fixed if c == JOKER)
    fixed_nat = [c for c in fixed if c != JOKER]
    # every wild-rank card: natural (True) or joker (False)
    for size in range(len(flex) + 1):
        for as_nat in combinations(range(len(flex)), size):
            naturals = fixed_nat + [flex[i] for i in as_nat]
            n_j = printed + len(flex) - size
            if _run_ok(naturals, n_j, max_j_run):
                roles.add((True, n_j == 0, len(cards) >= 4))
            if _set_ok(naturals, n_j, max_j_set):
                roles.add((False, False, False))
    if (triple_is_run and len(cards) == 3 and cards[0] != JOKER
            and cards[0] == cards[1] == cards[2]):
        roles.add((True, True, False))
    return roles


def best_role(cards, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=0):
    return _best_role(tuple(sorted(cards)), wild_rank, max_j_run, max_j_set, triple_is_run)


@lru_cache(maxsize=200_000)
def _best_role(cards, wild_rank, max_j_run, max_j_set, triple_is_run):
    """The best role of a group for the I5 conditions, or None if invalid.

    For one group all run roles have the same length, so run > set and
    pure > impure order them completely."""
    roles = group_roles(list(cards), wild_rank, max_j_run, max_j_set, triple_is_run)
    return max(roles) if roles else None


def conditions_met(roles):
    """I5: >= 2 runs, >= 1 of them pure, >= 1 run of >= 4 cards."""
    runs = sum(1 for r in roles if r[0])
    pure = sum(1 for r in roles if r[0] and r[1])
    long_ = sum(1 for r in roles if r[0] and r[2])
    return runs >= 2 and pure >= 1 and long_ >= 1


def _could_be_group(size, nat, flex, printed, max_j_run, max_j_set):
    """Cheap necessary test used to prune subset generation (never wrong, and
    never true again once false as cards are added in kind order).

    ``size`` cards of which ``nat`` are the non-wild naturals, ``flex`` the
    wild-rank cards and ``printed`` the number of printed jokers."""
    if len(set(nat)) != len(nat):
        # identical non-wild naturals: only the identical triple
        return len(set(nat)) == 1 and size <= 3 and len(nat) == size
    suits = {c // 13 for c in nat}
    ranks = {c % 13 for c in nat}
    could_run = len(suits) <= 1
    could_set = len(ranks) <= 1 and size <= 4
    if nat:
        # jokers forced: in a set of a non-wild rank every wild card is a
        # joker; in a run at most one wild card (its suit's) stands as itself
        own = any(c // 13 in suits for c in flex)
        could_run = could_run and printed + len(flex) - own <= max_j_run
        could_set = could_set and printed + len(flex) <= max_j_set
    else:
        could_run = could_run and printed <= max_j_run
        could_set = could_set and printed <= max_j_set
    if could_run and len(nat) >= 2:
        # one suit: the gaps between its naturals are filled by jokers and at
        # most one wild-rank card of that suit standing as itself
        gaps = min(max(p) - min(p) + 1 - len(p) for p in _placements(nat))
        could_run = gaps <= max_j_run + 1
    return could_run or could_set


def valid_groups(hand, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=0):
    """Every valid group of a hand as (sorted tuple of kinds, best role).

    Sub-multisets of the hand are grown card by card in kind order (suit, then
    rank; identical cards are not told apart), so a gap between two chosen
    naturals of one suit can later only be filled by a joker;
    ``_could_be_group`` relies on that to prune."""
    cards = sorted(hand)
    n = len(cards)
    out = []

    def extend(chosen, nat, flex, printed, start):
        if len(chosen) >= 3:
            role = best_role(chosen, wild_rank, max_j_run, max_j_set, triple_is_run)
            if role is not None:
                out.append((tuple(chosen), role))
        if len(chosen) == 13:
            return
        for t in range(start, n):
            c = cards[t]
            if t > start and c == cards[t - 1]:
                continue  # the same multiset again
            nat2, flex2, printed2 = nat, flex, printed
            if c == JOKER:
                printed2 += 1
            elif c % 13 == wild_rank:
                flex2 = flex + [c]
            else:
                nat2 = nat + [c]
            if _could_be_group(len(chosen) + 1, nat2, flex2, printed2, max_j_run, max_j_set):
                extend(chosen + [c], nat2, flex2, printed2, t + 1)

    extend([], [], [], 0, 0)
    return out


def solve(hand, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=0):
    """Brute force over every arrangement of ``hand`` (list of kinds).

    Returns ``(min_deadwood, can_declare)``. Every arrangement is visited: the
    smallest card not yet placed is either deadwood or the smallest card of one
    of the valid groups among the cards not yet placed. Completions of the same
    remaining cards and the same I5 progress are shared (memoised), which
    changes the running time, not the set of arrangements compared.
    """
    # The cards not yet placed are a multiset, packed into one int: 4 bits per
    # distinct kind of the hand (counts <= 7). ``need <= left`` field by field
    # is tested with a guard bit on top of every field (no borrow crosses it).
    kinds = sorted(set(hand))
    index = {k: i for i, k in enumerate(kinds)}
    guard = sum(8 << (4 * i) for i in range(len(kinds)))
    start = sum(1 << (4 * index[c]) for c in hand)
    groups = valid_groups(hand, wild_rank, max_j_run, max_j_set, triple_is_run)
    by_first = [[] for _ in kinds]
    for g, role in groups:
        need = sum(1 << (4 * index[c]) for c in g)
        by_first[index[g[0]]].append((need, role))
    values = [card_value(k, wild_rank) for k in kinds]
    INF = float("inf")

    @lru_cache(maxsize=None)
    def rec(left, runs, pure, long_):
        """(min deadwood of the cards ``left``, all placed?) over completions
        meeting I5 given the progress so far (runs capped at 2, pure, long)."""
        if left == 0:
            if runs >= 2 and pure and long_:
                return 0, True
            return INF, False
        i = ((left & -left).bit_length() - 1) // 4   # smallest kind left
        # one card of kind i is deadwood ...
        dead, _ = rec(left - (1 << (4 * i)), runs, pure, long_)
        dead += values[i]
        full = False
        # ... or the smallest card of a group
        for need, (is_run, is_pure, is_long) in by_first[i]:
            diff = (left | guard) - need
            if diff & guard != guard:
                continue   # some card of the group is not left
            d, f = rec(diff & ~guard, min(2, runs + is_run),
                       pure or (is_run and is_pure), long_ or (is_run and is_long))
            dead = min(dead, d)
            full = full or f
        return dead, full

    dead, full = rec(start, 0, False, False)
    if dead == INF:
        dead = sum(card_value(c, wild_rank) for c in hand)
    return dead, full


def min_deadwood(hand, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=0):
    return solve(hand, wild_rank, max_j_run, max_j_set, triple_is_run)[0]


def can_declare(hand, wild_rank, max_j_run=1, max_j_set=1, triple_is_run=0):
    return solve(hand, wild_rank, max_j_run, max_j_set, triple_is_run)[1]
