"""The readable view a plain-Python strategy may ask for instead of the engine's arrays (issue 27).

A readable strategy is ``decide(view) -> Move`` (or the move's index): ``view`` says what the
rules make public to the deciding seat in names a player uses (its hand as card names, the
pile top first, the table, hand sizes, the stock, the game's other public facts) and holds the
legal moves as :class:`Move` objects with their cards; declare moves carry ``valid`` (whether
the declaration would be valid). Each game builds its view (``Game.readable_view``,
sim/games/<game>/readable.py); this module holds the game-agnostic types and the adapter that
turns a readable strategy into the raw ``decide(decision, obs, moves, params, rng)`` function
sim.plugin.pystrategy seats.

The view is built from the observation and the legal rows the engine hands the seat, nothing
else, so a readable strategy sees exactly what a compiled one sees (P10, I9, G9).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NamedTuple

import numpy as np

from sim.core.rng_nb import rand_below, rand_float
from sim.plugin.specs import Param


class Move(NamedTuple):
    """One legal move: ``kind`` ("stock", "take", "discard", "declare", "knock" ...), the cards
    it moves, and what else identifies it; ``index`` is its row (what the engine plays). A named
    tuple: a view builds one per legal move at every decision, so it must be cheap to make."""

    index: int
    kind: str
    cards: tuple[str, ...] = ()
    depth: int | None = None  # a take from the discard pile: how deep (Persian P6.1)
    onto: int | None = None  # a lay-off: the table meld's number
    valid: bool | None = None  # a declare: whether the declaration is valid (Indian I5); None elsewhere

    def __str__(self) -> str:
        parts = [self.kind, *self.cards]
        if self.depth is not None:
            parts.append(f"depth {self.depth}")
        if self.onto is not None:
            parts.append(f"onto meld {self.onto}")
        if self.valid is not None:
            parts.append("valid" if self.valid else "NOT valid")
        return " ".join(parts)


class Random:
    """The seat's own random stream (the same one a compiled strategy draws from)."""

    def __init__(self, state: np.ndarray):
        self._state = state

    def below(self, n: int) -> int:
        """A uniform integer in 0 .. n-1."""
        return int(rand_below(self._state, np.int64(n)))

    def uniform(self) -> float:
        """A uniform float in [0, 1)."""
        return float(rand_float(self._state))


@dataclass(frozen=True)
class View:
    """What the deciding seat knows, by name. ``public`` holds the game's other public facts
    (documented per game in docs/strategies.md), ``obs`` the raw observation (read-only)."""

    game: str
    decision: str
    seat: int
    hand: tuple[str, ...]
    moves: tuple[Move, ...]
    pile: tuple[str, ...] = ()  # the discard pile top first, as far as it is public
    stock: int = 0  # cards left in the stock
    hand_sizes: tuple[int, ...] = ()  # every seat's cards in hand, seat 0 first
    table: tuple[tuple[str, ...], ...] = ()  # melds on the table
    public: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    random: Random | None = None
    obs: np.ndarray | None = None

    def moves_of(self, kind: str) -> list[Move]:
        """The legal moves of ``kind``."""
        return [m for m in self.moves if m.kind == kind]


ViewBuilder = Callable[[int, np.ndarray, np.ndarray], dict]


def param_values(params: np.ndarray, declared: tuple[Param, ...]) -> dict[str, Any]:
    """The parameter slots as named Python values of their declared kinds (a choice as its name)."""
    out: dict[str, Any] = {}
    for i, p in enumerate(declared):
        v = float(params[i])
        out[p.name] = p.choices[int(v)] if p.kind is str else bool(v) if p.kind is bool else \
            int(v) if p.kind is int else v
    return out


def readable_decide(fn: Callable[[View], Any], game: str, build: ViewBuilder,
                    declared: tuple[Param, ...] = ()) -> Callable:
    """The raw ``decide(decision, obs, moves, params, rng) -> int`` of a readable strategy ``fn``:
    it builds the view with the game's ``build(decision, obs, moves)`` (the View fields but
    params and random), calls ``fn`` and answers the move's index. A Move not among the legal
    ones (or anything else) is answered as is, so sim.plugin.pystrategy stops the run naming it."""

    def decide(decision, obs, moves, params, rng):
        fields = build(int(decision), obs, moves)
        view = View(game=game, params=param_values(params, declared), random=Random(rng), obs=obs, **fields)
        answer = fn(view)
        if isinstance(answer, Move):
            if 0 <= answer.index < len(view.moves) and view.moves[answer.index] == answer:
                return answer.index
            return f"{answer} (not a legal move here)"
        return answer

    return decide
