"""Reading the opponents in Indian Rummy (--infer, sim/games/indian/infer.py; issue 24 item 3).

* The weights equal a plain forward reference: replaying the deal with the true hands, asking the
  policy at every draw, drop and discard decision of the other seats still in the deal and
  multiplying the tremble probabilities gives the log-likelihood the backward rebuild gives from
  the true state now, when the rebuild is told the true stock draws.
* Weighted on what every world shares (the draw decisions only, tremble 1: 1/n each, n public),
  every world has the same weight: ESS = worlds and the answer is the uniform one.
* --infer plays the same worlds as without (same score matrix), weighted; below the ESS floor it
  stops with one line; a position has no history (one line); a bad --infer policy: exit 2.
* --infer-method mcmc (chain_worlds): every chain world keeps the view and the unseen cards (I2,
  I9), the seed reproduces them, they come from the view and the public history only, and the
  analysis plays them with equal weights (ESS floor as above).
Tiny counts, greedy play-outs, expert inference (kernels the suite compiles anyway).
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.rng_nb import stream_key
from sim.games import get_game
from sim.games.indian import enums as E
from sim.games.indian.decisions import (AnalysisInputError, IndianDecision, _draw_move, _end_move, _set_stock,
                                        _turns, analyze, decision_from_log, policy_args, start_position)
from sim.games.indian.decisions_nb import play_states, sample_world, world_pool
from sim.games.indian.infer import (EV_STOCK, STREAM_INFER_POLICY, History, chain_worlds, world_loglik,
                                   worlds_loglik)
from sim.games.indian.position import row_to_move
from sim.plugin.strategy import call_from_python

SEED = 5


@pytest.fixture(scope="module")
def logs():
    return get_game("indian").record_logs(["expert"] * 4, 2, SEED)


def late_decision(log, phase="discard"):
    """A decision of ``phase`` about two thirds into the deal with several earlier choices to read."""
    n = sum(1 for t, _ in _turns(log) if t)
    for t in range(2 * n // 3, 0, -1):
        try:
            return decision_from_log(log, t, phase)
        except AnalysisInputError:
            continue
    raise AssertionError("no decision found")


def _moves_before(log, dec):
    """(reshuffle stock or None, move) of every move before the decision, as decision_from_log replays."""
    for n, entry in _turns(log):
        if n == 0:
            yield entry["reshuffle"], None
            continue
        draw, end = _draw_move(entry), _end_move(entry)
        if n == dec.turn:
            if dec.decision == E.D_DISCARD:
                yield None, draw
            return
        yield None, draw
        if end is not None:
            yield None, end


def reference(log, dec, params, fns, w, tremble):
    """Forward: the log-likelihood of every choice of the other seats still in the deal, asked of
    the policy in its true observation; the true state now and each seat's true stock draws."""
    pos = start_position(log)
    drawn = {s: [] for s in range(int(dec.obs[E.O_PLAYERS]))}
    total, k = 0.0, 0
    for stock, move in _moves_before(log, dec):
        if stock is not None:
            _set_stock(pos, stock)
            continue
        seat = pos.seat
        b = E.S_HANDS + seat * E.N_KINDS
        before = pos.st[b: b + E.N_KINDS].copy()
        if seat != dec.seat:
            rows = pos.legal_rows()
            hit = [i for i, r in enumerate(rows) if row_to_move(r) == move][0]
            if len(rows) > 1 and dec.obs[E.O_STATUS + seat] == E.ST_IN:
                rng = np.array([stream_key(SEED, w, STREAM_INFER_POLICY + k)], dtype=np.uint64)
                pick = call_from_python(fns[seat], int(pos.st[E.O_DECISION]), pos.observation(), rows, len(rows),
                                        params[seat], rng)
                total += np.log((1 - tremble) * (pick == hit) + tremble / len(rows))
            k += 1
        pos.apply(move)
        if move == ("stock",) and seat != dec.seat:
            drawn[seat].append(int(np.flatnonzero(pos.st[b: b + E.N_KINDS] > before)[0]))
    return total, pos.st.copy(), drawn


@pytest.mark.parametrize("phase", ["discard", "draw"])
def test_weights_equal_a_forward_reference(logs, phase) -> None:
    log = logs[1]
    dec = late_decision(log, phase)
    used = [c for c in dec.history.choices if dec.obs[E.O_STATUS + c.seat] == E.ST_IN]
    assert len(used) >= 4
    _, params, fns = policy_args("expert", 4)
    for w in (0, 3):
        ref, truth, drawn = reference(log, dec, params, fns, w, 0.3)
        true_cards = {}
        for seat, events in dec.history.events.items():
            stock = [i for i, e in enumerate(events) if e[0] == EV_STOCK]
            assert len(stock) == len(drawn[seat])
            true_cards.update({(seat, i): c for i, c in zip(stock, drawn[seat])})
        got = world_loglik(dec.history, truth, w, SEED, params, fns, 0.3, pick=lambda s, k, free: true_cards[(s, k)])
        assert got == pytest.approx(ref, abs=1e-9)
        assert got < 0.0


def test_what_every_world_shares_weighs_nothing(logs) -> None:
    """Draw decisions only, tremble 1: each recorded choice gets 1/n with n public, so every world
    has the same log-likelihood; with the discards in, the worlds differ."""
    dec = late_decision(logs[1])
    _, params, fns = policy_args("expert", 4)
    hist = dec.history
    draws = History(hist.seat, [c for c in hist.choices if c.decision == E.D_DRAW], hist.events)
    ll = worlds_loglik(dec.obs, draws, np.arange(12), SEED, params, fns, 1.0)
    assert np.isfinite(ll).all() and np.ptp(ll) == 0.0
    assert np.ptp(worlds_loglik(dec.obs, hist, np.arange(12), SEED, params, fns, 0.5)) > 0.0


def test_infer_weights_the_same_worlds(logs) -> None:
    """--infer off: the uniform answer; on: the same score matrix, weighted, and the text says so."""
    dec = late_decision(logs[0])
    kw = dict(samples=30, policy="greedy", racing=False, seed=2)
    off = analyze(dec, **kw)
    on = analyze(dec, infer="expert", tremble=0.9, ess_floor=1.0, **kw)
    assert np.array_equal(off.scores, on.scores)
    assert off.assumptions["worlds_are"].startswith("worlds uniform") and "inference" not in off.assumptions
    assert on.assumptions["worlds_are"].startswith("worlds weighted by expert's likelihood")
    assert 1.0 <= on.assumptions["inference"]["ess"] < 30
    assert not np.allclose(off.frame.sort_values("move")["mean"], on.frame.sort_values("move")["mean"])


def test_bad_inference_inputs_are_one_line(tmp_path, logs, capsys) -> None:
    dec = late_decision(logs[0])
    with pytest.raises(AnalysisInputError, match=r"inference failed: effective sample size [\d.]+ of 8 worlds "
                                                 r"\(\d+ possible\) is below the floor 1000"):
        analyze(dec, samples=8, policy="greedy", infer="expert", ess_floor=1000)
    with pytest.raises(AnalysisInputError, match="--infer needs the deal's history"):
        analyze(IndianDecision(dec.obs, dec.rows), samples=8, policy="greedy", infer="expert")
    from sim.cli import main

    path = tmp_path / "d.jsonl"
    get_game("indian").write_logs(path, logs)
    code = main(["analyze", "--game", "indian", str(path), "--deal", "0", "--turn", str(dec.turn), "--decision",
                 "discard", "--infer", "nosuch", "--samples", "8"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("rummy-sim: error: --infer: unknown strategy 'nosuch'")


# --- --infer-method mcmc: worlds from Metropolis-Hastings chains (infer.chain_worlds) -----------------------


def _chains(dec, seed=3, samples=24, burn=12):
    _, params, fns = policy_args("expert", int(dec.obs[E.O_PLAYERS]))
    return chain_worlds(dec.obs, dec.history, samples, seed, params, fns, 0.5, 4, burn, 2)


def test_chain_worlds_keep_every_public_fact(logs) -> None:
    """Every chain world is a deal of the same unseen cards (I9: only their places move) that keeps
    the view: the public slots, the own hand, the pile, the cut joker at the stock's bottom (I2),
    each opponent's hand size and the copies it is known to hold from the pile."""
    dec = late_decision(logs[0])
    obs = dec.obs
    states, ch = _chains(dec)
    known = np.zeros(E.MAX_SEATS * E.N_KINDS, np.int64)
    avail = np.zeros(E.N_KINDS, np.int64)
    pool = np.zeros(E.MAX_SHOE, np.int64)
    u, fixed = world_pool(obs, np.int64(3), np.int64(0), known, avail, pool)
    uniform = np.zeros(E.ST_SIZE, np.int64)
    sample_world(obs, np.int64(3), np.int64(0), uniform, known, avail, pool)
    seat, n_stock = int(obs[E.O_SEAT]), int(obs[E.O_STOCK_N])
    assert ch.accepted > 0 and len(states) == 24
    for st, p in zip(states, ch.pools):
        assert sorted(p) == sorted(pool[:u])
        assert np.array_equal(st[: E.OBS_SIZE], uniform[: E.OBS_SIZE])
        assert np.array_equal(st[E.S_PILE: E.S_PILE + E.MAX_SHOE], uniform[E.S_PILE: E.S_PILE + E.MAX_SHOE])
        for s in range(int(obs[E.O_PLAYERS])):
            hand = st[E.S_HANDS + s * E.N_KINDS: E.S_HANDS + (s + 1) * E.N_KINDS]
            if s == seat:
                assert np.array_equal(hand, obs[E.O_HAND: E.O_HAND + E.N_KINDS])
            elif obs[E.O_STATUS + s] == E.ST_IN:
                assert hand.sum() == obs[E.O_HAND_N + s]
                assert (hand >= known[s * E.N_KINDS: (s + 1) * E.N_KINDS]).all()
        if fixed:
            assert st[E.S_STOCK] == obs[E.O_CUT_JOKER]
        assert (st[E.S_STOCK: E.S_STOCK + n_stock] >= 0).all()
    hands = {tuple(st[E.S_HANDS: E.S_HANDS + E.MAX_SEATS * E.N_KINDS]) for st in states}
    assert len(hands) > 1


def test_chain_worlds_seeded_and_from_the_view_only(logs) -> None:
    """Same seed, same worlds; another seed, others. The sampler reads the view (``obs``) and the
    public history only: a decision rebuilt from those two alone gives the same worlds, and the
    history's observations hold no hand."""
    dec = late_decision(logs[0])
    a, _ = _chains(dec)
    b, _ = _chains(IndianDecision(dec.obs.copy(), dec.rows.copy(), history=dec.history))
    c, _ = _chains(dec, seed=4)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert all(not ch.obs[E.O_HAND: E.O_HAND + E.N_KINDS].any() for ch in dec.history.choices)


def test_mcmc_analysis_plays_the_chain_worlds(logs) -> None:
    """--infer-method mcmc: the score matrix is the chain worlds' (equal weights), the text says so;
    the default method is still the importance weights (answers as before)."""
    dec = late_decision(logs[0])
    kw = dict(samples=24, policy="greedy", seed=3, infer="expert", ess_floor=1.0)
    on = analyze(dec, infer_method="mcmc", chains=(4, 12, 2), **kw)
    states, ch = _chains(dec, samples=24)
    _, params, fns = policy_args("greedy", int(dec.obs[E.O_PLAYERS]))
    out = np.zeros((24, len(dec.rows)))
    play_states(np.ascontiguousarray(dec.rows), states, np.arange(24, dtype=np.int64), 3, params, fns, out)
    assert np.array_equal(on.scores, out)
    assert on.assumptions["worlds_are"].startswith("worlds drawn from expert's posterior")
    assert on.assumptions["inference"]["ess"] == pytest.approx(ch.ess)
    assert analyze(dec, **kw).assumptions["worlds_are"].startswith("worlds weighted by")
    with pytest.raises(AnalysisInputError, match=r"inference failed: effective sample size [\d.]+ of 24 chain "
                                                 r"worlds is below the floor 1000"):
        analyze(dec, **{**kw, "ess_floor": 1000.0}, infer_method="mcmc", chains=(4, 12, 2))


def test_chain_worlds_are_likelier_than_uniform_ones(logs) -> None:
    """The chains move towards the posterior: their worlds' log-likelihood (recomputed, fresh
    streams) is on average well above the uniform worlds' (a few nats here)."""
    dec = late_decision(logs[0])
    _, params, fns = policy_args("expert", int(dec.obs[E.O_PLAYERS]))
    states, _ = _chains(dec, samples=40, burn=150)
    chain = [world_loglik(dec.history, st, 10**6 + i, 3, params, fns, 0.5) for i, st in enumerate(states)]
    uniform = worlds_loglik(dec.obs, dec.history, np.arange(40, dtype=np.int64), 3, params, fns, 0.5)
    assert np.mean(chain) > np.mean(uniform[np.isfinite(uniform)]) + 2.0
