"""Indian decision analysis (sim/games/indian/decisions.py, decisions_nb.py; issue 24, item 1):
the analysis sees only the deciding seat's view (I9), every candidate is played in the same
worlds, known answers on hand-made positions (a valid declaration, a wrong one I5, a drop I7),
and bad input gets one clear line. Tiny world counts, greedy play-outs (cheap)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cli import main
from sim.games.indian import enums as E
from sim.games.indian.decisions import AnalysisInputError, IndianDecision, analyze, decision_from_log, policy_args
from sim.games.indian.decisions_nb import play_worlds_kernel
from sim.games.indian.position import Position
from indian_positions import DECLARER, OTHERS, STOCK, position


def scores(dec: IndianDecision, worlds: int = 6, cands=None) -> np.ndarray:
    _, params, fns = policy_args("greedy", 4)
    rows = np.ascontiguousarray(dec.rows if cands is None else dec.rows[cands])
    out = np.zeros((worlds, len(rows)))
    play_worlds_kernel(dec.obs, rows, np.arange(worlds, dtype=np.int64), np.int64(5), params, fns, out)
    return out


def test_the_hidden_truth_does_not_reach_the_analysis() -> None:
    """Two positions that differ only in what seat 1 cannot see (the other hands, the stock) give the
    same analysis; a change it can see (the top discard) changes it."""
    a = IndianDecision.from_position(position())
    swapped = [OTHERS[1], OTHERS[0], OTHERS[2]]  # seats 0 and 2 trade hands: hidden from seat 1
    b = IndianDecision.from_position(position(swapped, STOCK[::-1]))
    assert np.array_equal(a.obs, b.obs)
    assert np.array_equal(scores(a), scores(b))
    c = IndianDecision.from_position(Position([OTHERS[0].split(), DECLARER, OTHERS[1].split(), OTHERS[2].split()],
                                              ["8S"], STOCK, "JC", dealer=0, decision="discard", to_move=1,
                                              discards=[(0, "8S")]))
    assert not np.array_equal(scores(a), scores(c))


def test_every_candidate_sees_the_same_worlds() -> None:
    """A candidate's score in world w is the same whichever other candidates are asked with it."""
    dec = IndianDecision.from_position(position())
    full = scores(dec, 5)
    some = [0, 3, len(dec.rows) - 1]
    assert np.array_equal(full[:, some], scores(dec, 5, some))
    assert np.array_equal(full[:, [2]], scores(dec, 5, [2]))


def test_known_answers_declarations_and_a_drop() -> None:
    """Declaring discarding QS is valid (I5): the others' losses, every world, and the best move;
    any other declaration is wrong and costs wrong_declaration (80) in every world; at a draw a
    first drop costs first_drop (20) in every world (I7)."""
    dec = IndianDecision.from_position(position())
    labels = dec.labels()
    s = scores(dec, 6)
    good = labels.index("declare discarding QS")
    assert (s[:, good] > 0).all()
    for i, lab in enumerate(labels):
        if lab.startswith("declare") and i != good:
            assert (s[:, i] == -80).all(), lab
    a = analyze(dec, samples=6, policy="greedy", racing=False)
    assert a.best["move"] == "declare discarding QS"
    draw = IndianDecision.from_position(position(decision="draw"))
    d = scores(draw, 4)
    assert draw.labels()[-1] == "drop" and (d[:, -1] == -20).all()


def test_a_logged_decision_and_its_bad_inputs(tmp_path, capsys) -> None:
    """From an engine log: the move played is a candidate; a turn that does not exist, a discard of
    a turn that dropped, a horizon beyond the deal: one line, exit 2 on the command line."""
    log_path = tmp_path / "d.jsonl"
    assert main(["log", "--game", "indian", "--deals", "1", "--seed", "2", "--out", str(log_path),
                 "greedy", "dropper", "greedy", "greedy"]) == 0
    capsys.readouterr()
    from sim.plugin.logfile import read_deal

    log = read_deal(log_path, 0)
    dec = decision_from_log(log, 1, "draw")
    assert dec.played is not None and dec.labels()[dec.played] in dec.labels()
    n = sum(1 for t in log["turns"] if "reshuffle" not in t)
    with pytest.raises(AnalysisInputError, match=f"has turns 1..{n}; turn {n + 1} does not exist"):
        decision_from_log(log, n + 1, "draw")
    drops = [i for i, t in enumerate((t for t in log["turns"] if "reshuffle" not in t), 1) if t["draw"] == "drop"]
    if drops:
        with pytest.raises(AnalysisInputError, match="no discard decision: the seat dropped"):
            decision_from_log(log, drops[0], "discard")
    with pytest.raises(AnalysisInputError, match="horizon must be 'deal'"):
        analyze(dec, samples=4, horizon="game")
    code = main(["analyze", "--game", "indian", str(log_path), "--deal", "0", "--turn", str(n + 1)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "does not exist" in err
    code = main(["analyze", "--game", "indian", str(log_path), "--deal", "0", "--turn", "1", "--decision", "play"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "--decision must be one of drop, draw, discard, declare" in err


def test_the_score_matrices_do_not_change() -> None:
    """The analysis kernel's output for a fixed position, seed and policy is pinned (computed before
    the play-outs stopped taking the engine's first-chance note, and after: the same), so a speed-up
    of the kernel cannot change an answer unnoticed."""
    import hashlib

    draw = scores(IndianDecision.from_position(position(decision="draw")), 6)
    assert draw.tolist() == [[219, 219, -20], [240, 240, -20], [240, 240, -20], [227, 227, -20], [230, 230, -20],
                             [108, 108, -20]]
    disc = scores(IndianDecision.from_position(position()), 6)
    assert disc.shape == (6, 28) and disc.sum() == 1498
    assert hashlib.sha256(disc.tobytes()).hexdigest()[:16] == "068d63c9f7f551a8"


def test_the_text_answer_of_a_position(capsys) -> None:
    """`rummy-sim analyze --game indian --hand ...` prints its table and what it rests on (the text
    output read an assumption the Indian analysis did not give: a KeyError before)."""
    code = main(["analyze", "--game", "indian", "--hand", " ".join(DECLARER[:13]), "--cut", "JC", "--players", "4",
                 "--pile", "3C", "--decision", "draw", "--samples", "4", "--batch", "4", "--policy", "greedy"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "answers rest on: worlds uniform" in out and "drop" in out
