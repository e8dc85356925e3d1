"""Expert iteration for Persian Rummy's `learned` strategy (issue 25): search values, then a fit.

One round: play ``deals`` deals with the current strategy in every seat (recorded, P3-P7), pick
``per_deal`` unforced decisions of each at random, value every legal move of each by the decision
analysis play-outs (sim/games/persian/decisions_nb.play_worlds: ``samples`` sampled worlds, the
same worlds for every move, the current strategy in every seat afterwards), compute each move's
features (features_nb) and fit, per decision kind, a ridge regression of a move's value minus the
decision's mean value on its features minus the decision's mean features (only differences
between the moves of one decision matter). The fitted weights become the next round's strategy.
After each round the new strategy meets expert on fresh duplicate deals (a seed no round trains
on) and the report records the difference with its 95% CI.

Everything is drawn from ``seed``: the same seed gives the same weights. ``--resume`` continues
from the rounds already in ``--out`` (state.json after each round).

    python -m strategies.persian.train --rounds 2 --deals 200 --samples 48 --seed 1 --out DIR
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from sim.games.persian.decisions import decisions_in, policy_args
from sim.games.persian.decisions_nb import play_worlds
from sim.games.persian.recording import record_logs
from sim.plugin.registry import register_strategy
from sim.plugin.strategy import STRATEGY_SIG
from sim.studies.match import play_match
from strategies.persian.expert_nb import expert_decide
from strategies.persian.features_nb import FEATURE_NAMES, N_FEATURES, features_into
from strategies.persian.learned_nb import EXPERT_PARAMS, best_scored

N_KINDS = 3  # draw, play, discard
EXPERT_ONLY = np.array([[1.0] + [0.0] * (N_FEATURES - 1)] * N_KINDS)
EVAL_SEED_OFFSET = 1_000_003  # evaluation deals use seed + this + round: never a training deal


def make_learned(weights: np.ndarray, name: str):
    """Register the user strategy ``name`` playing ``weights`` (3 x N_FEATURES) and return its name."""
    w = np.ascontiguousarray(weights, dtype=np.float64).reshape(N_KINDS, N_FEATURES)
    ep = EXPERT_PARAMS

    @njit(STRATEGY_SIG)
    def learned_round(decision, obs, moves, n, params, rng):
        return best_scored(decision, obs, moves, n, w, ep, rng)

    register_strategy(name, learned_round, doc="learned weights of a training round")
    return name


def move_values(dec, samples: int, seed: int, policy: str) -> np.ndarray:
    """Mean own-team minus other-team points of every legal move of ``dec`` over the same worlds."""
    _, params, fns = policy_args(policy)
    rows = np.ascontiguousarray(dec.rows, dtype=np.int64)
    out = np.zeros((samples, len(rows)), dtype=np.float64)
    play_worlds(np.ascontiguousarray(dec.obs, dtype=np.int64), np.int64(dec.decision), rows,
                np.arange(samples, dtype=np.int64), np.int64(seed), params, fns, np.int64(0), out)
    return np.nanmean(out, axis=0)


def decision_features(dec) -> np.ndarray:
    """Every legal move's features (n x N_FEATURES), expert's choice computed on the same observation."""
    obs = np.ascontiguousarray(dec.obs, dtype=np.int64)
    rows = np.ascontiguousarray(dec.rows, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    chosen = expert_decide(np.int64(dec.decision), obs, rows, np.int64(len(rows)), EXPERT_PARAMS, rng)
    out = np.zeros((len(rows), N_FEATURES), dtype=np.float64)
    features_into(np.int64(dec.decision), obs, rows, np.int64(len(rows)), np.int64(chosen), out)
    return out


def collect(policy: str, deals: int, per_deal: int, samples: int, seed: int, first_deal: int, progress=None):
    """(kind, centred features, centred values) of the sampled decisions of one round's deals."""
    logs = record_logs(policy, range(first_deal, first_deal + deals), seed)
    pick = np.random.default_rng([seed, first_deal])
    data = []
    for k, log in enumerate(logs):
        decs = list(decisions_in(log))
        for j in sorted(pick.choice(len(decs), size=min(per_deal, len(decs)), replace=False)):
            dec = decs[j]
            x = decision_features(dec)
            v = move_values(dec, samples, seed * 1_000_003 + first_deal + k * 131 + int(j), policy)
            data.append((dec.decision, x - x.mean(axis=0), v - v.mean()))
        if progress is not None:
            progress(k + 1, deals)
    return data


def fit(data, ridge: float = 1e-3) -> np.ndarray:
    """Per decision kind, least squares with a ridge penalty (weights 3 x N_FEATURES; a kind
    without data keeps expert's row)."""
    w = EXPERT_ONLY.copy()
    for kind in range(N_KINDS):
        xs = [x for d, x, _ in data if d == kind]
        if not xs:
            continue
        x = np.vstack(xs)
        y = np.concatenate([v for d, _, v in data if d == kind])
        a = x.T @ x + ridge * len(y) * np.eye(N_FEATURES)
        w[kind] = np.linalg.solve(a, x.T @ y)
    return w


def bar(done: int, total: int) -> None:
    """A one-line progress bar on stderr."""
    k = 30 * done // max(total, 1)
    sys.stderr.write(f"\r  [{'#' * k}{'.' * (30 - k)}] {done}/{total} deals")
    if done == total:
        sys.stderr.write("\n")


def train(rounds: int, deals: int, per_deal: int, samples: int, seed: int, out: str | Path,
          eval_deals: int = 2000, resume: bool = False, progress=bar) -> dict:
    """Run ``rounds`` rounds of expert iteration into ``out`` (state.json, weights.npz, report.md)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    state_file = out / "state.json"
    state = {"seed": seed, "deals": deals, "per_deal": per_deal, "samples": samples, "rounds": []}
    if resume and state_file.exists():
        state = json.loads(state_file.read_text())
    weights = np.array(state["rounds"][-1]["weights"]) if state["rounds"] else EXPERT_ONLY.copy()
    for r in range(len(state["rounds"]), rounds):
        t0 = time.perf_counter()
        policy = "expert" if r == 0 else make_learned(weights, f"learned_round{r}")
        data = collect(policy, deals, per_deal, samples, seed, first_deal=r * deals, progress=progress)
        weights = fit(data)
        name = make_learned(weights, f"learned_fit{r + 1}")
        m = play_match(name, "expert", deals=eval_deals, seed=seed + EVAL_SEED_OFFSET + r, keep_plays=False)
        s = m.summary
        state["rounds"].append({"round": r + 1, "decisions": len(data), "weights": weights.tolist(),
                                "vs_expert": s["mean_diff"], "ci95": s["ci95"], "eval_deal_sets": eval_deals,
                                "seconds": time.perf_counter() - t0})
        state_file.write_text(json.dumps(state, indent=1))
        np.savez(out / "weights.npz", weights=weights)
        (out / "report.md").write_text(report(state))
    return state


def report(state: dict) -> str:
    """The training report: strength against expert per round, and what the last model weighs."""
    lines = ["# learned (Persian): expert iteration", "",
             f"seed {state['seed']}, {state['deals']} deals per round, {state['per_deal']} decisions per deal, "
             f"{state['samples']} worlds per move", "",
             "| round | decisions fitted | learned - expert per deal | 95% CI | deal sets | seconds |",
             "|---|---|---|---|---|---|"]
    for r in state["rounds"]:
        lo, hi = r["ci95"]
        lines.append(f"| {r['round']} | {r['decisions']} | {r['vs_expert']:+.2f} | [{lo:+.2f}, {hi:+.2f}] | "
                     f"{r['eval_deal_sets']} | {r['seconds']:.0f} |")
    if state["rounds"]:
        w = np.array(state["rounds"][-1]["weights"])
        lines += ["", "What the last model weighs (points of value per unit of feature):", "",
                  "| feature | draw | play | discard |", "|---|---|---|---|"]
        for k, f in enumerate(FEATURE_NAMES):
            lines.append(f"| {f} | {w[0, k]:+.2f} | {w[1, k]:+.2f} | {w[2, k]:+.2f} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m strategies.persian.train", description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--deals", type=int, default=200, help="deals played per round")
    p.add_argument("--per-deal", type=int, default=8, help="decisions valued per deal")
    p.add_argument("--samples", type=int, default=48, help="sampled worlds per decision")
    p.add_argument("--eval-deals", type=int, default=2000, help="duplicate deal sets against expert per round")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--resume", action="store_true")
    a = p.parse_args(argv)
    for name in ("rounds", "deals", "per_deal", "samples", "eval_deals"):
        if getattr(a, name) < 1:
            print(f"train: --{name.replace('_', '-')} must be at least 1, got {getattr(a, name)}", file=sys.stderr)
            return 2
    state = train(a.rounds, a.deals, a.per_deal, a.samples, a.seed, a.out, a.eval_deals, a.resume)
    print(report(state))
    return 0


if __name__ == "__main__":
    sys.exit(main())
