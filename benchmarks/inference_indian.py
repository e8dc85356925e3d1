"""Does --infer read the opponents in Indian Rummy? Measured on engine deals, where the hidden cards are known (issue 24).

    PYTHONPATH=. nice -n 19 .venv/bin/python benchmarks/inference.py --game indian [--deals 12] [--worlds 400]
        [--method weights|mcmc] [--chains 20 --burn 200 --thin 10]

Records ``--deals`` 4-seat Indian deals of ``expert`` in every seat and takes the draw and the
discard decision of the turns at about 1/2 and 2/3 of each deal (those with at least 3 choices of
other seats still in the deal to read), and for each:

1. **Likelihood of the truth.** The log-likelihood of the other seats' recorded choices
   (sim/games/indian/infer.py) in the true state, minus the log of its mean over the uniform
   worlds: log(posterior / prior density) at the true hidden hands, in nats (0: the inference
   says nothing about the truth). Also the truth's mid-rank among the worlds (0.5: a random world).
2. **Better moves?** Every candidate is played in the same ``--worlds`` worlds with ``--policy``
   play-outs (one score matrix, as ``analyze(racing=False)``); the uniform pick is the best plain
   mean, the inferred pick the best weighted mean. Where they differ both are played from the
   *true* state (stock reshuffled per repeat, its bottom card kept, ``--repeats`` play-outs) and
   the paired difference inferred minus uniform pick is averaged over positions (agreeing picks
   count 0). A position whose ESS is below the floor is left out of 2 and counted.
Means with Student-t 95% CIs over positions.

``--method mcmc``: the inferred worlds are ``--worlds`` equal-weight worlds of Metropolis-Hastings
chains (infer.chain_worlds) instead of the weighted uniform worlds; the gain (1) is the same
quantity (it is the posterior's, computed over the uniform worlds), the rank is then the truth's
among the chain worlds' log-likelihoods (fresh estimates: the chains' own are the lucky ones their
worlds were kept with; 0.5: the truth looks like a posterior draw), the ESS the chains'
(sim.apps.analysis.mcmc.chains_ess), and the inferred pick the best plain mean over them.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from benchmarks.inference_summary import report
from sim.apps.analysis.weighted import ess, normalise
from sim.core.rng_nb import shuffle_inplace, stream_key
from sim.games import get_game
from sim.games.indian import enums as E
from sim.games.indian.decisions import (AnalysisInputError, _draw_move, _end_move, _set_stock, _turns,
                                        decision_from_log, policy_args, start_position)
from sim.games.indian.decisions_nb import STREAM_POLICY0, _net_after, play_states, play_worlds
from sim.games.indian.engine_nb import MOVE_SLACK
from sim.games.indian.infer import chain_worlds, world_loglik, worlds_loglik
from sim.games.indian.position import row_to_move
from sim.plugin.specs import MAX_PARAMS


@njit
def play_truth(st0, cands, reps, seed, params, fns, out):
    """out[r, c]: candidate row c played in the true state ``st0``, its stock (above the bottom
    card) reshuffled by repeat r, then the deal played out with the policies."""
    n = st0[E.O_STOCK_N]
    st = np.empty(E.ST_SIZE, np.int64)
    buf = np.empty(E.MAX_SHOE, np.int64)
    pobs = np.empty(E.OBS_SIZE, np.int64)
    moves = np.empty((E.MAX_MOVES, E.MOVE_COLS), np.int64)
    mv = np.zeros((E.MAX_MOVES + MOVE_SLACK, E.MOVE_COLS), np.int64)
    prm = np.empty(MAX_PARAMS, np.float64)
    res = np.zeros(E.N_RESULT_COLS, np.int64)
    rs = np.empty(1, np.uint64)
    srng = np.empty((E.MAX_SEATS, 1), np.uint64)
    for r in range(reps):
        base = st0.copy()
        rs[0] = stream_key(seed, r, 77)
        if n > 2:
            shuffle_inplace(base[E.S_STOCK + 1: E.S_STOCK + n], rs)
        for c in range(cands.shape[0]):
            st[:] = base
            res[:] = 0
            rs[0] = stream_key(seed, r, 78)
            for s in range(E.MAX_SEATS):
                srng[s, 0] = stream_key(seed, r, STREAM_POLICY0 + s)
            out[r, c] = _net_after(st, cands[c], fns, params, srng, rs, buf, pobs, moves, mv, prm, res)


def true_state(log, dec):
    """The true state at ``dec`` (the benchmark may look: it scores the inference against it)."""
    pos = start_position(log)
    for n, entry in _turns(log):
        if n == 0:
            _set_stock(pos, entry["reshuffle"])
            continue
        if n == dec.turn:
            if dec.decision == E.D_DISCARD:
                pos.apply(_draw_move(entry))
            break
        pos.apply(_draw_move(entry))
        if _end_move(entry) is not None:
            pos.apply(_end_move(entry))
    assert [row_to_move(r) for r in pos.legal_rows()] == [row_to_move(r) for r in dec.rows]
    return pos.st.copy()


def positions(logs):
    for log in logs:
        n = sum(1 for t, _ in _turns(log) if t)
        for t in sorted({n // 2, 2 * n // 3}):
            for phase in ("draw", "discard"):
                try:
                    dec = decision_from_log(log, t, phase)
                except AnalysisInputError:
                    continue
                used = [c for c in dec.history.choices if dec.obs[E.O_STATUS + c.seat] == E.ST_IN]
                if len(used) >= 3:
                    yield log, dec


def inferred(args, dec, ll, lt, iparams, ifns, pparams, pfns, scores):
    """(rank of the truth, ESS, the inferred pick or None when below the floor) under ``args.method``;
    ``ll`` the uniform worlds' log-likelihoods, ``scores`` their score matrix (filled lazily)."""
    if args.method == "weights":
        w = normalise(ll)
        rank, n_eff = (np.sum(ll < lt) + 0.5 * np.sum(ll == lt)) / ll.size, ess(w)
        return rank, n_eff, (int(np.argmax(w @ scores())) if n_eff >= args.ess_floor else None)
    states, ch = chain_worlds(dec.obs, dec.history, args.worlds, 0, iparams, ifns, args.tremble, args.chains,
                              args.burn, args.thin, args.histories)
    # fresh estimates (new streams): the chains' own are the ones their worlds were kept with
    cl = np.array([world_loglik(dec.history, st, 10**6 + 1 + i, 0, iparams, ifns, args.tremble)
                   for i, st in enumerate(states)])
    rank = (np.sum(cl < lt) + 0.5 * np.sum(cl == lt)) / cl.size
    if ch.ess < args.ess_floor:
        return rank, ch.ess, None
    out = np.zeros((args.worlds, len(dec.rows)))
    play_states(np.ascontiguousarray(dec.rows), states, np.arange(args.worlds, dtype=np.int64), 0, pparams, pfns,
                out)
    return rank, ch.ess, int(np.argmax(out.mean(axis=0)))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="indian")
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--worlds", type=int, default=400)
    ap.add_argument("--infer", default="expert")
    ap.add_argument("--policy", default="expert")
    ap.add_argument("--tremble", type=float, default=0.5)
    ap.add_argument("--ess-floor", type=float, default=10.0)
    ap.add_argument("--repeats", type=int, default=200)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--method", default="weights", choices=("weights", "mcmc"))
    ap.add_argument("--chains", type=int, default=20)
    ap.add_argument("--burn", type=int, default=200)
    ap.add_argument("--thin", type=int, default=10)
    ap.add_argument("--histories", type=int, default=1, help="mcmc: random past-hand histories per likelihood")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    logs = get_game("indian").record_logs([args.infer] * 4, args.deals, args.seed)
    _, iparams, ifns = policy_args(args.infer, 4)
    _, pparams, pfns = policy_args(args.policy, 4)
    gains, ranks, diffs, differ, failed, ess_all = [], [], [], 0, 0, []
    worlds = np.arange(args.worlds, dtype=np.int64)
    for log, dec in positions(logs):
        truth = true_state(log, dec)
        ll = worlds_loglik(dec.obs, dec.history, worlds, 0, iparams, ifns, args.tremble)
        lt = world_loglik(dec.history, truth, 10**6, 0, iparams, ifns, args.tremble)
        top = ll.max()
        gains.append(lt - (top + np.log(np.mean(np.exp(ll - top)))))
        memo = []

        def scores():
            if not memo:
                memo.append(np.zeros((args.worlds, len(dec.rows))))
                play_worlds(dec.obs, np.ascontiguousarray(dec.rows), worlds, np.int64(0), pparams, pfns, memo[0])
            return memo[0]
        rank, n_eff, bi = inferred(args, dec, ll, lt, iparams, ifns, pparams, pfns, scores)
        ranks.append(rank)
        ess_all.append(n_eff)
        if bi is None:
            failed += 1
            continue
        bu = int(np.argmax(scores().mean(axis=0)))
        if bu == bi:
            diffs.append(0.0)
            continue
        differ += 1
        out = np.zeros((args.repeats, 2))
        play_truth(truth, np.ascontiguousarray(dec.rows[[bi, bu]]), args.repeats, 5, pparams, pfns, out)
        diffs.append(float(np.nanmean(out[:, 0] - out[:, 1])))
    header = (f"indian: positions {len(gains)} (draw and discard decisions at 1/2 and 2/3 of {args.deals} expert "
              f"deals, seed {args.seed}); {args.worlds} worlds; --infer {args.infer}, tremble {args.tremble}; "
              f"method {args.method}" + (f" ({args.chains} chains, burn-in {args.burn}, thinning {args.thin}, "
                                         f"histories {args.histories})" if args.method == "mcmc" else ""))
    report(header, args, gains, ranks, ess_all, diffs, differ, failed, time.perf_counter() - t0)


if __name__ == "__main__":
    main()
