"""Melds and deadwood (G1, G4, G5) against OpenSpiel's GinRummyUtils, and the exact solver
against a brute force over discards.

OpenSpiel's choices are rules here (melds_nb docstring): its meld list order, its best
meld group, its 11-card deadwood, its legal melds for a knock card and its lay-offs.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from sim.games.gin import melds_nb as M

U = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def _scratch():
    return (np.zeros(M.MAX_HAND_MELDS, np.int64), np.zeros(16, np.int64), np.zeros(M.MELD_SCRATCH, np.int64),
            np.zeros(M.MAX_HAND_MELDS, np.int64))


def _hands(n: int, size: int, seed: int):
    """Random hands, half of them drawn from few suits and ranks (rich in melds)."""
    rng = np.random.default_rng(seed)
    for t in range(n):
        if t % 2:
            yield sorted(int(c) for c in rng.choice(52, size, replace=False))
            continue
        suits = rng.choice(4, rng.integers(1, 5), replace=False)
        ranks = rng.choice(13, rng.integers(3, 8), replace=False)
        pool = sorted({s * 13 + r for s in suits for r in range(13)} | {s * 13 + r for s in range(4) for r in ranks})
        yield sorted(int(c) for c in rng.choice(pool, size, replace=False))


def _mask(cards) -> np.int64:
    return np.int64(sum(1 << c for c in cards))


def test_meld_ids_are_openspiels() -> None:
    for m in range(185):
        assert M.MELD_MASK[m] == sum(1 << c for c in U.int_to_meld[m])
        assert M.MELD_VALUE[m] == U.total_card_value(U.int_to_meld[m])


@pytest.mark.parametrize("size", [10, 11])
def test_meld_order_best_group_and_deadwood(size) -> None:
    ids, sel, stack, out = _scratch()
    for h in _hands(3000, size, size):
        m = _mask(h)
        n = M.hand_melds(m, ids)
        assert list(ids[:n]) == [U.meld_to_int(x) for x in U.all_melds(h)], h
        v, cards, k = M.best_group(ids, n, np.int64(0), sel, stack)
        assert [int(ids[sel[j]]) for j in range(k)] == [U.meld_to_int(x) for x in U.best_meld_group(h)], h
        assert M.os_deadwood(m, ids, sel, stack) == U.min_deadwood(h), h  # G4: OpenSpiel's knock figure
        for knock in (0, 4, 10, 98):
            got = M.legal_melds(m, knock, ids, stack, out)
            assert list(out[:got]) == list(U.legal_melds(h, knock)), (h, knock)


def test_exact_solver_is_the_best_ten() -> None:
    ids, sel, stack, out = _scratch()
    for h in _hands(2000, 11, 5):
        exact = min(U.min_deadwood([c for c in h if c != d]) for d in h)
        assert M.best10_deadwood(_mask(h), ids, stack) == exact, h
    for h in _hands(1000, 10, 6):
        assert M.deadwood10(_mask(h), ids, stack) == U.min_deadwood(h)


def test_layoffs_are_openspiels() -> None:
    """G5 as OpenSpiel plays it: a three's fourth card, a run's neighbours, counting the lay-offs
    next to the run's own laid ends (so at most two cards a side)."""
    ids, sel, stack, out = _scratch()
    rng = np.random.default_rng(9)
    for h in _hands(3000, 10, 7):
        melds = [U.meld_to_int(x) for x in U.best_meld_group(h)]
        arr = np.array(melds + [0] * 4, np.int64)
        prev: list[int] = []
        for _ in range(4):
            want = U.all_layoffs(melds, prev)
            assert M.layoff_cards(arr, len(melds), _mask(prev)) == sum(1 << c for c in want), (h, melds, prev)
            cand = [c for c in want if c not in h and c not in prev]
            if not cand:
                break
            prev.append(int(rng.choice(cand)))


def test_run_grows_by_two_cards_a_side_at_most() -> None:
    run = [U.card_int(c) for c in ("5s", "6s", "7s")]
    arr = np.array([U.meld_to_int(run), 0, 0, 0], np.int64)
    after_two = _mask([U.card_int("8s"), U.card_int("9s")])
    assert not M.layoff_cards(arr, 1, after_two) >> U.card_int("Ts") & 1
