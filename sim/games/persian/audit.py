"""Audit a Persian strategy's decisions of one kind: where does it lose points, and how many?

``audit`` plays deals with the engine (recording mode, so the decisions are the engine's
own), replays every log through ``Position`` and collects the audited strategy's
decisions of the kind asked:

* ``take``: draws where at least one discard-pile take is legal (take or not, and how deep);
* ``hold``: the play decision of a turn at which the seat, able to meld three of a kind
  (three jokers or three of a rank, P5), either melds them or stops playing (keeps them
  back for the fourth): the moment of that choice;
* ``discard``: discards with two or more cards to choose from.

A random sample of them is analysed (sim/games/persian/decisions.analyze: worlds sampled from
the seat's view, every candidate in the same worlds, the policy in every seat), and each
gets a row: the move chosen, the best move, whether they agree, the points lost (best mean
minus the chosen move's, with the paired 95% CI) and the situation's features: stock and
pile size, opponents' and partner's hand sizes, jokers held, the depth of the take chosen
and the deepest legal one (= cards above the target), the three held and where its fourth
card is (in hand, in the pile, on the table, publicly taken by a seat, or unseen).
``summarize`` breaks the results down by a feature.
"""

from __future__ import annotations

import time
from typing import Sequence

import numpy as np
import pandas as pd

from sim.apps.analysis import audit as generic
from sim.apps.analysis.audit import Audit, audit_row, sample_indices
from sim.games import get_game
from sim.games.persian import enums as E
from sim.games.persian.cards import RANK_CHARS, card_value
from sim.games.persian.decisions import AnalysisInputError, PersianDecision, analyze, decisions_in

KINDS = ("take", "hold", "discard")
JOKERS = sum(1 << c for c in range(E.JOKER0, E.N_CARDS))


def _popcount(m: int) -> int:
    return bin(m).count("1")


def _three_melds(rows: np.ndarray) -> list[int]:
    """Indices of legal melds of exactly three of a kind (joker set or rank set)."""
    return [i for i, r in enumerate(rows) if r[0] == E.MV_MELD and r[2] in (E.MK_SET, E.MK_JOKERS)
            and _popcount(int(r[1])) == 3]


def _fourth_where(obs: np.ndarray, three: int) -> str:
    """Where the fourth card of the three-of-a-kind ``three`` (a mask) is, as the seat sees it."""
    seat = int(obs[E.O_SEAT])
    hand = int(obs[E.O_HAND])
    if three & JOKERS:
        fourth = JOKERS & ~three
    else:
        low = (three & -three).bit_length() - 1
        rank = low % E.N_RANKS
        fourth = sum(1 << (s * E.N_RANKS + rank) for s in range(E.N_SUITS)) & ~three
    if fourth & hand:
        return "hand"
    pile = 0
    for c in obs[E.O_PILE: E.O_PILE + obs[E.O_PILE_N]]:
        pile |= 1 << int(c)
    if fourth & pile:
        return "pile"
    table = 0
    for k in range(obs[E.O_N_MELDS]):
        table |= int(obs[E.O_MELD_MASK + k])
    if fourth & table:
        return "table"
    for o in range(E.N_SEATS):
        if o != seat and fourth & int(obs[E.O_TAKEN + o]):
            return "partner took" if o % 2 == seat % 2 else "opponent took"
    return "unseen"


def features(dec: PersianDecision, kind: str) -> dict:
    """The situation of a decision as numbers and labels (all public to the seat, P10)."""
    o = dec.obs
    seat = dec.seat
    opp = [(seat + 1) % 4, (seat + 3) % 4]
    hand = int(o[E.O_HAND])
    f = {
        "stock": int(o[E.O_STOCK_N]),
        "pile": int(o[E.O_PILE_N]),
        "turn_no": dec.turn,
        "own_hand": int(o[E.O_HAND_SIZES + seat]),
        "partner_hand": int(o[E.O_HAND_SIZES + (seat + 2) % 4]),
        "opp_min_hand": int(min(o[E.O_HAND_SIZES + s] for s in opp)),
        "next_hand": int(o[E.O_HAND_SIZES + opp[0]]),
        "jokers_held": _popcount(hand & JOKERS),
        "candidates": len(dec.rows),
    }
    if kind == "take":
        depths = [int(r[1]) for r in dec.rows if r[0] == E.MV_TAKE]
        f["deepest_take"] = max(depths)
        r = dec.rows[dec.played]
        f["chosen_depth"] = int(r[1]) if r[0] == E.MV_TAKE else -1
    elif kind == "hold":
        threes = _three_melds(dec.rows)
        m = int(dec.rows[threes[0]][1])
        f["three"] = "JK" if m & JOKERS else RANK_CHARS[((m & -m).bit_length() - 1) % E.N_RANKS]
        f["three_value"] = card_value(((m & -m).bit_length() - 1))  # P4: 2-9 face, T-K 10, A 15, JK 20
        f["fourth"] = _fourth_where(o, m)
        f["melded_three"] = dec.played in threes
    else:
        f["card_value"] = card_value(int(dec.rows[dec.played][1]))
    return f


def collect(logs: Sequence[dict], kind: str, seats_of) -> list[tuple[PersianDecision, dict]]:
    """Every decision of ``kind`` made by the seats ``seats_of(log)`` in ``logs``, with features."""
    if kind not in KINDS:
        raise AnalysisInputError(f"decision kind must be one of {', '.join(KINDS)}, got {kind!r}")
    phase = {"take": "draw", "hold": "play", "discard": "discard"}[kind]
    found = []
    for log in logs:
        seats = seats_of(log)
        held_turns = set()
        for dec in decisions_in(log, [phase]):
            if dec.seat not in seats:
                continue
            if kind == "take" and not any(r[0] == E.MV_TAKE for r in dec.rows):
                continue
            if kind == "hold":
                threes = _three_melds(dec.rows)
                chosen = int(dec.rows[dec.played][0])
                if dec.turn in held_turns or not threes or (dec.played not in threes and chosen != E.MV_STOP):
                    continue
                held_turns.add(dec.turn)
            dec.where = f"seed {log['seed']}, " + dec.where
            found.append((dec, features(dec, kind)))
    return found


def audit(strategy: str = "expert", kind: str = "take", deals: int = 20, vs: str | None = None, sample: int = 40,
          samples: int = 300, policy: str | None = None, seed: int = 0, rules=None, threads: int | None = None,
          batch: int = 100, progress=None) -> Audit:
    """Play ``deals`` deals (the strategy as team 0, ``vs`` as team 1; default: the strategy in
    every seat), collect the strategy's ``kind`` decisions and analyse a random sample of
    ``sample`` of them with ``samples`` worlds each (``policy``: the rollout policy, default the
    strategy itself)."""
    if kind not in KINDS:
        raise AnalysisInputError(f"decision kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if deals < 1 or sample < 1:
        raise AnalysisInputError(f"deals and sample must be >= 1, got {deals} and {sample}")
    game = get_game("persian")
    specs = [strategy, vs or strategy]
    t0 = time.perf_counter()
    logs = game.record_logs(specs, deals, seed, rules, threads=threads)
    seats = {0, 1, 2, 3} if vs is None else {0, 2}
    found = collect(logs, kind, lambda log: seats)
    pick = sample_indices(len(found), sample, seed)
    rows, analyses = [], []
    for j, i in enumerate(pick):
        dec, feats = found[i]
        a = analyze(dec, samples=samples, policy=policy or strategy, seed=seed + int(i), batch=batch,
                    threads=threads)
        labels = dec.labels()
        brow = dec.rows[labels.index(a.best["move"])]
        if kind == "take":
            feats["best_depth"] = int(brow[1]) if brow[0] == E.MV_TAKE else -1
        elif kind == "hold":
            feats["best_melds_three"] = labels.index(a.best["move"]) in _three_melds(dec.rows)
        rows.append({**audit_row(dec, a), **feats})
        analyses.append(a)
        if progress is not None:
            progress(j + 1, len(pick))
    frame = pd.DataFrame(rows)
    setup = {"strategy": strategy, "vs": vs or strategy, "kind": kind, "deals": deals, "seed": seed,
             "sample": len(pick), "worlds_per_decision": samples, "policy": policy or strategy,
             "deals_seats": "strategy in seats 0 and 2, vs in 1 and 3" if vs else "strategy in every seat"}
    return Audit(frame, setup, len(found), time.perf_counter() - t0, analyses)


# --- breakdowns ---------------------------------------------------------------------------------------

BINS = {
    "stock": ([-1, 5, 12, 20, 27], ["0-5", "6-12", "13-20", "21-27"]),
    "opp_min_hand": ([-1, 2, 4, 7, 60], ["0-2", "3-4", "5-7", "8+"]),
    "deepest_take": ([-1, 0, 2, 5, 60], ["0", "1-2", "3-5", "6+"]),
    "chosen_depth": ([-2, -1, 0, 2, 5, 60], ["stock", "0", "1-2", "3-5", "6+"]),
    "jokers_held": ([-1, 0, 1, 2, 4], ["0", "1", "2", "3-4"]),
    "card_value": ([-1, 5, 9, 10, 20], ["2-5", "6-9", "10", "A/JK"]),
    "three_value": ([-1, 5, 9, 10, 15, 20], ["2-5", "6-9", "T-K", "A", "JK"]),
}
FEATURES = {"take": ["deepest_take", "chosen_depth", "stock", "opp_min_hand", "jokers_held"],
            "hold": ["three_value", "fourth", "stock", "opp_min_hand", "melded_three"],
            "discard": ["stock", "opp_min_hand", "card_value", "jokers_held"]}


ASSUMPTIONS = ("worlds sampled from the deciding seat's view only (no inference from opponents' past choices); "
               "every seat then plays the rollout policy; points are own team minus other team for the rest of "
               "the deal.")


def summarize(frame: pd.DataFrame, feature: str) -> pd.DataFrame:
    """Per bin of ``feature`` (BINS): decisions, share where the choice was the best (Wilson 95% CI),
    mean points lost (t 95% CI), share significantly worse than the best (sim.apps.analysis.audit)."""
    return generic.summarize(frame, feature, BINS)


def audit_figure(a: Audit, features_: Sequence[str] | None = None):
    """Mean points lost per decision (95% CI) by each feature's bins, one panel per feature."""
    return generic.audit_figure(a, features_ or FEATURES[a.setup["kind"]], BINS)


def write_report(a: Audit, out_dir) -> list:
    """report.md, decisions.csv, one breakdown CSV per feature, summary.json and audit.png in ``out_dir``."""
    return generic.write_report(a, out_dir, FEATURES[a.setup["kind"]], BINS, direction, ASSUMPTIONS)


def direction(a: Audit) -> str:
    """Which way the best move lay when the strategy's choice was not the best (takes: deeper or
    shallower; holds: melding the three or not)."""
    wrong = a.frame[~a.frame["chose_best"]] if len(a.frame) else a.frame
    if wrong.empty:
        return "Its choice was the best in every analysed decision."
    kind = a.setup["kind"]
    if kind == "take":
        deeper = int((wrong["best_depth"] > wrong["chosen_depth"]).sum())
        return (f"When its draw was not the best ({len(wrong)} decisions), the best was a deeper take in {deeper} "
                f"and a shallower take or the stock in {len(wrong) - deeper}.")
    if kind == "hold":
        meld = int(wrong["best_melds_three"].sum())
        return (f"When its choice was not the best ({len(wrong)} decisions), melding the three at once was best in "
                f"{meld} and keeping them (or another play) in {len(wrong) - meld}.")
    return f"Its discard was not the best in {len(wrong)} decisions."


__all__ = ["audit", "collect", "features", "summarize", "audit_figure", "write_report", "Audit", "KINDS", "FEATURES"]
