"""Expert iteration for Persian Rummy's `learned` strategy (issue 25): search values, then a fit.

One round: play ``deals`` deals with the current strategy in every seat (P3-P7), pick
``per_deal`` unforced decisions of each at random, value every legal move of each by play-outs
from the TRUE state with only the stock order redrawn (strategies/persian/train_nb.py:
``samples`` stock orders, the same for every move, the current strategy in every seat
afterwards; the analysis's worlds drawn from the view alone make the other hands uniform,
which real hands are not), compute each move's features (features_nb, from the view alone),
and fit, per decision kind, a ridge regression of a move's value minus the value of expert's
move on its features minus those of expert's move (a ranking objective: only differences
between the moves of one decision matter, and feature 0, expert's own choice, becomes the
learned cost of leaving expert's move). ``margin`` points are added to that cost, so the
model leaves expert only where the fit sees a clear gain; kinds not in ``kinds`` keep
expert's row. The fitted weights become the next round's strategy. After each round the new
strategy meets expert on fresh duplicate deals (a seed no round trains on) and the report
records the difference with its 95% CI.

``values="view"`` (an option; the committed weights were trained with the default ``"true"``) values
each move instead as the audit and the decision analysis do: its mean over ``samples`` worlds drawn
from the deciding seat's view alone (sim/games/persian/decisions_nb.play_worlds, the sampler and
play-outs of ``analyze``; the other hands uniform), so the fit aims at the audit's yardstick.

Everything is drawn from ``seed``: the same seed gives the same weights. ``resume`` continues
from the rounds already in ``out`` (state.json after each round) with the same settings.

    rummy-sim train learned --rounds 1 --decisions 12000 --worlds 64 --seed 1 --out DIR
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.games.persian.decisions import policy_args
from sim.games.persian.decisions_nb import play_worlds
from sim.games.persian.enums import O_DECISION
from sim.games.persian.information import decision_states, view
from sim.apps.learning import SEED_MASK, fit_ranking, progress_bar, register_learned, report_text, train_rounds
from sim.studies.match import play_match
from strategies.persian.expert_nb import expert_decide
from strategies.persian.features_nb import FEATURE_NAMES, N_FEATURES, features_into
from strategies.persian.learned_nb import EXPERT_PARAMS, best_scored
from strategies.persian.train_nb import play_stock_worlds

TRAINS = ("learned",)  # the strategies this trainer learns (rummy-sim train SPEC, Game.trainer)
N_KINDS = 3  # draw, play, discard
KIND_NAMES = ("draw", "play", "discard")  # the D_* codes' names, in order
EXPERT_ONLY = np.array([[1.0] + [0.0] * (N_FEATURES - 1)] * N_KINDS)
RIDGE = 1e-4  # the ridge penalty per fitted row (of features scaled to about 1)
VALUES = ("true", "view")  # how a move is valued: play-outs from the true hands, or from worlds of the view


_MADE: dict[bytes, str] = {}  # weights -> the name already registered for them in this process


def make_learned(weights: np.ndarray, name: str) -> str:
    """Register the user strategy ``name`` playing ``weights`` (3 x N_FEATURES) and return its name;
    weights registered before in this process return that name (no second compile, ~0.7 s)."""
    w = np.ascontiguousarray(weights, dtype=np.float64).reshape(N_KINDS, N_FEATURES)
    return register_learned(w, name, "persian", best_scored, EXPERT_PARAMS, _MADE)


def move_values(state: np.ndarray, rows: np.ndarray, samples: int, seed: int, policy: str) -> np.ndarray:
    """Mean own-team minus other-team points of every legal move in ``state`` over the same
    ``samples`` stock orders (train_nb.play_stock_worlds)."""
    _, params, fns = policy_args(policy)
    out = np.zeros((samples, len(rows)), dtype=np.float64)
    play_stock_worlds(state, rows, np.arange(samples, dtype=np.int64), np.int64(seed & SEED_MASK), params, fns, out)
    return np.nanmean(out, axis=0)


def view_values(obs: np.ndarray, rows: np.ndarray, samples: int, seed: int, policy: str) -> np.ndarray:
    """Mean own-team minus other-team points of every legal move over the same ``samples`` worlds
    drawn from the seat's observation ``obs`` alone: the worlds and play-outs of the decision
    analysis (decisions_nb.play_worlds, the rest of the deal only), which the audit's points lost use."""
    _, params, fns = policy_args(policy)
    out = np.zeros((samples, len(rows)), dtype=np.float64)
    play_worlds(obs, np.int64(obs[O_DECISION]), rows, np.arange(samples, dtype=np.int64), np.int64(seed & SEED_MASK),
                params, fns, np.int64(0), out)
    return np.nanmean(out, axis=0)


def decision_features(obs: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, int]:
    """Every legal move's features (n x N_FEATURES) and expert's choice on the same observation."""
    obs = np.ascontiguousarray(obs, dtype=np.int64)
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    decision, n = np.int64(obs[O_DECISION]), np.int64(len(rows))
    chosen = int(expert_decide(decision, obs, rows, n, EXPERT_PARAMS, np.zeros(1, dtype=np.uint64)))
    out = np.zeros((len(rows), N_FEATURES), dtype=np.float64)
    features_into(decision, obs, rows, n, np.int64(chosen), out)
    return out, chosen


def collect(policy: str, deals: int, per_deal: int, samples: int, seed: int, first_deal: int, progress=None,
            kinds=range(N_KINDS), values: str = "true"):
    """(kind, features minus expert's move's, values minus expert's move's) of ``per_deal`` decisions
    of the ``kinds`` learned in each of one round's deals, played by ``policy`` in every seat; a move's
    value by ``move_values`` (``values="true"``) or ``view_values`` (``"view"``)."""
    pick = np.random.default_rng([seed, first_deal])
    data = []
    for k in range(deals):
        deal = first_deal + k
        states = [st for st in decision_states([policy], seed, deal) if st[O_DECISION] in kinds]
        for j in sorted(pick.choice(len(states), size=min(per_deal, len(states)), replace=False)):
            state = np.ascontiguousarray(states[j], dtype=np.int64)
            obs, rows = (np.ascontiguousarray(a, dtype=np.int64) for a in view(state))
            x, chosen = decision_features(obs, rows)
            key = seed * 1_000_003 + deal * 131 + int(j)
            if values == "view":
                v = view_values(obs, rows, samples, key, policy)
            else:
                v = move_values(state, rows, samples, key, policy)
            data.append((int(obs[O_DECISION]), x - x[chosen], v - v[chosen]))
        if progress is not None:
            progress(k + 1, deals)
    return data


def fit(data, ridge: float = RIDGE, margin: float = 0.0, kinds=range(N_KINDS)) -> np.ndarray:
    """Per decision kind in ``kinds`` the ranking fit of sim.apps.learning (weights 3 x N_FEATURES,
    expert's row for the kinds not fitted); ``margin`` is added to feature 0's weight (expert's own move)."""
    return fit_ranking(data, EXPERT_ONLY, ridge, margin, kinds)


def train(rounds: int, deals: int, per_deal: int, samples: int, seed: int, out: str | Path,
          eval_deals: int = 2000, resume: bool = False, progress=progress_bar, margin: float = 0.0,
          kinds=(0, 1, 2), ridge: float = RIDGE, values: str = "true") -> dict:
    """Run ``rounds`` rounds of expert iteration into ``out`` (state.json, weights.npz, report.md);
    ``values``: "true" (play-outs from the true hands) or "view" (worlds of the seat's view, as the audit)."""
    if values not in VALUES:
        raise ValueError(f"values must be one of {', '.join(VALUES)}, got {values!r}")
    out = Path(out)
    settings = {"seed": seed, "deals": deals, "per_deal": per_deal, "samples": samples, "margin": margin,
                "kinds": list(kinds), "ridge": ridge, "eval_deals": eval_deals}
    if values != "true":  # only then: the trainings made before the option keep their state.json (and --resume)
        settings["values"] = values
    return train_rounds(
        out, settings, resume, rounds, EXPERT_ONLY,
        collect=lambda policy, r: collect(policy, deals, per_deal, samples, seed, r * deals, progress, kinds,
                                          values),
        fit=lambda data: fit(data, ridge, margin, kinds), make_strategy=make_learned,
        evaluate=lambda name, eval_seed: play_match(name, "expert", deals=eval_deals, seed=eval_seed,
                                                    keep_plays=False).summary,
        report=report)


def report(state: dict) -> str:
    """The training report: strength against expert per round, and what the last model weighs."""
    worlds = ("worlds per move (sampled from the seat's view)" if state.get("values") == "view"
              else "stock orders per move (true hands)")
    settings = (f"seed {state['seed']}, {state['deals']} deals per round, {state['per_deal']} decisions per deal, "
                f"{state['samples']} {worlds}, ridge {state['ridge']:g}, margin {state['margin']:g}")
    return report_text(state, "learned (Persian): expert iteration", settings, "expert", KIND_NAMES, FEATURE_NAMES,
                       "strategies/persian/learned_weights.WEIGHTS")
