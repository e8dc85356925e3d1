"""Decision analysis (issue 12): the sampler sees the deciding seat's view only (RULES.md P10),
every candidate is played in the same worlds, decisions with a known answer are ranked
right, the JSON rows carry their keys and bad input gets a clear error.

Small on purpose (tens of worlds, a handful of deals): the compiled play-out kernel and
the policies' kernels are the engine's, so the cost here is the kernel's short cold
compile and a few thousand play-outs.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from sim.games.persian import decisions as P  # noqa: E402
from sim.games.persian.decisions import AnalysisInputError, PersianDecision, analyze, decision_from_log  # noqa: E402
from sim.apps.analysis.racing import race  # noqa: E402
from sim.apps.analysis.stats import ROW_KEYS  # noqa: E402
from sim.games import get_game  # noqa: E402
from sim.games.persian import enums as E  # noqa: E402
from sim.games.persian.cards import card_name  # noqa: E402
from sim.games.persian.information import hidden_variant  # noqa: E402
from sim.games.persian.position import Position  # noqa: E402

SEED = 11


@pytest.fixture(scope="module")
def logs():
    return get_game("persian").record_logs(["expert", "expert"], 4, SEED)


def kernel_scores(dec: PersianDecision, cands, worlds, policy="greedy", seed=3, later=0):
    """The raw play-out matrix of ``cands`` in ``worlds`` (what the race asks for)."""
    from sim.games.persian.decisions_nb import play_worlds
    from sim.games.persian.decisions import policy_args

    _, params, fns = policy_args(policy)
    out = np.zeros((len(worlds), len(cands)))
    play_worlds(dec.obs, np.int64(dec.decision), np.ascontiguousarray(dec.rows[list(cands)]),
                np.asarray(worlds, dtype=np.int64), np.int64(seed), params, fns, np.int64(later), out)
    return out


def first_decision(log, phase: str, min_moves: int = 2) -> PersianDecision:
    """The first decision of ``phase`` in ``log`` with at least ``min_moves`` legal moves."""
    for t in range(1, len(log["turns"]) + 1):
        try:
            dec = decision_from_log(log, t, phase)
        except AnalysisInputError:
            continue
        if len(dec.rows) >= min_moves:
            return dec
    raise AssertionError(f"no {phase} decision with {min_moves}+ moves in deal {log['deal']}")


def full_state(log, turn: int, phase: str) -> np.ndarray:
    """The true state (every hand, the stock) at a logged decision, replayed on a Position."""
    pos = P.start_position(log)
    for t in range(1, turn):
        for ph, mv in P.turn_moves(log["turns"][t - 1]):
            pos.apply(mv)
    for ph, mv in P.turn_moves(log["turns"][turn - 1]):
        if ph == phase:
            break
        pos.apply(mv)
    st = pos.st.copy()
    st[E.O_DECISION] = E.DECISION_NAMES.index(phase)
    return st, pos


# --- the sampler sees the view only (P10) -----------------------------------------------------------


def test_same_view_different_hidden_cards_gives_the_same_worlds(logs) -> None:
    """P10: two true states the deciding seat cannot tell apart (other hands' unknown cards and
    the stock redrawn) give identical play-out matrices, so identical analyses; a different
    seed (other worlds) does change them, so the comparison is not vacuous."""
    log = logs[1]
    dec = first_decision(log, "discard", 3)
    st, pos = full_state(log, dec.turn, "discard")
    gen = np.random.default_rng(5)
    alt = hidden_variant(st, gen)
    assert not np.array_equal(alt[E.OBS_SIZE:], st[E.OBS_SIZE:])  # the hidden cards did move
    pos_alt = Position.from_deal(0, 0, pos.rules)
    pos_alt.st = alt
    pos_alt.phase = "discard"
    dec_alt = PersianDecision.from_position(pos_alt)
    assert np.array_equal(dec.obs, dec_alt.obs) and np.array_equal(dec.rows, dec_alt.rows)
    cands = range(len(dec.rows))
    a = kernel_scores(dec, cands, range(24))
    b = kernel_scores(dec_alt, cands, range(24))
    assert np.array_equal(a, b)
    assert not np.array_equal(a, kernel_scores(dec, cands, range(24), seed=4))


def test_the_decision_keeps_no_hidden_card(logs) -> None:
    """What an analysis receives is the observation (public slots and own hand) only."""
    dec = first_decision(logs[0], "draw")
    assert dec.obs.shape == (E.OBS_SIZE,)
    st, _ = full_state(logs[0], dec.turn, "draw")
    assert np.array_equal(dec.obs[: E.O_HAND], st[: E.O_HAND])
    assert dec.obs[E.O_HAND] == st[E.S_HANDS + dec.seat]


# --- common worlds ----------------------------------------------------------------------------------


def test_every_candidate_sees_the_same_worlds(logs) -> None:
    """A candidate's value in world w does not depend on the other candidates asked with it, nor on
    the batch w comes in (worlds keyed by (seed, w)); the same move asked twice gives equal
    columns (same world, same policy streams)."""
    dec = first_decision(logs[2], "discard", 3)
    n = len(dec.rows)
    together = kernel_scores(dec, range(n), range(20))
    for c in range(n):
        alone = kernel_scores(dec, [c], range(20))
        assert np.array_equal(alone[:, 0], together[:, c])
    later = kernel_scores(dec, range(n), range(10, 20))
    assert np.array_equal(later, together[10:])
    twice = kernel_scores(dec, [0, 0], range(20))
    assert np.array_equal(twice[:, 0], twice[:, 1])


def test_observation_gives_the_same_decision(logs) -> None:
    """From a strategy's observation alone (O_DECISION set) the same legal moves follow."""
    dec = first_decision(logs[3], "draw", 3)
    again = PersianDecision.from_observation(dec.obs)
    assert np.array_equal(again.rows, dec.rows) and again.rules == dec.rules


def test_game_horizon_adds_the_same_points_to_every_candidate(logs) -> None:
    """P9: the later deal of the game is dealt from the world's own stream and policies do not see
    the score, so under common random numbers it shifts every candidate by the same amount."""
    dec = first_decision(logs[2], "discard", 3)
    deal_only = kernel_scores(dec, range(3), range(12))
    game = kernel_scores(dec, range(3), range(12), later=1)
    shift = game - deal_only
    assert np.allclose(shift, shift[:, :1]) and np.abs(shift).sum() > 0


def test_race_never_drops_the_leader_on_a_clear_gap() -> None:
    """The race (Bonferroni over rivals and looks) drops clearly worse candidates early, keeps the
    kept one, and stops when the best is separated."""
    gen = np.random.default_rng(0)
    noise = gen.normal(0, 5, size=(2000, 1))
    means = np.array([0.0, -10.0, -12.0, -0.1])

    def sample(cands, start, stop):
        return noise[start:stop] + means[cands] + gen.normal(0, 1, size=(stop - start, len(cands)))

    rr = race(sample, 4, samples=2000, batch=100, keep=(2,), min_samples=100)
    assert rr.alive[0] and rr.alive[2] and not rr.alive[1]
    assert rr.worlds < 2000 or rr.alive[3]  # either separated early, or the near-tie kept it in
    assert np.isnan(rr.scores[-1, 1])  # no more worlds for an eliminated candidate


# --- known answers -----------------------------------------------------------------------------------


def deal_rest(fixed: dict, sizes: dict, stock_n: int):
    """Hands of the given sizes and a stock: the ``fixed`` cards first (keys other than seats:
    cards placed elsewhere by the caller), the rest of the deck dealt in card order (jokers last)."""
    used = {c for cards in fixed.values() for c in cards if c != "JK"}
    rest = [card_name(c) for c in range(E.JOKER0) if card_name(c) not in used]
    rest += ["JK"] * (4 - sum(cards.count("JK") for cards in fixed.values()))
    hands = []
    for s in range(4):
        h = list(fixed.get(s, []))
        while len(h) < sizes[s]:
            h.append(rest.pop(0))
        hands.append(h)
    stock = rest[:stock_n]
    return hands, rest[stock_n:], stock


def test_going_out_beats_not_going_out() -> None:
    """P6.4/P8: with 7C 8C and 9C drawn, melding the run puts the last card down (the deal ends,
    the team gets the out bonus, the opponents keep their hands); stopping and discarding does
    not. The analysis ranks going out first, and the gap is significant."""
    hands, _, stock = deal_rest({0: ["7C", "8C"], "pile+stock": ["2D", "9C"]}, {0: 2, 1: 7, 2: 7, 3: 7}, 12)
    pos = Position(hands, ["2D"], ["9C"] + stock, dealer=3, to_move=0)
    pos.apply(("stock",))
    dec = PersianDecision.from_position(pos, ("stop",))
    a = analyze(dec, samples=60, policy="greedy", batch=30, seed=1)
    best = a.best
    assert best["move"] == "meld 7C 8C 9C"
    stop = a.frame[a.frame["move"].str.startswith("stop")].iloc[0]
    assert stop["diff_vs_best_ci95"][1] < 0
    assert a.played["move"].startswith("stop") and best["diff_vs_played"] > 0


def test_discarding_the_card_the_next_player_needs_ranks_last() -> None:
    """P6.1/P6.4: seat 1 (next, an opponent) has an empty hand and 4H 5H 6H is on the table;
    discarding 7H lets it take 7H, lay it off and go out at once. Keeping 7H and discarding 2C
    is best."""
    hands, _, stock = deal_rest({0: ["7H", "2C", "9S"], "pile+table": ["3D", "4H", "5H", "6H"]},
                               {0: 3, 1: 0, 2: 7, 3: 7}, 10)
    pos = Position(hands, ["3D"], stock, dealer=3, to_move=0, melds=[(2, ["4H", "5H", "6H"])])
    pos.apply(("stock",))
    pos.apply(("stop",))
    dec = PersianDecision.from_position(pos, ("discard", "7H"))
    a = analyze(dec, samples=60, policy="greedy", batch=30, seed=2)
    worst = a.frame.sort_values("mean").iloc[0]
    assert worst["move"] == "discard 7H"
    assert worst["diff_vs_best_ci95"][1] < 0
    assert a.best["move"] != "discard 7H"


# --- output and bad input ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def log_file(tmp_path_factory, logs):
    path = tmp_path_factory.mktemp("dec") / "deals.jsonl"
    get_game("persian").write_logs(path, logs)
    return path


def run_cli(capsys, *argv):
    from sim.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_json_has_the_row_keys(log_file, logs, capsys) -> None:
    dec = first_decision(logs[0], "draw")
    code, out, err = run_cli(capsys, "analyze", log_file, "--deal", 0, "--turn", dec.turn, "--samples", 20,
                             "--batch", 10, "--policy", "greedy", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["rows"] and len(d["rows"]) == len(dec.rows)
    for row in d["rows"]:
        assert set(ROW_KEYS) <= set(row)
        assert len(row["ci95"]) == 2 and len(row["diff_vs_best_ci95"]) == 2
    assert sum(r["played"] for r in d["rows"]) == 1
    assert abs(sum(r["p_best"] for r in d["rows"]) - 1) < 1e-3  # rounded to 4 places
    assert d["assumptions"]["policy"] == "greedy" and "sampler" in d["assumptions"]


def test_analyze_text_output(log_file, logs, capsys, tmp_path) -> None:
    dec = first_decision(logs[0], "discard")
    chart = tmp_path / "c.png"
    code, out, err = run_cli(capsys, "analyze", log_file, "--deal", 0, "--turn", dec.turn, "--decision",
                             "discard", "--samples", 20, "--batch", 10, "--policy", "greedy", "--chart", chart)
    assert code == 0, err
    assert "(* the move played" in out and "decisions/s" in out and chart.stat().st_size > 0


def forced_turn(log) -> int:
    for t in range(1, len(log["turns"]) + 1):
        try:
            decision_from_log(log, t, "draw")
        except AnalysisInputError as e:
            if "forced" in str(e):
                return t
    raise AssertionError("no forced draw")


@pytest.mark.parametrize("args, fragment", [
    (("--deal", 99, "--turn", 1), "deal 99 not in"),
    (("--deal", 0, "--turn", 9999), "turn 9999 does not exist"),
    (("--deal", 0, "--turn", 0), "turn 0 does not exist"),
    (("--deal", 0, "--turn", 1, "--decision", "meld"), "--decision must be one of"),
    (("--deal", 0, "--turn", 1, "--policy", "nosuch"), "unknown strategy 'nosuch'"),
    (("--deal", 0, "--turn", 1, "--samples", 0), "--samples must be a positive integer"),
])
def test_analyze_bad_input(log_file, capsys, args, fragment) -> None:
    code, out, err = run_cli(capsys, "analyze", log_file, *args)
    assert code == 2 and fragment in err, err


def test_forced_decision_is_refused(log_file, logs, capsys) -> None:
    t = forced_turn(logs[0])
    code, out, err = run_cli(capsys, "analyze", log_file, "--deal", 0, "--turn", t)
    assert code == 2 and "forced" in err and f"turn {t}" in err, err


def test_missing_discard_and_play_index(logs) -> None:
    log = logs[0]
    out_turn = len(log["turns"])
    if log["end"] == "out":
        with pytest.raises(AnalysisInputError, match="no discard decision"):
            decision_from_log(log, out_turn, "discard")
    with pytest.raises(AnalysisInputError, match="play decisions"):
        decision_from_log(log, 1, "play", index=50)


def test_audit_rows_and_report(tmp_path) -> None:
    """A tiny audit: rows with the loss and the features, a report directory."""
    from sim.games.persian.audit import audit, summarize, write_report

    a = audit("greedy", "discard", deals=2, sample=3, samples=20, batch=10, seed=1)
    assert len(a.frame) == 3 and a.found >= 3
    assert (a.frame["loss"] >= -1e-9).all()  # the best has the highest mean: nothing is better
    assert {"stock", "opp_min_hand", "card_value", "chose_best"} <= set(a.frame.columns)
    t = summarize(a.frame, "stock")
    assert t["decisions"].sum() == 3
    files = write_report(a, tmp_path / "audit")
    assert (tmp_path / "audit" / "report.md").exists() and any(f.name == "audit.png" for f in files)


def test_audit_cli_json_and_other_games(capsys) -> None:
    code, out, err = run_cli(capsys, "audit", "greedy", "--decision", "take", "--deals", 1, "--sample", 2,
                             "--samples", 10, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["setup"]["kind"] == "take" and len(d["decisions"]) == d["summary"]["decisions"] <= 2
    code, out, err = run_cli(capsys, "audit", "greedy", "--decision", "steal", "--deals", 1)
    assert code == 2 and "--decision must be one of take, hold, discard" in err
    code, out, err = run_cli(capsys, "audit", "greedy", "--decision", "take", "--deals", 1, "--game", "indian")
    assert code == 2 and "--decision must be one of drop, pickup, discard" in err


def test_top_keeps_the_best_of_a_pilot_and_the_move_played(logs) -> None:
    """--top M: after a pilot batch only the M best by its means go on, plus the move played."""
    dec = first_decision(logs[1], "discard", 4)
    a = analyze(dec, samples=40, batch=20, top=1, policy="greedy", seed=4)
    assert len(a.frame) <= 2 and a.frame["played"].sum() == 1
    assert "after a pilot" in a.assumptions["candidates"]
