"""Expert iteration for Indian Rummy's `learned` strategy (issue 25): search values, then a fit.

One round: play ``deals`` deals of ``players`` seats with the current strategy in every seat
(I2-I8), pick ``per_deal`` unforced decisions of the kinds learned in each at random, value
every candidate move of each by play-outs from the TRUE state with only the stock order redrawn
(strategies/indian/train_nb.py: ``samples`` stock orders, the same for every move, the current
strategy in every seat afterwards; the analysis's worlds, drawn from the view alone, make the
other hands uniform, which real hands are not), compute each move's features (features_nb, from
the view alone, I9), and fit, per decision kind, a ridge regression of a move's value minus the
value of expert's move on its features minus those of expert's move (a ranking objective: only
differences between the moves of one decision matter, and feature 0, expert's own choice,
becomes the learned cost of leaving expert's move). The candidates: a draw decision's stock,
pile top and drop (I3, I7); a discard decision's discards (I3), and no decision where expert
declares (I5: a valid declaration is always made, learned_nb). ``margin`` points are added to
that cost, so the model leaves expert only where the fit sees a clear gain; kinds not in
``kinds`` keep expert's row. The fitted weights become the next round's strategy. After each
round the new strategy meets a field of expert on fresh duplicate deals (a seed no round trains
on) and the report records the difference with its 95% CI.

Everything is drawn from ``seed``: the same seed gives the same weights. ``resume`` continues
from the rounds already in ``out`` (state.json after each round) with the same settings.

    rummy-sim train learned --game indian --players 4 --rounds 1 --decisions 4000 --worlds 32 \
        --seed 1 --out DIR
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.games.indian.decisions import policy_args
from sim.games.indian.enums import D_DISCARD, MV_DECLARE, MV_DISCARD, O_DECISION, O_PLAYERS
from sim.games.indian.information import _original_stock, decision_states, view
from sim.games.indian.rules import RuleOptions
from sim.apps.learning import SEED_MASK, fit_ranking, progress_bar, register_learned, report_text, train_rounds
from sim.studies.match import play_match
from strategies.indian.expert_nb import expert_decide
from strategies.indian.features_nb import FEATURE_NAMES, N_FEATURES, features_into
from strategies.indian.learned_nb import EXPERT_PARAMS, N_KINDS, best_scored
from strategies.indian.train_nb import play_stock_worlds

TRAINS = ("learned",)  # the strategies this trainer learns (rummy-sim train SPEC, Game.trainer)
TAKES_PLAYERS = True  # rummy-sim train passes --players (the table size trained and evaluated at)
KIND_NAMES = ("draw", "discard")  # the D_* codes' names, in order
EXPERT_ONLY = np.array([[1.0] + [0.0] * (N_FEATURES - 1)] * N_KINDS)
RIDGE = 1e-4  # the ridge penalty per fitted row (of features scaled to about 1)


_MADE: dict[bytes, str] = {}  # weights -> the name already registered for them in this process


def make_learned(weights: np.ndarray, name: str) -> str:
    """Register the Indian user strategy ``name`` playing ``weights`` (2 x N_FEATURES) and return its
    name; weights registered before in this process return that name (no second compile)."""
    w = np.ascontiguousarray(weights, dtype=np.float64).reshape(N_KINDS, N_FEATURES)
    return register_learned(w, name, "indian", best_scored, EXPERT_PARAMS, _MADE)


def move_values(state: np.ndarray, rows: np.ndarray, samples: int, seed: int, policy: str) -> np.ndarray:
    """Mean net points of the deciding seat for every candidate row in ``state`` over the same
    ``samples`` stock orders (train_nb.play_stock_worlds, the true hands kept)."""
    players = int(state[O_PLAYERS])
    _, params, fns = policy_args(policy, players)
    out = np.zeros((samples, len(rows)), dtype=np.float64)
    bottom = np.int64(1 if _original_stock(state) else 0)
    play_stock_worlds(state, np.ascontiguousarray(rows, dtype=np.int64), np.arange(samples, dtype=np.int64),
                      np.int64(seed & SEED_MASK), bottom, params, fns, out)
    return np.nanmean(out, axis=0)


def decision_features(obs: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, int]:
    """Every legal move's features (n x N_FEATURES) and expert's choice on the same observation."""
    obs = np.array(obs, dtype=np.int64)
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    decision, n = np.int64(obs[O_DECISION]), np.int64(len(rows))
    chosen = int(expert_decide(decision, obs, rows.copy(), n, EXPERT_PARAMS, np.zeros(1, dtype=np.uint64)))
    out = np.zeros((len(rows), N_FEATURES), dtype=np.float64)
    features_into(decision, obs, rows, n, np.int64(chosen), out)
    return out, chosen


def candidates(decision: int, rows: np.ndarray, chosen: int) -> np.ndarray:
    """Indices of the rows a decision is trained on: every draw; a discard decision's discards,
    none when expert declares (forced, I5)."""
    if decision != D_DISCARD:
        return np.arange(len(rows))
    if rows[chosen, 0] == MV_DECLARE:
        return np.arange(0)
    return np.flatnonzero(rows[:, 0] == MV_DISCARD)


def collect(policy: str, deals: int, per_deal: int, samples: int, seed: int, first_deal: int, players: int,
            progress=None, kinds=range(N_KINDS)):
    """(kind, features minus expert's move's, values minus expert's move's) of ``per_deal`` decisions
    of the ``kinds`` learned in each of one round's deals, played by ``policy`` in every seat."""
    pick = np.random.default_rng([seed, first_deal])
    rules = RuleOptions()
    data = []
    for k in range(deals):
        deal = first_deal + k
        states = [st for st in decision_states([policy] * players, seed, deal, rules) if st[O_DECISION] in kinds]
        for j in sorted(pick.choice(len(states), size=min(per_deal, len(states)), replace=False)):
            state = np.ascontiguousarray(states[j], dtype=np.int64)
            obs, rows = view(state)
            x, chosen = decision_features(obs, rows)
            idx = candidates(int(obs[O_DECISION]), rows, chosen)
            if len(idx) < 2:
                continue
            v = move_values(state, rows[idx], samples, seed * 1_000_003 + deal * 131 + int(j), policy)
            at = int(np.flatnonzero(idx == chosen)[0])
            data.append((int(obs[O_DECISION]), x[idx] - x[chosen], v - v[at]))
        if progress is not None:
            progress(k + 1, deals)
    return data


def fit(data, ridge: float = RIDGE, margin: float = 0.0, kinds=range(N_KINDS)) -> np.ndarray:
    """Per decision kind in ``kinds`` the ranking fit of sim.apps.learning (weights 2 x N_FEATURES,
    expert's row for the kinds not fitted); ``margin`` is added to feature 0's weight (expert's own move)."""
    return fit_ranking(data, EXPERT_ONLY, ridge, margin, kinds)


def train(rounds: int, deals: int, per_deal: int, samples: int, seed: int, out: str | Path,
          eval_deals: int = 2000, resume: bool = False, progress=progress_bar, margin: float = 0.0,
          kinds=(0, 1), ridge: float = RIDGE, players: int = 4) -> dict:
    """Run ``rounds`` rounds of expert iteration at ``players`` seats into ``out`` (state.json,
    weights.npz, report.md)."""
    out = Path(out)
    settings = {"seed": seed, "players": players, "deals": deals, "per_deal": per_deal, "samples": samples,
                "margin": margin, "kinds": list(kinds), "ridge": ridge, "eval_deals": eval_deals}
    return train_rounds(
        out, settings, resume, rounds, EXPERT_ONLY,
        collect=lambda policy, r: collect(policy, deals, per_deal, samples, seed, r * deals, players, progress, kinds),
        fit=lambda data: fit(data, ridge, margin, kinds), make_strategy=make_learned,
        evaluate=lambda name, eval_seed: play_match(name, "expert", deals=eval_deals, seed=eval_seed, game="indian",
                                                    players=players, keep_plays=False, threads=1).summary,
        report=report)


def report(state: dict) -> str:
    """The training report: strength against a field of expert per round, and what the last model weighs."""
    settings = (f"seed {state['seed']}, {state['players']} players, {state['deals']} deals per round, "
                f"{state['per_deal']} decisions per deal, {state['samples']} stock orders per move (true hands), "
                f"ridge {state['ridge']:g}, margin {state['margin']:g}")
    return report_text(state, "learned (Indian): expert iteration", settings, "expert field", KIND_NAMES,
                       FEATURE_NAMES, "strategies/indian/learned_weights.WEIGHTS")
