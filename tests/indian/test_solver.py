"""Indian Rummy deadwood solver (RULES.md I4, I5, I6): compiled vs brute force.

* hand-picked edge cases, each citing the rule it checks;
* >= 10,000 seeded random hands (2 and 3 decks, every wild rank, printed-joker
  heavy hands, identical cards, hands built around near-complete runs and
  sets so that many can declare) compared with the brute-force reference
  ``naive_indian_solver`` on ``min_deadwood`` and ``can_declare``;
* ``arrange`` output checked with the reference's group validator.

Set ``INDIAN_SOLVER_SWEEP=<n>`` for a bigger random sweep (n hands per block).
"""

import multiprocessing
import os
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import naive_indian_solver as naive  # noqa: E402

from sim.games.indian import solver_nb  # noqa: E402
from sim.games.indian.cards import (  # noqa: E402
    CARD_VALUES, JOKER, N_KINDS, RANKS, hand_counts, kind_name, parse_kind,
)

SWEEP = int(os.environ.get("INDIAN_SOLVER_SWEEP", "0"))


def H(text):
    return [parse_kind(c) for c in text.split()]


def W(rank_char):
    return -1 if rank_char == "-" else RANKS.index(rank_char)


def counts_of(hand):
    return np.bincount(np.asarray(hand, dtype=np.int64), minlength=N_KINDS).astype(np.int64)


def nb_solve(hand, wild, mjr=1, mjs=1, tr=0):
    c = counts_of(hand)
    return (int(solver_nb.min_deadwood(c, wild, mjr, mjs, tr)),
            bool(solver_nb.can_declare(c, wild, mjr, mjs, tr)))


def nb_arrange(hand, wild, mjr=1, mjs=1, tr=0):
    c = counts_of(hand)
    groups = np.full((13, 14), -1, dtype=np.int64)
    glen = np.zeros(13, dtype=np.int64)
    ng = solver_nb.arrange(c, wild, mjr, mjs, tr, groups, glen)
    return [list(groups[g, : glen[g]]) for g in range(ng)]


# ----------------------------------------------------------------- cards.py


def test_cards_names_and_values():
    assert kind_name(0) == "2C" and kind_name(12) == "AC" and kind_name(21) == "TD"
    assert kind_name(51) == "AS" and kind_name(JOKER) == "JK"
    for k in range(N_KINDS):
        assert parse_kind(kind_name(k)) == k
    for bad in ["", "1C", "TX", "JKX", "10H", None]:
        with pytest.raises(ValueError):
            parse_kind(bad)
    # I6: A K Q J T 10, 2..9 face value, printed joker 0
    assert [int(CARD_VALUES[r]) for r in range(13)] == [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10]
    assert CARD_VALUES[JOKER] == 0 and CARD_VALUES.dtype == np.int64
    c = hand_counts(["AS", "AS", "JK"])
    assert c[51] == 2 and c[JOKER] == 1 and c.sum() == 3


# ------------------------------------------------------- hand-picked cases
# wild rank chosen absent from the hand unless the case is about wild cards.

EDGE = [
    # (id, hand, wild, max_j_run, max_j_set, triple_is_run, deadwood, declare)
    ("I4 K-A-2 is not a run", "KH AH 2H 5S 6S 7S 8S", "9", 1, 1, 0, 48, False),
    ("I4 A-2-3 is a run", "AH 2H 3H 5S 6S 7S 8S", "9", 1, 1, 0, 0, True),
    ("I4 Q-K-A is a run", "QH KH AH 5S 6S 7S 8S", "9", 1, 1, 0, 0, True),
    ("I4 ace both ends is no wrap", "KH AH 2H 3H 5S 6S 7S 8S", "9", 1, 1, 0, 10, False),
    # one joker per run (I4): 5H JK JK 8H needs two
    ("I4 two jokers in a run invalid", "5H JK JK 8H 2S 3S 4S 5S", "9", 1, 1, 0, 27, False),
    ("I4 two jokers valid with max_j_run=2", "5H JK JK 8H 2S 3S 4S 5S", "9", 2, 1, 0, 0, True),
    # a set never holds two natural 7S (I4)
    ("I4 no set with two natural 7S", "7S 7S 7H 2C 3C 4C 5C 9D TD JD", "K", 1, 1, 0, 21, False),
    ("I4 7S 7S 7H is a set with sevens wild", "7S 7S 7H 2C 3C 4C 5C 9D TD JD", "7", 1, 1, 0, 0, True),
    ("I4 7S 7H 7D natural set with sevens wild", "7S 7D 7H 2C 3C 4C 5C 9D TD JD", "7", 1, 1, 0, 0, True),
    # three identical cards with three decks (I4): a pure run of three ...
    ("I4 identical triple is a pure run", "5H 5H 5H 2C 3C JK 5C", "9", 1, 1, 1, 0, True),
    ("I4 identical triple needs triple_is_run", "5H 5H 5H 2C 3C JK 5C", "9", 1, 1, 0, 25, False),
    # ... but never the run of four (I5)
    ("I5 identical triples are not the run of four", "5H 5H 5H 9S 9S 9S 2C 3C 4C", "K", 1, 1, 1, 51, False),
    ("I5 identical triple plus impure four", "5H 5H 5H 9S TS JK QS", "K", 1, 1, 1, 0, True),
    # a run of four that needs a joker (I4, I5)
    ("I5 impure run of four", "2C 3C 4C 6H 7H JK 9H", "K", 1, 1, 0, 0, True),
    ("I5 no run of four", "2C 3C 4C 6H 7H 9H", "K", 1, 1, 0, 31, False),
    ("I5 needs a pure run", "2C JK 4C 6H 7H JK 9H", "K", 1, 1, 0, 28, False),
    ("I5 needs two runs", "2C 3C 4C 5C 9D 9H 9S", "K", 1, 1, 0, 41, False),
    # every group needs a natural card (I4): leftover jokers cannot group
    ("I4 all-joker group invalid", "2C 3C 4C 5C 6D 7D 8D JK JK JK", "K", 1, 1, 0, 0, False),
    ("I4 one natural and two jokers with max_j_set=3", "2C 3C 4C 5C 6D 7D 8D JK JK JK", "K", 1, 3, 0, 0, True),
    ("I4 jokers absorbed with max_j_run=2", "2C 3C 4C 5C 6D 7D 8D JK JK JK", "K", 2, 1, 0, 0, True),
    # a wild-rank card standing as itself keeps a run pure, is worth 0 (I4, I6)
    ("I4 wild card as natural keeps run pure", "5D 6D 7D 2S 3S JK 5S", "7", 1, 1, 0, 0, True),
    ("I6 wild card worth 0", "5D 6D 7D 2S 3S 4S 5S 7C KH", "7", 1, 1, 0, 10, False),
    ("I6 no arrangement: all points", "2C 5D 9H KS AS 7C", "3", 1, 1, 0, 43, False),
    # no wild rank (-1): only printed jokers are jokers (I2)
    ("I2 no wild rank", "2C 3C 4C 5C 9D TD JK", "-", 1, 1, 0, 0, True),
    ("I2 no wild rank, no joker", "7S 7S 7H 2C 3C 4C 5C 9D TD JD", "-", 1, 1, 0, 21, False),
    # sets hold 3 or 4 cards (I4)
    ("I4 set of four plus joker is too big", "9C 9D 9H 9S JK 2C 3C 4C 5C 5D 6D 7D", "K", 0, 1, 0, 0, False),
    ("I4 joker fills a set", "9C 9D JK 2C 3C 4C 5C 6D 7D 8D", "K", 1, 1, 0, 0, True),
]


@pytest.mark.parametrize("case", EDGE, ids=[e[0] for e in EDGE])
def test_edge_cases(case):
    _, text, wild, mjr, mjs, tr, dead, declare = case
    hand = H(text)
    w = W(wild)
    assert naive.solve(hand, w, mjr, mjs, tr) == (dead, declare)
    assert nb_solve(hand, w, mjr, mjs, tr) == (dead, declare)
    check_arrangement(hand, w, mjr, mjs, tr, dead, declare)


def test_group_validator_examples():
    """The reference validator itself on single groups (I4)."""
    role = naive.best_role
    w = W("9")
    assert role(H("KH AH 2H"), w) is None
    assert role(H("AH 2H 3H"), w) == (True, True, False)
    assert role(H("QH KH AH"), w) == (True, True, False)
    assert role(H("4C 5C JK"), w) == (True, False, False)
    assert role(H("2C 3C JK 5C"), w) == (True, False, True)
    assert role(H("5H JK JK"), w) is None
    assert role(H("5H JK JK"), w, 2) == (True, False, False)
    assert role(H("JK JK JK"), w, 3, 3) is None
    assert role(H("9C 9H 9S"), W("K")) == (False, False, False)
    assert role(H("7S 7S 7H"), W("K")) is None
    assert role(H("7S 7S 7H"), W("7")) is not None
    assert role(H("7S 7S 7S"), W("K"), 1, 1, 1) == (True, True, False)
    assert role(H("7S 7S 7S"), W("K"), 1, 1, 0) is None
    assert role(H("9C 9D 9H 9S JK"), w) is None


# ------------------------------------------------------------ arrangements


def check_arrangement(hand, w, mjr, mjs, tr, dead, declare):
    """arrange(): every group valid (reference validator), every card used at
    most once, conditions met, deadwood as min_deadwood, full when declarable."""
    groups = nb_arrange(hand, w, mjr, mjs, tr)
    left = list(hand)
    for g in groups:
        for c in g:
            assert c in left, (groups, hand)
            left.remove(c)
    values = sum(naive.card_value(c, w) for c in left)
    if not groups:
        assert dead == sum(naive.card_value(c, w) for c in hand)
        assert not declare
        return
    roles = [naive.best_role(g, w, mjr, mjs, tr) for g in groups]
    assert None not in roles, groups
    assert naive.conditions_met(roles), groups
    assert values == dead
    if declare:
        assert not left, (groups, left)
    for g, role in zip(groups, roles):
        if role[0] and len(set(g)) == len(g):
            assert run_display_ok(g, w), g


def run_display_ok(g, w):
    """A run is shown in position order, each joker in the slot it fills."""
    flex = [naive.is_joker_capable(c, w) for c in g]
    nat = [c for c, f in zip(g, flex) if not f]
    suit = nat[0] // 13 if nat else None
    for start in range(0, 15 - len(g)):
        ok = True
        for t, c in enumerate(g):
            p = start + t
            r = 12 if p in (0, 13) else p - 1
            if c == JOKER or (c % 13 == w and c != suit * 13 + r if suit is not None else True):
                continue
            if c != suit * 13 + r:
                ok = False
                break
        if ok:
            return True
    return False


# ------------------------------------------------------------- random hands


def shoe(decks):
    return np.array(list(range(52)) * decks + [52] * (2 * decks), dtype=np.int64)


def biased_hand(rng, decks, n=13):
    """A hand built around runs and sets (some cards missing, jokers in
    slots, duplicates, identical triples, random filler) so that declarable
    and nearly declarable hands are common."""
    avail = np.bincount(shoe(decks), minlength=N_KINDS)
    hand = []

    def take(k):
        if avail[k] > 0 and len(hand) < n:
            avail[k] -= 1
            hand.append(int(k))

    style = rng.integers(6)
    for _ in range(rng.integers(1, 4)):
        s = rng.integers(4)
        length = int(rng.integers(3, 7))
        a = int(rng.integers(0, 15 - length))
        for p in range(a, a + length):
            r = 12 if p == 0 else p - 1
            if rng.random() < 0.12:
                take(JOKER)
            elif rng.random() > 0.06:
                take(s * 13 + r)
    for _ in range(rng.integers(0, 3)):
        r = rng.integers(13)
        for s in rng.permutation(4)[: rng.integers(2, 5)]:
            take(int(s) * 13 + r)
    if style == 0:  # joker heavy
        for _ in range(rng.integers(1, 2 * decks + 1)):
            take(JOKER)
    elif style == 1 and decks == 3:  # identical triple
        k = int(rng.integers(52))
        for _ in range(3):
            take(k)
    elif style == 2:  # duplicates
        for k in list(hand)[:4]:
            if rng.random() < 0.5:
                take(k)
    while len(hand) < n:
        take(int(rng.integers(53)) if rng.random() < 0.1 else int(rng.integers(52)))
    return hand


def make_block(kind, seed, n):
    """n test hands of one kind: (hand, wild, max_j_run, max_j_set, triple_is_run)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        decks = 2 + (i % 2)
        tr = 1 if decks == 3 else 0
        w = i % 13
        mjr, mjs = 1, 1
        if kind == "random":
            hand = list(rng.choice(shoe(decks), 13, replace=False))
        elif kind == "biased":
            hand = biased_hand(rng, decks)
        elif kind == "jokers":
            k = int(rng.integers(2, 2 * decks + 1))
            hand = [JOKER] * k + list(rng.choice(shoe(decks)[: 52 * decks], 13 - k, replace=False))
            if rng.random() < 0.5:
                hand = biased_hand(rng, decks)[: 13 - k] + [JOKER] * k
        elif kind == "sizes":
            size = int(rng.integers(1, 15))
            hand = (biased_hand(rng, decks, size) if rng.random() < 0.7
                    else list(rng.choice(shoe(decks), size, replace=False)))
        elif kind == "options":
            hand = biased_hand(rng, decks)
            mjr, mjs = int(rng.integers(0, 3)), int(rng.integers(0, 3))
            tr = int(rng.integers(2))
        else:
            raise ValueError(kind)
        out.append(([int(c) for c in hand], w, mjr, mjs, tr))
    return out


BLOCKS = [("random", 11, 3000), ("biased", 12, 4000), ("jokers", 13, 1000),
          ("sizes", 14, 1000), ("options", 15, 1000)]


def _naive_row(args):
    hand, w, mjr, mjs, tr = args
    return naive.solve(hand, w, mjr, mjs, tr)


@pytest.fixture(scope="module", autouse=True)
def naive_jobs():
    """The brute force of every random block, started in two worker processes
    before the first test so that it runs while numba compiles the solver."""
    cases = {kind: make_block(kind, seed, max(n, SWEEP)) for kind, seed, n in BLOCKS}
    ctx = multiprocessing.get_context("fork")
    pool = ctx.Pool(2)
    jobs = {kind: (cases[kind], pool.map_async(_naive_row, cases[kind], chunksize=50))
            for kind in cases}
    yield jobs
    pool.terminate()
    pool.join()


@pytest.mark.parametrize("kind", [b[0] for b in BLOCKS])
def test_compiled_matches_brute_force(kind, naive_jobs):
    cases, job = naive_jobs[kind]
    expected = job.get()
    declarable = 0
    for (hand, w, mjr, mjs, tr), (dead, declare) in zip(cases, expected):
        got = nb_solve(hand, w, mjr, mjs, tr)
        assert got == (dead, declare), (
            [kind_name(c) for c in sorted(hand)], w, mjr, mjs, tr, got, (dead, declare))
        declarable += declare
    share = declarable / len(cases)
    print(f"{kind}: {len(cases)} hands, {share:.1%} declarable")
    if kind == "biased":
        assert share > 0.2
    # arrange() on a sample (the validator is slow in Python)
    for (hand, w, mjr, mjs, tr), (dead, declare) in list(zip(cases, expected))[::10]:
        check_arrangement(hand, w, mjr, mjs, tr, dead, declare)


def test_at_least_10000_hands():
    assert sum(n for _, _, n in BLOCKS) >= 10_000


# ------------------------------------------------------------- properties


def test_discard_deadwoods_matches_min_deadwood():
    rng = np.random.default_rng(7)
    out = np.zeros(N_KINDS, dtype=np.int64)
    for i in range(300):
        hand = biased_hand(rng, 2 + i % 2, 14)
        c = counts_of(hand)
        w = i % 13
        tr = i % 2
        solver_nb.discard_deadwoods(c, w, 1, 1, tr, out)
        for k in range(N_KINDS):
            if c[k] == 0:
                assert out[k] >= 1 << 30
            else:
                c2 = c.copy()
                c2[k] -= 1
                assert out[k] == solver_nb.min_deadwood(c2, w, 1, 1, tr)


def _value(k, w):
    """I6 points of kind k with wild rank w."""
    r = k % 13
    return 0 if k == JOKER or r == w else (10 if r >= 8 else r + 2)


def test_loose_kinds_and_bounded_deadwood_are_exact():
    """deadwood_and_loose: the hand's min_deadwood, and every kind it marks loose leaves
    exactly m - value(k) when one copy goes (I6); some kinds are marked on hands that
    can meet I5; deadwood_and_loose_below the same when below its bound. deadwood_below(ub,
    lb): exact below ub, at least ub otherwise."""
    rng = np.random.default_rng(17)
    loose = np.zeros(N_KINDS, dtype=np.int64)
    loose_below = np.zeros(N_KINDS, dtype=np.int64)
    marked_with_groups = 0
    checked_below = 0
    for i in range(300):
        hand = biased_hand(rng, 2 + i % 2, 14)
        c = counts_of(hand)
        w = i % 14 - 1  # -1: no wild rank
        tr = i % 2
        mjr, mjs = (1, 1) if i % 5 else (2, 2)
        m = solver_nb.deadwood_and_loose(c, w, mjr, mjs, tr, loose)
        assert m == solver_nb.min_deadwood(c, w, mjr, mjs, tr)
        total = sum(_value(k, w) * c[k] for k in range(N_KINDS))
        # the same below a bound: exact with exact loose kinds when below, else >= it
        bound = (m, m + 1, 11)[i % 3]
        m_below = solver_nb.deadwood_and_loose_below(c, w, mjr, mjs, tr, bound, loose_below)
        assert m_below == m if m < bound else m_below >= bound
        checked_below += m < bound
        for k in range(N_KINDS):
            if c[k] == 0:
                assert loose[k] == 0
                continue
            c2 = c.copy()
            c2[k] -= 1
            d = solver_nb.min_deadwood(c2, w, mjr, mjs, tr)
            v = _value(k, w)
            assert d >= m - v
            if loose[k]:
                assert d == m - v
                marked_with_groups += m < total
            if m < bound and loose_below[k]:
                assert d == m - v
            for ub in (d, d + 1, m - v + 3):
                got = solver_nb.deadwood_below(c2, w, mjr, mjs, tr, ub, max(m - v, 0))
                assert got == d if d < ub else got >= ub
    assert marked_with_groups > 20 and checked_below > 50


def test_the_hand_less_one_card_from_its_own_candidates_is_exact():
    """deadwood_below_less (greedy's and the planners' discard searches, issue 28) searches the
    14-card hand less one card over the 14 cards' candidate groups, filtered; it answers as
    deadwood_below on the 13 cards at every bound (exact below it, at least it otherwise), and
    the 14 cards' own search (deadwood_and_loose_into) leaves the same candidates as
    candidates_of. Biased hands (many groups), 2 and 3 decks, one to thirteen jokers a run."""
    rng = np.random.default_rng(29)
    src = np.zeros(solver_nb.WS_SIZE, dtype=np.int64)
    again = np.zeros(solver_nb.WS_SIZE, dtype=np.int64)
    loose = np.zeros(N_KINDS, dtype=np.int64)
    searched = 0
    for i in range(400):
        hand = biased_hand(rng, 2 + i % 2, 14)
        c = counts_of(hand)
        w = i % 14 - 1
        tr = i % 2
        mjr, mjs = ((1, 1), (2, 2), (13, 4))[i % 3]
        m = solver_nb.deadwood_and_loose_into(src, c, w, mjr, mjs, tr, loose)
        assert m == solver_nb.min_deadwood(c, w, mjr, mjs, tr)
        solver_nb.candidates_of(again, c, w, mjr, mjs, tr)
        nc, nr = again[solver_nb.SRC_NC], again[solver_nb.SRC_NC + 1]
        made = src[solver_nb.SRC_NC]
        if made != -2 and 0 <= nc:
            assert (made, src[solver_nb.SRC_NC + 1]) == (nc, nr)
            o = solver_nb.O_CAND
            assert np.array_equal(src[o:o + nc * solver_nb.NF], again[o:o + nc * solver_nb.NF])
        if nc < 0:
            continue
        lazy = np.zeros(solver_nb.WS_SIZE, dtype=np.int64)
        lazy[solver_nb.SRC_NC] = -2  # made at the first call
        for k in range(N_KINDS):
            if c[k] == 0:
                continue
            c2 = c.copy()
            c2[k] -= 1
            d = solver_nb.min_deadwood(c2, w, mjr, mjs, tr)
            for ub in (solver_nb.BIG, d, d + 1, max(d - 3, 0), m - _value(k, w) + 2):
                got = solver_nb.deadwood_below_less(again, c, k, w, mjr, mjs, tr, ub, 0)
                assert got == d if d < ub else got >= ub, (k, ub, d, got)
                got = solver_nb.deadwood_below_less(lazy, c, k, w, mjr, mjs, tr, ub, 0)
                assert got == d if d < ub else got >= ub, (k, ub, d, got)
                searched += 1
            assert np.array_equal(c, counts_of(hand)), "the hand was not restored"
    assert searched > 10_000


def test_adding_a_joker_never_hurts():
    """A printed joker is worth 0 and may stay out of every group (I6), so
    adding one to a hand never raises its deadwood."""
    rng = np.random.default_rng(8)
    for i in range(500):
        hand = biased_hand(rng, 2 + i % 2, 12)
        w = i % 13
        c = counts_of(hand)
        d0 = solver_nb.min_deadwood(c, w, 1, 1, 0)
        c[JOKER] += 1
        assert solver_nb.min_deadwood(c, w, 1, 1, 0) <= d0


@st.composite
def small_hands(draw):
    """Hands of 7..13 cards from a 2-deck shoe (<= 2 of a natural, <= 4 jokers)."""
    size = draw(st.integers(7, 13))
    kinds = draw(st.lists(st.integers(0, 52), min_size=size, max_size=size))
    hand = []
    for k in kinds:
        if hand.count(k) < (4 if k == JOKER else 2):
            hand.append(k)
    return hand, draw(st.integers(0, 12))


@given(small_hands())
def test_hypothesis_matches_brute_force(case):
    """Compiled = brute force on hypothesis-drawn hands (shrinks failures);
    and can_declare implies deadwood 0 (I5, I6)."""
    hand, w = case
    dead, declare = naive.solve(hand, w)
    assert nb_solve(hand, w) == (dead, declare)
    if declare:
        assert dead == 0


def test_blocks_span_several_candidate_words():
    """The solver keeps the candidates that fit as bitsets of 64-candidate words and
    searches in a workspace on the stack with room for 128 candidates (more: a workspace
    of their own, solver_nb._search_heap): the brute-force blocks above include hands
    past one word and past that room, so both paths are compared with the reference."""
    counts = {"over 64": 0, "over 128": 0}
    for kind, seed, n in BLOCKS:
        for hand, w, mjr, mjs, tr in make_block(kind, seed, n):
            nc = candidate_count(counts_of(hand), w, mjr, mjs, tr)
            counts["over 64"] += nc > 64
            counts["over 128"] += nc > 128
    assert counts["over 64"] >= 200 and counts["over 128"] >= 20, counts


@pytest.mark.parametrize("kind", ["biased", "jokers", "options"])
def test_a_workspace_too_small_is_grown(kind, naive_jobs):
    """A search whose workspace has room for fewer candidates than the hand makes stops and
    is retried with room for all of them (_search_heap from room for one): the same
    deadwood (I6) and declarability (I5) as the brute force. A bound below every deadwood
    (a negative ``ub``, what a caller's m - value(k) + 3 can be) is answered, not
    mistaken for that retry signal."""
    cases, job = naive_jobs[kind]
    big = solver_nb.BIG
    for (hand, w, mjr, mjs, tr), (dead, declare) in list(zip(cases, job.get()))[:300]:
        c = counts_of(hand)
        quick = solver_nb._quick(c, w, mjr, tr)
        got, _, _ = solver_nb._search_heap(1, c, w, mjr, mjs, tr, 0, 0, c, big, 0, quick)
        assert got == dead, ([kind_name(k) for k in sorted(hand)], w, mjr, mjs, tr, got, dead)
        _, ok, _ = solver_nb._search_heap(1, c, w, mjr, mjs, tr, 1, 0, c, 0, 0, quick)
        assert ok == declare
        assert solver_nb.deadwood_below(c, w, mjr, mjs, tr, -2, 0) >= -2


@pytest.mark.parametrize("kind", [b[0] for b in BLOCKS])
def test_two_runs_test_rejects_only_hands_without_I5(kind, naive_jobs):
    """solver_nb._two_runs (a pure run and a disjoint second run, one of four or more: I5)
    may say no only where the brute force finds no arrangement meeting I5 (deadwood all
    points, I6; no declaration); and it does say no on hands the quick test lets through."""
    cases, job = naive_jobs[kind]
    rejected = 0
    for (hand, w, mjr, mjs, tr), (dead, declare) in zip(cases, job.get()):
        c = counts_of(hand)
        n, total, pool, a1, a2, a3, ok = solver_nb._quick(c, w, mjr, tr)
        if ok and not solver_nb._two_runs(a1, a2, a3, pool, mjr, tr):
            rejected += 1
            assert dead == total and not declare, ([kind_name(k) for k in sorted(hand)], w, mjr, tr)
    assert rejected >= (100 if kind in ("random", "biased") else 1), rejected


@njit(cache=True)
def candidate_count(c, w, mjr, mjs, tr):
    """How many candidate groups the solver makes for a hand (its generators, as _search calls them)."""
    n, total, pool, a1, a2, a3, ok = solver_nb._quick(c, w, mjr, tr)
    pm = np.empty(4, np.int64)
    plist = np.empty(14, np.int64)
    for s in range(4):
        m = (a1 >> (s * 13)) & 0x1FFF
        pm[s] = ((m << 1) | ((m >> 12) & 1)) & 0x3FFF
    cand = np.empty((2000, solver_nb.NF), np.int64)
    nc = n * 0
    nc = solver_nb._gen_runs(cand, nc, c, w, mjr, n, nc == 0, pm, plist, pool)
    if tr:
        nc = solver_nb._gen_triples(cand, nc, c, w)
    nc = solver_nb._gen_runs(cand, nc, c, w, mjr, n, nc < 0, pm, plist, pool)
    return solver_nb._gen_sets(cand, nc, a1, w, mjs, pool)


def test_partnerless_cards_are_deadwood_in_every_arrangement():
    """The pre-test of deadwood_below and can_declare (solver_nb._partnerless): a kind it
    marks can join no group (I4), so by the brute force the hand's least deadwood is the
    hand's without one copy plus that copy's points (I6), and the hand cannot declare
    (I5). Hands of every block style, 2 and 3 decks, with and without jokers."""
    rng = np.random.default_rng(23)
    marked = {"no pool": 0, "pool": 0}
    for i in range(160):
        decks = 2 + i % 2
        hand = biased_hand(rng, decks, 13) if i % 3 else list(rng.choice(shoe(decks), 13, replace=False))
        hand = [int(k) for k in hand]
        w = i % 14 - 1
        mjr, mjs, tr = (1, 1, decks - 2) if i % 4 else (int(rng.integers(0, 3)), int(rng.integers(0, 3)), i % 2)
        c = counts_of(hand)
        n, total, pool, a1, a2, a3, ok = solver_nb._quick(c, w, mjr, tr)
        lonely = solver_nb._partnerless(a1, a3, pool, w, mjr, mjs, tr)
        if not lonely:
            continue
        dead, declare = naive.solve(hand, w, mjr, mjs, tr)
        assert not declare, ([kind_name(k) for k in sorted(hand)], w)
        for k in range(52):
            if (lonely >> k) & 1:
                assert c[k] > 0 and k % 13 != w
                rest = list(hand)
                rest.remove(k)
                assert dead == naive.solve(rest, w, mjr, mjs, tr)[0] + _value(k, w), (
                    [kind_name(x) for x in sorted(hand)], kind_name(k), w, mjr, mjs, tr)
                marked["pool" if pool else "no pool"] += 1
    assert marked["pool"] >= 50 and marked["no pool"] >= 10, marked


def test_joins_no_group_is_the_partnerless_test_for_one_kind():
    """joins_no_group (greedy's draw, issue 28) reads only the counts near one kind; it marks
    exactly the kinds solver_nb._partnerless marks (those shown deadwood in every arrangement
    above), on random and biased hands of 13 and 14 cards, 2 and 3 decks, every wild rank
    and none, zero to two jokers a group, identical triples on and off."""
    rng = np.random.default_rng(31)
    marked = 0
    for i in range(3000):
        decks = 2 + i % 2
        size = 13 + (i // 2) % 2
        hand = biased_hand(rng, decks, size) if i % 3 else list(rng.choice(shoe(decks), size, replace=False))
        c = counts_of([int(k) for k in hand])
        w = i % 14 - 1
        mjr, mjs, tr = int(rng.integers(0, 3)), int(rng.integers(0, 3)), int(rng.integers(0, 2))
        n, total, pool, a1, a2, a3, ok = solver_nb._quick(c, w, mjr, tr)
        lonely = solver_nb._partnerless(a1, a3, pool, w, mjr, mjs, tr)
        for k in np.flatnonzero(c):
            expect = k < 52 and bool((lonely >> int(k)) & 1)
            assert solver_nb.joins_no_group(c, int(k), w, mjr, mjs, tr) == expect, (
                [kind_name(x) for x in sorted(hand)], kind_name(int(k)), w, mjr, mjs, tr)
            marked += expect
    assert marked > 1000
