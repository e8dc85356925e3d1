"""The compiled Persian Rummy engine against the naive pure-Python reference rules.

(a) Whole deals played by the compiled engine (``run_deals(..., record=2)``) are
    replayed through ``naive_persian.NaiveDeal``. At EVERY recorded decision the
    reference's set of legal moves must equal the engine's recorded legal moves;
    the engine's chosen move is then applied to the reference, the move event the
    engine recorded must be the one the reference predicts (stock card, taken
    cards, meld, lay-off, discard), and at the end the end reason, the out seat,
    the turn count, the P8 score breakdown and the per-seat counters of the
    result row must match the reference.
(b) Deals stepped by hand through ``Position`` (the same compiled kernels) with
    random choices from a seeded Python RNG, compared with the reference after
    every single move (legal-move sets and the whole visible and hidden state).

The deal counts are sized for a CI run of well under a minute on 2 cores; set
``RUMMY_REF_SCALE`` (e.g. 10) to check more deals.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from naive_persian import NaiveDeal, card_value, is_four_of_a_kind, team_of
from sim.games.persian import enums as E
from sim.games.persian.cards import card_name, mask_to_names
from sim.games.persian.engine import StrategyError, Table, run_deals
from sim.games.persian.engine_nb import play_deals_kernel, shuffled_deck
from sim.plugin.runs import play_on_threads
from sim.games.persian.position import Position, row_to_move
from sim.games.persian.rules import RuleOptions

SCALE = float(os.environ.get("RUMMY_REF_SCALE", "1"))
BATCH = 100  # deals per run_deals call (bounds the event buffer's memory)
MAX_EVENTS = 20_000  # event rows per deal; run_deals raises if a deal needs more

PHASES = E.DECISION_NAMES  # ("draw", "play", "discard"), indexed by D_*

# (id, table, rules, deals, seed). Rules are the keyword names shared by
# RuleOptions and NaiveDeal.
ENGINE_RUNS = [
    ("random", "random", {}, 300, 20240611),  # 600 before 2026-12-03 (suite time): RUMMY_REF_SCALE=2
    ("greedy", "greedy", {}, 300, 777),
    ("random-last-card-discard", "random", {"last_card": "discard"}, 150, 4242),  # 300 before, as above
    (
        "random-cap-nodouble-bonus40",
        "random",
        {"turn_cap": 30, "four_of_a_kind_double": False, "out_bonus": 40},
        150,
        99,
    ),
]


def n_deals(n: int) -> int:
    return max(1, int(round(n * SCALE)))


def reference_start(seed: int, deal: int, rules: dict) -> NaiveDeal:
    """The reference deal at the start of deal ``deal`` (P3), built straight from the
    engine's shuffled deck: seat s gets cards 7s..7s+6, card 28 starts the discard
    pile, cards 29.. are the stock top first, seat dealer+1 = deal % 4 + 1 moves first."""
    deck = [card_name(int(c)) for c in shuffled_deck(seed, deal)]
    hands = [deck[7 * s : 7 * s + 7] for s in range(4)]
    return NaiveDeal(hands, [deck[28]], deck[29:], deal % 4, rules=dict(rules))


def event_tuple(ev) -> tuple:
    """A recorded move/end event as a comparable tuple (card names, sorted masks)."""
    kind, seat, a, b = (int(x) for x in ev[:4])
    if kind == E.EV_STOCK:
        return ("stock", seat, card_name(a))
    if kind == E.EV_TAKE:
        return ("take", seat, a, tuple(sorted(mask_to_names(b))))
    if kind == E.EV_PASS:
        return ("pass", seat)
    if kind == E.EV_MELD:
        return ("meld", seat, tuple(sorted(mask_to_names(a))))
    if kind == E.EV_LAYOFF:
        return ("layoff", seat, card_name(a), b)
    if kind == E.EV_DISCARD:
        return ("discard", seat, card_name(a))
    if kind == E.EV_END:
        return ("end", seat, E.END_NAMES[a])
    raise AssertionError(f"unexpected event kind {kind} in {list(ev)}")


def predicted_event(ref: NaiveDeal, move: tuple) -> tuple | None:
    """The event the engine must record for ``move`` in the reference's current state."""
    seat = ref.seat
    kind = move[0]
    if kind == "stock":
        return ("stock", seat, ref.stock[0])
    if kind == "take":
        return ("take", seat, move[1], tuple(sorted(ref.pile[: move[1] + 1])))
    if kind == "pass":
        return ("pass", seat)
    if kind == "meld":
        return ("meld", seat, tuple(sorted(move[1])))
    if kind == "layoff":
        return ("layoff", seat, move[1], move[2])
    if kind == "discard":
        return ("discard", seat, move[1])
    return None  # "stop" is not recorded


class Counters:
    """The engine's per-seat strategy counters, tallied from the moves applied to the reference."""

    def __init__(self):
        self.takes = [0] * 4
        self.depth_sum = [0] * 4
        self.max_depth = [-1] * 4
        self.cards_taken = [0] * 4
        self.fours = [0] * 4
        self.joker_fours = [0] * 4
        self.layoff_opp = [0] * 4
        self.turns = [0] * 4
        self.table = [0] * 4

    def before(self, ref: NaiveDeal, move: tuple) -> None:
        s = ref.seat
        if ref.phase == "draw":
            self.turns[s] += 1
        if move[0] == "take":
            d = move[1]
            self.takes[s] += 1
            self.depth_sum[s] += d
            self.max_depth[s] = max(self.max_depth[s], d)
            self.cards_taken[s] += d + 1
        elif move[0] == "meld":
            cards = list(move[1])
            pts = sum(card_value(c) for c in cards)
            if is_four_of_a_kind(cards):
                if ref.rules["four_of_a_kind_double"]:
                    pts *= 2
                if cards[0] == "JK":
                    self.joker_fours[s] += 1
                else:
                    self.fours[s] += 1
            self.table[s] += pts
        elif move[0] == "layoff":
            pts = card_value(move[1])
            if team_of(ref.melds[move[2]]["owner"]) != team_of(s):
                self.layoff_opp[s] += pts
            self.table[s] += pts

    def columns(self) -> dict[str, tuple[int, list[int]]]:
        return {
            "takes": (E.C_TAKES, self.takes),
            "take_depth_sum": (E.C_TAKE_DEPTH, self.depth_sum),
            "max_depth": (E.C_MAX_DEPTH, self.max_depth),
            "cards_taken": (E.C_CARDS_TAKEN, self.cards_taken),
            "fours_melded": (E.C_FOURS, self.fours),
            "joker_fours_melded": (E.C_JOKER_FOURS, self.joker_fours),
            "layoff_points_on_opponents": (E.C_LAYOFF_OPP, self.layoff_opp),
            "turns_played": (E.C_TURNS_SEAT, self.turns),
            "table_points": (E.C_TABLE_SEAT, self.table),
        }


def set_difference_message(where: str, engine: set, reference: set) -> str:
    only_e = sorted(engine - reference)
    only_r = sorted(reference - engine)
    return f"{where}: legal move sets differ; engine only: {only_e}; reference only: {only_r}"


def recorded_deals(table: str, idx: np.ndarray, seed: int, rules: dict):
    """Results and level-2 events of engine deals ``idx``: ``run_deals(..., record=2)``.

    If run_deals raises StrategyError (which is also what happens when the engine offers
    NO legal move, so that no answer can be legal), the same deals are re-run through the
    kernel run_deals wraps, to keep their events: the replay then shows where and how the
    engine's legal moves differ from the rules.
    """
    try:
        run = run_deals([table], deals=idx, seed=seed, rules=rules, record=2, max_events=MAX_EVENTS)
        return run.results, [run.deal_events(i) for i in range(idx.size)]
    except StrategyError:
        pass
    sids, params, fns = Table.of([table]).kernel_args()
    res = np.zeros((idx.size, E.N_RESULT_COLS), dtype=np.int64)
    ev = np.zeros((idx.size, MAX_EVENTS, E.EVENT_COLS), dtype=np.int64)
    ev_n = np.zeros(idx.size, dtype=np.int64)
    play_on_threads(play_deals_kernel, seed, idx, RuleOptions.from_dict(rules).to_array(), sids, params, fns, res, ev, ev_n, 2)
    assert (ev_n >= 0).all(), "event buffer overflow"
    return res, [ev[i, : ev_n[i]] for i in range(idx.size)]


def replay_engine_deal(seed: int, deal: int, rules: dict, events: np.ndarray, res: np.ndarray) -> int:
    """Replay one recorded engine deal through the reference; returns the decisions checked."""
    ref = reference_start(seed, deal, rules)
    counters = Counters()
    legal: list[tuple] = []
    expect: tuple | None = None  # the move event the engine must record next
    decisions = 0
    ended = None

    def where() -> str:
        return (
            f"seed {seed}, deal {deal}, rules {rules}, turn {ref.turns}, seat {ref.seat}, "
            f"phase {ref.phase}, decision #{decisions}"
        )

    for ev in events:
        kind = int(ev[0])
        if expect is not None:
            got = event_tuple(ev)
            assert got == expect, f"{where()}: engine recorded {got}, reference expects {expect}"
            expect = None
            continue
        if kind == E.EV_LEGAL:
            legal.append(row_to_move(ev[2:5]))
            continue
        if kind == E.EV_DECISION:
            seat, dkind, n, idx = (int(x) for x in ev[1:5])
            assert ref.phase != "over", f"{where()}: engine asks for a decision after the reference ended the deal"
            assert seat == ref.seat, f"{where()}: engine asks seat {seat}, reference has seat {ref.seat} to move"
            assert PHASES[dkind] == ref.phase, f"{where()}: engine decision {PHASES[dkind]!r}"
            assert n == len(legal), f"{where()}: decision row says {n} moves, {len(legal)} were recorded"
            engine_set = set(legal)
            assert len(engine_set) == n, f"{where()}: engine offers a move twice: {sorted(legal)}"
            reference_set = ref.legal_moves()
            assert engine_set == reference_set, set_difference_message(where(), engine_set, reference_set)
            assert 0 <= idx < n, f"{where()}: chosen index {idx} of {n}"
            move = legal[idx]
            expect = predicted_event(ref, move)
            counters.before(ref, move)
            ref.apply(move)
            legal = []
            decisions += 1
            continue
        if kind == E.EV_END:
            ended = event_tuple(ev)
            continue
        raise AssertionError(f"{where()}: unexpected event {event_tuple(ev)}")

    assert expect is None, f"{where()}: the engine did not record {expect}"
    assert not legal, f"{where()}: legal moves recorded with no decision after them"
    assert ref.phase == "over", f"{where()}: the engine's deal ended but the reference deal goes on"
    out = -1 if ref.out_seat is None else ref.out_seat
    assert ended == ("end", out, ref.end), f"{where()}: engine end event {ended}, reference ({ref.end}, {out})"
    score = ref.score()
    got = {
        "end": E.END_NAMES[int(res[E.C_END])],
        "out_seat": int(res[E.C_OUT_SEAT]),
        "turns": int(res[E.C_TURNS]),
        "dealer": int(res[E.C_DEALER]),
    }
    want = {"end": ref.end, "out_seat": out, "turns": ref.turns, "dealer": ref.dealer}
    for part, col in (("table", E.C_TABLE), ("hand", E.C_HAND), ("bonus", E.C_BONUS), ("total", E.C_TOTAL)):
        got[part] = [int(res[col]), int(res[col + 1])]
        want[part] = score[part]
    assert got == want, f"seed {seed}, deal {deal}, rules {rules}: engine result {got} != reference {want}"
    got_counters = {name: [int(res[col + s]) for s in range(4)] for name, (col, _) in counters.columns().items()}
    want_counters = {name: vals for name, (_, vals) in counters.columns().items()}
    got_counters["hand_points"] = [int(res[E.C_HAND_PTS + s]) for s in range(4)]
    want_counters["hand_points"] = [sum(card_value(c) for c in ref.hands[s]) for s in range(4)]
    assert got_counters == want_counters, (
        f"seed {seed}, deal {deal}, rules {rules}: engine counters {got_counters} != replay {want_counters}"
    )
    return decisions


@pytest.mark.parametrize(
    "table, rules, deals, seed", [pytest.param(*r[1:], id=r[0]) for r in ENGINE_RUNS]
)
def test_engine_matches_reference_at_every_decision(table, rules, deals, seed):
    """P3-P8: every legal-move list, every move and every result of recorded engine deals."""
    total = n_deals(deals)
    decisions = 0
    ends = set()
    for start in range(0, total, BATCH):
        idx = np.arange(start, min(total, start + BATCH), dtype=np.int64)
        results, events = recorded_deals(table, idx, seed, rules)
        for i, deal in enumerate(idx):
            decisions += replay_engine_deal(seed, int(deal), rules, events[i], results[i])
            ends.add(E.END_NAMES[int(results[i, E.C_END])])
    assert decisions > 20 * total  # the replay really walked through the deals
    expected_ends = {"out", "passes"} if "turn_cap" not in rules else {"cap"}
    assert expected_ends <= ends, f"end reasons seen: {ends}"
    print(f"\n{table} {rules}: {total} deals, {decisions} decisions checked, ends {sorted(ends)}")


def test_replay_detects_a_wrong_legal_move_list():
    """The replay must fail, naming seed, deal, turn and the difference, when a recorded
    legal move list differs from the rules (here: one extra legal move injected)."""
    seed, deal = 5, 3
    run = run_deals(["random"], deals=[deal], seed=seed, record=2, max_events=MAX_EVENTS)
    events = run.deal_events(0).copy()
    first = int(np.flatnonzero(events[:, 0] == E.EV_DECISION)[0])
    forged = events[first - 1].copy()  # a legal-move row of the first decision
    forged[2:5] = (E.MV_PASS, 0, 0)  # "pass" while the stock is full (P6.2)
    events = np.insert(events, first, forged, axis=0)
    events[first + 1, 3] += 1  # the decision row's move count
    with pytest.raises(AssertionError, match=r"seed 5, deal 3, .*turn 0.*engine only: \[\('pass',\)\]"):
        replay_engine_deal(seed, deal, {}, events, run.results[0])


def test_replay_detects_a_wrong_score():
    seed, deal = 5, 3
    run = run_deals(["random"], deals=[deal], seed=seed, record=2, max_events=MAX_EVENTS)
    res = run.results[0].copy()
    res[E.C_TOTAL] += 1
    with pytest.raises(AssertionError, match="seed 5, deal 3"):
        replay_engine_deal(seed, deal, {}, run.deal_events(0), res)


# --------------------------------------------------------------------------- (b) Position stepping
POSITION_RUNS = [
    # (id, rules, deals, seed, preference for takes and plays over stock/pass/stop)
    ("default-uniform", {}, 100, 31, 0.0),
    ("default-eager", {}, 100, 32, 0.8),
    ("last-card-discard-eager", {"last_card": "discard"}, 60, 33, 0.8),
    ("nodouble-bonus7-cap24", {"four_of_a_kind_double": False, "out_bonus": 7, "turn_cap": 24}, 60, 34, 0.5),
]


def position_state(pos: Position) -> dict:
    target = int(pos.st[E.O_TARGET])
    return {
        "seat": pos.seat,
        "phase": pos.phase,
        "hands": [sorted(pos.hand(s)) for s in range(4)],
        "pile": pos.pile(),
        "stock": pos.stock(),
        "melds": [sorted(m) for m in pos.melds()],
        "owners": [int(pos.st[E.O_MELD_OWNER + k]) for k in range(int(pos.st[E.O_N_MELDS]))],
        "table": [int(pos.st[E.O_TEAM_TABLE]), int(pos.st[E.O_TEAM_TABLE + 1])],
        "target": None if target < 0 else card_name(target),
        "passes": int(pos.st[E.O_PASSES]),
        "hand_sizes": [int(pos.st[E.O_HAND_SIZES + s]) for s in range(4)],
    }


def reference_state(ref: NaiveDeal) -> dict:
    return {
        "seat": ref.seat,
        "phase": ref.phase,
        "hands": [sorted(h) for h in ref.hands],
        "pile": list(ref.pile),
        "stock": list(ref.stock),
        "melds": [sorted(m["cards"]) for m in ref.melds],
        "owners": [m["owner"] for m in ref.melds],
        "table": list(ref.table_points),
        "target": ref.target,
        "passes": ref.passes,
        "hand_sizes": [len(h) for h in ref.hands],
    }


def choose(moves: list[tuple], rng: random.Random, eager: float) -> tuple:
    """A uniform choice, or with probability ``eager`` a take or play when there is one
    (reaches many more positions with a pending discard-pile target)."""
    active = [m for m in moves if m[0] in ("take", "meld", "layoff")]
    if active and rng.random() < eager:
        return rng.choice(active)
    return rng.choice(moves)


def step_position_vs_reference(seed: int, deal: int, rules: dict, rng: random.Random, eager: float) -> int:
    """Step one deal through Position and the reference side by side; returns the decisions checked."""
    pos = Position.from_deal(seed, deal, rules=rules)
    ref = reference_start(seed, deal, rules)
    decisions = 0
    last = "start"
    while True:
        where = f"seed {seed}, deal {deal}, rules {rules}, turn {ref.turns}, after {last}"
        state = position_state(pos)
        if state["phase"] != "over":
            assert state == reference_state(ref), f"{where}: state {state} != reference {reference_state(ref)}"
        rows = pos.legal_rows()
        moves = [row_to_move(r) for r in rows]
        assert len(set(moves)) == len(moves), f"{where}: Position offers a move twice: {sorted(moves)}"
        engine_set, reference_set = set(moves), ref.legal_moves()
        assert engine_set == reference_set, set_difference_message(where, engine_set, reference_set)
        if pos.phase == "over":
            break
        move = choose(sorted(moves), rng, eager)
        pos.apply(move)
        ref.apply(move)
        decisions += 1
        last = f"{move} by seat {state['seat']}"
    where = f"seed {seed}, deal {deal}, rules {rules}"
    assert ref.phase == "over", f"{where}: Position ended the deal, the reference did not"
    got = {"end": pos.end, "out_seat": pos.out_seat, "score": pos.score(),
           # the engine's C_TURNS convention: the turn that ended the deal counts unless it was the cap
           "turns": pos.turns,
           "hands": [sorted(pos.hand(s)) for s in range(4)]}
    want = {"end": ref.end, "out_seat": ref.out_seat, "score": ref.score(), "turns": ref.turns,
            "hands": [sorted(h) for h in ref.hands]}
    assert got == want, f"{where}: Position end {got} != reference {want}"
    return decisions


@pytest.mark.parametrize("rules, deals, seed, eager", [pytest.param(*r[1:], id=r[0]) for r in POSITION_RUNS])
def test_position_stepping_matches_reference(rules, deals, seed, eager):
    """P3-P8 through Position's hand-driven paths: same legal sets and state after every move."""
    rng = random.Random(seed)
    total = n_deals(deals)
    decisions = 0
    for deal in range(total):
        decisions += step_position_vs_reference(seed, deal, rules, rng, eager)
    assert decisions > 20 * total
    print(f"\nPosition {rules}: {total} deals, {decisions} decisions checked")
