"""Reproducibility of run_deals (the basis of paired strategy comparisons).

A deal is meant to be a pure function of (seed, deal index, strategies, rules): its
cards come from stream 0 of the deal's counter-based generator and seat s's
strategy draws from stream 1 + s (sim/core/rng_nb.py). So:

* the thread count never changes a result row or a recorded event;
* the same seed gives the same rows and events, a different seed other deals;
* the cards of a deal depend on (seed, deal) only, never on who plays it;
* a deal gives the same row whether it runs alone, in a sub-range, in any order,
  or inside a larger run (chunk independence).
"""

import os
import sys

import numba
import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from sim.games.persian import enums as E  # noqa: E402
from sim.games.persian.engine import run_deals  # noqa: E402
from sim.games.persian.engine_nb import shuffled_deck  # noqa: E402
from sim.games.persian.position import Position  # noqa: E402
from sim.games.persian.rules import RuleOptions  # noqa: E402
from sim.games.persian.state_nb import new_state  # noqa: E402

TABLES = {
    "greedy": ["greedy"],
    "random": ["random"],
    "mixed": ["greedy", "random", "random", "greedy:max_extra=0"],
}
SEED = 987654321


@pytest.fixture(autouse=True)
def restore_threads():
    """run_deals(threads=...) changes numba's process-wide thread count; put it back."""
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


def joker_blind(a: np.ndarray) -> np.ndarray:
    """Card ids with the four (identical, P1) jokers mapped to one id."""
    return np.minimum(a, E.JOKER0)


# ------------------------------------------------------------------ threads
@pytest.mark.parametrize("name", list(TABLES))
def test_one_and_two_threads_give_identical_results(name):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has a single thread here: nothing to compare")
    one = run_deals(TABLES[name], 5000, SEED, threads=1)
    two = run_deals(TABLES[name], 5000, SEED, threads=2)
    assert numba.get_num_threads() == 2
    assert np.array_equal(one.results, two.results)


def test_one_and_two_threads_record_identical_events():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has a single thread here: nothing to compare")
    one = run_deals(TABLES["mixed"], 400, SEED, threads=1, record=1)
    two = run_deals(TABLES["mixed"], 400, SEED, threads=2, record=1)
    assert np.array_equal(one.results, two.results)
    assert np.array_equal(one.event_counts, two.event_counts)
    assert np.array_equal(one.events, two.events)


# ------------------------------------------------------------------ seeds
@pytest.mark.parametrize("name", list(TABLES))
def test_same_seed_same_results_and_events(name):
    a = run_deals(TABLES[name], 500, SEED, record=1)
    b = run_deals(TABLES[name], 500, SEED, record=1)
    assert np.array_equal(a.results, b.results)
    assert np.array_equal(a.event_counts, b.event_counts)
    assert (a.event_counts > 0).all()
    assert np.array_equal(a.events, b.events)


def test_largest_seed_is_reproducible():
    a = run_deals("random", 200, 2**63 - 1).results
    b = run_deals("random", 200, 2**63 - 1).results
    assert np.array_equal(a, b)


@pytest.mark.parametrize("name", list(TABLES))
def test_different_seeds_give_different_deals(name):
    a = run_deals(TABLES[name], 500, 1, record=1)
    b = run_deals(TABLES[name], 500, 2, record=1)
    # compare everything except the deal index and dealer, which only depend on the index
    same_rows = (a.results[:, E.C_END :] == b.results[:, E.C_END :]).all(axis=1)
    assert same_rows.mean() < 0.05, f"{same_rows.sum()} of 500 deals identical under seeds 1 and 2"
    same_events = sum(
        np.array_equal(a.deal_events(i), b.deal_events(i)) for i in range(500)
    )
    assert same_events == 0
    decks_1 = np.stack([shuffled_deck(1, d) for d in range(500)])
    decks_2 = np.stack([shuffled_deck(2, d) for d in range(500)])
    assert not (decks_1 == decks_2).all(axis=1).any()


def test_decks_are_permutations_and_differ_between_deals():
    decks = np.stack([shuffled_deck(SEED, d) for d in range(2000)])
    assert (np.sort(decks, axis=1) == np.arange(E.N_CARDS)).all()
    assert len({d.tobytes() for d in decks}) == 2000
    # the shuffle is not stuck near the identity: every position sees many cards
    for pos in (0, 28, 55):
        assert len(set(decks[:, pos].tolist())) == E.N_CARDS


# ------------------------------------------------------------------ cards do not depend on who plays
def stock_draws(events: np.ndarray) -> list[int]:
    return [int(e[2]) for e in events if e[0] == E.EV_STOCK]


def test_the_cards_of_a_deal_do_not_depend_on_the_strategies():
    """Whoever plays deal d, the stock is drawn in the order of shuffled_deck(seed, d)
    (deck[29], deck[30], ...), the up card is deck[28], and every card a seat puts
    down or discards was dealt to it (deck[7s:7s+7]) or drawn/taken by it before."""
    n = 300
    runs = {name: run_deals(table, n, SEED, record=1) for name, table in TABLES.items()}
    first_draw = {}
    for name, run in runs.items():
        for d in range(n):
            deck = [int(c) for c in shuffled_deck(SEED, d)]
            ev = run.deal_events(d)
            drawn = stock_draws(ev)
            assert drawn == deck[29 : 29 + len(drawn)], f"{name}, deal {d}: stock drawn out of deck order"
            if drawn:
                first_draw.setdefault(d, []).append(drawn[0])
            hands = [set(deck[7 * s : 7 * s + 7]) for s in range(4)]
            pile = [deck[28]]
            for kind, seat, a, b, _ in ev.tolist():
                if kind == E.EV_STOCK:
                    hands[seat].add(a)
                elif kind == E.EV_TAKE:
                    taken = pile[len(pile) - 1 - a :]
                    assert b == sum(1 << c for c in taken), f"{name}, deal {d}: took cards not on the pile"
                    del pile[len(pile) - 1 - a :]
                    hands[seat] |= set(taken)
                elif kind in (E.EV_MELD, E.EV_LAYOFF, E.EV_DISCARD):
                    put = [c for c in range(E.N_CARDS) if (a >> c) & 1] if kind == E.EV_MELD else [a]
                    assert set(put) <= hands[seat], f"{name}, deal {d}: seat {seat} played a card it never held"
                    hands[seat] -= set(put)
                    if kind == E.EV_DISCARD:
                        pile.append(a)
    # the first stock card drawn in a deal is the same card whichever table played it
    assert all(len(set(cards)) == 1 for cards in first_draw.values())
    assert sum(1 for cards in first_draw.values() if len(cards) == len(TABLES)) > n // 2


def test_position_from_deal_is_the_engine_start():
    """Position.from_deal starts from the engine's own state (jokers compared as one
    card, since Position renumbers the identical jokers in order of appearance)."""
    rules = RuleOptions()
    for d in range(50):
        engine_st = new_state(shuffled_deck(SEED, d), d % 4, rules.to_array())
        pos_st = Position.from_deal(SEED, d, rules).st
        cards = np.r_[E.O_PILE : E.O_PILE + E.N_CARDS, E.S_STOCK : E.S_STOCK + E.STOCK_SIZE]
        other = np.setdiff1d(np.arange(E.ST_SIZE), np.r_[cards, E.S_HANDS : E.S_HANDS + 4])
        assert np.array_equal(pos_st[other], engine_st[other])
        assert np.array_equal(joker_blind(pos_st[cards]), joker_blind(engine_st[cards]))
        for s in range(4):
            ph, eh = int(pos_st[E.S_HANDS + s]), int(engine_st[E.S_HANDS + s])
            assert ph & ~E.JOKER_MASK == eh & ~E.JOKER_MASK
            assert bin(ph & E.JOKER_MASK).count("1") == bin(eh & E.JOKER_MASK).count("1")


# ------------------------------------------------------------------ chunk independence
@pytest.mark.parametrize("name", list(TABLES))
def test_a_deal_gives_the_same_row_alone_or_within_a_larger_run(name):
    table = TABLES[name]
    whole = run_deals(table, 20, SEED, record=1)
    part = run_deals(table, range(5, 10), SEED, record=1)
    assert np.array_equal(part.results, whole.results[5:10])
    for i in range(5):
        assert np.array_equal(part.deal_events(i), whole.deal_events(5 + i))
    # any order, any subset, one deal alone, at any thread count
    order = [17, 3, 9, 0, 12]
    shuffled = run_deals(table, order, SEED, threads=1)
    assert np.array_equal(shuffled.results, whole.results[order])
    for d in (0, 7, 19):
        alone = run_deals(table, [d], SEED)
        assert np.array_equal(alone.results[0], whole.results[d])
    # a far-away deal index does not depend on the indices run before it
    far = run_deals(table, [10**12, 7], SEED).results
    assert np.array_equal(far[1], whole.results[7])
    assert np.array_equal(far[0], run_deals(table, [10**12], SEED).results[0])
