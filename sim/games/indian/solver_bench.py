"""Speed of the Indian Rummy deadwood solver (issue 9): hands solved per second.

``solver_hands_per_second(n_hands, decks, seed, hand_size)`` deals ``n_hands`` random
13-card hands (or ``hand_size``: 14 is a hand after its draw) from shuffled
``decks``-deck shoes (52 * decks naturals plus 2 * decks printed jokers, I1), each
hand with a random wild rank (I2), and times ``min_deadwood`` over all of them in
one compiled loop on one thread, after a warm-up pass (compilation and caches).
``rummy-sim bench --game indian`` reports the 13-card figure (``solver_hands_per_s``);
``python -m sim.games.indian.solver_bench`` prints both sizes. Not used by any test.
"""

import time

import numpy as np
from numba import njit

from sim.games.indian.solver_nb import min_deadwood


def random_hands(n_hands, decks=2, seed=1, hand_size=13):
    """``(counts int64[n, 53], wild_rank int64[n])`` of random hands."""
    rng = np.random.default_rng(seed)
    shoe = np.array(list(range(52)) * decks + [52] * (2 * decks), dtype=np.int64)
    counts = np.zeros((n_hands, 53), dtype=np.int64)
    for i in range(n_hands):
        h = rng.choice(shoe, hand_size, replace=False)
        np.add.at(counts[i], h, 1)
    wild = rng.integers(0, 13, size=n_hands).astype(np.int64)
    return counts, wild


@njit(cache=True)
def _solve_all(counts, wild, triple_is_run):
    s = 0
    for i in range(counts.shape[0]):
        s += min_deadwood(counts[i], wild[i], 1, 1, triple_is_run)
    return s


def solver_hands_per_second(n_hands=200_000, decks=2, seed=1, hand_size=13):
    """Hands per second of ``min_deadwood`` on random ``hand_size``-card hands, one thread."""
    counts, wild = random_hands(n_hands, decks, seed, hand_size)
    tr = 1 if decks == 3 else 0
    _solve_all(counts[: min(n_hands, 2000)], wild[: min(n_hands, 2000)], tr)  # warm-up
    t0 = time.perf_counter()
    _solve_all(counts, wild, tr)
    return n_hands / (time.perf_counter() - t0)


if __name__ == "__main__":  # pragma: no cover
    for size in (13, 14):
        for d in (2, 3):
            print(f"{size} cards, {d} decks: {solver_hands_per_second(decks=d, hand_size=size):,.0f} hands/s")
