"""Gin Rummy `mc_search`: determinized Monte Carlo search over sampled hidden worlds, on the
structure shared with strategies/persian|indian/mc_search_nb.py.

At each decision it receives only the observation (G9), never the true state:

1. The base's move first (``base``: greedy, or expert with EXPERT_PARAMS, a fixed snapshot
   of its registered defaults). Only the draws (the first upcard, the upcard or the stock),
   the discard-or-knock decision and the wall are searched; the knock's discard, the melds
   and the lay-offs are the base's (the exact solver plays them).
2. Candidates: the base's move, then the other draw; at a discard the knock when it is legal
   (``search_knock``), then the discards leaving the least deadwood (ties: the higher value,
   then the higher card). ``max_candidates`` > 0 keeps that many (0: every legal move); 1
   plays exactly as the base. Without ``search_knock`` the base's knock and wall choices are
   played at once.
3. Worlds: ``samples`` times the opponent's hand and the stock's order are dealt at random
   consistently with what the seat sees (sim/games/gin/determinize_nb.py).
4. Every candidate is applied on a copy of the same world and the hand is played to its end
   by the base in both seats. The bases are deterministic, so the comparison between
   candidates is paired (common random numbers without a play-out stream). A play-out is
   scored by G7 with ``gin_bonus`` and ``undercut_bonus`` (the observation carries the knock
   card in force, not the bonuses: parameters, default the rules' defaults).
5. Selection as Persian's ``select_best``: with ``select_z`` = 0 the best mean wins (ties: the
   earlier candidate, so the base's move); with ``select_z`` > 0 the base's move is kept unless
   another's paired lead over it exceeds ``select_z`` standard errors.

Randomness: only the seat's own stream ``rng`` (the worlds), so a decision is a function of
(observation, stream state) and runs are the same on any number of threads.
"""

import numpy as np
from numba import njit

from sim.games.gin.determinize_nb import determinize_into
from sim.games.gin.enums import (
    C_SCORE, D_DISCARD, D_DRAW, D_FIRST, D_WALL, MAX_MOVES, MOVE_COLS, MV_CARD, MV_KNOCK, N_CARDS, N_RESULT_COLS,
    N_RULES, O_DECISION, O_HAND, O_KNOCK_CARD, O_SEAT, OBS_SIZE, R_GIN_BONUS, R_KNOCK_CARD, R_UNDERCUT_BONUS,
    S_HANDS, ST_SIZE,
)
from sim.games.gin.melds_nb import MAX_HAND_MELDS, MELD_SCRATCH, card_value, deadwood10
from sim.games.gin.state_nb import apply_move, legal_moves, score
from sim.plugin.strategy import STRATEGY_SIG
from strategies.gin.greedy_nb import greedy_decide
from strategies.gin.knocker_nb import policy_decide

ONE = np.int64(1)

# parameter slots, in the order declared in strategies/gin/builtins.py (MC_SEARCH)
P_SAMPLES = 0
P_MAX_CANDIDATES = 1
P_BASE = 2
P_SELECT_Z = 3
P_GIN_BONUS = 4
P_UNDERCUT_BONUS = 5
P_SEARCH_KNOCK = 6

BASE_GREEDY = 0
BASE_EXPERT = 1
#: expert's registered defaults (strategies/gin/builtins.py EXPERT, its slot order), a snapshot so
#: that retuning expert does not silently change mc_search (tests/gin checks they are equal)
EXPERT_PARAMS = np.array([10.0, 10.0, 10.0, 0.0, 0.0, 3.0, 1.0])


@njit(cache=True)
def base_move(base, decision, obs, moves, n, eparams, rng):
    """The base strategy's row (module docstring, 1)."""
    if base == BASE_EXPERT:
        return policy_decide(decision, obs, moves, n, eparams, True)
    return greedy_decide(decision, obs, moves, n, eparams, rng)


@njit(cache=True)
def _listed(cand, nc, i):
    for j in range(nc):
        if cand[j] == i:
            return True
    return False


@njit(cache=True)
def choose_candidates(decision, obs, moves, n, first, max_cand, search_knock, cand, ids, stack):
    """Write the candidate rows into ``cand`` (``first`` leads); returns how many (docstring, 2)."""
    cand[0] = first
    nc = 1
    limit = n if max_cand <= 0 else min(n, max_cand)
    if decision != D_DISCARD:
        for i in range(n):
            if nc < limit and i != first:
                cand[nc] = i
                nc += 1
        return nc
    for i in range(n):
        if nc < limit and search_knock and moves[i, 0] == MV_KNOCK and i != first:
            cand[nc] = i
            nc += 1
    hand = obs[O_HAND]
    while nc < limit:
        best = -1
        best_key = np.int64(1) << 40
        for i in range(n):
            if moves[i, 0] != MV_CARD or _listed(cand, nc, i):
                continue
            c = moves[i, 2]
            key = deadwood10(hand & ~(ONE << c), ids, stack) * 1024 - card_value(c) * 64 - c
            if key < best_key:
                best_key = key
                best = i
        if best < 0:
            break
        cand[nc] = best
        nc += 1
    return nc


@njit(cache=True)
def play_out(sim, me, base, eparams, rules, rng, obs, moves, ids, tmp, stack, res):
    """Play the hand in ``sim`` to its end with the base in both seats; ``me``'s G7 points.
    The other arguments are scratch (no allocation per play-out)."""
    end = -1
    while end < 0:
        n = legal_moves(sim, moves, ids, stack, tmp)
        idx = 0
        if n > 1:
            for j in range(OBS_SIZE):
                obs[j] = sim[j]
            obs[O_HAND] = sim[S_HANDS + sim[O_SEAT]]
            idx = base_move(base, sim[O_DECISION], obs, moves[:n], n, eparams, rng)
        end = apply_move(sim, moves[idx, 0], moves[idx, 2], moves[idx, 3])
    for j in range(res.shape[0]):
        res[j] = 0
    score(sim, end, rules, res, ids, stack)
    return res[C_SCORE + me]


@njit(cache=True)
def select_best(sums, dsq, nc, k, select_z):
    """Index (into the candidates) of the move played (module docstring, 5). ``sums[c]``: the
    candidate's total over ``k`` worlds; ``dsq[c]``: its summed squared differences to candidate 0."""
    best = 0
    if select_z > 0.0 and k >= 2:
        best_v = 0.0
        for c in range(1, nc):
            d = (sums[c] - sums[0]) / k
            var = max(0.0, (dsq[c] - k * d * d) / (k - 1))
            v = d - select_z * np.sqrt(var / k)
            if v > best_v:
                best_v = v
                best = c
        return best
    for c in range(1, nc):
        if sums[c] > sums[best]:
            best = c
    return best


@njit(STRATEGY_SIG, cache=True)
def mc_search_decide(decision, obs, moves, n, params, rng):
    """Index of the candidate with the best play-out score over sampled worlds (module docstring)."""
    base = np.int64(params[P_BASE])
    eparams = EXPERT_PARAMS.copy()
    first = base_move(base, decision, obs, moves, n, eparams, rng)
    if n <= 1 or not (decision == D_FIRST or decision == D_DRAW or decision == D_DISCARD or decision == D_WALL):
        return first
    search_knock = params[P_SEARCH_KNOCK] != 0.0
    if not search_knock and (decision == D_WALL or moves[first, 0] == MV_KNOCK):
        return first
    ids = np.empty(MAX_HAND_MELDS, np.int64)
    tmp = np.empty(MAX_HAND_MELDS, np.int64)
    stack = np.empty(MELD_SCRATCH, np.int64)
    cand = np.empty(n, np.int64)
    nc = choose_candidates(decision, obs, moves, n, first, np.int64(params[P_MAX_CANDIDATES]), search_knock,
                           cand, ids, stack)
    if nc == 1:
        return first
    rules = np.zeros(N_RULES, np.int64)
    rules[R_KNOCK_CARD] = obs[O_KNOCK_CARD]
    rules[R_GIN_BONUS] = np.int64(params[P_GIN_BONUS])
    rules[R_UNDERCUT_BONUS] = np.int64(params[P_UNDERCUT_BONUS])
    samples = max(1, np.int64(params[P_SAMPLES]))
    world = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    pool = np.empty(N_CARDS, np.int64)
    pobs = np.empty(OBS_SIZE, np.int64)
    pmoves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
    res = np.zeros(N_RESULT_COLS, np.int64)
    sums = np.zeros(nc, np.float64)
    dsq = np.zeros(nc, np.float64)
    me = obs[O_SEAT]
    for w in range(samples):
        if not determinize_into(obs, rng, world, pool):
            return first
        x0 = 0.0
        for c in range(nc):
            for j in range(ST_SIZE):
                sim[j] = world[j]
            row = cand[c]
            end = apply_move(sim, moves[row, 0], moves[row, 2], moves[row, 3])
            if end >= 0:  # the move ends the hand (G8: the wall pass, a repeated upcard)
                for j in range(N_RESULT_COLS):
                    res[j] = 0
                score(sim, end, rules, res, ids, stack)
                x = np.float64(res[C_SCORE + me])
            else:
                x = np.float64(play_out(sim, me, base, eparams, rules, rng, pobs, pmoves, ids, tmp, stack, res))
            sums[c] += x
            if c == 0:
                x0 = x
            else:
                dsq[c] += (x - x0) * (x - x0)
    return cand[select_best(sums, dsq, nc, samples, params[P_SELECT_Z])]
