"""Behaviour tests of the heuristic built-ins: deep_taker, quad_holder, defensive, expert.

Each test shows, on a fixed set of deals (or a hand-built position), that a strategy
or one of its parameters moves what it is meant to move: the engine's per-seat
counters (C_* of sim/games/persian/enums.py), a tally made by stepping deals with Position,
or the move chosen in a position built for the purpose. The aggregate tests compare
runs over the same deal indices and seed, so the cards are the same in every run.
Unless a test says otherwise, the strategy under test sits in seats 0 and 2 against
greedy in seats 1 and 3, and only seats 0 and 2 are counted.
"""

import functools
import os
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from sim.games.persian import enums as E  # noqa: E402
from sim.games.persian.cards import card_name, parse_card  # noqa: E402
from sim.games.persian.engine import Table, run_deals  # noqa: E402
from sim.games.persian.engine_nb import shuffled_deck  # noqa: E402
from sim.games.persian.position import Position, row_to_move  # noqa: E402
from sim.games.persian.rules import RuleOptions  # noqa: E402
from sim.games.persian.state_nb import new_state  # noqa: E402
from sim.core.rng_nb import STREAM_SEAT0, stream_key  # noqa: E402
from sim.plugin.strategy import call_from_python  # noqa: E402

SEED = 2025
DEALS = 3000  # the fixed deal set of the aggregate tests: deal indices 0..2999 under SEED
PHASES = ("draw", "play", "discard")
HEURISTICS = ("deep_taker", "quad_holder", "defensive", "expert")


# ------------------------------------------------------------------ helpers
@functools.lru_cache(maxsize=None)
def run(spec: str, opponent: str = "greedy", deals: int = DEALS) -> np.ndarray:
    """Result rows of ``spec`` (seats 0, 2) against ``opponent`` (seats 1, 3) on the fixed deals."""
    res = run_deals([spec, opponent], deals, SEED, threads=2).results
    res.setflags(write=False)
    return res


def total(spec: str, column: int, opponent: str = "greedy") -> int:
    """A per-seat counter summed over seats 0 and 2 and the fixed deals."""
    res = run(spec, opponent)
    return int(res[:, column].sum() + res[:, column + 2].sum())


def team_diff(a: str, b: str, deals: int) -> tuple[float, float]:
    """Duplicate match on deals 0..deals-1: mean (A - B) per deal set and its 95% half-width."""
    r1 = run_deals([a, b], deals, SEED, threads=2).results
    r2 = run_deals([b, a], deals, SEED, threads=2).results
    d = ((r1[:, E.C_TOTAL] - r1[:, E.C_TOTAL + 1]) + (r2[:, E.C_TOTAL + 1] - r2[:, E.C_TOTAL])) / 2.0
    return float(d.mean()), float(1.96 * d.std(ddof=1) / np.sqrt(d.size))


def walk(specs, deal: int, seed: int = SEED):
    """Step one deal with Position, choosing exactly as the engine does; yields
    (position, legal rows, chosen index) before every move."""
    table = Table.of(list(specs))
    sids, params, fns = table.kernel_args()
    rules = RuleOptions()
    pos = Position.from_deal(seed, deal, rules)
    pos.st = new_state(shuffled_deck(seed, deal), deal % 4, rules.to_array())  # the engine's own joker ids
    rng = np.array([[stream_key(seed, deal, STREAM_SEAT0 + s)] for s in range(4)], dtype=np.uint64)
    while pos.phase != "over":
        rows = pos.legal_rows()
        s = pos.seat
        if len(rows) == 1:
            idx = 0
        else:
            idx = int(call_from_python(fns[s], PHASES.index(pos.phase), pos.observation(), rows, len(rows),
                                       params[s], rng[s]))
        yield pos, rows, idx
        pos.apply_row(rows[idx])


def bits(mask: int) -> list[int]:
    mask = int(mask)
    return [c for c in range(E.N_CARDS) if (mask >> c) & 1]


def table_layoffs(st: np.ndarray) -> int:
    """Mask of every card one lay-off could put on a table meld (P6.3), in plain Python."""
    out = 0
    for k in range(int(st[E.O_N_MELDS])):
        cards = bits(st[E.O_MELD_MASK + k])
        kind = int(st[E.O_MELD_KIND + k])
        if kind == E.MK_RUN:
            suit = cards[0] // 13
            lo, hi = min(c % 13 for c in cards), max(c % 13 for c in cards)
            if lo > 0:
                out |= 1 << (suit * 13 + lo - 1)
            if hi < 12:
                out |= 1 << (suit * 13 + hi + 1)
        elif len(cards) == 3:
            if kind == E.MK_JOKERS:
                out |= sum(1 << j for j in range(E.JOKER0, E.N_CARDS) if j not in cards)
            else:
                rank = cards[0] % 13
                out |= sum(1 << (s * 13 + rank) for s in range(4) if s * 13 + rank not in cards)
    return out


def feeds_known_need(st: np.ndarray, seat: int, card: int) -> bool:
    """Could the discard of ``card`` by ``seat`` be laid off on a table meld, or does it
    match a card the next opponent took from the pile and, by the public record, still
    holds (same rank, both jokers, or a same-suit neighbour one rank away)?"""
    if (table_layoffs(st) >> card) & 1:
        return True
    nxt = (seat + 1) % 4
    placed = 0
    for s in range(4):
        placed |= int(st[E.O_PLACED + s])
    pile = sum(1 << int(c) for c in st[E.O_PILE : E.O_PILE + st[E.O_PILE_N]])
    known = int(st[E.O_TAKEN + nxt]) & ~placed & ~pile & ~int(st[E.S_HANDS + seat])
    for k in bits(known):
        if k >= E.JOKER0 or card >= E.JOKER0:
            if k >= E.JOKER0 and card >= E.JOKER0:
                return True
            continue
        if k % 13 == card % 13:
            return True
        if k // 13 == card // 13 and abs(k % 13 - card % 13) == 1:
            return True
    return False


@functools.lru_cache(maxsize=None)
def known_need_rate(spec: str, deals: int = 150) -> float:
    """Share of the discards of seats 0 and 2 (``spec`` against greedy) that feed the
    next opponent's known needs (feeds_known_need), stepping deals 0..deals-1."""
    fed = made = 0
    for deal in range(deals):
        for pos, rows, idx in walk([spec, "greedy"], deal):
            if pos.phase == "discard" and pos.seat % 2 == 0:
                made += 1
                fed += feeds_known_need(pos.st, pos.seat, int(rows[idx][1]))
    assert made > 1500
    return fed / made


def position(mine, pile, stock=None, sizes=(7, 7, 7), holds=None, seat=1):
    """A position with ``seat`` about to draw, holding ``mine``; ``pile`` and ``stock``
    top first. The other hands get ``sizes`` cards (after ``seat``, clockwise): cards
    nobody else uses, plus ``holds[s]`` for seat s, marked as taken from the pile
    (O_TAKEN). Only the sizes and the taken marks of the other hands are public (P10),
    so which filler cards they hold cannot change a decision."""
    holds = holds or {}
    named = list(mine) + list(pile) + list(stock or []) + [c for h in holds.values() for c in h]
    pool = [card_name(c) for c in range(E.JOKER0) if card_name(c) not in named]
    assert len(set(n for n in named if n != "JK")) == len([n for n in named if n != "JK"]), "a card used twice"
    hands = [None] * 4
    hands[seat] = list(mine)
    for k, size in enumerate(sizes, start=1):
        s = (seat + k) % 4
        own = list(holds.get(s, []))
        hands[s] = own + pool[: size - len(own)]
        pool = pool[size - len(own):]
    if stock is None:
        stock = pool[:8]
    pos = Position(hands, pile, stock, dealer=(seat - 1) % 4, to_move=seat)
    for s, cards in holds.items():
        for n in cards:
            pos.st[E.O_TAKEN + s] |= 1 << parse_card(n)
    return pos


def choice(spec: str, pos: Position) -> tuple:
    """The move ``spec`` chooses in ``pos`` (as a readable tuple)."""
    sids, params, fns = Table.of(spec).kernel_args()
    rows = pos.legal_rows()
    s = pos.seat
    rng = np.array([12345], dtype=np.uint64)
    idx = int(call_from_python(fns[s], PHASES.index(pos.phase), pos.observation(), rows, len(rows),
                               params[s], rng))
    return row_to_move(rows[idx])


# ------------------------------------------------------------------ deep_taker
def test_deep_taker_lower_min_gain_takes_more_and_deeper():
    rows = []
    for g in (60, 20, 0):
        spec = f"deep_taker:min_gain={g}"
        deepest = run(spec)[:, [E.C_MAX_DEPTH, E.C_MAX_DEPTH + 2]]
        rows.append((total(spec, E.C_TAKES), total(spec, E.C_TAKE_DEPTH), total(spec, E.C_CARDS_TAKEN),
                     int((deepest >= 3).sum())))
    for hi, lo in zip(rows, rows[1:]):
        assert lo[0] > hi[0], rows  # more takes ...
        assert lo[1] > hi[1], rows  # ... digging more pile depth in all ...
        assert lo[2] > hi[2], rows  # ... bringing more cards ...
        assert lo[3] > hi[3], rows  # ... and more seats' deals with a take 3 or more cards deep
    assert rows[-1][0] > 2 * rows[0][0], rows  # by a wide margin over the range


def test_deep_taker_max_depth_caps_the_depth():
    for cap in (0, 3):
        res = run(f"deep_taker:max_depth={cap}")
        deepest = res[:, [E.C_MAX_DEPTH, E.C_MAX_DEPTH + 2]]
        assert deepest.max() == cap  # reached, never passed
    assert total("deep_taker:max_depth=0", E.C_TAKE_DEPTH) == 0
    assert run("deep_taker")[:, [E.C_MAX_DEPTH, E.C_MAX_DEPTH + 2]].max() > 6
    assert total("deep_taker", E.C_TAKE_DEPTH) > 1.5 * total("deep_taker:max_depth=3", E.C_TAKE_DEPTH)


def test_deep_taker_risk_weight_and_near_hand_limit_the_extra_cards():
    calm, wary = "deep_taker:risk_weight=0", "deep_taker:risk_weight=5"
    assert total(wary, E.C_CARDS_TAKEN) < 0.9 * total(calm, E.C_CARDS_TAKEN)
    assert total(wary, E.C_HAND_PTS) < 0.9 * total(calm, E.C_HAND_PTS)  # fewer points caught in hand
    # the end looks near sooner with a larger near_hand: the extra cards weigh more
    early, late = "deep_taker:risk_weight=5,near_hand=7", "deep_taker:risk_weight=5,near_hand=0"
    assert total(early, E.C_CARDS_TAKEN) < 0.9 * total(late, E.C_CARDS_TAKEN)


def test_deep_taker_soon_weight_counts_cards_for_later():
    assert total("deep_taker:min_gain=10,soon_weight=2", E.C_TAKES) > 1.05 * total(
        "deep_taker:min_gain=10,soon_weight=0", E.C_TAKES)


def test_deep_taker_takes_a_deep_target_only_within_its_limits():
    # seat 1 holds 7H 8H; 9H lies at depth 4 under four cards it cannot use
    pos = position(["7H", "8H", "2S", "5C", "TS", "QH", "AD"], ["KS", "JH", "6S", "AC", "9H", "4D"])
    assert ("take", 4) in pos.legal_moves()
    assert choice("deep_taker", pos) == ("take", 4)
    assert choice("deep_taker:max_depth=3", pos) == ("stock",)
    assert choice("deep_taker:min_gain=60", pos) == ("stock",)  # gain: 24 (the run) + AC, JH soon - risk
    assert choice("greedy", pos) == ("stock",)  # extras KS JH 6S AC = 41 > max_extra 30


# ------------------------------------------------------------------ quad_holder
def test_quad_holder_melds_more_fours_and_joker_fours_than_greedy():
    fours, jfours = total("quad_holder", E.C_FOURS), total("quad_holder", E.C_JOKER_FOURS)
    g_fours, g_jfours = total("greedy", E.C_FOURS), total("greedy", E.C_JOKER_FOURS)
    assert fours > 2 * g_fours, (fours, g_fours)
    assert jfours > 1.3 * g_jfours, (jfours, g_jfours)


def test_quad_holder_switches_act_separately():
    fours, jfours = total("quad_holder", E.C_FOURS), total("quad_holder", E.C_JOKER_FOURS)
    no_jokers = "quad_holder:hold_jokers=false"
    no_sets = "quad_holder:hold_sets=false"
    assert total(no_jokers, E.C_JOKER_FOURS) < 0.8 * jfours
    assert total(no_jokers, E.C_FOURS) > 0.9 * fours  # the other switch keeps working
    assert total(no_sets, E.C_FOURS) < 0.6 * fours
    assert total(no_sets, E.C_JOKER_FOURS) > 0.9 * jfours
    # min_value: only aces (and jokers) held -> fewer fours of other ranks
    assert total("quad_holder:min_value=15", E.C_FOURS) < 0.7 * fours


def test_quad_holder_gives_up():
    fours = total("quad_holder", E.C_FOURS)
    never = run("quad_holder:give_up_stock=27")  # the stock never has more than 27 cards
    assert np.array_equal(never, run("quad_holder:near_hand=7"))  # an opponent always has <= 7 cards
    assert total("quad_holder:give_up_stock=27", E.C_FOURS) < 0.6 * fours
    assert total("quad_holder:give_up_stock=12", E.C_FOURS) < fours
    assert total("quad_holder:near_hand=4", E.C_FOURS) < 0.8 * fours


def test_quad_holder_take_fourth_takes_the_fourth_from_the_pile():
    # with max_extra=0 only cheap takes happen, unless take_fourth lets the fourth through
    on, off = "quad_holder:max_extra=0", "quad_holder:max_extra=0,take_fourth=false"
    assert total(on, E.C_JOKER_FOURS) > 1.3 * total(off, E.C_JOKER_FOURS)
    assert total(on, E.C_FOURS) > 1.3 * total(off, E.C_FOURS)


def test_quad_holder_positions():
    mine = ["JK", "JK", "JK", "5C", "9D", "KH", "2S"]
    stock = ["2C", "3D", "4C", "6D", "8C", "TD", "QC", "4D"]
    pos = position(mine, ["7H"], stock)
    pos.apply(("stock",))  # draws 2C
    meld3 = ("meld", ("JK", "JK", "JK"))
    assert meld3 in pos.legal_moves()
    assert choice("greedy", pos) == meld3
    assert choice("quad_holder", pos) == ("stop",)
    assert choice("quad_holder:hold_jokers=false", pos) == meld3
    pos.apply(("stop",))
    assert choice("greedy", pos) != ("discard", "JK")
    assert choice("quad_holder", pos) != ("discard", "JK")  # never a held joker
    # gives up when the stock is low (2 cards left after the draw) ...
    low = position(mine, ["7H"], stock[:3])
    low.apply(("stock",))
    assert choice("quad_holder", low) == meld3
    assert choice("quad_holder:give_up_stock=1", low) == ("stop",)
    # ... or when an opponent is close to going out (seat 2 holds one card) ...
    near = position(mine, ["7H"], stock, sizes=(1, 7, 7))
    near.apply(("stock",))
    assert choice("quad_holder", near) == meld3
    assert choice("quad_holder:near_hand=0", near) == ("stop",)
    # ... but not when its partner (seat 3) is
    partner = position(mine, ["7H"], stock, sizes=(7, 1, 7))
    partner.apply(("stock",))
    assert choice("quad_holder", partner) == ("stop",)
    # the fourth joker in the pile under expensive cards: quad_holder takes it, greedy does not
    deep = position(mine, ["KD", "QS", "AC", "JK", "7H"])
    assert choice("quad_holder", deep) == ("take", 3)  # extras KD QS AC = 35 > max_extra 30
    assert choice("quad_holder:take_fourth=false", deep) == ("stock",)
    assert choice("greedy", deep) == ("stock",)
    # the fourth king: a four melded at once right after the take
    kings = position(["KS", "KD", "KC", "5C", "9D", "2S", "4C"], ["AS", "AD", "KH", "7H"])
    assert choice("quad_holder", kings) == ("take", 2)
    kings.apply(("take", 2))
    assert choice("quad_holder", kings) == ("meld", ("KC", "KD", "KH", "KS"))


def test_quad_holder_goes_out_rather_than_break_the_three():
    # after the run only the three jokers are left: holding them would force a joker discard
    pos = position(["JK", "JK", "JK", "5C", "6C"], ["AH"], ["7C", "2D", "3D", "4D", "5D"])
    pos.apply(("stock",))  # 7C
    assert choice("quad_holder", pos) == ("meld", ("5C", "6C", "7C"))
    pos.apply(("meld", ("5C", "6C", "7C")))
    assert choice("quad_holder", pos) == ("meld", ("JK", "JK", "JK"))


# ------------------------------------------------------------------ defensive
def test_defensive_feeds_the_next_opponent_less_than_greedy():
    # the engine's counter: discards the next player took on its very next draw
    rate = total("defensive", E.C_FED) / total("defensive", E.C_DISCARDS)
    g_rate = total("greedy", E.C_FED) / total("greedy", E.C_DISCARDS)
    assert rate < 0.85 * g_rate, (rate, g_rate)
    # public known needs (lay-offs on table melds, matches of the next opponent's pile cards)
    assert known_need_rate("defensive") < 0.8 * known_need_rate("greedy")


def test_defensive_without_weights_plays_like_greedy():
    # no feeding penalty and no shedding: defensive's score orders discards as greedy does
    assert np.array_equal(run("defensive:feed_weight=0,shed_weight=0,keep_partial=100"), run("greedy"))
    assert not np.array_equal(run("defensive"), run("greedy"))


def test_defensive_watch_switches_and_weights():
    rate = lambda s: total(s, E.C_FED) / total(s, E.C_DISCARDS)  # noqa: E731
    assert rate("defensive:watch_pile=false") > 1.05 * rate("defensive")
    assert rate("defensive:feed_weight=0") > 1.15 * rate("defensive")
    assert rate("defensive:pair_weight=0,hand_weight=0") > rate("defensive")
    assert known_need_rate("defensive:watch_taken=false") > 1.1 * known_need_rate("defensive")
    # shedding: more weight on a card's value near the end -> fewer points caught in hand
    assert total("defensive:shed_weight=5", E.C_HAND_PTS) < 0.92 * total("defensive:shed_weight=0", E.C_HAND_PTS)


def test_defensive_positions():
    # seat 2 (the next after seat 1) took 9S from the pile and still holds it
    pos = position(["TS", "2D", "5C", "5H"], ["7D"], ["2C", "3C", "4C", "6D"], holds={2: ["9S"]})
    pos.apply(("stock",))  # 2C
    pos.apply(("stop",))
    assert choice("greedy", pos) == ("discard", "TS")  # its highest card in no partial meld
    assert choice("defensive", pos) != ("discard", "TS")  # two ranks from the known 9S
    assert choice("defensive:watch_taken=false,hand_weight=0", pos) == ("discard", "TS")
    # QS would make a set with the two queens in the pile: the next player could take all three
    pos = position(["QS", "3D", "7C"], ["QH", "8D", "QD", "4S"], ["2C", "6D", "9C"])
    pos.apply(("stock",))  # 2C
    pos.apply(("stop",))
    assert choice("greedy", pos) == ("discard", "QS")
    assert choice("defensive", pos) != ("discard", "QS")
    assert choice("defensive:watch_pile=false,hand_weight=0", pos) == ("discard", "QS")


# ------------------------------------------------------------------ expert
def test_expert_beats_greedy_and_each_heuristic_on_duplicate_deals():
    mean, half = team_diff("expert", "greedy", 2000)
    assert mean - half > 60, (mean, half)
    for other in ("deep_taker", "quad_holder", "defensive"):
        mean, half = team_diff("expert", other, 1000)
        assert mean - half > 20, (other, mean, half)


def test_expert_parts_each_matter():
    """Switching off one part of expert changes its play on the fixed deals."""
    base = run("expert")
    for variant in ("expert:hold_jokers=false,hold_sets=false", "expert:feed_weight=0", "expert:max_depth=0"):
        assert not np.array_equal(run(variant), base), variant
    assert total("expert:hold_jokers=false,hold_sets=false", E.C_FOURS) < 0.6 * total("expert", E.C_FOURS)
    assert total("expert:max_depth=0", E.C_TAKE_DEPTH) == 0
    assert total("expert:feed_weight=0", E.C_FED) > 1.1 * total("expert", E.C_FED)


# ------------------------------------------------------------------ the discards_fed counter
@pytest.mark.parametrize("specs", [("defensive", "random"), ("deep_taker", "greedy"), ("expert", "quad_holder")])
def test_discards_fed_counter_matches_an_independent_tally(specs):
    """C_DISCARDS / C_FED: every discard a seat makes, and those the next seat took (in
    a take of any depth) on its very next draw; tallied here from the moves alone."""
    deals = 120
    engine = run_deals(list(specs), np.arange(deals), SEED, threads=2).results
    fed_total = 0
    for deal in range(deals):
        discards = [0] * 4
        fed = [0] * 4
        last = None  # (seat, card) of the discard still on top, until the next draw
        for pos, rows, idx in walk(specs, deal):
            kind, a, _, c = (int(x) for x in rows[idx])
            if pos.phase == "draw":
                if last is not None and kind == E.MV_TAKE and pos.seat == (last[0] + 1) % 4 and (c >> last[1]) & 1:
                    fed[last[0]] += 1
                last = None
            elif pos.phase == "discard":
                discards[pos.seat] += 1
                last = (pos.seat, a)
        row = engine[deal]
        assert row[E.C_DISCARDS : E.C_DISCARDS + 4].tolist() == discards, f"deal {deal}"
        assert row[E.C_FED : E.C_FED + 4].tolist() == fed, f"deal {deal}"
        assert pos.res[E.C_TOTAL : E.C_TOTAL + 2].tolist() == row[E.C_TOTAL : E.C_TOTAL + 2].tolist()
        fed_total += sum(fed)
    assert fed_total > 100  # the tally saw plenty of fed discards


def test_registered_parameters_are_documented():
    from sim.plugin.registry import get_strategy

    doc = open(os.path.join(ROOT, "docs", "strategies.md"), encoding="utf-8").read()
    for name in ("random", "greedy") + HEURISTICS:
        info = get_strategy(name)
        assert f"`{name}`" in doc
        for p in info.params:
            assert f"`{p.name}`" in doc, (name, p.name)
            assert p.low <= p.default <= p.high
