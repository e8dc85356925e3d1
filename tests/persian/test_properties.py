"""Property tests of the compiled Persian Rummy engine (RULES.md Part 1, P3-P8).

Two views of the same deals, both driven by the real compiled strategies:

* ``Position`` stepping: a deal is walked one decision at a time with the engine's
  own kernels, each seat choosing through ``call_from_python`` with its own random
  stream (``stream_key(seed, deal, STREAM_SEAT0 + seat)``), exactly as the deal loop
  does (a forced move is taken without asking). The full state is checked after
  every move: card conservation, hand sizes, passes only on an empty stock, and at
  the end the P8 score arithmetic against an independent tally. The walk is then
  compared move for move and column for column with ``run_deals`` on the same deal,
  so the checks made on the Position hold for the engine's deal loop too.
* ``run_deals`` batches with recorded events: every result row must have a valid
  end and consistent scores and counters, and replaying the events from the
  shuffled deck must conserve the 56 cards at every event.

Tables are random mixes of the built-in strategies (with a few parameter values)
and rule options are drawn too (including small turn caps, so the cap end is hit).
"""

import os
import sys

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from sim.games.persian import enums as E  # noqa: E402
from card_ids import card_value, cards_of, mask_of, value_of  # noqa: E402
from sim.games.persian.engine import Table, run_deals  # noqa: E402
from sim.games.persian.engine_nb import shuffled_deck  # noqa: E402
from sim.games.persian.position import Position  # noqa: E402
from sim.games.persian.rules import RuleOptions  # noqa: E402
from sim.core.rng_nb import STREAM_SEAT0, stream_key  # noqa: E402
from sim.plugin.strategy import call_from_python  # noqa: E402

PHASES = ("draw", "play", "discard")
ALL_CARDS = list(range(E.N_CARDS))
SPECS = ("random", "greedy", "greedy:max_extra=0", "greedy:max_extra=400")
END_CODE = {name: code for code, name in enumerate(E.END_NAMES)}


# ------------------------------------------------------------------ helpers


def is_four_of_a_kind(mask: int) -> bool:
    """Four cards of one rank, or four jokers (P8 doubling candidates)."""
    cs = cards_of(mask)
    if len(cs) != 4:
        return False
    if all(c >= E.JOKER0 for c in cs):
        return True
    return all(c < E.JOKER0 for c in cs) and len({c % 13 for c in cs}) == 1


def canon_event(ev) -> list[int]:
    """An event row with joker ids made interchangeable (P1: the jokers are identical;
    Position.from_deal numbers them in order of appearance, the engine by deck id)."""
    kind, seat, a, b, c = (int(x) for x in ev)
    if kind in (E.EV_STOCK, E.EV_LAYOFF, E.EV_DISCARD):
        a = min(a, E.JOKER0)
    elif kind == E.EV_MELD:
        a = canon_mask(a)
    elif kind == E.EV_TAKE:
        b = canon_mask(b)
    return [kind, seat, a, b, c]


def canon_mask(m: int) -> int:
    """A card mask whose k jokers are replaced by the k lowest joker ids."""
    k = len(cards_of(m & E.JOKER_MASK))
    return (m & ~E.JOKER_MASK) | (((1 << k) - 1) << E.JOKER0)


def seat_rngs(seed: int, deal: int) -> np.ndarray:
    return np.array([[stream_key(seed, deal, STREAM_SEAT0 + s)] for s in range(E.N_SEATS)], dtype=np.uint64)


def walk(table: Table, seed: int, deal: int, rules: RuleOptions):
    """Yield (position, legal rows, chosen index) before every move of the deal.

    Chooses exactly as the engine's deal loop: a single legal move is taken without
    asking; otherwise the seat's compiled strategy picks with its own stream.
    When the loop ends the position has reached its end.
    """
    sids, params, fns = table.kernel_args()
    pos = Position.from_deal(seed, deal, rules)
    rng = seat_rngs(seed, deal)
    max_steps = rules.turn_cap * (2 + E.N_CARDS)  # a turn: one draw, at most 56 plays, one discard
    steps = 0
    while pos.phase != "over":
        rows = pos.legal_rows()
        n = len(rows)
        assert n >= 1, f"no legal move in the {pos.phase} phase (seed {seed}, deal {deal})"
        if n == 1:
            idx = 0
        else:
            s = pos.seat
            idx = int(call_from_python(fns[s], PHASES.index(pos.phase), pos.observation(), rows, n,
                                       params[s], rng[s]))
            assert 0 <= idx < n, f"strategy {table.names()[s]} returned {idx} of {n}"
        yield pos, rows, idx
        pos.apply_row(rows[idx])
        steps += 1
        assert steps <= max_steps, "the deal does not terminate"


def check_conservation(st: np.ndarray) -> None:
    """Hands + discard pile + stock + table melds hold all 56 cards, each exactly once,
    and the public hand sizes match the hands."""
    found = []
    for s in range(E.N_SEATS):
        hand = cards_of(st[E.S_HANDS + s])
        assert st[E.O_HAND_SIZES + s] == len(hand), f"seat {s}: hand size {st[E.O_HAND_SIZES + s]} != {len(hand)}"
        found += hand
    pile_n, stock_n, n_melds = int(st[E.O_PILE_N]), int(st[E.O_STOCK_N]), int(st[E.O_N_MELDS])
    assert 0 <= stock_n <= E.STOCK_SIZE and 0 <= pile_n <= E.N_CARDS and 0 <= n_melds <= E.MAX_MELDS
    found += [int(c) for c in st[E.O_PILE : E.O_PILE + pile_n]]
    found += [int(c) for c in st[E.S_STOCK : E.S_STOCK + stock_n]]
    on_table = 0
    for k in range(n_melds):
        m = int(st[E.O_MELD_MASK + k])
        assert len(cards_of(m)) >= 3, f"meld {k} has fewer than 3 cards"
        found += cards_of(m)
        on_table |= m
    assert sorted(found) == ALL_CARDS, "cards lost or duplicated"
    placed = [int(st[E.O_PLACED + s]) for s in range(E.N_SEATS)]
    for s in range(E.N_SEATS):
        for t in range(s + 1, E.N_SEATS):
            assert placed[s] & placed[t] == 0, f"seats {s} and {t} both placed a card"
    assert placed[0] | placed[1] | placed[2] | placed[3] == on_table, "O_PLACED does not match the table"


def check_result_rows(res: np.ndarray, rules: RuleOptions) -> None:
    """P7/P8 consistency of run_deals result rows (vectorised over deals)."""
    end = res[:, E.C_END]
    assert np.isin(end, [E.END_OUT, E.END_PASSES, E.END_CAP]).all(), "a row has no valid end"
    out = end == E.END_OUT
    assert ((res[:, E.C_OUT_SEAT] >= 0) & (res[:, E.C_OUT_SEAT] < 4) == out).all()
    assert (res[~out, E.C_OUT_SEAT] == -1).all()
    turns = res[:, E.C_TURNS]
    assert (turns >= 1).all() and (turns <= rules.turn_cap).all()
    assert (turns[end == E.END_CAP] == rules.turn_cap).all(), "a cap end before the turn cap"
    assert (res[:, E.C_TURNS_SEAT : E.C_TURNS_SEAT + 4].sum(axis=1) == turns).all()
    assert (res[:, E.C_DEALER] == res[:, E.C_DEAL] % 4).all()
    assert (res[:, E.C_ERR_SEAT] == -1).all()
    for team in range(2):
        table = res[:, E.C_TABLE + team]
        hand = res[:, E.C_HAND + team]
        bonus = res[:, E.C_BONUS + team]
        assert (res[:, E.C_TOTAL + team] == table - hand + bonus).all(), "total != table - hand + bonus"
        assert (table == res[:, E.C_TABLE_SEAT + team] + res[:, E.C_TABLE_SEAT + team + 2]).all()
        assert (hand == res[:, E.C_HAND_PTS + team] + res[:, E.C_HAND_PTS + team + 2]).all()
        assert (table >= 0).all() and (hand >= 0).all()
        gets = out & (res[:, E.C_OUT_SEAT] % 2 == team)
        assert (bonus[gets] == rules.out_bonus).all(), "the out team lacks its bonus"
        assert (bonus[~gets] == 0).all(), "a bonus went to a team that did not go out"


def replay_events(deck: np.ndarray, events: np.ndarray, row: np.ndarray) -> None:
    """Replay one deal's recorded moves from its shuffled deck; every card must be where
    the move says, the 56 cards are conserved after every event, passes happen only on
    an empty stock, and the turn order, counters and hand penalties match the row."""
    deck = [int(c) for c in deck]
    dealer = int(row[E.C_DEALER])
    hands = [set(deck[7 * s : 7 * s + 7]) for s in range(4)]
    pile = [deck[28]]  # bottom first
    stock = deck[29:]  # top first
    melds: list[set] = []
    draws = 0
    draws_seat = [0] * 4
    assert len(events) >= 1 and events[-1][0] == E.EV_END
    for i, (kind, seat, a, b, c) in enumerate(events.tolist()):
        if kind in (E.EV_STOCK, E.EV_TAKE, E.EV_PASS):
            assert seat == (dealer + 1 + draws) % 4, "turn order broken"
            draws += 1
            draws_seat[seat] += 1
        if kind == E.EV_STOCK:
            assert stock, "a stock draw from an empty stock"
            top = stock.pop(0)
            assert a == top, f"drew {a}, but the stock top is {top}"
            hands[seat].add(top)
        elif kind == E.EV_TAKE:
            assert 0 <= a < len(pile)
            taken = pile[len(pile) - 1 - a :]
            assert b == mask_of(taken)
            del pile[len(pile) - 1 - a :]
            hands[seat] |= set(taken)
        elif kind == E.EV_PASS:
            assert not stock, "a pass while the stock has cards (P6.2)"
        elif kind == E.EV_MELD:
            cs = set(cards_of(a))
            assert len(cs) >= 3 and cs <= hands[seat]
            hands[seat] -= cs
            melds.append(cs)
        elif kind == E.EV_LAYOFF:
            assert a in hands[seat] and 0 <= b < len(melds)
            hands[seat].remove(a)
            melds[b].add(a)
        elif kind == E.EV_DISCARD:
            assert a in hands[seat]
            hands[seat].remove(a)
            pile.append(a)
        elif kind == E.EV_END:
            assert i == len(events) - 1
            assert seat == row[E.C_OUT_SEAT] and a == row[E.C_END]
            if a == E.END_OUT:
                assert not hands[seat], "the out seat still holds cards"
            if a == E.END_PASSES:
                assert not stock and [e[0] for e in events[-5:-1].tolist()] == [E.EV_PASS] * 4
        else:
            raise AssertionError(f"unexpected event kind {kind}")
        everywhere = [x for h in hands for x in h] + pile + stock + [x for m in melds for x in m]
        assert sorted(everywhere) == ALL_CARDS, f"cards lost or duplicated after event {i}"
    assert draws == row[E.C_TURNS]
    assert draws_seat == row[E.C_TURNS_SEAT : E.C_TURNS_SEAT + 4].tolist()
    assert [sum(card_value(x) for x in h) for h in hands] == row[E.C_HAND_PTS : E.C_HAND_PTS + 4].tolist()


# ------------------------------------------------------------------ strategies
tables = hs.lists(hs.sampled_from(SPECS), min_size=4, max_size=4).map(Table.of)
rule_options = hs.builds(
    RuleOptions,
    last_card=hs.sampled_from(("meld", "discard")),
    out_bonus=hs.sampled_from((25, 0, 7, 100)),
    four_of_a_kind_double=hs.booleans(),
    turn_cap=hs.one_of(hs.just(1000), hs.integers(4, 60)),
)
seeds = hs.integers(0, 2**63 - 1)
deal_ids = hs.integers(0, 10**9)


# ------------------------------------------------------------------ tests
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables, seed=seeds, deal=deal_ids, rules=rule_options)
def test_position_walk_conserves_cards_and_scores_add_up(table, seed, deal, rules):
    """P3-P8 at every step of a Position walk, then the walk equals run_deals' deal."""
    tally = {"table_seat": [0] * 4, "takes": [0] * 4, "depth": [0] * 4, "max_depth": [-1] * 4,
             "cards_taken": [0] * 4, "fours": [0] * 4, "joker_fours": [0] * 4, "layoff_opp": [0] * 4}
    events = []
    last = None
    pos = None
    for pos, rows, idx in walk(table, seed, deal, rules):
        st = pos.st
        check_conservation(st)
        seat = pos.seat
        obs = pos.observation()
        assert obs[E.O_HAND] == st[E.S_HANDS + seat]
        assert obs[E.O_SEAT] == seat and obs[E.O_DECISION] == PHASES.index(pos.phase)
        assert [len(cards_of(st[E.S_HANDS + s])) for s in range(4)] == obs[E.O_HAND_SIZES : E.O_HAND_SIZES + 4].tolist()
        assert obs[E.O_STOCK_N] == st[E.O_STOCK_N] and obs[E.O_PILE_N] == st[E.O_PILE_N]
        assert st[E.O_TURN] < rules.turn_cap
        kinds = rows[:, 0].tolist()
        stock_n = int(st[E.O_STOCK_N])
        if pos.phase == "draw":
            assert (E.MV_PASS in kinds) == (stock_n == 0), "pass offered iff the stock is empty (P6.2)"
            assert (E.MV_STOCK in kinds) == (stock_n > 0)
        else:
            assert E.MV_PASS not in kinds and E.MV_STOCK not in kinds and E.MV_TAKE not in kinds
        row = rows[idx]
        kind = int(row[0])
        team = seat % 2
        if kind == E.MV_PASS:
            assert stock_n == 0, "a pass on a non-empty stock"
            events.append((E.EV_PASS, seat, 0, 0, 0))
        elif kind == E.MV_STOCK:
            events.append((E.EV_STOCK, seat, int(st[E.S_STOCK + stock_n - 1]), 0, 0))
        elif kind == E.MV_TAKE:
            depth = int(row[1])
            tally["takes"][seat] += 1
            tally["depth"][seat] += depth
            tally["max_depth"][seat] = max(tally["max_depth"][seat], depth)
            tally["cards_taken"][seat] += depth + 1
            events.append((E.EV_TAKE, seat, depth, int(row[3]), 0))
        elif kind == E.MV_MELD:
            m = int(row[1])
            pts = value_of(m)
            if is_four_of_a_kind(m):
                if rules.four_of_a_kind_double:
                    pts *= 2
                tally["joker_fours" if m >> E.JOKER0 else "fours"][seat] += 1
            tally["table_seat"][seat] += pts
            events.append((E.EV_MELD, seat, m, 0, 0))
        elif kind == E.MV_LAYOFF:
            card, k = int(row[1]), int(row[2])
            tally["table_seat"][seat] += card_value(card)
            if st[E.O_MELD_OWNER + k] % 2 != team:
                tally["layoff_opp"][seat] += card_value(card)
            events.append((E.EV_LAYOFF, seat, card, k, 0))
        elif kind == E.MV_DISCARD:
            events.append((E.EV_DISCARD, seat, int(row[1]), 0, 0))
        last = (kind, seat)

    # the deal is over
    st, res = pos.st, pos.res
    check_conservation(st)
    assert pos.phase == "over" and pos.end in ("out", "passes", "cap")
    assert pos.turns <= rules.turn_cap
    if pos.end == "cap":
        assert pos.turns == rules.turn_cap
    elif pos.end == "passes":
        assert st[E.O_STOCK_N] == 0 and st[E.O_PASSES] == 4 and last[0] == E.MV_PASS
    else:
        assert pos.out_seat == last[1] and st[E.S_HANDS + pos.out_seat] == 0
        allowed = (E.MV_MELD, E.MV_LAYOFF) + ((E.MV_DISCARD,) if rules.last_card == "discard" else ())
        assert last[0] in allowed, "the deal ended out without the last card going down (P6.4)"
    out_team = pos.out_seat % 2 if pos.end == "out" else -1
    for s in range(4):
        assert res[E.C_HAND_PTS + s] == value_of(st[E.S_HANDS + s]), "hand penalty != value of cards left"
    assert res[E.C_TABLE_SEAT : E.C_TABLE_SEAT + 4].tolist() == tally["table_seat"]
    for team in range(2):
        left = value_of(st[E.S_HANDS + team]) + value_of(st[E.S_HANDS + team + 2])
        table_pts = tally["table_seat"][team] + tally["table_seat"][team + 2]
        bonus = rules.out_bonus if team == out_team else 0
        assert res[E.C_HAND + team] == left
        assert res[E.C_TABLE + team] == table_pts == st[E.O_TEAM_TABLE + team]
        assert res[E.C_BONUS + team] == bonus
        assert res[E.C_TOTAL + team] == table_pts - left + bonus
    for name, col in (("takes", E.C_TAKES), ("depth", E.C_TAKE_DEPTH), ("max_depth", E.C_MAX_DEPTH),
                      ("cards_taken", E.C_CARDS_TAKEN), ("fours", E.C_FOURS),
                      ("joker_fours", E.C_JOKER_FOURS), ("layoff_opp", E.C_LAYOFF_OPP)):
        assert res[col : col + 4].tolist() == tally[name], name

    # the compiled deal loop plays the very same deal
    run = run_deals(table, [deal], seed, rules, record=1)
    row = run.results[0]
    assert row[E.C_END] == END_CODE[pos.end]
    assert row[E.C_OUT_SEAT] == (-1 if pos.out_seat is None else pos.out_seat)
    assert row[E.C_TURNS] == pos.turns  # both count the turn that ended the deal
    assert (row[E.C_TABLE : E.C_TOTAL + 2] == res[E.C_TABLE : E.C_TOTAL + 2]).all()
    assert (row[E.C_TAKES :] == res[E.C_TAKES :]).all()
    events.append((E.EV_END, row[E.C_OUT_SEAT], row[E.C_END], 0, 0))
    assert [canon_event(e) for e in run.deal_events(0)] == [canon_event(e) for e in events]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables, seed=seeds, start=deal_ids, rules=rule_options)
def test_run_deals_rows_are_valid_and_events_conserve_cards(table, seed, start, rules):
    """Every run_deals row ends validly and adds up (P7, P8); replaying its recorded
    events from the shuffled deck conserves the cards at every event."""
    idx = np.arange(start, start + 150, dtype=np.int64)
    run = run_deals(table, idx, seed, rules, record=1)
    res = run.results
    assert (res[:, E.C_DEAL] == idx).all()
    check_result_rows(res, rules)
    for i, deal in enumerate(idx.tolist()):
        replay_events(shuffled_deck(seed, deal), run.deal_events(i), res[i])


def test_long_run_rows_are_valid():
    """A few thousand deals per kind of table at default rules: valid ends, scores add up,
    and both ends that matter actually occur."""
    rules = RuleOptions()
    for table in (["random"], ["greedy"], ["greedy", "random"], ["random", "greedy", "greedy", "random"]):
        res = run_deals(table, 3000, 20240611).results
        check_result_rows(res, rules)
        assert (res[:, E.C_END] == E.END_OUT).any() and (res[:, E.C_END] == E.END_PASSES).any()


def test_tiny_turn_cap_ends_every_deal_by_cap_or_earlier():
    rules = RuleOptions(turn_cap=4)
    res = run_deals("random", 500, 3, rules).results
    check_result_rows(res, rules)
    assert (res[:, E.C_TURNS] <= 4).all() and (res[:, E.C_END] == E.END_CAP).mean() > 0.9
