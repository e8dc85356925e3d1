"""Reading the other seats (--infer, sim/games/persian/infer.py; issue 24 item 3).

* The weights equal a plain forward reference: replaying the deal with the true hands, asking
  the policy at every other seat's draw and discard and multiplying the tremble probabilities,
  gives the same log-likelihood as rebuilding the hands backwards from the true state now, when
  the rebuild is told the true stock draws.
* --infer off plays the same worlds (same score matrix); with it the same worlds get weights.
* An effective sample size below the floor stops with one line; a bad --infer policy is one line, exit 2.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.games import get_game
from sim.games.persian import enums as E
from sim.games.persian.decisions import (AnalysisInputError, analyze, decision_from_log, policy_args,
                                         start_position, turn_moves)
from sim.games.persian.position import row_to_move
from sim.games.persian.infer import EV_STOCK, STREAM_INFER_POLICY, world_loglik
from sim.core.rng_nb import stream_key
from sim.plugin.strategy import call_from_python

SEED = 7


@pytest.fixture(scope="module")
def logs():
    return get_game("persian").record_logs(["expert", "expert"], 2, SEED)


def late_decision(log, phase="discard"):
    """A decision of ``phase`` about two thirds into the deal (many earlier choices to read)."""
    for t in range(2 * len(log["turns"]) // 3, 0, -1):
        try:
            return decision_from_log(log, t, phase)
        except AnalysisInputError:
            continue
    raise AssertionError("no decision found")


def reference(log, dec, params, fns, w, tremble):
    """Forward: the true state now, the true stock draws per seat, and the log-likelihood of
    every other seat's draw and discard asked of the policy in its true observation."""
    pos = start_position(log)
    drawn = {s: [] for s in range(E.N_SEATS)}
    total, k = 0.0, 0
    for move in _before(log, dec):
        seat, phase = pos.seat, pos.phase
        if seat != dec.seat and phase in ("draw", "discard"):
            rows = pos.legal_rows()
            hit = [i for i, r in enumerate(rows) if row_to_move(r) == move][0]
            if len(rows) > 1:
                rng = np.array([stream_key(SEED, w, STREAM_INFER_POLICY + k)], dtype=np.uint64)
                pick = call_from_python(fns[seat], E.D_DRAW if phase == "draw" else E.D_DISCARD,
                                        pos.observation(), rows, len(rows), params[seat], rng)
                total += np.log((1 - tremble) * (pick == hit) + tremble / len(rows))
            k += 1
        before = int(pos.st[E.S_HANDS + seat])
        pos.apply(move)
        if move == ("stock",) and seat != dec.seat:
            drawn[seat].append(int(pos.st[E.S_HANDS + seat]) & ~before)
    return total, pos.st.copy(), drawn


def _before(log, dec):
    """The moves before the decision (as decision_from_log replays them)."""
    out = []
    for t in log["turns"][: dec.turn - 1]:
        out += [m for _, m in turn_moves(t)]
    here = turn_moves(log["turns"][dec.turn - 1])
    k = [i for i, (p, _) in enumerate(here) if p == E.DECISION_NAMES[dec.decision]][0]
    return out + [m for _, m in here[:k]]


@pytest.mark.parametrize("phase", ["discard", "draw"])
def test_weights_equal_a_forward_reference(logs, phase) -> None:
    log = logs[1]
    dec = late_decision(log, phase)
    assert len(dec.history.choices) >= 6
    _, params, fns = policy_args("expert")
    for w in (0, 3):
        ref, truth, drawn = reference(log, dec, params, fns, w, 0.3)
        true_cards = {}
        for seat, events in dec.history.events.items():
            stock = [i for i, e in enumerate(events) if e[0] == EV_STOCK]
            assert len(stock) == len(drawn[seat])
            true_cards.update({(seat, i): c.bit_length() - 1 for i, c in zip(stock, drawn[seat])})
        got = world_loglik(dec.history, truth, w, SEED, params, fns, 0.3,
                           pick=lambda s, k, cards: true_cards[(s, k)])
        assert got == pytest.approx(ref, abs=1e-9)
        assert got < 0.0 or ref == 0.0


def test_infer_weights_the_same_worlds(logs) -> None:
    """--infer off: today's answer (the uniform worlds); on: the same score matrix, weighted."""
    dec = late_decision(logs[0])
    kw = dict(samples=40, policy="greedy", racing=False, seed=2)
    off = analyze(dec, **kw)
    on = analyze(dec, infer="expert", tremble=0.9, ess_floor=1.0, **kw)
    assert np.array_equal(off.scores, on.scores)
    assert off.assumptions["worlds_are"].startswith("worlds uniform")
    assert "inference" not in off.assumptions
    assert on.assumptions["worlds_are"].startswith("worlds weighted by expert's likelihood")
    assert 1.0 <= on.assumptions["inference"]["ess"] <= 40
    assert not np.allclose(off.frame.sort_values("move")["mean"], on.frame.sort_values("move")["mean"])


def test_ess_floor_stops_with_one_line(logs) -> None:
    dec = late_decision(logs[0])
    with pytest.raises(AnalysisInputError, match=r"inference failed: effective sample size [\d.]+ of 20 worlds "
                                                 r"\(\d+ possible\) is below the floor 1000"):
        analyze(dec, samples=20, policy="greedy", infer="greedy", ess_floor=1000)


def test_cli_bad_infer_policy(tmp_path, logs, capsys) -> None:
    from sim.cli import main

    path = tmp_path / "d.jsonl"
    get_game("persian").write_logs(path, logs)
    dec = late_decision(logs[0])
    code = main(["analyze", str(path), "--deal", "0", "--turn", str(dec.turn), "--decision", "discard",
                 "--infer", "nosuch", "--samples", "10"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("rummy-sim: error: --infer: unknown strategy 'nosuch'")
