"""Determinism of the compiled Indian Rummy engine: bit-identical for 1 or 2 threads,
the same deal index gives the same cards whatever strategies play (I2, deal_nb.py),
and a subset of deal indices replays exactly the rows of a larger run."""

import numpy as np

from sim.games.indian import enums as E
from sim.games.indian.engine import run_deals
from sim.games.indian.log import deal_logs

SEED = 777


def test_one_and_two_threads_identical():
    for specs in (["random"] * 4, ["greedy", "dropper", "random"]):
        a = run_deals(specs, 24, SEED, threads=1, record=1)
        b = run_deals(specs, 24, SEED, threads=2, record=1)
        assert np.array_equal(a.results, b.results)
        assert np.array_equal(a.event_counts, b.event_counts)
        for i in range(24):
            assert np.array_equal(a.deal_events(i), b.deal_events(i))


def test_repeatable_and_seed_sensitive():
    a = run_deals(["random"] * 3, 10, SEED)
    b = run_deals(["random"] * 3, 10, SEED)
    c = run_deals(["random"] * 3, 10, SEED + 1)
    assert np.array_equal(a.results, b.results)
    assert not np.array_equal(a.results, c.results)


def test_same_deal_same_cards_whatever_strategies_play():
    tables = (["random"] * 4, ["greedy"] * 4, ["dropper", "random", "greedy", "dropper:need_pure=false"])
    dealt = []
    for specs in tables:
        run = run_deals(specs, 8, SEED, record=1)
        dealt.append([(d["hands"], d["discard"], d["stock"], d["cut_joker"], d["dealer"]) for d in deal_logs(run)])
    assert dealt[0] == dealt[1] == dealt[2]


def test_deal_subset_replays_the_same_rows():
    full = run_deals(["greedy", "random", "dropper"], 12, SEED)
    part = run_deals(["greedy", "random", "dropper"], [3, 7, 11], SEED)
    assert np.array_equal(part.results, full.results[[3, 7, 11]])
    assert list(part.results[:, E.C_DEAL]) == [3, 7, 11]
