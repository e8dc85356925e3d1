"""`mc_search`: determinized Monte Carlo search (perfect-information play-outs).

At each decision it receives only the observation (P10), never the true state:

1. Candidates: the legal moves, optionally pruned to ``max_candidates`` by a cheap
   prior. The base's move (``base``: greedy, expert with EXPERT_PARAMS, or learned, the
   built-in's committed weights) comes first, so exact ties go to it. With base=expert the
   prior is expert's own order (its move, then its move among the moves not yet listed, and
   so on: ``expert_ranked``); base=learned leads with learned's move and follows with
   expert's order of the others (``expert_ranked``: expert's own move second where the two
   differ); with
   base=greedy it is the value order (``move_prior``: takes by the points they bring,
   plays by their points, discards by value with cards outside partial melds first).
   The stock, a pass and stop are always kept. This prior is the only pruning before
   the search, and only when ``max_candidates`` > 0 (0 searches every legal move).
2. Worlds: ``samples`` times, the hidden cards are dealt at random consistently
   with what the seat sees (sim/games/persian/determinize_nb.py): own hand, pile, table,
   hand and stock sizes, cards publicly known to be held.
3. Every candidate still in the race is applied on a copy of the same world and the
   deal is played out to its end by the rollout policy in every seat
   (strategies/persian/rollout_nb.py), with the same rollout random stream for every
   candidate (common random numbers), so the comparison between candidates is paired.
4. The score of a play-out is the own team's deal total minus the other team's
   (P8). With ``select_z`` = 0 the candidate with the best mean over the worlds wins;
   with ``select_z`` > 0 the base's move is kept unless another candidate's paired lead
   over it is more than ``select_z`` standard errors (``select_best``: the largest
   lower bound mean - select_z * sd / sqrt(k) wins; the base's own bound is 0).
5. Racing (``race_z`` > 0): from world ``race_min`` on, a candidate whose paired mean
   difference to the current leader is below zero by more than ``race_z`` standard
   errors (mean + race_z * sd / sqrt(k) < 0 over the k shared worlds) leaves the race,
   and so does a candidate that scored exactly what an earlier candidate scored in each
   of the first ``race_min`` worlds (the same outcome so far, e.g. two plays in either
   order; the earlier one keeps the tie). The search stops as soon as one candidate is
   left. Dropped candidates cost no more play-outs; the worlds themselves are drawn as
   without racing (the random stream advances the same way), so ``race_z=0`` is the
   plain search over every world.

Parameters (params array slots):
  0 ``samples``: sampled worlds per decision.
  1 ``rollout_policy``: 0 greedy, 1 random (the policy of every seat in play-outs).
  2 ``max_candidates``: candidates searched per decision (0: every legal move).
  3 ``rollout_turns``: play-outs stop after this many more turns, scored like a
    capped deal (0: only the rules' turn cap).
  4 ``rollout_max_extra``: the greedy play-out policy's ``max_extra``.
  5 ``race_z``: racing threshold in standard errors (0: no racing).
  6 ``race_min``: worlds every candidate is played in before any can leave the race
    (racing acts only when ``samples`` > ``race_min``).
  7 ``base``: 0 greedy, 1 expert, 2 learned (whose move leads the candidates and orders the prior).
  8 ``select_z``: how clearly a move must beat the base's to be played (0: best mean).

Cost: no allocation per play-out. A decision makes its buffers once (a world, its
copy, scratch rows and a samples x candidates score table of at most RACE_MAX_CELLS
cells; past that racing is off and only the sums are kept).

Analysing one decision with the worlds in parallel (``analyse_decision``): each world
w draws from its own stream ``sim.core.rng_nb.stream_key(seed, deal, WORLD_STREAM0 + w)``
(counter-based: no generator is shared across the prange), plays every candidate out in
its own buffers and writes its own row of the scores table; the result does not
depend on the number of threads. Inside the engine's deal loop (a serial kernel per
Python thread, sim.plugin.runs.play_on_threads) ``mc_search_decide`` stays serial: one deal, one thread.
"""

import numpy as np
from numba import njit, prange

from sim.games.persian.cards_nb import card_value, mask_value
from sim.games.persian.enums import (
    D_DISCARD,
    D_DRAW,
    D_PLAY,
    END_OUT,
    MAX_MOVES,
    MOVE_COLS,
    MV_PASS,
    MV_STOCK,
    MV_STOP,
    MV_TAKE,
    N_CARDS,
    N_RESULT_COLS,
    N_SEATS,
    O_DECISION,
    O_HAND,
    O_SEAT,
    ST_SIZE,
)
from sim.games.persian.state_nb import GOING_ON, apply_row, team_of
from sim.core.rng_nb import next_u64, stream_key
from sim.games.persian.determinize_nb import determinize_into
from strategies.persian.expert_nb import expert_decide
from strategies.persian.greedy_nb import P_MAX_EXTRA as GREEDY_MAX_EXTRA
from strategies.persian.greedy_nb import greedy_decide
from strategies.persian.hand_melds_nb import meldable_mask, partial_meld_mask
from strategies.persian.learned_nb import LEARNED_WEIGHTS, best_scored
from strategies.persian.moves_nb import move_points
from strategies.persian.rollout_nb import play_out, team_totals

P_SAMPLES = 0
P_ROLLOUT_POLICY = 1
P_MAX_CANDIDATES = 2
P_ROLLOUT_TURNS = 3
P_ROLLOUT_MAX_EXTRA = 4
P_RACE_Z = 5
P_RACE_MIN = 6
P_BASE = 7
P_SELECT_Z = 8

BASE_GREEDY = 0
BASE_EXPERT = 1
BASE_LEARNED = 2
# expert's parameter row when it is the base (a fixed snapshot of its registered defaults,
# strategies/persian/builtins.py, in expert_nb's slot order), so retuning expert later does
# not silently change mc_search
EXPERT_PARAMS = np.array([55.0, -30.0, 0.5, 0.5, 1.0, 1.0, 1.0, 0.0, 0.0, 2.0, 12.0, 3.0, 0.0, 0.5, 2.0, 0.0])

RACE_MAX_CELLS = 1 << 16  # largest samples x candidates score table a decision keeps
WORLD_STREAM0 = 1 << 20  # analyse_decision: world w draws from stream WORLD_STREAM0 + w

_KEEP = 1e12  # prior of a move that is always searched


@njit(cache=True)
def move_prior(decision, obs, moves, i, base, loose):
    """A cheap score for pruning candidates: higher is searched first.

    Parameters
    ----------
    decision : D_* code of the decision
    obs : the seat's observation (P10)
    moves, i : the legal move rows and the row scored
    base : meldable points of the hand before a draw (draws only)
    loose : cards in no partial meld (discards only)
    """
    kind = moves[i, 0]
    if decision == D_DRAW:
        if kind != MV_TAKE:
            return _KEEP
        taken = moves[i, 3]
        h2 = obs[O_HAND] | taken
        used = meldable_mask(h2, obs)
        return np.float64(mask_value(used) - base - mask_value(taken & ~used))
    if decision == D_PLAY:
        if kind == MV_STOP:
            return _KEEP
        return np.float64(move_points(obs, moves, i))
    c = moves[i, 1]
    v = np.float64(card_value(c))
    if (loose >> c) & 1:
        v += 100.0
    return v


@njit(cache=True)
def choose_candidates(decision, obs, moves, n, gparams, rng, max_cand, cand, base=BASE_GREEDY):
    """Write the candidate move indices into ``cand`` (the base's move first); returns how many.

    Parameters
    ----------
    decision, obs, moves, n : as for a strategy (the base strategy is asked first)
    gparams, rng : greedy's parameter row and the random stream
    max_cand : candidates wanted (<= 0: every legal move)
    cand : int64[n], filled with the candidate indices
    base : BASE_GREEDY, BASE_EXPERT or BASE_LEARNED, whose move leads (expert with EXPERT_PARAMS,
        learned with its committed weights over expert with EXPERT_PARAMS)
    """
    ep = np.empty(EXPERT_PARAMS.shape[0], np.float64)  # a writable row: expert_decide's engine signature
    for i in range(ep.shape[0]):
        ep[i] = EXPERT_PARAMS[i]
    if base == BASE_EXPERT:
        first = expert_decide(decision, obs, moves, n, ep, rng)
    elif base == BASE_LEARNED:
        first = best_scored(decision, obs, moves, n, LEARNED_WEIGHTS, ep, rng)
    else:
        first = greedy_decide(decision, obs, moves, n, gparams, rng)
    if first < 0 or first >= n:
        first = 0
    if max_cand <= 0 or max_cand >= n:
        cand[0] = first
        nc = 1
        for i in range(n):
            if i != first:
                cand[nc] = i
                nc += 1
        return nc
    if base == BASE_EXPERT or base == BASE_LEARNED:
        return expert_ranked(decision, obs, moves, n, ep, rng, max_cand, cand, first)
    hand = obs[O_HAND]
    base_pts = 0
    loose = np.int64(0)
    if decision == D_DRAW:
        base_pts = mask_value(meldable_mask(hand, obs))
    elif decision == D_DISCARD:
        loose = hand & ~partial_meld_mask(hand)
    prior = np.empty(n, np.float64)
    for i in range(n):
        prior[i] = move_prior(decision, obs, moves, i, base_pts, loose)
    prior[first] = 2.0 * _KEEP
    nc = 0
    limit = max_cand
    while True:
        best = -1
        best_p = -np.inf
        for i in range(n):
            if prior[i] > best_p:
                best_p = prior[i]
                best = i
        if best < 0:
            break
        if nc >= limit and best_p < _KEEP:
            break
        cand[nc] = best
        nc += 1
        prior[best] = -np.inf
    return nc


@njit(cache=True)
def expert_ranked(decision, obs, moves, n, ep, rng, max_cand, cand, first):
    """The prior with base=expert: expert's own order of the legal moves. Its move
    (``first``) leads; the next candidate is the move it would make if the ones already
    listed were not legal, and so on, ``max_cand`` of them; the stock, a pass and stop
    are kept whatever their rank (as in the value prior). ``ep``: expert's parameter row
    (a writable copy of EXPERT_PARAMS). Returns how many."""
    sub = np.empty((n, MOVE_COLS), np.int64)
    row = np.empty(n, np.int64)
    listed = np.zeros(n, np.bool_)
    cand[0] = first
    listed[first] = True
    nc = 1
    while nc < max_cand:
        m = 0
        for i in range(n):
            if not listed[i]:
                for j in range(MOVE_COLS):
                    sub[m, j] = moves[i, j]
                row[m] = i
                m += 1
        k = expert_decide(decision, obs, sub, m, ep, rng) if m > 1 else 0
        if k < 0 or k >= m:
            k = 0
        cand[nc] = row[k]
        listed[row[k]] = True
        nc += 1
    for i in range(n):
        kind = moves[i, 0]
        if not listed[i] and (kind == MV_STOCK or kind == MV_PASS or kind == MV_STOP):
            cand[nc] = i
            nc += 1
    return nc


@njit(cache=True)
def greedy_params(params):
    """The greedy play-out policy's parameter row, from mc_search's parameter row."""
    gparams = np.zeros(GREEDY_MAX_EXTRA + 1, np.float64)
    gparams[GREEDY_MAX_EXTRA] = params[P_ROLLOUT_MAX_EXTRA]
    return gparams


@njit(cache=True)
def candidate_score(world, sim, decision, moves, i, team, policy, max_turns, gparams, rseed, rr, scratch, res):
    """Own team's total minus the other team's after move row ``i`` and a play-out, from
    ``world`` (copied into ``sim``; ``world`` is not changed). ``rseed`` starts the
    play-out's random stream in ``rr`` (the same for every candidate: paired play-outs)."""
    for j in range(world.shape[0]):  # (a loop: a slice assignment compiles numba's shape-error message)
        sim[j] = world[j]
    end = apply_row(sim, decision, moves[i, 0], moves[i, 1], moves[i, 2], res)
    out_seat = sim[O_SEAT] if end == END_OUT else -1
    if end == GOING_ON:
        rr[0] = rseed
        end, out_seat = play_out(sim, policy, max_turns, gparams, rr, scratch, res)
    t0, t1 = team_totals(sim, end, out_seat, res)
    return np.float64((t0 - t1) if team == 0 else (t1 - t0))


@njit(cache=True)
def race_step(scores, k, nc, alive, z, race_min):
    """Drop candidates from the race after ``k`` worlds (see the module docstring, 5);
    returns how many are left. ``scores[w, c]``: candidate c's score in world w."""
    leader = -1
    best = -np.inf
    for c in range(nc):
        if alive[c]:
            s = 0.0
            for w in range(k):
                s += scores[w, c]
            if s > best:
                best = s
                leader = c
    left = 0
    for c in range(nc):
        if not alive[c]:
            continue
        if c != leader:
            s = 0.0
            ss = 0.0
            for w in range(k):
                d = scores[w, c] - scores[w, leader]
                s += d
                ss += d * d
            mean = s / k
            var = max(0.0, (ss - k * mean * mean) / (k - 1)) if k > 1 else 0.0
            if mean + z * np.sqrt(var / k) < 0.0:
                alive[c] = False
                continue
            if k == race_min:
                for e in range(c):
                    if alive[e]:
                        same = True
                        for w in range(k):
                            if scores[w, c] != scores[w, e]:
                                same = False
                                break
                        if same:
                            alive[c] = False
                            break
                if not alive[c]:
                    continue
        left += 1
    return left


@njit(cache=True)
def mc_search_decide(decision, obs, moves, n, params, rng):
    """Index of the candidate with the best mean play-out score over sampled worlds.

    Arguments and result: sim.plugin.strategy.STRATEGY_SIG (P10's observation slots).
    """
    samples = max(1, np.int64(params[P_SAMPLES]))
    policy = np.int64(params[P_ROLLOUT_POLICY])
    max_cand = np.int64(params[P_MAX_CANDIDATES])
    max_turns = np.int64(params[P_ROLLOUT_TURNS])
    z = params[P_RACE_Z]
    race_min = max(2, np.int64(params[P_RACE_MIN]))
    base = np.int64(params[P_BASE])
    select_z = params[P_SELECT_Z]
    gparams = greedy_params(params)
    cand = np.empty(n, np.int64)
    nc = choose_candidates(decision, obs, moves, n, gparams, rng, max_cand, cand, base)
    if nc == 1:
        return cand[0]
    racing = z > 0.0 and samples * nc <= RACE_MAX_CELLS and samples > race_min
    team = team_of(obs[O_SEAT])
    sums = np.zeros(nc, np.float64)
    dsq = np.zeros(nc, np.float64)  # sums of squared differences to candidate 0 (select_z)
    alive = np.ones(nc, np.bool_)
    scores = np.empty((samples if racing else 1, nc), np.float64)
    world = np.empty(ST_SIZE, np.int64)
    sim = np.empty(ST_SIZE, np.int64)
    known = np.empty(N_SEATS, np.int64)
    pool = np.empty(N_CARDS, np.int64)
    scratch = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
    res = np.zeros(N_RESULT_COLS, np.int64)
    rr = np.empty(1, np.uint64)
    left = nc
    played = 0
    for w in range(samples):
        determinize_into(obs, rng, world, known, pool)
        if left == 1:
            next_u64(rng)  # the stream advances as without racing
            continue
        played += 1
        world[O_DECISION] = decision
        rseed = next_u64(rng)
        x0 = 0.0
        for c in range(nc):
            if not alive[c]:
                continue
            x = candidate_score(world, sim, decision, moves, cand[c], team, policy, max_turns, gparams,
                                rseed, rr, scratch, res)
            sums[c] += x
            if c == 0:
                x0 = x
            elif alive[0]:
                dsq[c] += (x - x0) * (x - x0)
            if racing:
                scores[w, c] = x
        if racing and w + 1 >= race_min:
            left = race_step(scores, w + 1, nc, alive, z, race_min)
    return cand[select_best(sums, dsq, alive, nc, played, select_z)]


@njit(cache=True)
def select_best(sums, dsq, alive, nc, k, select_z):
    """Index (into the candidates) of the move played: the best mean over the ``k`` worlds
    every live candidate was played in; with ``select_z`` > 0 and candidate 0 (the base's
    move) still live, the best lower confidence bound of the paired difference to the base,
    mean - select_z * sd / sqrt(k) (the base's own bound is 0), so a move leaves the base's
    only when it is ahead by more than the noise of its sampled worlds. ``sums[c]``: the
    candidate's total score; ``dsq[c]``: its summed squared differences to candidate 0."""
    best = -1
    if select_z > 0.0 and alive[0] and k >= 2:
        best = 0
        best_v = 0.0
        for c in range(1, nc):
            if not alive[c]:
                continue
            d = (sums[c] - sums[0]) / k
            var = max(0.0, (dsq[c] - k * d * d) / (k - 1))
            v = d - select_z * np.sqrt(var / k)
            if v > best_v:
                best_v = v
                best = c
        return best
    for c in range(nc):
        if alive[c] and (best < 0 or sums[c] > sums[best]):
            best = c
    return best


@njit(cache=True, parallel=True)
def analyse_decision(obs, decision, moves, n, params, seed, deal):
    """Every legal move's play-out score in each of ``params[P_SAMPLES]`` sampled worlds,
    the worlds played in parallel (no racing, no pruning: every move in every world).

    World w is dealt from the stream ``stream_key(seed, deal, WORLD_STREAM0 + w)``
    alone (its play-outs continue that stream, one rollout seed per world as in
    ``mc_search_decide``), so the table is the same on any number of threads.

    Parameters
    ----------
    obs : int64[OBS_SIZE], the deciding seat's observation (P10)
    decision : D_* code of the decision
    moves, n : the legal move rows; rows 0..n-1 are the ``n`` legal moves
    params : mc_search's float64 parameter row (samples, rollout_policy, rollout_turns and
        rollout_max_extra are used)
    seed, deal : where the worlds' random streams come from

    Returns float64[samples, n]: own team's total minus the other team's after move i and
    a play-out in world w (P8).
    """
    samples = max(1, np.int64(params[P_SAMPLES]))
    policy = np.int64(params[P_ROLLOUT_POLICY])
    max_turns = np.int64(params[P_ROLLOUT_TURNS])
    gparams = greedy_params(params)
    team = team_of(obs[O_SEAT])
    out = np.empty((samples, n), np.float64)
    for w in prange(samples):
        rng = np.empty(1, np.uint64)
        rng[0] = stream_key(seed, deal, WORLD_STREAM0 + w)
        world = np.empty(ST_SIZE, np.int64)
        sim = np.empty(ST_SIZE, np.int64)
        known = np.empty(N_SEATS, np.int64)
        pool = np.empty(N_CARDS, np.int64)
        scratch = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
        res = np.zeros(N_RESULT_COLS, np.int64)
        rr = np.empty(1, np.uint64)
        determinize_into(obs, rng, world, known, pool)
        world[O_DECISION] = decision
        rseed = next_u64(rng)
        for i in range(n):
            out[w, i] = candidate_score(world, sim, decision, moves, i, team, policy, max_turns, gparams,
                                        rseed, rr, scratch, res)
    return out
