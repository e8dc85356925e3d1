"""The readable view's adapter (issue 27 item 2, sim/plugin/readable.py), game-agnostic and without
an engine: the move a readable strategy returns becomes its row index, a move it kept from another
decision (or anything that is not one of this decision's moves) is passed on as a wrong answer for
sim.plugin.pystrategy to stop the run with, and parameters arrive by name in their kinds. Each
game's view is tested with its engine in tests/<game>/test_readable.py."""

from __future__ import annotations

import numpy as np

from sim.plugin.pystrategy import index_of
from sim.plugin.readable import Move, param_values, readable_decide
from sim.plugin.specs import Param

PARAMS = (Param("depth", 3, 0, 9, int, ""), Param("keen", 1, 0, 1, bool, ""), Param("bias", 0.5, 0.0, 1.0, float, ""),
          Param("style", 1, 0, 2, str, "", choices=("calm", "bold", "wild")))


def _build(decision, obs, moves):
    kinds = ("stock", "discard")
    return {"decision": "draw", "seat": 0, "hand": ("7C",),
            "moves": tuple(Move(i, kinds[int(r[0])], (f"{int(r[1])}C",)) for i, r in enumerate(moves))}


def _decide(fn):
    return readable_decide(fn, "toy", _build, PARAMS)


MOVES = np.array([[0, 2], [1, 3], [1, 4]])
ARGS = (0, np.zeros(3, dtype=np.int64), MOVES, np.array([5.0, 1.0, 0.25, 2.0]), np.ones(2, dtype=np.uint64))


def test_a_legal_move_becomes_its_index():
    assert _decide(lambda v: v.moves_of("discard")[-1])(*ARGS) == 2
    assert _decide(lambda v: 1)(*ARGS) == 1  # an index is passed on as it is


def test_a_move_not_among_this_decisions_moves_is_a_wrong_answer():
    foreign = Move(1, "discard", ("9H",))
    for answer in (foreign, Move(7, "stock"), "stock"):
        got = _decide(lambda v, a=answer: a)(*ARGS)
        assert index_of(got, len(MOVES)) is None, answer


def test_parameters_arrive_by_name_in_their_kinds():
    seen = {}
    _decide(lambda v: seen.update(v.params) or 0)(*ARGS)
    assert seen == {"depth": 5, "keen": True, "bias": 0.25, "style": "wild"}
    assert [type(seen[k]) for k in ("depth", "keen", "bias", "style")] == [int, bool, float, str]


def test_a_move_reads_as_a_player_says_it():
    assert str(Move(0, "take", ("5D", "QS"), depth=1)) == "take 5D QS depth 1"
    assert str(Move(3, "declare", ("KH",), valid=False)) == "declare KH NOT valid"
