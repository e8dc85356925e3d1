"""Gin mc_search and its determinization (issue 26): worlds a seat cannot tell from the truth
(G9), the expert snapshot equal to expert's registered defaults, and max_candidates=1 playing
exactly as its base."""

from __future__ import annotations

import numpy as np

from sim.games.gin import enums as E
from sim.games.gin.determinize_nb import determinize_into
from sim.games.gin.melds_nb import MAX_HAND_MELDS, MELD_SCRATCH
from sim.games.gin.rules import RuleOptions
from sim.games.gin.state_nb import apply_move, deal_state, legal_moves, shuffled_deck
from strategies.gin.builtins import EXPERT
from strategies.gin.knocker_nb import expert_decide
from strategies.gin.mc_search_nb import EXPERT_PARAMS


def _hidden_union(st, opp, start):
    cards = int(st[E.S_HANDS + opp])
    for i in range(int(st[E.O_STOCK_N])):
        cards |= 1 << int(st[E.S_STOCK + start + i])
    return cards


def test_worlds_keep_every_public_fact() -> None:
    """At every searched decision of 30 expert hands: the world's public slots are the truth's,
    the opponent holds 10 cards including its known pickups, and the opponent's hand plus the
    stock are the same cards as in the truth."""
    rules = RuleOptions.from_dict({}).to_array()
    ids, tmp = np.empty(MAX_HAND_MELDS, np.int64), np.empty(MAX_HAND_MELDS, np.int64)
    stack = np.empty(MELD_SCRATCH, np.int64)
    moves = np.empty((E.MAX_MOVES, E.MOVE_COLS), np.int64)
    rng = np.ones(1, np.uint64)
    world, pool = np.empty(E.ST_SIZE, np.int64), np.empty(E.N_CARDS, np.int64)
    public = np.arange(E.OBS_SIZE) != E.O_HAND
    checked = 0
    for deal in range(30):
        st = np.empty(E.ST_SIZE, np.int64)
        deal_state(st, shuffled_deck(np.int64(5), np.int64(deal)), deal, rules)
        end = -1
        while end < 0:
            n = legal_moves(st, moves, ids, stack, tmp)
            seat, d = int(st[E.O_SEAT]), int(st[E.O_DECISION])
            obs = st[: E.OBS_SIZE].copy()
            obs[E.O_HAND] = st[E.S_HANDS + seat]
            if d in (E.D_FIRST, E.D_DRAW, E.D_DISCARD, E.D_WALL):
                assert determinize_into(obs, rng, world, pool)
                opp = 1 - seat
                assert (world[: E.OBS_SIZE][public] == st[: E.OBS_SIZE][public]).all()
                assert bin(int(world[E.S_HANDS + opp])).count("1") == E.HAND_SIZE
                assert int(world[E.S_HANDS + opp]) & int(st[E.O_KNOWN + opp]) == int(st[E.O_KNOWN + opp])
                assert _hidden_union(world, opp, 0) == _hidden_union(st, opp, int(st[E.S_STOCK_POS]))
                checked += 1
            idx = expert_decide(d, obs, moves[:n].copy(), n, EXPERT_PARAMS.copy(), rng) if n > 1 else 0
            end = apply_move(st, moves[idx, 0], moves[idx, 2], moves[idx, 3])
    assert checked > 500


def test_expert_snapshot_is_experts_defaults() -> None:
    assert EXPERT_PARAMS.tolist() == [float(p.default) for p in EXPERT.params]


def test_one_candidate_plays_as_the_base() -> None:
    """max_candidates=1: every result column equal to expert's own, on both seatings."""
    from sim.games.gin.engine import run_deals

    deals = np.arange(40, dtype=np.int64)
    ro = RuleOptions.from_dict({})
    a = run_deals(["mc_search:max_candidates=1", "simple"], deals, 9, ro, threads=1).results
    b = run_deals(["expert", "simple"], deals, 9, ro, threads=1).results
    assert (a == b).all()
    c = run_deals(["mc_search:samples=4", "simple"], deals, 9, ro, threads=1).results
    assert not (c == b).all()  # the search does change moves (else the test above proves nothing)
