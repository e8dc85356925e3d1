"""The built-ins' memo of their own solver work (sim/games/indian/memo_nb.py, issue 28).

A built-in in the engine sees its seat's memo block after the observation: the 14 cards its
draw solved, the 13 its discard kept, and it tells the engine whether some discard of its 14
cards declares (I5), so the first-chance note needs no search. None of it may change a move or
a result column: the same built-in seated as a user strategy (which the engine shows only the
observation, so it solves everything itself) must give the very same result rows, the
first-chance column included, and what a built-in tells the engine must be true.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from sim.games.indian import enums as E
from sim.games.indian.engine import run_deals
from sim.games.indian.memo_nb import (
    M_D13,
    M_DECLARES,
    M_KEY13,
    M_KEY14,
    M_LOOSE13,
    M_LOOSE14,
    M_M14,
    MEMO_SEAT,
    MEMO_SIZE,
    clear_memo,
    key_matches,
    loose_mask,
    memo_at,
    store_key,
    unpack_loose,
)
from sim.games.indian.rules import RuleOptions
from sim.games.indian.solver_bench import random_hands
from sim.games.indian.cards_nb import card_value
from sim.games.indian.solver_nb import deadwood_and_loose, joins_no_group, min_deadwood
from sim.games.indian.state_nb import declaring_discard
from sim.plugin.registry import registry_for
from sim.plugin.specs import MAX_PARAMS
from sim.plugin.strategy import STRATEGY_SIG
from strategies.indian.defensive_nb import defensive_decide
from strategies.indian.dropper_nb import dropper_decide
from strategies.indian.expert_nb import expert_decide
from strategies.indian.greedy_nb import cannot_lower, greedy_decide
from strategies.indian.joker_keeper_nb import joker_keeper_decide
from strategies.indian.learned_nb import learned_decide


def _as_user(decide):
    """The built-in kernel ``decide`` as a user strategy of its own (a function slot the engine
    calls with the bare observation)."""
    @njit(STRATEGY_SIG)
    def user(decision, obs, moves, n, params, rng):
        return decide(decision, obs, moves, n, params, rng)
    return user


AS_USER = {name: _as_user(f) for name, f in (
    ("greedy", greedy_decide), ("dropper", dropper_decide), ("defensive", defensive_decide),
    ("joker_keeper", joker_keeper_decide), ("expert", expert_decide), ("learned", learned_decide))}


def _user_name(builtin: str) -> str:
    """The built-in ``builtin`` registered again as a user strategy, with its parameters."""
    reg = registry_for("indian")
    name = f"memo_test_{builtin}"
    if name not in reg.names():
        reg.register_strategy(name, AS_USER[builtin], params=reg.get(builtin).params)
    return name


@pytest.mark.parametrize("table,rules", [
    (("greedy", "greedy", "greedy", "greedy"), {}),
    (("expert", "expert", "expert", "expert"), {}),
    (("dropper", "defensive", "joker_keeper", "learned"), {}),
    (("greedy", "expert"), {"decks": 3}),
    (("expert", "greedy", "defensive", "dropper", "joker_keeper", "learned"), {"decks": 3}),
    (("greedy", "expert", "greedy"), {"max_jokers_per_run": 13, "max_jokers_per_set": 2}),
])
def test_a_builtin_plays_as_it_does_without_its_memo(table, rules) -> None:
    """Issue 28: the memo saves solver work and changes nothing. Every result column (moves
    show in the turns, pickups, deadwood and losses; first_chance shows what the built-ins told
    the engine) equal with the built-ins seated as themselves and as user strategies."""
    users = [_user_name(s) for s in table]
    n = 150 if len(table) == 6 else 250
    a = run_deals(list(table), n, 2812, rules=rules).results
    b = run_deals(users, n, 2812, rules=rules).results
    assert (a[:, E.C_FIRST_CHANCE:E.C_FIRST_CHANCE + len(table)] >= 0).sum() > 20, "too few first chances to test"
    assert np.array_equal(a, b)


def test_the_memo_lies_past_the_observation_and_only_engine_arrays_have_it() -> None:
    obs = np.zeros(E.OBS_SIZE, np.int64)
    assert memo_at(obs) == -1
    big = np.zeros(E.OBS_SIZE + MEMO_SIZE, np.int64)
    for seat in range(E.MAX_SEATS):
        big[E.O_SEAT] = seat
        assert memo_at(big) == E.OBS_SIZE + seat * MEMO_SEAT
    clear_memo(big)
    assert (big[E.OBS_SIZE + M_DECLARES::MEMO_SEAT] == -1).all()


def test_hand_keys_are_exact() -> None:
    """A key matches its own hand only: every hand of a set of random 13- and 14-card hands
    (2 and 3 decks, up to six jokers of a kind) against its own key and every other's."""
    hands = np.concatenate([random_hands(150, 3, 5, 14)[0], random_hands(150, 2, 6, 13)[0]])
    hands[0, E.JOKER] = 6
    slot = E.OBS_SIZE + M_KEY13
    obs = np.zeros(E.OBS_SIZE + MEMO_SIZE, np.int64)
    distinct = {h.tobytes() for h in hands}
    for i, h in enumerate(hands):
        store_key(obs, slot, h)
        hits = sum(key_matches(obs, slot, g) for g in hands)
        assert key_matches(obs, slot, h)
        assert hits == sum(g.tobytes() == h.tobytes() for g in hands)
    assert len(distinct) > 250


def test_loose_masks_round_trip() -> None:
    hands, wild = random_hands(200, 2, 8, 14)
    loose = np.zeros(E.N_KINDS, np.int64)
    back = np.zeros(E.N_KINDS, np.int64)
    for h, w in zip(hands, wild):
        deadwood_and_loose(h, w, 1, 1, 0, loose)
        unpack_loose(loose_mask(h, loose), back)
        held = h > 0
        assert np.array_equal(back[held] != 0, loose[held] != 0)
        assert not back[~held].any()


def _discard_obs(rules, wild, seat, h):
    """An engine-sized observation (the seats' memo blocks cleared) of ``seat`` at 4 players
    deciding its discard with the 14 cards ``h``."""
    obs = np.zeros(E.OBS_SIZE + MEMO_SIZE, np.int64)
    clear_memo(obs)
    obs[E.O_RULES:E.O_RULES + E.N_RULES] = rules
    obs[E.O_WILD_RANK] = wild
    obs[E.O_SEAT] = seat
    obs[E.O_PLAYERS] = 4
    obs[E.O_HAND:E.O_HAND + E.N_KINDS] = h
    obs[E.O_DECISION] = E.D_DISCARD
    obs[E.O_TOP] = -1
    return obs


def _discard_rows(h):
    kinds = np.flatnonzero(h)
    rows = np.zeros((2 * len(kinds), E.MOVE_COLS), np.int64)
    rows[: len(kinds), 0] = E.MV_DISCARD
    rows[len(kinds):, 0] = E.MV_DECLARE
    rows[: len(kinds), 1] = kinds
    rows[len(kinds):, 1] = kinds
    return rows


def _declarable_hands(wild: int) -> list[np.ndarray]:
    """14-card hands with a valid declaration after one discard (I5), and near misses."""
    def hand(cards):
        h = np.zeros(E.N_KINDS, np.int64)
        for k in cards:
            h[k] += 1
        return h
    hearts = 2 * 13
    base = [hearts + 0, hearts + 1, hearts + 2, hearts + 3,  # 2-5 of hearts: a pure run of four
            6, 7, 8,  # 8-T of clubs
            13 + 7, 26 + 7, 39 + 7,  # the 9s of diamonds, hearts and spades
            11, 13 + 11, 39 + 11]  # kings of clubs, diamonds, spades
    out = []
    for extra in (0, 12, 25, 51, E.JOKER, hearts + 4):
        out.append(hand(base + [extra]))
    broken = list(base)
    broken[2] = 39 + 2  # the run of four is no longer pure: no declaration
    for extra in (0, 12, E.JOKER):
        out.append(hand(broken + [extra]))
    return out


@pytest.mark.parametrize("decide,params", [
    (greedy_decide, ()),
    (expert_decide, tuple(p.default for p in registry_for("indian").get("expert").params)),
    (defensive_decide, tuple(p.default for p in registry_for("indian").get("defensive").params)),
])
def test_what_a_builtin_tells_the_engine_is_true(decide, params) -> None:
    """At a discard decision on constructed and random 14-card hands: M_DECLARES is 1 exactly when
    some discard leaves a valid declaration (state_nb.declaring_discard), and the kept-13 entry,
    when written for a discard, holds that discard's 13 cards and their min_deadwood."""
    rules = RuleOptions().to_array(4)
    p = np.zeros(MAX_PARAMS, np.float64)
    p[: len(params)] = params
    rng = np.zeros(1, np.uint64)
    free = np.zeros(E.N_KINDS, np.int64)
    hands = [(h, 5) for h in _declarable_hands(5)]
    hs, ws = random_hands(300, 2, 11, 14)
    hands += list(zip(hs, ws))
    told = set()
    loose_told = 0
    for h, wild in hands:
        obs = _discard_obs(rules, wild, 2, h)
        rows = _discard_rows(h)
        i = decide(E.D_DISCARD, obs, rows, len(rows), p, rng)
        at = memo_at(obs)
        truth = declaring_discard(h.copy(), wild, 1, 1, 0, free) >= 0
        assert obs[at + M_DECLARES] == int(truth), (h, wild)
        told.add(bool(truth))
        if rows[i, 0] == E.MV_DISCARD and obs[at + M_KEY13:at + M_KEY13 + 4].any():
            kept = h.copy()
            kept[rows[i, 1]] -= 1
            assert key_matches(obs, at + M_KEY13, kept)
            d13 = obs[at + M_D13]
            assert d13 == min_deadwood(kept, wild, 1, 1, 0)
            mask = obs[at + M_LOOSE13]
            for k in range(E.N_KINDS) if mask >= 0 else ():
                if (mask >> k) & 1:  # a loose kind of the 13: discarding it leaves D13 - value
                    assert kept[k] > 0
                    kept[k] -= 1
                    assert min_deadwood(kept, wild, 1, 1, 0) == d13 - card_value(k, wild), (k, wild)
                    kept[k] += 1
                    loose_told += 1
    assert told == {True, False}
    assert loose_told > 100, loose_told


def test_the_draw_leaves_its_solved_14_cards() -> None:
    """greedy's draw leaves the 14 cards with the pile's top, their min_deadwood and loose kinds."""
    rules = RuleOptions().to_array(4)
    hs, ws = random_hands(200, 2, 12, 14)
    loose = np.zeros(E.N_KINDS, np.int64)
    back = np.zeros(E.N_KINDS, np.int64)
    rows = np.array([[E.MV_STOCK, 0, 0, 0], [E.MV_PILE, 0, 0, 0], [E.MV_DROP, 0, 0, 0]], np.int64)
    skipped = 0
    for h14, wild in zip(hs, ws):
        top = int(np.flatnonzero(h14)[0])
        h = h14.copy()
        h[top] -= 1
        obs = np.zeros(E.OBS_SIZE + MEMO_SIZE, np.int64)
        clear_memo(obs)
        obs[E.O_RULES:E.O_RULES + E.N_RULES] = rules
        obs[E.O_WILD_RANK] = wild
        obs[E.O_HAND:E.O_HAND + E.N_KINDS] = h
        obs[E.O_TOP] = top
        rows[1, 1] = top
        greedy_decide(E.D_DRAW, obs, rows, 3, np.zeros(MAX_PARAMS), np.zeros(1, np.uint64))
        at = memo_at(obs)
        assert np.array_equal(obs[E.O_HAND:E.O_HAND + E.N_KINDS], h), "the hand was not restored"
        if cannot_lower(h14, top, wild, 1, 1, 0):  # the stock without a search: nothing solved
            assert not key_matches(obs, at + M_KEY14, h14)
            skipped += 1
            continue
        assert key_matches(obs, at + M_KEY14, h14)
        m = deadwood_and_loose(h14, wild, 1, 1, 0, loose)
        assert obs[at + M_M14] == m
        unpack_loose(obs[at + M_LOOSE14], back)
        held = h14 > 0
        assert np.array_equal(back[held] != 0, loose[held] != 0)
    assert skipped < len(hs) // 2, skipped


@pytest.mark.parametrize("decide", [greedy_decide, expert_decide], ids=["greedy", "expert"])
def test_a_card_no_group_can_hold_after_a_kept_13_needs_no_solve(decide) -> None:
    """After a discard kept 13 cards (M_KEY13, M_D13, M_LOOSE13), the next draw and discard of
    greedy / expert with a top or drawn card no group can hold (solver joins_no_group) answer
    without solving the 14 cards: the draw takes the top when a loose kept card is worth more,
    the discard takes the 13's arrangement (greedy_nb.solved_14). Every answer equals the one
    made on the bare observation (no memo: everything solved), and every memo entry left is
    true (min_deadwood of the kept cards)."""
    rules = RuleOptions().to_array(4)
    p = np.zeros(MAX_PARAMS, np.float64)
    rng = np.zeros(1, np.uint64)
    hs, ws = random_hands(250, 2, 17, 14)
    draw_rows = np.array([[E.MV_STOCK, 0, 0, 0], [E.MV_PILE, 0, 0, 0]], np.int64)
    lonely_seen = 0
    for h14, wild in zip(hs, ws):
        obs = _discard_obs(rules, wild, 1, h14)
        rows = _discard_rows(h14)
        i = decide(E.D_DISCARD, obs, rows, len(rows), p, rng)
        if rows[i, 0] != E.MV_DISCARD:
            continue
        kept = h14.copy()
        kept[rows[i, 1]] -= 1
        at = memo_at(obs)
        for c in range(52):  # every natural that could come next, a fresh copy of the memo each
            if kept[c] >= 2:
                continue
            h = kept.copy()
            h[c] += 1
            if not joins_no_group(h, c, wild, 1, 1, 0):
                continue
            lonely_seen += 1
            # the draw with c as the top discard
            memo = obs.copy()
            memo[E.O_DECISION] = E.D_DRAW
            memo[E.O_TOP] = c
            memo[E.O_HAND:E.O_HAND + E.N_KINDS] = kept
            draw_rows[1, 1] = c
            bare = memo[:E.OBS_SIZE].copy()
            assert decide(E.D_DRAW, memo, draw_rows, 2, p, rng) == decide(E.D_DRAW, bare, draw_rows, 2, p, rng)
            # the discard with c drawn
            memo = obs.copy()
            memo[E.O_HAND:E.O_HAND + E.N_KINDS] = h
            bare = memo[:E.OBS_SIZE].copy()
            rows2 = _discard_rows(h)
            j = decide(E.D_DISCARD, memo, rows2, len(rows2), p, rng)
            assert j == decide(E.D_DISCARD, bare, rows2, len(rows2), p, rng), (c, wild)
            if rows2[j, 0] == E.MV_DISCARD:
                left = h.copy()
                left[rows2[j, 1]] -= 1
                assert key_matches(memo, at + M_KEY13, left)
                assert memo[at + M_D13] == min_deadwood(left, wild, 1, 1, 0)
    assert lonely_seen > 500, lonely_seen
