"""Indian mc_search and its parts (strategies/indian/{determinize,rollout,mc_search}_nb.py).

* Determinization keeps every public fact (I9) and the seat's own hand, keeps the cards
  an opponent is known to hold (picked up from the pile and not discarded since) in
  that opponent's hand, keeps the cut joker at the bottom of the dealt stock (I2), and
  conserves the cards in play.
* The information test: two true states the seat cannot tell apart give the same sampled
  worlds and the same mc_search decisions for the same generator state.
* Every candidate is played out in the same worlds (common random numbers).
* 1 and 2 threads play the same deals; ``max_candidates=1`` plays exactly as the base
  (greedy or expert), and so does a ``margin`` no play-out difference can exceed;
  ``consider_drop`` decides whether it ever drops.

Small on purpose (CI budget): a handful of deals, two or three worlds per decision.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.games.indian import enums as E
from sim.games.indian.engine import run_deals
from sim.games.indian.game import GAME
from sim.games.indian.information import _original_stock
from sim.games.indian.rules import RuleOptions
from strategies.indian import mc_search_nb
from sim.games.indian.determinize_nb import determinize
from strategies.indian.mc_search_nb import mc_search_decide, score_table
from sim.plugin.registry import registry_for

DOC = Path(__file__).resolve().parents[2] / "docs" / "strategies.md"
SEED = 4242
TINY = "mc_search:worlds=2"
TINY_GREEDY = "mc_search:worlds=2,base=greedy"


def shoe_counts(obs: np.ndarray) -> np.ndarray:
    total = np.full(E.N_KINDS, obs[E.O_RULES + E.R_DECKS], dtype=np.int64)
    total[E.JOKER] = obs[E.O_RULES + E.R_N_JOKERS]
    return total


def hand(st: np.ndarray, s: int) -> np.ndarray:
    return st[E.S_HANDS + s * E.N_KINDS: E.S_HANDS + (s + 1) * E.N_KINDS]


def known_copies(obs: np.ndarray, s: int) -> np.ndarray:
    """What I9 says seat s must hold: its pickups minus its discards, per kind."""
    b = s * E.N_KINDS
    picked = obs[E.O_PICKED + b: E.O_PICKED + b + E.N_KINDS]
    dropped = obs[E.O_DISCARDED + b: E.O_DISCARDED + b + E.N_KINDS]
    return np.maximum(picked - dropped, 0)


def in_play(st: np.ndarray) -> np.ndarray:
    """Cards per kind in hands, the stock and the pile."""
    out = st[E.O_PILE_COUNTS: E.O_PILE_COUNTS + E.N_KINDS].copy()
    for s in range(int(st[E.O_PLAYERS])):
        out += hand(st, s)
    out += np.bincount(st[E.S_STOCK: E.S_STOCK + st[E.O_STOCK_N]], minlength=E.N_KINDS)
    return out


def states(players: int, deals: int):
    """Full states before decisions of deals with many pickups (random seats take the pile often)."""
    table = [("random", "greedy", "dropper")[s % 3] for s in range(players)]
    for deal in range(deals):
        yield from GAME.decision_states(table, SEED, deal, RuleOptions())


def check_world(st: np.ndarray, obs: np.ndarray, w: np.ndarray) -> None:
    """Every invariant a world sampled from ``obs`` (the seat's view of the true ``st``) keeps."""
    seat = int(obs[E.O_SEAT])
    players = int(obs[E.O_PLAYERS])
    assert np.array_equal(w[: E.O_HAND], obs[: E.O_HAND]), "public slots changed"
    assert np.array_equal(hand(w, seat), obs[E.O_HAND:]), "own hand changed"
    for s in range(E.MAX_SEATS):
        size = int(hand(w, s).sum())
        if s < players and obs[E.O_STATUS + s] == E.ST_IN:
            assert size == obs[E.O_HAND_N + s], "hand size not kept"
            if s != seat:
                assert np.all(hand(w, s) >= known_copies(obs, s)), "a known picked-up card left its holder"
        else:
            assert size == 0, "a seat out of play holds cards"
    n, pn = int(obs[E.O_STOCK_N]), int(obs[E.O_PILE_N])
    pile = w[E.S_PILE: E.S_PILE + pn]
    assert np.array_equal(np.bincount(pile, minlength=E.N_KINDS), obs[E.O_PILE_COUNTS: E.O_PILE_COUNTS + E.N_KINDS])
    if pn:
        assert pile[-1] == obs[E.O_TOP]
    if n and _original_stock(st):
        assert w[E.S_STOCK] == obs[E.O_CUT_JOKER], "the face-up cut joker left the stock's bottom"
    mine = in_play(w)
    assert np.all(mine <= shoe_counts(obs)), "more copies of a kind than the shoe has"
    assert mine.sum() == in_play(st).sum(), "cards in play not conserved"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_determinization_keeps_what_the_seat_sees(players: int) -> None:
    rng = np.array([99], np.uint64)
    checked = known_seen = 0
    for st in states(players, 3):
        obs, _ = GAME.view(st)
        for s in range(players):
            if s != st[E.O_SEAT] and st[E.O_STATUS + s] == E.ST_IN:
                k = known_copies(obs, s)
                assert np.all(hand(st, s) >= k)  # the rule is right about the true state
                known_seen += int(k.sum())
        for _ in range(2):
            check_world(st, obs, determinize(obs, rng))
        checked += 1
    assert checked > 30 and known_seen > 10


def test_same_view_same_worlds_and_decisions() -> None:
    """The information test (I9): hidden-card variants of a state change neither the
    sampled worlds nor mc_search's decision for the same generator state."""
    gen = np.random.default_rng(7)
    params = registry_for("indian").parse_spec("mc_search:worlds=3").param_array()
    compared = moved = differ = 0
    for i, st in enumerate(states(4, 3)):
        alt = GAME.hidden_variant(st, gen)
        moved += not np.array_equal(alt, st)
        obs_a, rows_a = GAME.view(st)
        obs_b, rows_b = GAME.view(alt)
        seed = int(gen.integers(1, 2**63))
        ra, rb = np.array([seed], np.uint64), np.array([seed], np.uint64)
        wa, wb = determinize(obs_a, ra), determinize(obs_b, rb)
        assert np.array_equal(wa, wb) and ra[0] == rb[0]
        differ += not np.array_equal(determinize(obs_a, ra), wa)
        if i % 2 == 0:
            ra[0] = rb[0] = seed
            n = len(rows_a)
            ia = mc_search_decide(int(st[E.O_DECISION]), obs_a, rows_a, n, params, ra)
            ib = mc_search_decide(int(st[E.O_DECISION]), obs_b, rows_b, n, params, rb)
            assert ia == ib and ra[0] == rb[0] and 0 <= ia < n
            compared += 1
    assert compared > 15 and moved > 0.8 * (i + 1) and differ > 0.8 * (i + 1)


def test_every_candidate_is_played_in_the_same_worlds() -> None:
    """A candidate listed twice scores the same in every world (same world, same play-out
    stream); the scores vary from world to world."""
    for st in states(4, 2):
        if st[E.O_DECISION] == E.D_DISCARD and st[E.O_TURN] > 4:
            break
    obs, rows = GAME.view(st)
    discards = [i for i in range(len(rows)) if rows[i, 0] == E.MV_DISCARD]
    cand = np.array([discards[0], discards[-1], discards[0], discards[-1]], np.int64)
    table = np.empty((12, 4), np.float64)
    score_table(int(obs[E.O_DECISION]), obs, np.ascontiguousarray(rows), cand, 4, 1, np.array([5], np.uint64), table)
    assert np.array_equal(table[:, 0], table[:, 2]) and np.array_equal(table[:, 1], table[:, 3])
    assert len(set(table[:, 0])) > 1 or len(set(table[:, 1])) > 1
    # the table is a function of the generator state
    again = np.empty_like(table)
    score_table(int(obs[E.O_DECISION]), obs, np.ascontiguousarray(rows), cand, 4, 1, np.array([5], np.uint64), again)
    assert np.array_equal(table, again)


def test_one_and_two_threads_identical() -> None:
    table = [TINY, "greedy", TINY]
    a = run_deals(table, 6, SEED, threads=1)
    b = run_deals(table, 6, SEED, threads=2)
    assert np.array_equal(a.results, b.results)


def test_max_candidates_one_plays_as_greedy() -> None:
    """With base=greedy, max_candidates=1 searches only greedy's move: the same deals as
    greedy; the default max_candidates searches more and plays differently somewhere."""
    g = run_deals(["greedy", "greedy"], 6, SEED).results
    one = run_deals(["mc_search:worlds=2,max_candidates=1,base=greedy", "greedy"], 6, SEED).results
    searched = run_deals([TINY_GREEDY, "greedy"], 6, SEED).results
    assert np.array_equal(g, one)
    assert not np.array_equal(g, searched)


def test_consider_drop_decides_whether_it_drops() -> None:
    """Scored by deadwood one turn ahead, a weak hand looks worse than a 20-point first
    drop, so with consider_drop it drops in some deals; without it never."""
    on = run_deals(["mc_search:worlds=2,consider_drop=true,base=greedy", "greedy", "greedy"], 6, SEED).results
    off = run_deals([TINY_GREEDY, "greedy", "greedy"], 6, SEED).results
    assert on[:, E.C_DROP].sum() > 0
    assert off[:, E.C_DROP].sum() == 0


def test_parameter_slots_and_docs_follow_the_registration() -> None:
    info = registry_for("indian").get("mc_search")
    slots = {"worlds": mc_search_nb.P_WORLDS, "horizon": mc_search_nb.P_HORIZON,
             "max_candidates": mc_search_nb.P_MAX_CANDIDATES, "consider_drop": mc_search_nb.P_CONSIDER_DROP,
             "base": mc_search_nb.P_BASE, "margin": mc_search_nb.P_MARGIN}
    assert [p.name for p in info.params] == sorted(slots, key=slots.get)
    section = DOC.read_text(encoding="utf-8").split("# Indian Rummy strategies", 1)[1]
    assert "## `mc_search`" in section
    for p in info.params:
        assert f"`{p.name}`" in section and p.low <= p.default <= p.high


def test_base_expert_leads_with_expert() -> None:
    """base=expert leads with expert at the parameters snapshot mc_search_nb.EXPERT_PARAMS:
    with max_candidates=1 it plays exactly the deals of expert at those parameters."""
    info = registry_for("indian").get("expert")
    assert len(info.params) == len(mc_search_nb.EXPERT_PARAMS)
    values = ",".join(f"{p.name}={p.format(v)}" for p, v in zip(info.params, mc_search_nb.EXPERT_PARAMS))
    e = run_deals([f"expert:{values}", "greedy"], 4, SEED).results
    one = run_deals(["mc_search:worlds=2,max_candidates=1,base=expert", "greedy"], 4, SEED).results
    assert np.array_equal(e, one)


def test_base_learned_leads_with_learned() -> None:
    """base=learned (issue 25) leads with the built-in learned: with max_candidates=1 it plays exactly
    learned's deals, at 4 players, where learned's model plays (at 2 it plays expert's moves) and
    differs from expert on these deals (so the test tells the two bases apart)."""
    field = ["greedy", "greedy", "greedy"]
    learned = run_deals(["learned"] + field, 6, SEED).results
    one = run_deals(["mc_search:worlds=2,max_candidates=1,base=learned"] + field, 6, SEED).results
    expert = run_deals(["expert"] + field, 6, SEED).results
    assert np.array_equal(learned, one)
    assert not np.array_equal(learned, expert)


def test_expert_snapshot_is_experts_defaults() -> None:
    """The snapshot base=expert plays is expert's current defaults (change them together),
    and base=expert is mc_search's default."""
    info = registry_for("indian").get("expert")
    assert [p.default for p in info.params] == list(mc_search_nb.EXPERT_PARAMS)
    spec = registry_for("indian").parse_spec("mc_search")
    assert spec.param_array()[mc_search_nb.P_BASE] == mc_search_nb.BASE_EXPERT


def test_margin_keeps_the_base_move() -> None:
    """A margin larger than any play-out difference (scores lie within -80..+80 x seats)
    keeps the base's move: the same deals as expert; margin 0 searches and plays
    differently somewhere (on these deals)."""
    e = run_deals(["expert", "greedy", "greedy"], 6, SEED).results
    kept = run_deals(["mc_search:worlds=2,margin=1000", "greedy", "greedy"], 6, SEED).results
    searched = run_deals([TINY, "greedy", "greedy"], 6, SEED).results
    assert np.array_equal(e, kept)
    assert not np.array_equal(e, searched)
