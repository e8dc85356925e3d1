"""Indian `learned` (issue 25): its features agree with a plain-Python twin on decisions of played
deals, a model plays what its weights prefer in hand-made positions (I3 draw, I7 drop, I3
discard, I5 declaration forced), the committed weights load and play at every table size (I1),
and a tiny training runs and is the same from the same seed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.games.indian import enums as E
from sim.games.indian.engine import run_deals
from sim.games.indian.information import decision_states, view
from sim.games.indian.position import Position
from sim.games.indian.rules import RuleOptions
from sim.plugin.registry import registry_for
from strategies.indian import learned_weights, train as T
from strategies.indian.features_nb import FEATURE_NAMES, N_FEATURES
from strategies.indian.learned_nb import EXPERT_PARAMS, LEARNED_WEIGHTS, best_scored
from tests.indian import feature_ref
from tests.indian.indian_positions import OTHERS, STOCK

TINY = {"deals": 2, "per_deal": 2, "samples": 2, "eval_deals": 2, "progress": None, "players": 3}


def sampled_decisions(players: int, seed: int, deals: int, every: int):
    """Every ``every``-th decision state of ``deals`` expert deals at ``players`` seats."""
    out = []
    for d in range(deals):
        out += list(decision_states(["expert"] * players, seed, d, RuleOptions()))[::every]
    return out


@pytest.mark.parametrize("players, seed", [(2, 5), (4, 6), (6, 7)])
def test_kernel_features_equal_the_python_twin(players, seed):
    """On decisions of played deals (draws with a pile take and drops, discards late and early) the
    kernel's features equal feature_ref's, move by move; feature 0 marks expert's move."""
    states = sampled_decisions(players, seed, 8, 3)
    kinds = set()
    for state in states:
        obs, rows = view(state)
        got, chosen = T.decision_features(obs, rows)
        want = np.array(feature_ref.features(obs, rows, chosen))
        assert got.shape == (len(rows), N_FEATURES) == want.shape
        assert np.allclose(got, want), (obs[E.O_DECISION], rows.tolist(), np.argwhere(~np.isclose(got, want)))
        assert got[:, 0].sum() == 1 and got[chosen, 0] == 1
        kinds.add(int(obs[E.O_DECISION]))
        assert got[:, 1:].any()  # something besides feature 0 is measured
    assert kinds == {E.D_DRAW, E.D_DISCARD} and len(states) >= 40


def choice(pos: Position, weights) -> tuple[int, int]:
    """(row kind, card) of the move a model of ``weights`` (a draw and a discard row) plays at ``pos``."""
    obs, rows = pos.view()
    w = np.array(weights, dtype=np.float64).reshape(2, N_FEATURES)
    w.flags.writeable = False
    i = best_scored(np.int64(obs[E.O_DECISION]), obs, rows, np.int64(len(rows)), w, EXPERT_PARAMS,
                    np.zeros(1, dtype=np.uint64))
    return int(rows[i, 0]), int(rows[i, 1])


def weight(**named) -> list[float]:
    """One weight row: 0 but the named features."""
    row = [0.0] * N_FEATURES
    for k, v in named.items():
        row[FEATURE_NAMES.index(k)] = v
    return row


# seat 1 to move: the run of four 5H-8H, the pure run 8C-TC, the set of kings, and AD 2D QS
# (deadwood 22); with 3D the 13 kept cards once QS goes are a full declaration (I5)
DRAWER = "5H 6H 7H 8H 8C 9C TC KS KD KH AD 2D QS".split()
FULL = DRAWER[:12] + ["3D"]
# 14 cards at a discard: three pure runs (one of four) and KS 9D 5S 2C loose: KS is the costliest
LOOSE = "5H 6H 7H 8H 8C 9C TC AD 2D 3D KS 9D 5S 2C".split()


def hand_made(hand, decision, top="3D") -> Position:
    hands = [OTHERS[0].split(), hand, OTHERS[1].split(), OTHERS[2].split()]
    return Position(hands, [top], STOCK, "JC", dealer=0, decision=decision, to_move=1, discards=[(0, top)])


def test_a_model_plays_the_move_its_weights_prefer():
    """Draw (I3): the 3D on the pile makes the 13 kept cards a full declaration (deadwood 22 -> 0), so a
    model that hates deadwood takes it and one that likes it draws blind; a model that likes the drop
    drops (I7). Discard (I3): of the loose KS 9D 5S 2C a deadwood-hating model lets the king go."""
    draw = hand_made(DRAWER, "draw")
    expert_row = weight(expert=1.0)
    assert choice(draw, [weight(dead=-100.0), expert_row]) == (E.MV_PILE, 14)
    assert choice(draw, [weight(dead=+100.0), expert_row]) == (E.MV_STOCK, 0)
    assert choice(draw, [weight(drop=5.0), expert_row]) == (E.MV_DROP, 0)
    discard = hand_made(LOOSE, "discard")
    assert choice(discard, [expert_row, weight(dead=-100.0)]) == (E.MV_DISCARD, 50)
    assert choice(discard, [expert_row, weight(dead=+100.0)])[1] != 50


def test_a_valid_declaration_is_forced_and_no_other():
    """I5: with 14 cards that declare by discarding QS, every model declares (as expert does); without
    one no model declares, even one that scores every discard below a declare row's zeros."""
    declarer = hand_made(FULL + ["QS"], "discard")
    for w in ([weight(dead=100.0)] * 2, [weight(expert=-50.0)] * 2, [weight(dead=-100.0)] * 2):
        assert choice(declarer, w) == (E.MV_DECLARE, 49)
        assert choice(hand_made(LOOSE, "discard"), w)[0] == E.MV_DISCARD


def test_committed_weights_load_and_play_at_every_size():
    """The built-in: kind learned, the committed WEIGHTS in the kernel's array, under 1 MB; it plays
    2 to 6 seats (I1) to the end without an illegal move."""
    info = registry_for("indian").get("learned")
    assert info.kind == "learned" and info.kernel == "strategies.indian.learned_nb:learned_decide"
    assert LEARNED_WEIGHTS.shape == (2, N_FEATURES)
    assert np.array_equal(LEARNED_WEIGHTS, np.array(learned_weights.WEIGHTS))
    assert Path(learned_weights.__file__).stat().st_size < 1_000_000
    for players in range(2, 7):
        res = run_deals(["learned"] * players, 20, 3, threads=1).results
        assert (res[:, E.C_END] != E.END_ERROR).all()


def test_heads_up_it_plays_expert_and_not_at_four():
    """Below MIN_PLAYERS seats the built-in plays expert's moves (the same result rows as expert's, I1);
    at 4 the committed model changes some deal."""
    heads_up = [run_deals([s, "expert"], 30, 5, threads=1).results for s in ("learned", "expert")]
    assert np.array_equal(*heads_up)
    four = [run_deals([s] + ["expert"] * 3, 30, 5, threads=1).results for s in ("learned", "expert")]
    assert not np.array_equal(*four)


def test_tiny_training_runs_and_repeats_from_its_seed(tmp_path):
    """Two trainings from one seed fit the same weights (real play-outs, tiny budget); another seed
    fits others; resuming a finished round goes on with the same settings only."""
    a = T.train(rounds=1, out=tmp_path / "a", seed=3, **TINY)
    b = T.train(rounds=1, out=tmp_path / "b", seed=3, **TINY)
    c = T.train(rounds=1, out=tmp_path / "c", seed=4, **TINY)
    wa = np.array(a["rounds"][0]["weights"])
    assert wa.shape == (2, N_FEATURES) and not np.array_equal(wa, T.EXPERT_ONLY)
    assert np.array_equal(wa, b["rounds"][0]["weights"]) and not np.array_equal(wa, c["rounds"][0]["weights"])
    assert (tmp_path / "a" / "report.md").read_text().startswith("# learned (Indian)")
    with pytest.raises(ValueError, match="other settings.*players 3 .asked 4"):
        T.train(rounds=2, out=tmp_path / "a", resume=True, seed=3, **{**TINY, "players": 4})


def test_train_command_checks_its_input(tmp_path, capsys):
    """rummy-sim train --game indian: a table size outside 2-6 or an unknown kind is one line, exit 2."""
    from sim.cli import main

    base = ["train", "learned", "--game", "indian", "--seed", "1", "--out", str(tmp_path / "t")]
    assert main(base + ["--players", "7"]) == 2
    assert "players must be one of 2, 3, 4, 5, 6" in capsys.readouterr().err
    assert main(base + ["--kinds", "play"]) == 2
    err = capsys.readouterr().err.strip()
    assert "unknown decision kind 'play'; known: draw, discard" in err and "\n" not in err
    assert not (tmp_path / "t").exists()
