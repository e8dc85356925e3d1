"""The information test (RULES.md P10): a strategy decides from public information and
its own hand only.

A strategy only ever receives (decision, observation, legal moves, parameters, its
own random stream), so P10 holds if and only if

1. the observation holds nothing outside P10, and
2. the legal moves offered to a seat depend only on what that seat may see.

Three tests pin this down:

* ``test_observation_is_public_history_plus_own_hand``: an observer that sees only
  public events (the up card, the rules, and each move as everyone at the table sees
  it: "drew from the stock" without the card, takes, melds, lay-offs, discards,
  passes) rebuilds the whole observation, slot by slot, at every decision; only
  ``O_HAND`` (the seat's own hand) is taken from the state. Any slot that carried a
  hidden fact (a stock card, another hand, a candidate meld from a hand...) would
  disagree with the observer. This is stronger than checking that no slot equals
  another hand's mask, which would miss partial or encoded leaks.
* ``test_decisions_ignore_hidden_cards``: for every built-in strategy (read from the
  registry, so new built-ins are covered) and two user strategies (the example
  ``top_taker`` and ``info_hash_all``, which hashes everything it receives), at every decision of real deals played by
  that strategy, alternative states are built that differ only in what the deciding
  seat cannot see: the other seats' unknown cards and the stock are redistributed at
  random (hand sizes and stock size kept; cards a seat took from the discard pile and
  still holds, O_TAKEN, stay in that hand as they are publicly known). The
  observation, the legal move rows and the strategy's choice (with a copy of the
  same random state, which must also advance identically) must not change.
* ``test_engine_observation_equals_position_observation``: the two tests above use
  ``Position.observation()``; the compiled deal loop builds its own copy in
  ``_decide``. A user strategy that picks a move from a hash of the whole observation
  is run by the engine and replayed on a Position: identical move sequences mean the
  engine showed the strategy the same observation at every decision.
"""

import copy
import os
import sys

import numpy as np
import pytest
from numba import njit

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from sim.games.persian import enums as E  # noqa: E402
from card_ids import card_value, cards_of, mask_of  # noqa: E402
from sim.games.persian.engine import Table  # noqa: E402
from sim.games.persian.engine_nb import play_deals_kernel, shuffled_deck  # noqa: E402
from sim.plugin.runs import play_on_threads  # noqa: E402
from sim.games.persian.position import Position  # noqa: E402
from sim.games.persian.rules import RuleOptions  # noqa: E402
from sim.games.persian.state_nb import new_state  # noqa: E402
from sim.core.rng_nb import STREAM_SEAT0, stream_key  # noqa: E402
from sim.plugin.strategy import SID_USER, call_from_python  # noqa: E402
from sim.plugin.strategy import STRATEGY_SIG  # noqa: E402
from strategies.persian.examples import top_taker  # noqa: E402
from sim.plugin.specs import MAX_PARAMS
from sim.plugin.registry import get_strategy, register_strategy, strategy_names  # noqa: E402

PHASES = ("draw", "play", "discard")
BUILTINS = [name for name in strategy_names() if get_strategy(name).sid != SID_USER]
SEED = 4242
RULE_SETS = (RuleOptions(), RuleOptions(last_card="discard", four_of_a_kind_double=False, out_bonus=10))
# Search strategies are run here with cheap settings (the same code paths, fewer
# play-outs) so that walking every decision of many deals stays fast.
TEST_SPECS = {"mc_search": "mc_search:samples=2"}
# deals per rule set and strategy walked by test_decisions_ignore_hidden_cards: 16 (40 before
# 2026-12-03, ~140 s of the suite at load 3); RUMMY_REF_SCALE=2.5 gives the 40
INFO_DEALS = max(1, round(16 * float(os.environ.get("RUMMY_REF_SCALE", "1"))))


# ------------------------------------------------------------------ helpers


def seat_rngs(seed: int, deal: int) -> np.ndarray:
    return np.array([[stream_key(seed, deal, STREAM_SEAT0 + s)] for s in range(E.N_SEATS)], dtype=np.uint64)


def walk(table: Table, seed: int, deal: int, rules: RuleOptions, chooser=None):
    """Yield (position, legal rows, chosen index, seat rng) before every move, choosing
    as the engine does (forced moves without asking; else the seat's strategy)."""
    sids, params, fns = table.kernel_args()
    pos = Position.from_deal(seed, deal, rules)
    # the engine's own start (Position.from_deal renumbers the identical jokers)
    pos.st = new_state(shuffled_deck(seed, deal), deal % 4, rules.to_array())
    rng = seat_rngs(seed, deal)
    while pos.phase != "over":
        rows = pos.legal_rows()
        n = len(rows)
        s = pos.seat
        before = rng[s].copy()
        if n == 1:
            idx = 0
        elif chooser is not None:
            idx = int(chooser(PHASES.index(pos.phase), pos.observation(), rows, n, params[s], rng[s]))
        else:
            rows_before, params_before = rows.copy(), params[s].copy()
            idx = int(call_from_python(fns[s], PHASES.index(pos.phase), pos.observation(), rows, n,
                                       params[s], rng[s]))
            # the engine hands built-ins its own rows and parameter row: they must only read them
            assert np.array_equal(rows, rows_before) and np.array_equal(params[s], params_before), \
                f"strategy {table.names()[s]} wrote to its legal moves or parameters"
        yield pos, rows, idx, before
        pos.apply_row(rows[idx])


def alternative(st: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """A state the deciding seat cannot tell from ``st``: the other seats' unknown cards
    and the stock cards are shuffled among those hidden slots."""
    seat = int(st[E.O_SEAT])
    alt = st.copy()
    pool, keep, need = [], {}, {}
    for o in range(E.N_SEATS):
        if o == seat:
            continue
        hand = int(st[E.S_HANDS + o])
        keep[o] = hand & int(st[E.O_TAKEN + o])  # taken from the pile and still held: public
        pool += cards_of(hand & ~keep[o])
        need[o] = len(cards_of(hand & ~keep[o]))
    stock_n = int(st[E.O_STOCK_N])
    pool += [int(c) for c in st[E.S_STOCK : E.S_STOCK + stock_n]]
    gen.shuffle(pool)
    for o in keep:
        alt[E.S_HANDS + o] = keep[o] | mask_of(pool[: need[o]])
        pool = pool[need[o] :]
    alt[E.S_STOCK : E.S_STOCK + stock_n] = pool
    return alt


def hidden_cards(st: np.ndarray) -> list[int]:
    """Every card in a hand or in the stock, sorted (each must appear once)."""
    cards = [x for s in range(E.N_SEATS) for x in cards_of(st[E.S_HANDS + s])]
    cards += [int(c) for c in st[E.S_STOCK : E.S_STOCK + st[E.O_STOCK_N]]]
    assert len(set(cards)) == len(cards)
    return sorted(cards)


def with_state(pos: Position, st: np.ndarray) -> Position:
    other = copy.copy(pos)
    other.st = st
    other.res = pos.res.copy()
    other._moves = np.zeros_like(pos._moves)
    return other


class PublicObserver:
    """Rebuilds the public part of the state (P10) from public events only."""

    def __init__(self, up_card: int, dealer: int, rules: RuleOptions):
        o = np.zeros(E.OBS_SIZE, dtype=np.int64)
        o[E.O_DEALER] = dealer
        o[E.O_SEAT] = (dealer + 1) % 4
        o[E.O_STOCK_N] = E.STOCK_SIZE
        o[E.O_PILE_N] = 1
        o[E.O_PILE] = up_card
        o[E.O_TARGET] = -1
        o[E.O_LAST_DISCARD] = -1
        o[E.O_LAST_DISCARDER] = -1
        o[E.O_HAND_SIZES : E.O_HAND_SIZES + 4] = E.HAND_SIZE
        o[E.O_RULES : E.O_RULES + E.N_RULES] = rules.to_array()
        self.o = o
        self.rules = rules
        self.phase = "draw"

    def expected_observation(self, own_hand: int) -> np.ndarray:
        obs = self.o.copy()
        obs[E.O_HAND] = own_hand
        obs[E.O_DECISION] = PHASES.index(self.phase)
        return obs

    def _next_turn(self):
        o = self.o
        o[E.O_SEAT] = (o[E.O_SEAT] + 1) % 4
        o[E.O_TURN] += 1
        self.phase = "draw"

    def _put_down(self, seat: int, cards: list[int]):
        o = self.o
        o[E.O_HAND_SIZES + seat] -= len(cards)
        o[E.O_PLACED + seat] |= mask_of(cards)
        target = o[E.O_TARGET]
        if target >= 0 and (target in cards or (target >= E.JOKER0 and max(cards) >= E.JOKER0)):
            o[E.O_TARGET] = -1

    def _refresh_table(self) -> None:
        """The derived table slots (O_TABLE_CARDS .. O_JOKER_ROOM), rebuilt in plain Python
        from the public melds (P5, P6.3) after every meld and lay-off."""
        o = self.o
        cards = lay = bridges = up = down = set_ranks = joker_room = 0
        for k in range(int(o[E.O_N_MELDS])):
            meld = cards_of(int(o[E.O_MELD_MASK + k]))
            cards |= mask_of(meld)
            kind = int(o[E.O_MELD_KIND + k])
            if kind == E.MK_RUN:
                base = (meld[0] // 13) * 13
                lo, hi = min(c % 13 for c in meld), max(c % 13 for c in meld)
                down |= (1 << (base + lo - 1)) if lo >= 1 else 0
                up |= (1 << (base + hi + 1)) if hi <= 11 else 0
                bridges |= ((1 << (base + lo - 2)) if lo >= 2 else 0) | ((1 << (base + hi + 2)) if hi <= 10 else 0)
            elif kind == E.MK_SET:
                rank = meld[0] % 13
                set_ranks |= 1 << rank
                if len(meld) == 3:
                    lay |= mask_of([s * 13 + rank for s in range(4) if s * 13 + rank not in meld])
            elif len(meld) == 3:  # jokers
                joker_room = 1
                lay |= mask_of([j for j in range(E.JOKER0, E.N_CARDS) if j not in meld])
        o[E.O_TABLE_CARDS] = cards
        o[E.O_LAYOFF_CARDS] = lay | up | down
        o[E.O_BRIDGE_CARDS] = bridges
        o[E.O_RUN_UP] = up
        o[E.O_RUN_DOWN] = down
        o[E.O_SET_RANKS] = set_ranks
        o[E.O_JOKER_ROOM] = joker_room

    def see(self, seat: int, row) -> None:
        """One move as everybody at the table sees it."""
        o = self.o
        kind, a, b = int(row[0]), int(row[1]), int(row[2])
        team = seat % 2
        if kind in (E.MV_STOCK, E.MV_TAKE, E.MV_PASS):  # a draw clears the last-discard slots
            o[E.O_LAST_DISCARD] = -1
            o[E.O_LAST_DISCARDER] = -1
        if kind == E.MV_STOCK:  # the card itself is not seen
            o[E.O_STOCK_N] -= 1
            o[E.O_HAND_SIZES + seat] += 1
            o[E.O_PASSES] = 0
            self.phase = "play"
        elif kind == E.MV_TAKE:
            n = int(o[E.O_PILE_N])
            taken = [int(c) for c in o[E.O_PILE + n - 1 - a : E.O_PILE + n]]
            o[E.O_TARGET] = taken[0]
            o[E.O_PILE + n - 1 - a : E.O_PILE + n] = 0
            o[E.O_PILE_N] = n - 1 - a
            o[E.O_HAND_SIZES + seat] += a + 1
            o[E.O_TAKEN + seat] |= mask_of(taken)
            o[E.O_PASSES] = 0
            self.phase = "play"
        elif kind == E.MV_PASS:
            o[E.O_PASSES] += 1
            self._next_turn()
        elif kind == E.MV_MELD:
            cards = cards_of(a)
            k = int(o[E.O_N_MELDS])
            if all(c >= E.JOKER0 for c in cards):
                mk, key = E.MK_JOKERS, -1
            elif len({c % 13 for c in cards}) == 1:
                mk, key = E.MK_SET, cards[0] % 13
            else:
                mk, key = E.MK_RUN, cards[0] // 13
            o[E.O_MELD_MASK + k] = a
            o[E.O_MELD_KIND + k] = mk
            o[E.O_MELD_KEY + k] = key
            o[E.O_MELD_OWNER + k] = seat
            o[E.O_N_MELDS] = k + 1
            pts = sum(card_value(c) for c in cards)
            if len(cards) == 4 and mk != E.MK_RUN and self.rules.four_of_a_kind_double:
                pts *= 2
            o[E.O_TEAM_TABLE + team] += pts
            self._put_down(seat, cards)
            self._refresh_table()
        elif kind == E.MV_LAYOFF:
            o[E.O_MELD_MASK + b] |= 1 << a
            o[E.O_TEAM_TABLE + team] += card_value(a)
            self._put_down(seat, [a])
            self._refresh_table()
        elif kind == E.MV_STOP:
            self.phase = "discard"
        elif kind == E.MV_DISCARD:
            n = int(o[E.O_PILE_N])
            o[E.O_PILE + n] = a
            o[E.O_PILE_N] = n + 1
            o[E.O_HAND_SIZES + seat] -= 1
            o[E.O_LAST_DISCARD] = a
            o[E.O_LAST_DISCARDER] = seat
            self._next_turn()
        else:
            raise AssertionError(f"unknown move kind {kind}")


# ------------------------------------------------------------------ tests
def test_registry_has_builtins():
    assert {"random", "greedy"} <= set(BUILTINS)


def dead_meld_slots(st: np.ndarray) -> np.ndarray:
    """Indices of the O_MELD_KIND / O_MELD_KEY slots of melds not (yet) on the table."""
    nm = int(st[E.O_N_MELDS])
    return np.r_[E.O_MELD_KIND + nm : E.O_MELD_KIND + E.MAX_MELDS, E.O_MELD_KEY + nm : E.O_MELD_KEY + E.MAX_MELDS]


def observation_mismatches(name: str, rules: RuleOptions, deals: int, dead_slots_only: bool) -> list[str]:
    """Decisions whose observation differs from public history + own hand.

    ``dead_slots_only`` False: every slot except the kind/key slots of melds not on the
    table; True: only those slots (see test_dead_meld_slots_hold_nothing).
    """
    table = Table.of(TEST_SPECS.get(name, name))
    bad = []
    checked = 0
    for deal in range(deals):
        observer = None
        for pos, rows, idx, _ in walk(table, SEED, deal, rules):
            if observer is None:
                observer = PublicObserver(int(pos.st[E.O_PILE]), int(pos.st[E.O_DEALER]), rules)
            seat = pos.seat
            obs = pos.observation()
            expected = observer.expected_observation(int(pos.st[E.S_HANDS + seat]))
            dead = dead_meld_slots(pos.st)
            if dead_slots_only:
                diff = dead[obs[dead] != expected[dead]]
            else:
                diff = np.setdiff1d(np.flatnonzero(obs != expected), dead)
            if diff.size:
                bad.append(
                    f"deal {deal}, turn {pos.turns}, seat {seat}, {pos.phase}: observation slots {diff.tolist()} "
                    f"hold {obs[diff].tolist()}, public history gives {expected[diff].tolist()}"
                )
            checked += 1
            observer.see(seat, rows[idx])
    assert checked > 1000
    return bad


@pytest.mark.parametrize("rules", RULE_SETS, ids=("default", "variant"))
@pytest.mark.parametrize("name", BUILTINS)
def test_observation_is_public_history_plus_own_hand(name, rules):
    bad = observation_mismatches(name, rules, 60, dead_slots_only=False)
    assert not bad, f"{len(bad)} observations hold more than P10 allows, first: {bad[0]}"


def test_dead_meld_slots_hold_nothing():
    """Kind/key slots of melds not on the table must stay as dealt (0): random play
    with many discard-pile takes shows them at other seats' decisions otherwise."""
    bad = observation_mismatches("random", RuleOptions(), 60, dead_slots_only=True)
    assert not bad, f"{len(bad)} observations show a hidden candidate meld, first: {bad[0]}"


@pytest.mark.parametrize("name", BUILTINS + ["info_hash_all", "top_taker"])  # user strategies too (issue 15)
def test_decisions_ignore_hidden_cards(name):
    table = Table.of(TEST_SPECS.get(name, name))
    sids, params, fns = table.kernel_args()
    gen = np.random.default_rng(12345)
    decisions = alternatives = moved = 0
    for rules in RULE_SETS:
        for deal in range(INFO_DEALS):
            for pos, rows, idx, rng_before in walk(table, SEED, deal, rules):
                seat = pos.seat
                st = pos.st.copy()
                obs = pos.observation()
                n = len(rows)
                decision = PHASES.index(pos.phase)
                if n > 1:
                    decisions += 1
                    rng_a = rng_before.copy()
                    ref = int(call_from_python(fns[seat], decision, obs, rows, n, params[seat], rng_a))
                    assert ref == idx
                for _ in range(2):
                    alt_st = alternative(st, gen)
                    alt = with_state(pos, alt_st)
                    alternatives += 1
                    moved += not np.array_equal(alt_st, st)
                    # only hidden slots changed, and the alternative is a complete deal state
                    assert np.array_equal(alt_st[: E.OBS_SIZE], st[: E.OBS_SIZE])
                    assert alt_st[E.S_HANDS + seat] == st[E.S_HANDS + seat]
                    assert hidden_cards(alt_st) == hidden_cards(st)
                    for s in range(4):
                        assert len(cards_of(alt_st[E.S_HANDS + s])) == st[E.O_HAND_SIZES + s]
                    # (a) the same observation
                    assert np.array_equal(alt.observation(), obs)
                    # (b) the same legal moves, in the same order
                    alt_rows = alt.legal_rows()
                    assert np.array_equal(alt_rows, rows), (
                        f"{name}, deal {deal}, seat {seat}, {pos.phase}: legal moves depend on hidden cards"
                    )
                    # (c) the same choice, consuming the same randomness
                    if n > 1:
                        rng_b = rng_before.copy()
                        got = int(call_from_python(fns[seat], decision, alt.observation(), alt_rows, n,
                                                   params[seat], rng_b))
                        assert got == idx, f"{name} changed its decision when only hidden cards moved"
                        assert np.array_equal(rng_b, rng_a)
                assert np.array_equal(pos.st[: E.OBS_SIZE], st[: E.OBS_SIZE])
    assert decisions > 500 and alternatives > 2000
    assert moved > 0.9 * alternatives, "the alternatives rarely moved any hidden card"


@njit(STRATEGY_SIG)
def obs_hash_strategy(decision, obs, moves, n_moves, params, rng):
    """Chooses by a hash of everything it receives: the decision, the whole observation,
    the shapes of its arrays, every row of ``moves`` it is given (not only the first
    n_moves: issue 15, a strategy must receive exactly the legal moves) and its
    parameters."""
    h = np.uint64(1469598103934665603)
    prime = np.uint64(1099511628211)
    for i in range(obs.shape[0]):
        h = (h ^ np.uint64(obs[i])) * prime
    h = (h ^ np.uint64(decision)) * prime
    h = (h ^ np.uint64(n_moves)) * prime
    h = (h ^ np.uint64(obs.shape[0])) * prime
    h = (h ^ np.uint64(moves.shape[0])) * prime
    h = (h ^ np.uint64(moves.shape[1])) * prime
    h = (h ^ np.uint64(params.shape[0])) * prime
    for i in range(moves.shape[0]):
        for j in range(moves.shape[1]):
            h = (h ^ np.uint64(moves[i, j])) * prime
    for i in range(params.shape[0]):
        h = (h ^ np.uint64(np.int64(params[i] * 1024.0))) * prime
    h ^= h >> np.uint64(29)
    return np.int64(h % np.uint64(n_moves))


register_strategy("info_hash_all", obs_hash_strategy, doc="test: chooses by a hash of everything it receives")
top_taker.register()


def test_engine_observation_equals_position_observation():
    rules = RuleOptions()
    deals = np.arange(120, dtype=np.int64)
    res = np.zeros((deals.size, E.N_RESULT_COLS), dtype=np.int64)
    ev = np.zeros((deals.size, E.MAX_EVENTS_PER_DEAL, E.EVENT_COLS), dtype=np.int64)
    ev_n = np.zeros(deals.size, dtype=np.int64)
    sids = np.full(4, SID_USER, dtype=np.int64)
    params = np.zeros((4, MAX_PARAMS), dtype=np.float64)  # the width Table gives every strategy
    fns = (obs_hash_strategy,) * 4
    play_on_threads(play_deals_kernel, SEED, deals, rules.to_array(), sids, params, fns, res, ev, ev_n, 1)
    assert (res[:, E.C_END] != E.END_ERROR).all() and (ev_n > 0).all()
    table = Table.of("random")  # only its shape is used: the chooser replaces the strategy
    asked = 0
    for i, deal in enumerate(deals.tolist()):
        engine_moves = [e for e in ev[i, : ev_n[i]].tolist() if e[0] != E.EV_END]
        walked = []
        for pos, rows, idx, _ in walk(table, SEED, deal, rules, chooser=obs_hash_strategy):
            asked += len(rows) > 1
            kind, a, b, c = (int(x) for x in rows[idx])
            seat = pos.seat
            if kind == E.MV_STOCK:
                walked.append([E.EV_STOCK, seat, int(pos.st[E.S_STOCK + pos.st[E.O_STOCK_N] - 1]), 0, 0])
            elif kind == E.MV_TAKE:
                walked.append([E.EV_TAKE, seat, a, c, 0])
            elif kind == E.MV_PASS:
                walked.append([E.EV_PASS, seat, 0, 0, 0])
            elif kind == E.MV_MELD:
                walked.append([E.EV_MELD, seat, a, 0, 0])
            elif kind == E.MV_LAYOFF:
                walked.append([E.EV_LAYOFF, seat, a, b, 0])
            elif kind == E.MV_DISCARD:
                walked.append([E.EV_DISCARD, seat, a, 0, 0])
        assert walked == engine_moves, f"deal {deal}: the engine and Position showed different observations"
        assert pos.res[E.C_TOTAL : E.C_TOTAL + 2].tolist() == res[i, E.C_TOTAL : E.C_TOTAL + 2].tolist()
    assert asked > 1000
