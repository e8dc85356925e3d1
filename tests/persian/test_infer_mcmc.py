"""--infer-method mcmc in Persian Rummy: worlds from Metropolis-Hastings chains (infer.chain_worlds).

* Every chain world is a deal of the same unseen cards (only their places move) that keeps the
  view (P10): the public slots (pile, table, hand sizes, stock size), the own hand, the cards
  each other seat is known to hold from the pile; every card of the 56 (P1) is in exactly one
  place.
* The seed reproduces the worlds; the sampler reads the view and the public history only.
* The analysis plays the chain worlds with equal weights; below the ESS floor it stops in one
  line; the default method is still the importance weights.
Tiny counts, greedy play-outs, expert inference.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.games import get_game
from sim.games.persian import enums as E
from sim.games.persian.cards_nb import popcount
from sim.games.persian.decisions import AnalysisInputError, PersianDecision, analyze, policy_args
from sim.games.persian.decisions_nb import play_states, world_pool
from sim.games.persian.determinize_nb import determinize_into
from sim.games.persian.infer import chain_worlds, world_loglik, worlds_loglik
from sim.games.persian.state_nb import pile_mask
from sim.core.rng_nb import stream_key
from tests.persian.test_infer import late_decision

SEED = 7


@pytest.fixture(scope="module")
def logs():
    return get_game("persian").record_logs(["expert", "expert"], 2, SEED)


def _chains(dec, seed=3, samples=24, burn=12):
    _, params, fns = policy_args("expert")
    return chain_worlds(dec.obs, dec.history, samples, seed, params, fns, 0.5, 4, burn, 2)


def test_chain_worlds_keep_every_public_fact(logs) -> None:
    dec = late_decision(logs[0])
    obs = dec.obs
    states, ch = _chains(dec)
    known = np.zeros(E.N_SEATS, np.int64)
    pool = np.zeros(E.N_CARDS, np.int64)
    n = world_pool(obs, np.int64(3), np.int64(0), known, pool)
    uniform = np.zeros(E.ST_SIZE, np.int64)
    determinize_into(obs, np.array([stream_key(3, 0, 1000)], np.uint64), uniform, np.zeros(E.N_SEATS, np.int64),
                     np.zeros(E.N_CARDS, np.int64))
    seat, n_stock = int(obs[E.O_SEAT]), int(obs[E.O_STOCK_N])
    public = int(pile_mask(obs, obs[E.O_PILE_N] - 1)) | int(obs[E.O_TABLE_CARDS])
    assert ch.accepted > 0 and len(states) == 24
    for st, p in zip(states, ch.pools):
        assert sorted(p) == sorted(pool[:n])
        same = np.ones(E.OBS_SIZE, bool)
        same[E.O_DECISION] = False
        assert np.array_equal(st[: E.OBS_SIZE][same], uniform[: E.OBS_SIZE][same])
        held = 0
        for o in range(E.N_SEATS):
            h = int(st[E.S_HANDS + o])
            assert popcount(h) == obs[E.O_HAND_SIZES + o] and h & known[o] == known[o]
            assert held & h == 0
            held |= h
        assert int(st[E.S_HANDS + seat]) == int(obs[E.O_HAND])
        stock = 0
        for c in st[E.S_STOCK: E.S_STOCK + n_stock]:
            stock |= 1 << int(c)
        assert popcount(stock) == n_stock and stock & (held | public) == 0
        assert held | stock | public == (1 << E.N_CARDS) - 1
    assert len({tuple(st[E.S_HANDS: E.S_HANDS + E.N_SEATS]) for st in states}) > 1


def test_chain_worlds_seeded_and_from_the_view_only(logs) -> None:
    dec = late_decision(logs[0])
    a, _ = _chains(dec)
    b, _ = _chains(PersianDecision(dec.obs.copy(), dec.rows.copy(), history=dec.history))
    c, _ = _chains(dec, seed=4)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert all(ch.obs[E.O_HAND] == 0 for ch in dec.history.choices)


def test_mcmc_analysis_plays_the_chain_worlds(logs) -> None:
    dec = late_decision(logs[0])
    kw = dict(samples=24, policy="greedy", seed=3, infer="expert", ess_floor=1.0)
    on = analyze(dec, infer_method="mcmc", chains=(4, 12, 2), **kw)
    states, ch = _chains(dec, samples=24)
    states[:, E.O_DECISION] = dec.decision
    _, params, fns = policy_args("greedy")
    out = np.zeros((24, len(dec.rows)))
    play_states(np.ascontiguousarray(dec.obs), dec.decision, np.ascontiguousarray(dec.rows), states,
                np.arange(24, dtype=np.int64), 3, params, fns, 0, out)
    assert np.array_equal(on.scores, out)
    assert on.assumptions["worlds_are"].startswith("worlds drawn from expert's posterior")
    assert on.assumptions["inference"]["ess"] == pytest.approx(ch.ess)
    assert analyze(dec, **kw).assumptions["worlds_are"].startswith("worlds weighted by")
    with pytest.raises(AnalysisInputError, match=r"inference failed: effective sample size [\d.]+ of 24 chain "
                                                 r"worlds is below the floor 1000"):
        analyze(dec, **{**kw, "ess_floor": 1000.0}, infer_method="mcmc", chains=(4, 12, 2))


def test_cli_infer_method(tmp_path, logs, capsys) -> None:
    """rummy-sim analyze --infer-method mcmc prints the chains' ESS; a bad method: one line, exit 2."""
    from sim.cli import main

    path = tmp_path / "d.jsonl"
    get_game("persian").write_logs(path, logs)
    dec = late_decision(logs[0])
    args = ["analyze", str(path), "--deal", "0", "--turn", str(dec.turn), "--decision", "discard", "--infer",
            "expert", "--samples", "12", "--policy", "greedy", "--ess-floor", "1", "--infer-chains", "3",
            "--infer-burn", "6", "--infer-thin", "1"]
    assert main(args + ["--infer-method", "mcmc"]) == 0
    out = capsys.readouterr().out
    assert "Metropolis-Hastings chains (burn-in 6, thinning 1" in out and "worlds drawn in" in out
    code = main(args + ["--infer-method", "gibbs"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err == ["rummy-sim: error: --infer-method must be one of weights, mcmc, got 'gibbs'"]


def test_chain_worlds_are_likelier_than_uniform_ones(logs) -> None:
    """The chains move towards the posterior: their worlds' log-likelihood (recomputed, fresh
    streams) is on average well above the uniform worlds'."""
    dec = late_decision(logs[0])
    _, params, fns = policy_args("expert")
    states, _ = _chains(dec, samples=40, burn=150)
    chain = np.array([world_loglik(dec.history, st, 10**6 + i, 3, params, fns, 0.5) for i, st in enumerate(states)])
    uniform = worlds_loglik(dec.obs, dec.history, np.arange(40, dtype=np.int64), 3, params, fns, 0.5)
    assert np.mean(chain[np.isfinite(chain)]) > np.mean(uniform[np.isfinite(uniform)]) + 2.0
