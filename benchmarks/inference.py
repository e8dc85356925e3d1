"""Does --infer read the other seats? Measured on engine deals, where the hidden cards are known (issue 24, item 3).

    PYTHONPATH=. nice -n 19 .venv/bin/python benchmarks/inference.py [--deals 15] [--worlds 400] [--infer expert]
        [--method weights|mcmc] [--chains 20 --burn 200 --thin 10]

(``--game indian``: the same measurement for Indian Rummy, benchmarks/inference_indian.py.)

Records ``--deals`` Persian deals of ``expert`` in every seat, takes the discard decisions at
about 1/2 and 2/3 of each deal, and for each:

1. **Likelihood of the truth.** The log-likelihood of the other seats' recorded draws and discards
   (sim/games/persian/infer.py) in the true state, minus the log of its mean over the uniform
   worlds: log(posterior / prior density) at the true hidden hands, in nats. 0 means the inference
   says nothing about the truth; > 0 that the weighted worlds make the true hands more likely than
   uniform worlds do. Also the truth's mid-rank among the worlds' log-likelihoods (0.5: no better
   than a random world).
2. **Better moves?** The best discard of the analysis with and without --infer (same worlds,
   ``--policy`` play-outs, no race); where they differ, both are played from the *true* state
   (true hands, the stock reshuffled per repeat, ``--repeats`` play-outs with the policy in every
   seat) and the paired difference inferred-pick minus uniform-pick is averaged over positions
   (positions where the picks agree count 0). A position whose inference fails (ESS below the floor)
   is left out of 2 and counted.
Means with Student-t 95% CIs over positions.

``--method mcmc`` (``--chains``, ``--burn``, ``--thin``): the inferred worlds are ``--worlds``
equal-weight worlds of Metropolis-Hastings chains (infer.chain_worlds); the gain (1) is the same
quantity, the rank the truth's among the chain worlds' log-likelihoods (fresh estimates: the
chains' own are the lucky ones their worlds were kept with; 0.5: the truth looks like a posterior
draw), the ESS the chains' (sim.apps.analysis.mcmc.chains_ess), the inferred pick the best mean
over the chain worlds (what ``analyze(infer_method="mcmc")`` plays).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from numba import njit, prange, types

from benchmarks.inference_summary import report
from sim.apps.analysis.weighted import ess, normalise
from sim.core.rng_nb import shuffle_inplace, stream_key
from sim.games import get_game
from sim.games.persian import enums as E
from sim.games.persian.decisions import (AnalysisInputError, analyze, decision_from_log, policy_args,
                                         start_position, turn_moves)
from sim.games.persian.decisions_nb import STREAM_POLICY0, _play_on, _team_diff, play_states
from sim.games.persian.infer import chain_worlds, world_loglik, worlds_loglik
from sim.games.persian.state_nb import GOING_ON, apply_row
from sim.plugin.strategy import SEAT_FNS


@njit(types.void(types.int64[::1], types.int64, types.int64[:, ::1], types.int64, types.int64,
                 types.float64[:, ::1], SEAT_FNS, types.float64[:, ::1]), parallel=True)
def play_truth(st0, decision, cands, reps, seed, params, fns, out):
    """out[r, c]: candidate c played in the true state ``st0`` (its stock reshuffled by repeat r)."""
    team = st0[E.O_SEAT] % 2
    n_stock = st0[E.O_STOCK_N]
    for r in prange(reps):
        base = st0.copy()
        rng = np.empty(1, np.uint64)
        rng[0] = stream_key(seed, r, 77)
        shuffle_inplace(base[E.S_STOCK: E.S_STOCK + n_stock], rng)
        st = np.empty(E.ST_SIZE, np.int64)
        obs = np.empty(E.OBS_SIZE, np.int64)
        moves = np.empty((E.MAX_MOVES, E.MOVE_COLS), np.int64)
        res = np.zeros(E.N_RESULT_COLS, np.int64)
        srng = np.empty((E.N_SEATS, 1), np.uint64)
        for c in range(cands.shape[0]):
            st[:] = base
            res[:] = 0
            for s in range(E.N_SEATS):
                srng[s, 0] = stream_key(seed, r, STREAM_POLICY0 + s)
            end = apply_row(st, decision, cands[c, 0], cands[c, 1], cands[c, 2], res)
            if end == GOING_ON:
                end = _play_on(st, fns, params, srng, obs, moves, res)
            out[r, c] = np.nan if end == E.END_ERROR else np.float64(_team_diff(st, end, team, res))


def true_state(log, dec):
    """The true state at ``dec`` (the benchmark may look: it scores the inference against it)."""
    pos = start_position(log)
    for t in log["turns"][: dec.turn - 1]:
        for _, m in turn_moves(t):
            pos.apply(m)
    for phase, m in turn_moves(log["turns"][dec.turn - 1]):
        if phase == "discard":
            break
        pos.apply(m)
    return pos.st.copy()


def positions(logs):
    for log in logs:
        n = len(log["turns"])
        for t in sorted({n // 2, 2 * n // 3}):
            try:
                dec = decision_from_log(log, t, "discard")
            except AnalysisInputError:
                continue
            if len(dec.history.choices) >= 4:
                yield log, dec


def inferred(args, dec, ll, lt, iparams, ifns, pparams, pfns):
    """(rank of the truth, ESS, the inferred pick's label or None when below the floor) under
    ``args.method``; ``ll`` the uniform worlds' log-likelihoods, ``lt`` the truth's."""
    if args.method == "weights":
        rank, n_eff = (np.sum(ll < lt) + 0.5 * np.sum(ll == lt)) / ll.size, ess(normalise(ll))
        if n_eff < args.ess_floor:
            return rank, n_eff, None
        kw = dict(samples=args.worlds, policy=args.policy, racing=False)
        return rank, n_eff, analyze(dec, infer=args.infer, tremble=args.tremble, ess_floor=args.ess_floor,
                                    **kw).best["move"]
    states, ch = chain_worlds(dec.obs, dec.history, args.worlds, 0, iparams, ifns, args.tremble, args.chains,
                              args.burn, args.thin, args.histories)
    # fresh estimates (new streams): the chains' own are the ones their worlds were kept with
    cl = np.array([world_loglik(dec.history, st, 10**6 + 1 + i, 0, iparams, ifns, args.tremble)
                   for i, st in enumerate(states)])
    rank = (np.sum(cl < lt) + 0.5 * np.sum(cl == lt)) / cl.size
    if ch.ess < args.ess_floor:
        return rank, ch.ess, None
    states[:, E.O_DECISION] = dec.decision
    out = np.zeros((args.worlds, len(dec.rows)))
    play_states(np.ascontiguousarray(dec.obs), dec.decision, np.ascontiguousarray(dec.rows), states,
                np.arange(args.worlds, dtype=np.int64), 0, pparams, pfns, 0, out)
    return rank, ch.ess, dec.labels()[int(np.argmax(out.mean(axis=0)))]


def main() -> None:
    if "--game" in sys.argv and sys.argv[sys.argv.index("--game") + 1:][:1] == ["indian"]:
        import inference_indian  # benchmarks/inference_indian.py, beside this script

        inference_indian.main(sys.argv[1:])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="persian", choices=("persian", "indian"))
    ap.add_argument("--deals", type=int, default=15)
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
    args = ap.parse_args()
    t0 = time.perf_counter()
    logs = get_game("persian").record_logs(["expert", "expert"], args.deals, args.seed)
    _, iparams, ifns = policy_args(args.infer)
    _, pparams, pfns = policy_args(args.policy)
    gains, ranks, diffs, differ, failed, ess_all = [], [], [], 0, 0, []
    for log, dec in positions(logs):
        truth = true_state(log, dec)
        ll = worlds_loglik(dec.obs, dec.history, np.arange(args.worlds), 0, iparams, ifns, args.tremble)
        lt = world_loglik(dec.history, truth, 10**6, 0, iparams, ifns, args.tremble)
        top = ll.max()
        gains.append(lt - (top + np.log(np.mean(np.exp(ll - top)))))
        rank, n_eff, bi = inferred(args, dec, ll, lt, iparams, ifns, pparams, pfns)
        ranks.append(rank)
        ess_all.append(n_eff)
        if bi is None:
            failed += 1
            continue
        bu = analyze(dec, samples=args.worlds, policy=args.policy, racing=False).best["move"]
        if bu == bi:
            diffs.append(0.0)
            continue
        differ += 1
        labels = dec.labels()
        cands = np.ascontiguousarray(dec.rows[[labels.index(bi), labels.index(bu)]])
        out = np.zeros((args.repeats, 2))
        play_truth(truth, np.int64(dec.decision), cands, np.int64(args.repeats), np.int64(5), pparams, pfns, out)
        diffs.append(float(np.nanmean(out[:, 0] - out[:, 1])))
    header = (f"positions {len(gains)} (discards at 1/2 and 2/3 of {args.deals} expert deals, seed {args.seed}); "
              f"{args.worlds} worlds; --infer {args.infer}, tremble {args.tremble}; method {args.method}"
              + (f" ({args.chains} chains, burn-in {args.burn}, thinning {args.thin}, histories {args.histories})"
                 if args.method == "mcmc" else ""))
    report(header, args, gains, ranks, ess_all, diffs, differ, failed, time.perf_counter() - t0)


if __name__ == "__main__":
    main()
