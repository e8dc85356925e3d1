"""Features of the hands dealt in Indian Rummy, recomputed from (seed, deal index).

A deal's cards depend only on ``(seed, deal, players, decks)`` (I2), never on who plays
them, so the hand each seat was dealt can be rebuilt after a run and joined to that
seat's result (``net_sS`` of ``results_frame``, or a duplicate match's per-play rows):
that is how notebooks/06_indian_drop.ipynb estimates the points of playing a hand with
given features against the fixed cost of a first drop (I7).

Per (deal, seat) :func:`dealt_features` gives what a player sees before its first draw:

* ``deadwood``: the 13 cards' minimum deadwood (I6) exactly as the engine and the
  ``dropper`` strategy compute it (``solver_nb.min_deadwood``). While the cards admit
  no I5 arrangement (two runs, one pure, one of four or more), which is nearly always
  the case for a dealt hand, every card counts, so it is the hand's points;
* ``points``: the I6 points of all 13 cards (jokers and the wild rank count 0);
* ``pure_run``: 1 when the hand holds a pure run of three (``state_nb.has_pure_run``);
* ``jokers``: printed jokers plus cards of the wild rank (``cards_nb.jokers_in``).

Only existing compiled kernels are called (the deal, the solver, the state helpers),
one hand at a time from Python: no new kernel to compile. About 20,000 hands/s.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.games.indian import enums as E
from sim.games.indian.cards_nb import hand_points, jokers_in
from sim.games.indian.deal_nb import deal_order, shuffled_shoe, wild_rank_of
from sim.games.indian.rules import RuleOptions, check_players
from sim.games.indian.solver_nb import min_deadwood
from sim.games.indian.state_nb import has_pure_run
from sim.plugin.runs import check_seed, deal_indices

FEATURES = ("deadwood", "points", "pure_run", "jokers")


def dealt_features(seed: int, deals, players: int, rules: RuleOptions | dict | None = None) -> pd.DataFrame:
    """One row per (deal, seat) of the hands dealt under ``seed``: ``deal``, ``seat``,
    ``dealer``, ``wild_rank`` and the FEATURES above.

    ``deals`` is a count (deal indices 0..n-1) or the deal indices themselves, as for
    ``run_deals``; ``rules`` must be the run's rules (the deck count and the joker
    limits decide the cards and the deadwood).
    """
    players = check_players(players)
    rules = rules if isinstance(rules, RuleOptions) else RuleOptions.from_dict(rules)
    arr = rules.to_array(players)
    decks, mjr, mjs, tir = (int(arr[k]) for k in (E.R_DECKS, E.R_MAX_J_RUN, E.R_MAX_J_SET, E.R_TRIPLE_IS_RUN))
    seed = check_seed(seed)
    idx = deal_indices(deals)
    n = idx.size * players
    out = {name: np.empty(n, dtype=np.int64) for name in ("deal", "seat", "dealer", "wild_rank", *FEATURES)}
    hands = np.zeros((E.MAX_SEATS, E.HAND_SIZE), dtype=np.int64)
    stock = np.zeros(E.MAX_SHOE, dtype=np.int64)
    h = np.zeros(E.N_KINDS, dtype=np.int64)
    row = 0
    for deal in idx:
        deal = int(deal)
        dealer = deal % players
        shoe = shuffled_shoe(np.int64(seed), np.int64(deal), np.int64(decks))
        _, cut, _ = deal_order(shoe, decks, players, dealer, hands, stock)
        wild = int(wild_rank_of(cut))
        for seat in range(players):
            h[:] = 0
            np.add.at(h, hands[seat], 1)
            out["deal"][row] = deal
            out["seat"][row] = seat
            out["dealer"][row] = dealer
            out["wild_rank"][row] = wild
            out["deadwood"][row] = min_deadwood(h, wild, mjr, mjs, tir)
            out["points"][row] = hand_points(h, wild)
            out["pure_run"][row] = 1 if has_pure_run(h, tir) else 0
            out["jokers"][row] = jokers_in(h, wild)
            row += 1
    df = pd.DataFrame(out)
    for name in ("seat", "dealer", "wild_rank", "pure_run", "jokers"):
        df[name] = df[name].astype(np.int8)
    df["deadwood"] = df["deadwood"].astype(np.int16)
    df["points"] = df["points"].astype(np.int16)
    return df


__all__ = ["FEATURES", "dealt_features"]
