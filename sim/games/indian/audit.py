"""Audit an Indian Rummy strategy's decisions of one kind: where does it lose points, and how many?

``audit`` plays deals with the engine (recording mode, so the decisions are the engine's
own), replays every log through ``Position`` (decisions.decisions_in) and collects the
audited strategy's decisions of the kind asked:

* ``drop``: draw decisions at which a drop is legal (I7): drop, or play on (stock or pile);
* ``pickup``: draw decisions at which the top discard can be taken (I3): take it, the stock, or drop;
* ``discard``: discard decisions (each discard and each declaration, I3, I5).

A random sample of them is analysed (decisions.analyze: worlds sampled from the seat's view,
I9, every candidate in the same worlds, the policy in every seat) and each gets a row
(sim.apps.analysis.audit.audit_row: the move chosen, the best, the points lost with its
paired 95% CI) and the situation in a player's words, all public to the seat (I9):

* ``deadwood``: the points the hand would lose now (I6, uncapped): at a draw its 13 cards'
  least deadwood, at a discard the least over every discard;
* ``jokers``: printed jokers plus cards of the wild rank held (I2);
* ``pure_run``: the hand holds a pure run of three (I4), the one run a declaration needs first;
* ``players_in``: seats still in the deal (the table's size now: drops and wrong declarations left);
* ``turn``: the deal's turn (1-based, as ``rummy-sim show`` numbers them);
* ``opponent_pickups``: how many times the other seats took the top discard (I9: public);
* ``drop_cost`` (drop, pickup): what a drop would cost now, first or middle drop (I7).

``summarize`` breaks the rows down by a feature (BINS), ``write_report`` writes the report
(sim.apps.analysis.audit: the same report as every game's audit).
"""

from __future__ import annotations

import time
from typing import Sequence

import numpy as np
import pandas as pd

from sim.apps.analysis import audit as generic
from sim.apps.analysis.audit import Audit, audit_row, sample_indices
from sim.games import get_game
from sim.games.indian import enums as E
from sim.games.indian.cards_nb import jokers_in
from sim.games.indian.decisions import AnalysisInputError, IndianDecision, analyze, decisions_in
from sim.games.indian.solver_nb import discard_deadwoods, min_deadwood
from sim.games.indian.state_nb import has_pure_run

KINDS = ("drop", "pickup", "discard")
FEATURES = {
    "drop": ["deadwood", "jokers", "pure_run", "players_in", "turn", "opponent_pickups", "drop_cost"],
    "pickup": ["deadwood", "jokers", "pure_run", "players_in", "turn", "opponent_pickups"],
    "discard": ["deadwood", "jokers", "pure_run", "players_in", "turn", "opponent_pickups"],
}
BINS = {
    "deadwood": ([-1, 0, 10, 25, 40, 60, 10_000], ["0", "1-10", "11-25", "26-40", "41-60", "61+"]),
    "jokers": ([-1, 0, 1, 2, 100], ["0", "1", "2", "3+"]),
    "turn": ([0, 4, 8, 16, 32, 10_000], ["1-4", "5-8", "9-16", "17-32", "33+"]),
    "opponent_pickups": ([-1, 0, 1, 3, 10_000], ["0", "1", "2-3", "4+"]),
}
_PHASE = {"drop": E.D_DRAW, "pickup": E.D_DRAW, "discard": E.D_DISCARD}
_WANTS = {"drop": E.MV_DROP, "pickup": E.MV_PILE}  # a draw decision counts when this move is legal
ASSUMPTIONS = ("worlds sampled from the deciding seat's view only (I9; no inference from the opponents' past "
               "choices); every seat then plays the rollout policy to the end of the deal; a score is the "
               "deciding seat's net points of the deal (I6).")


def _rules(o: np.ndarray) -> tuple[int, int, int, int]:
    """(wild rank, max jokers per run, per set, triple is run) of the observation's deal."""
    return (int(o[E.O_WILD_RANK]), int(o[E.O_RULES + E.R_MAX_J_RUN]), int(o[E.O_RULES + E.R_MAX_J_SET]),
            int(o[E.O_RULES + E.R_TRIPLE_IS_RUN]))


def hand_deadwood(o: np.ndarray) -> int:
    """The points the seat's hand would lose now (I6, uncapped): 13 cards' least deadwood, or
    with 14 (a discard decision) the least over every discard."""
    h = np.ascontiguousarray(o[E.O_HAND: E.O_HAND + E.N_KINDS], dtype=np.int64)
    wild, mjr, mjs, tir = _rules(o)
    if int(h.sum()) <= E.HAND_SIZE:
        return int(min_deadwood(h, wild, mjr, mjs, tir))
    out = np.empty(E.N_KINDS, dtype=np.int64)
    discard_deadwoods(h, wild, mjr, mjs, tir, out)
    return int(out.min())


def features(dec: IndianDecision, kind: str) -> dict:
    """The situation of a decision in a player's words and numbers (all public to the seat, I9)."""
    o = dec.obs
    seat = dec.seat
    h = np.ascontiguousarray(o[E.O_HAND: E.O_HAND + E.N_KINDS], dtype=np.int64)
    wild, _, _, tir = _rules(o)
    players = int(o[E.O_PLAYERS])
    f = {
        "deadwood": hand_deadwood(o),
        "jokers": int(jokers_in(h, wild)),
        "pure_run": bool(has_pure_run(h, tir)),
        "players_in": int(o[E.O_IN_PLAY]),
        "turn": dec.turn,
        "opponent_pickups": int(sum(int(o[E.O_PICKUPS + s]) for s in range(players) if s != seat)),
        "candidates": len(dec.rows),
    }
    kind_played = int(dec.rows[dec.played][0])
    if kind in ("drop", "pickup"):
        middle = bool(o[E.O_HAS_DRAWN + seat])
        f["drop_cost"] = int(o[E.O_RULES + (E.R_MIDDLE_DROP if middle else E.R_FIRST_DROP)])
        f["dropped"] = kind_played == E.MV_DROP
        f["took_pile"] = kind_played == E.MV_PILE
    else:
        f["declared"] = kind_played == E.MV_DECLARE
    return f


def collect(logs: Sequence[dict], kind: str, seats_of) -> list[tuple[IndianDecision, dict]]:
    """Every decision of ``kind`` made by the seats ``seats_of(log)`` in ``logs``, with its features."""
    if kind not in KINDS:
        raise AnalysisInputError(f"decision kind must be one of {', '.join(KINDS)}, got {kind!r}")
    found = []
    for log in logs:
        seats = seats_of(log)
        for dec in decisions_in(log, [_PHASE[kind]]):
            if dec.seat not in seats:
                continue
            if kind in _WANTS and not any(int(r[0]) == _WANTS[kind] for r in dec.rows):
                continue
            dec.where = f"seed {log['seed']}, " + dec.where
            found.append((dec, features(dec, kind)))
    return found


def _best_columns(dec: IndianDecision, best_move: str, kind: str) -> dict:
    """What the best move was, in the kind's terms (for ``direction``)."""
    k = int(dec.rows[dec.labels().index(best_move)][0])
    if kind == "discard":
        return {"best_declares": k == E.MV_DECLARE}
    return {"best_drops": k == E.MV_DROP, "best_takes_pile": k == E.MV_PILE}


def audit(strategy: str = "expert", kind: str = "drop", deals: int = 20, vs: str | None = None, sample: int = 40,
          samples: int = 300, policy: str | None = None, seed: int = 0, rules=None, threads: int | None = None,
          batch: int = 100, progress=None, players: int | None = None) -> Audit:
    """Play ``deals`` deals at ``players`` seats (the strategy in seat 0 and ``vs`` in the others;
    default: the strategy in every seat), collect the strategy's ``kind`` decisions and analyse a
    random sample of ``sample`` of them with ``samples`` worlds each (``policy``: the rollout
    policy, default the strategy itself)."""
    if kind not in KINDS:
        raise AnalysisInputError(f"decision kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if deals < 1 or sample < 1:
        raise AnalysisInputError(f"deals and sample must be >= 1, got {deals} and {sample}")
    game = get_game("indian")
    players = players or game.default_players
    specs = [strategy] + [vs or strategy] * (players - 1)
    t0 = time.perf_counter()
    logs = game.record_logs(specs, deals, seed, rules, threads=threads)
    seats = set(range(players)) if vs is None else {0}
    found = collect(logs, kind, lambda log: seats)
    pick = sample_indices(len(found), sample, seed)
    rows, analyses = [], []
    for j, i in enumerate(pick):
        dec, feats = found[i]
        a = analyze(dec, samples=samples, policy=policy or strategy, seed=seed + i, batch=batch, threads=threads)
        rows.append({**audit_row(dec, a), **feats, **_best_columns(dec, a.best["move"], kind)})
        analyses.append(a)
        if progress is not None:
            progress(j + 1, len(pick))
    setup = {"strategy": strategy, "vs": vs or strategy, "kind": kind, "deals": deals, "players": players,
             "seed": seed, "sample": len(pick), "worlds_per_decision": samples, "policy": policy or strategy,
             "deals_seats": "strategy in seat 0, vs in the others" if vs else "strategy in every seat"}
    return Audit(pd.DataFrame(rows), setup, len(found), time.perf_counter() - t0, analyses)


def summarize(frame: pd.DataFrame, feature: str) -> pd.DataFrame:
    """Per bin of ``feature`` (BINS; others by value): decisions, the share where the choice was the
    best (Wilson 95% CI), the mean points lost (t 95% CI), the share significantly worse."""
    return generic.summarize(frame, feature, BINS)


def audit_figure(a: Audit, features_: Sequence[str] | None = None):
    """Mean points lost per decision (95% CI) by each feature's bins, one panel per feature."""
    return generic.audit_figure(a, features_ or FEATURES[a.setup["kind"]], BINS)


def write_report(a: Audit, out_dir) -> list:
    """report.md, decisions.csv, one breakdown CSV per feature, summary.json and audit.png in ``out_dir``."""
    return generic.write_report(a, out_dir, FEATURES[a.setup["kind"]], BINS, direction, ASSUMPTIONS)


def direction(a: Audit) -> str:
    """Which way the best move lay when the strategy's choice was not the best (drop or play on;
    the pile or the stock; declaring or not)."""
    f = a.frame
    wrong = f[~f["chose_best"]] if len(f) else f
    if wrong.empty:
        return "Its choice was the best in every analysed decision."
    n = len(wrong)
    kind = a.setup["kind"]
    if kind == "drop":
        should = int((wrong["best_drops"] & ~wrong["dropped"]).sum())
        should_not = int((~wrong["best_drops"] & wrong["dropped"]).sum())
        return (f"When its draw decision was not the best ({n} decisions), dropping was best where it played on "
                f"in {should}, playing on was best where it dropped in {should_not}, and in the other "
                f"{n - should - should_not} it played on from the wrong pile.")
    if kind == "pickup":
        take = int((wrong["best_takes_pile"] & ~wrong["took_pile"]).sum())
        leave = int((~wrong["best_takes_pile"] & wrong["took_pile"]).sum())
        return (f"When its draw was not the best ({n} decisions), taking the top discard was best where it did "
                f"not in {take}, and where it took it the stock (or a drop) was best in {leave}; the other "
                f"{n - take - leave} were a drop against the stock.")
    declare = int((wrong["best_declares"] & ~wrong["declared"]).sum())
    return (f"Its discard was not the best in {n} decisions; in {declare} of them declaring was best and it did "
            "not declare.")


__all__ = ["audit", "collect", "features", "hand_deadwood", "summarize", "audit_figure", "write_report",
           "direction", "KINDS", "FEATURES", "BINS"]
