"""Two strategies on the same decisions (``rummy-sim check-strategy A B``, issue 27).

A plays every seat of ``deals`` deals; at each of its decisions B is asked too, on copies of
the same view, the same legal moves and a copy of the seat's random stream (so asking B never
changes A's play). The first decision where their answers differ is reported (deal, turn,
seat, the decision code, the view and both moves), or that they agree on every decision. For
checking a port: the Python version of a strategy against its compiled version (docs/
strategies.md, "From Python to compiled"). It plays through a plain-Python seat
(sim.plugin.pystrategy), one deal at a time on one thread, and stops at the first difference.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

import numpy as np

from sim.plugin.pystrategy import take_failure
from sim.plugin.registry import get_game, register_python_strategy
from sim.plugin.strategy import call_from_python, seat_function

REFEREE = "_check_referee"


@dataclass
class Difference:
    """The first decision where A and B answer differently."""

    deal: int
    turn: int
    seat: int
    decision: int
    obs: list
    moves: list
    a: int
    b: int


@dataclass
class Agreement:
    """What a check found: ``decisions`` compared and the first ``difference`` (or None)."""

    a: str
    b: str
    deals: int
    decisions: int
    difference: Difference | None


def _enums(game):
    """The game's ``enums`` module beside its ``game.py`` (its O_* slots and DECISION_NAMES)."""
    return importlib.import_module(type(game).__module__.rsplit(".", 1)[0] + ".enums")


def decision_name(game: str | None, code: int) -> str:
    names = getattr(_enums(get_game(game)), "DECISION_NAMES", ())
    return names[code] if 0 <= code < len(names) else f"decision {code}"


def _asker(spec):
    fn, params = seat_function(spec.info), spec.param_array()
    return lambda d, obs, moves, rng: call_from_python(fn, d, np.array(obs), np.array(moves), len(moves),
                                                       params.copy(), rng)


def check_pair(a: str, b: str, game: str | None = None, deals: int = 100, seed: int = 0,
               players: int | None = None) -> Agreement:
    """Play ``deals`` deals with A in every seat, asking B at each decision; see the module."""
    g = get_game(game)
    sa, sb = g.parse_spec(a), g.parse_spec(b)
    ask_a, ask_b = _asker(sa), _asker(sb)
    seen = {"n": 0, "diff": None, "deal": 0}
    E = _enums(g)
    turn_slot, seat_slot = E.O_TURN, E.O_SEAT

    def referee(decision, obs, moves, params, rng):
        ia = ask_a(decision, obs, moves, rng)
        ib = ask_b(decision, obs, moves, np.array(rng))
        seen["n"] += 1
        if ia != ib and seen["diff"] is None:
            seen["diff"] = Difference(seen["deal"], int(obs[turn_slot]), int(obs[seat_slot]), int(decision),
                                      np.asarray(obs).tolist(), np.asarray(moves).tolist(), ia, ib)
        return ia

    register_python_strategy(REFEREE, referee, game=g.name, doc="check-strategy: plays A, asks B")
    seats = players or g.default_players
    played = 0
    for d in range(deals):
        seen["deal"] = d
        g.run_deals([REFEREE] * seats, [d], seed, threads=1)
        take_failure()
        played += 1
        if seen["diff"] is not None:
            break
    return Agreement(str(sa), str(sb), played, seen["n"], seen["diff"])


def agreement_lines(r: Agreement, seed: int, game: str | None = None) -> list[str]:
    """The check's result as text."""
    if r.difference is None:
        return [f"{r.a} and {r.b} agree on {r.decisions:,} decisions ({r.deals} deals, seed {seed})"]
    d = r.difference
    return [f"{r.a} and {r.b} differ at decision {r.decisions:,}: deal {d.deal}, turn {d.turn}, seat {d.seat}, "
            f"a {decision_name(game, d.decision)} decision (seed {seed})",
            f"  {r.a} plays row {d.a}: {d.moves[d.a] if 0 <= d.a < len(d.moves) else 'outside the legal rows'}",
            f"  {r.b} plays row {d.b}: {d.moves[d.b] if 0 <= d.b < len(d.moves) else 'outside the legal rows'}",
            f"  legal moves (kind, a, b, c): {d.moves}",
            f"  the view (observation slots): {d.obs}"]
