"""What a Persian seat may see (P10), for the game contract's information check.

``decision_states`` steps a deal with real strategies and yields every decision's
full state; ``hidden_variant`` builds a state the deciding seat cannot tell from
it (the other seats' unknown cards and the stock shuffled among those hidden
places; cards a seat took from the pile and still holds stay with it, they are
public, P10); ``view`` is what a strategy receives in a state (observation and
legal move rows). The contract test (tests/contract) checks that the view never
changes when only hidden cards move.
"""

from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from sim.core.rng_nb import STREAM_SEAT0, stream_key
from sim.games.persian import enums as E
from sim.games.persian.engine import Table
from sim.games.persian.engine_nb import shuffled_deck
from sim.games.persian.position import Position
from sim.games.persian.rules import RuleOptions
from sim.games.persian.state_nb import new_state
from sim.plugin.specs import StrategySpec
from sim.plugin.strategy import call_from_python

PHASES = ("draw", "play", "discard")


def _position(state: np.ndarray, rules):
    pos = Position.from_deal(0, 0, rules)
    pos.st = state.copy()
    pos.phase = PHASES[int(state[E.O_DECISION])]
    return pos


def decision_states(specs: Sequence[str | StrategySpec], seed: int, deal: int, rules=None) -> Iterator[np.ndarray]:
    """The full state before every decision with two or more legal moves of ``deal``, played
    by ``specs`` (one per seat, or one or two as in Table.of) as the engine plays it."""

    rules = rules if isinstance(rules, RuleOptions) else RuleOptions.from_dict(rules)
    sids, params, fns = Table.of(list(specs)).kernel_args()
    pos = Position.from_deal(seed, deal, rules)
    pos.st = new_state(shuffled_deck(seed, deal), deal % E.N_SEATS, rules.to_array())
    rng = np.array([[stream_key(seed, deal, STREAM_SEAT0 + s)] for s in range(E.N_SEATS)], dtype=np.uint64)
    while pos.phase != "over":
        rows = pos.legal_rows()
        s = pos.seat
        idx = 0
        if len(rows) > 1:
            st = pos.st.copy()
            st[E.O_DECISION] = PHASES.index(pos.phase)
            yield st
            idx = int(call_from_python(fns[s], PHASES.index(pos.phase), pos.observation(), rows.copy(),
                                       len(rows), params[s].copy(), rng[s]))
        pos.apply_row(rows[idx])


def hidden_variant(state: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """A state the deciding seat cannot tell from ``state``."""
    seat = int(state[E.O_SEAT])
    alt = state.copy()
    pool: list[int] = []
    keep, need = {}, {}
    for o in range(E.N_SEATS):
        if o == seat:
            continue
        hand = int(state[E.S_HANDS + o])
        keep[o] = hand & int(state[E.O_TAKEN + o])  # taken from the pile and still held: public
        hidden = [c for c in range(E.N_CARDS) if (hand & ~keep[o]) >> c & 1]
        pool += hidden
        need[o] = len(hidden)
    stock_n = int(state[E.O_STOCK_N])
    pool += [int(c) for c in state[E.S_STOCK: E.S_STOCK + stock_n]]
    gen.shuffle(pool)
    for o in keep:
        mask = keep[o]
        for c in pool[: need[o]]:
            mask |= 1 << c
        alt[E.S_HANDS + o] = mask
        pool = pool[need[o]:]
    alt[E.S_STOCK: E.S_STOCK + stock_n] = pool
    return alt


def view(state: np.ndarray, rules=None) -> tuple[np.ndarray, np.ndarray]:
    """(observation, legal move rows) a strategy receives in ``state``."""
    pos = _position(state, rules)
    return pos.observation(), pos.legal_rows()
