"""mc_search and its parts: determinization (sampling the hidden cards from one
seat's observation), the compiled play-out, and the search itself.

The P10 information test of every built-in, mc_search included, lives in
tests/test_information.py; here the determinization is checked directly: it keeps
every public fact and the seat's own hand, conserves the 56 cards, keeps publicly
known cards with their holder, and gives the same worlds (and mc_search the same
decisions) for two true states the seat cannot tell apart.
"""

import os
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from sim.studies.match import play_match  # noqa: E402
from sim.games.persian import enums as E  # noqa: E402
from card_ids import mask_of  # noqa: E402
from sim.games.persian.engine import run_deals  # noqa: E402
from sim.games.persian.engine_nb import shuffled_deck  # noqa: E402
from sim.games.persian.position import Position  # noqa: E402
from sim.games.persian.rules import RuleOptions  # noqa: E402
from sim.games.persian.state_nb import new_state  # noqa: E402
from sim.games.persian.determinize_nb import determinize  # noqa: E402
from strategies.persian.greedy_nb import greedy_decide  # noqa: E402
from strategies.persian.mc_search_nb import analyse_decision, mc_search_decide, race_step  # noqa: E402
from sim.plugin.registry import parse_spec  # noqa: E402
from strategies.persian.rollout_nb import POLICY_GREEDY, POLICY_RANDOM, listed_play_out, play_out, rollout  # noqa: E402

PHASES = ("draw", "play", "discard")
ALL = (1 << E.N_CARDS) - 1
RULES = (RuleOptions(), RuleOptions(last_card="discard", four_of_a_kind_double=False, out_bonus=10))
GREEDY_PARAMS = np.array([30.0])


# ------------------------------------------------------------------ helpers
def bits(mask) -> list[int]:
    mask = int(mask)
    return [c for c in range(E.N_CARDS) if (mask >> c) & 1]


def popcount(mask) -> int:
    return bin(int(mask)).count("1")


def start(seed: int, deal: int, rules: RuleOptions) -> Position:
    """The engine's own start of a deal as a Position (jokers numbered as dealt)."""
    pos = Position.from_deal(seed, deal, rules)
    pos.st = new_state(shuffled_deck(seed, deal), deal % 4, rules.to_array())
    return pos


def decisions(seed: int, deals: int, rules: RuleOptions, greedy_share: float = 0.5):
    """Yield (position, legal rows) before every move of deals played by a mix of
    greedy and uniform random choices (random takes from the pile make many O_TAKEN
    cases). Consumers must copy what they keep: the position moves on."""
    gen = np.random.default_rng(seed)
    rng = np.zeros(1, np.uint64)
    for deal in range(deals):
        pos = start(seed, deal, rules)
        while pos.phase != "over":
            rows = pos.legal_rows()
            yield pos, rows
            n = len(rows)
            if n > 1 and gen.random() < greedy_share:
                idx = int(greedy_decide(PHASES.index(pos.phase), pos.observation(), rows, n, GREEDY_PARAMS, rng))
            else:
                idx = int(gen.integers(n))
            pos.apply_row(rows[idx])


def public_masks(obs):
    pile = mask_of(obs[E.O_PILE : E.O_PILE + obs[E.O_PILE_N]])
    table = 0
    for k in range(int(obs[E.O_N_MELDS])):
        table |= int(obs[E.O_MELD_MASK + k])
    return pile, table


def known_cards(obs) -> dict[int, int]:
    """The rule of determinize_nb in plain Python: cards a seat publicly holds."""
    seat = int(obs[E.O_SEAT])
    pile, table = public_masks(obs)
    seen = int(obs[E.O_HAND]) | pile | table
    others = [o for o in range(4) if o != seat]
    out = {}
    for o in others:
        mine = int(obs[E.O_TAKEN + o]) & ~seen
        for p in others:
            if p != o:
                mine &= ~int(obs[E.O_TAKEN + p])
        out[o] = mine
    return out


def alternative(st: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """A true state the deciding seat cannot tell from ``st``: the other seats' cards not
    publicly known, and the stock, dealt again at random."""
    seat = int(st[E.O_SEAT])
    obs = st[: E.OBS_SIZE].copy()
    obs[E.O_HAND] = st[E.S_HANDS + seat]
    keep = known_cards(obs)
    alt = st.copy()
    pool, need = [], {}
    for o in keep:
        hand = int(st[E.S_HANDS + o])
        keep[o] &= hand  # (an ambiguous card is not kept; see determinize_nb)
        need[o] = popcount(hand & ~keep[o])
        pool += bits(hand & ~keep[o])
    n_stock = int(st[E.O_STOCK_N])
    pool += [int(c) for c in st[E.S_STOCK : E.S_STOCK + n_stock]]
    gen.shuffle(pool)
    for o in keep:
        alt[E.S_HANDS + o] = keep[o] | mask_of(pool[: need[o]])
        pool = pool[need[o] :]
    alt[E.S_STOCK : E.S_STOCK + n_stock] = pool
    return alt


def observation_of(st: np.ndarray, phase: str) -> np.ndarray:
    obs = st[: E.OBS_SIZE].copy()
    obs[E.O_HAND] = st[E.S_HANDS + st[E.O_SEAT]]
    obs[E.O_DECISION] = PHASES.index(phase)
    return obs


def check_world(obs: np.ndarray, w: np.ndarray) -> None:
    """Every invariant a sampled world must keep."""
    seat = int(obs[E.O_SEAT])
    assert np.array_equal(w[: E.OBS_SIZE], obs), "public slots changed"
    assert w[E.S_HANDS + seat] == obs[E.O_HAND], "own hand changed"
    for s in range(4):
        assert popcount(w[E.S_HANDS + s]) == obs[E.O_HAND_SIZES + s], "hand size not kept"
    n_stock = int(obs[E.O_STOCK_N])
    stock = [int(c) for c in w[E.S_STOCK : E.S_STOCK + n_stock]]
    assert not w[E.S_STOCK + n_stock : E.S_STOCK + E.STOCK_SIZE].any()
    pile, table = public_masks(obs)
    places = [int(w[E.S_HANDS + s]) for s in range(4)] + [mask_of(stock), pile, table]
    assert sum(popcount(m) for m in places) + 0 == E.N_CARDS, "cards not conserved"
    assert len(set(stock)) == n_stock
    union = 0
    for m in places:
        assert union & m == 0, "a card is in two places"
        union |= m
    assert union == ALL
    for o, k in known_cards(obs).items():
        assert int(w[E.S_HANDS + o]) & k == k, "a publicly known card left its holder"


# ------------------------------------------------------------------ determinization
@pytest.mark.parametrize("rules", RULES, ids=("default", "variant"))
def test_determinization_keeps_what_the_seat_sees(rules):
    gen = np.random.default_rng(3)
    checked = known_seen = 0
    for pos, rows in decisions(101, 25, rules):
        st = pos.st
        obs = pos.observation()
        seat = int(obs[E.O_SEAT])
        # the rule for publicly known cards is right about the true state
        for o, k in known_cards(obs).items():
            assert int(st[E.S_HANDS + o]) & k == k
            known_seen += popcount(k)
        rng = np.array([gen.integers(1, 2**63)], dtype=np.uint64)
        for _ in range(2):
            w = determinize(obs, rng)
            check_world(obs, w)
            assert w[E.S_HANDS + seat] == st[E.S_HANDS + seat]
        checked += 1
    assert checked > 1000 and known_seen > 100


def test_determinization_never_reads_hidden_cards():
    """Two true states that agree on everything the seat sees give the same worlds and
    the same mc_search decisions for the same generator state; the worlds vary with it."""
    gen = np.random.default_rng(5)
    params = parse_spec("mc_search:samples=3").param_array()
    moved = differ = compared = 0
    for i, (pos, rows) in enumerate(decisions(202, 12, RuleOptions())):
        st = pos.st.copy()
        alt = alternative(st, gen)
        obs_a = observation_of(st, pos.phase)
        obs_b = observation_of(alt, pos.phase)
        assert np.array_equal(obs_a, obs_b)
        moved += not np.array_equal(alt, st)
        seed = int(gen.integers(1, 2**63))
        ra = np.array([seed], np.uint64)
        rb = np.array([seed], np.uint64)
        wa, wb = determinize(obs_a, ra), determinize(obs_b, rb)
        assert np.array_equal(wa, wb) and ra[0] == rb[0]
        differ += not np.array_equal(determinize(obs_a, ra), wa)  # a later draw: another world
        n = len(rows)
        if n > 1 and i % 3 == 0:
            decision = PHASES.index(pos.phase)
            ra[0] = rb[0] = seed
            ia = mc_search_decide(decision, obs_a, rows, n, params, ra)
            ib = mc_search_decide(decision, obs_b, rows.copy(), n, params, rb)
            assert ia == ib and ra[0] == rb[0]
            assert 0 <= ia < n
            compared += 1
    assert compared > 100
    assert moved > 0.8 * (i + 1) and differ > 0.8 * (i + 1)


def test_ambiguous_taken_card_is_unknown():
    """A card in two other seats' O_TAKEN and in neither pile nor table goes to the pool:
    across samples it turns up in more than one place; a one-taker card never moves."""
    pos = start(9, 0, RuleOptions())
    obs = pos.observation()
    seat = int(obs[E.O_SEAT])
    o1, o2, o3 = [(seat + k) % 4 for k in (1, 2, 3)]
    pile, table = public_masks(obs)
    free = [c for c in range(E.N_CARDS) if not (int(obs[E.O_HAND]) | pile | table) >> c & 1]
    both, single = free[0], free[1]
    obs[E.O_TAKEN + o1] = (1 << both) | (1 << single)
    obs[E.O_TAKEN + o3] = 1 << both
    rng = np.array([77], np.uint64)
    where = set()
    for _ in range(300):
        w = determinize(obs, rng)
        check_world(obs, w)
        assert int(w[E.S_HANDS + o1]) >> single & 1
        holder = [s for s in range(4) if int(w[E.S_HANDS + s]) >> both & 1]
        where.add(holder[0] if holder else "stock")
    assert {o1, o2, o3, "stock"} <= where


def test_determinization_is_uniform_over_unseen_cards():
    """At the start of a deal an unseen card lies in the stock 27 times in 48."""
    pos = start(10, 3, RuleOptions())
    obs = pos.observation()
    rng = np.array([123], np.uint64)
    pile, _ = public_masks(obs)
    free = [c for c in range(E.N_CARDS) if not (int(obs[E.O_HAND]) | pile) >> c & 1]
    assert len(free) == 48
    counts = np.zeros(E.N_CARDS)
    trials = 3000
    for _ in range(trials):
        w = determinize(obs, rng)
        for c in w[E.S_STOCK : E.S_STOCK + E.STOCK_SIZE]:
            counts[c] += 1
    share = counts[free] / trials
    assert abs(share.mean() - 27 / 48) < 1e-9
    assert np.all(np.abs(share - 27 / 48) < 0.05)


# ------------------------------------------------------------------ play-outs
@pytest.mark.parametrize("rules", RULES, ids=("default", "variant"))
def test_greedy_rollout_replays_the_engine(rules):
    """From the start of a deal, a greedy play-out is the engine's all-greedy deal."""
    deals = 150
    run = run_deals("greedy", deals, 31, rules=rules)
    for d in range(deals):
        st = new_state(shuffled_deck(31, d), d % 4, rules.to_array())
        t = rollout(st, POLICY_GREEDY, 0, GREEDY_PARAMS, np.array([1], np.uint64))
        assert list(t) == run.results[d, E.C_TOTAL : E.C_TOTAL + 2].tolist()


def test_rollout_from_mid_turn_matches_stepping():
    """From any phase of a turn, the greedy play-out ends like stepping greedy by hand."""
    rules = RuleOptions()
    rng = np.zeros(1, np.uint64)
    gen = np.random.default_rng(8)
    compared = 0
    for deal in range(30):
        pos = start(55, deal, rules)
        stop_at = int(gen.integers(0, 80))
        step = 0
        snapshot = None
        while pos.phase != "over":
            if step == stop_at:
                snapshot = pos.st.copy()
                snapshot[E.O_DECISION] = PHASES.index(pos.phase)
            rows = pos.legal_rows()
            n = len(rows)
            idx = 0 if n == 1 else int(greedy_decide(PHASES.index(pos.phase), pos.observation(), rows, n,
                                                      GREEDY_PARAMS, rng))
            pos.apply_row(rows[idx])
            step += 1
        if snapshot is not None:
            t = rollout(snapshot, POLICY_GREEDY, 0, GREEDY_PARAMS, rng)
            assert list(t) == pos.score()["total"]
            compared += 1
    assert compared > 15


@pytest.mark.parametrize("policy", (POLICY_GREEDY, POLICY_RANDOM))
def test_rollout_terminates_and_scores_add_up(policy):
    rng = np.array([99], np.uint64)
    values = np.array([2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 15] * 4 + [20] * 4)
    ends = set()
    for i, (pos, rows) in enumerate(decisions(303, 15, RuleOptions(last_card="discard"))):
        if i % 5:
            continue
        st = pos.st.copy()
        st[E.O_DECISION] = PHASES.index(pos.phase)
        before = int(st[E.O_TURN])
        out = st.copy()
        t0, t1 = rollout(out, policy, 0, GREEDY_PARAMS, rng)
        assert out[E.O_TURN] - before <= 1000
        hands = [sum(values[bits(out[E.S_HANDS + s])]) for s in range(4)]
        base = [out[E.O_TEAM_TABLE] - hands[0] - hands[2], out[E.O_TEAM_TABLE + 1] - hands[1] - hands[3]]
        bonus = [t0 - base[0], t1 - base[1]]
        assert sorted(bonus) in ([0, 0], [0, 25]), bonus  # the out bonus, to one team at most
        ends.add(bonus != [0, 0])
        # the table points only grew, and cards are conserved
        assert out[E.O_TEAM_TABLE] >= st[E.O_TEAM_TABLE] and out[E.O_TEAM_TABLE + 1] >= st[E.O_TEAM_TABLE + 1]
        pile, table = public_masks(out)
        n_stock = int(out[E.O_STOCK_N])
        total = sum(popcount(out[E.S_HANDS + s]) for s in range(4)) + n_stock + popcount(pile) + popcount(table)
        assert total == E.N_CARDS
        # a short play-out stops at its turn limit
        short = st.copy()
        rollout(short, policy, 3, GREEDY_PARAMS, rng)
        assert short[E.O_TURN] - before <= 3
    assert True in ends  # some play-outs went out


# ------------------------------------------------------------------ the search
def test_mc_search_returns_legal_indices():
    rng = np.array([4], np.uint64)
    specs = ["mc_search:samples=2", "mc_search:samples=2,max_candidates=2",
             "mc_search:samples=2,rollout_policy=random,rollout_turns=8"]
    arrays = [parse_spec(s).param_array() for s in specs]
    asked = 0
    for i, (pos, rows) in enumerate(decisions(404, 10, RuleOptions())):
        n = len(rows)
        if n < 2:
            continue
        params = arrays[i % len(arrays)]
        idx = mc_search_decide(PHASES.index(pos.phase), pos.observation(), rows, n, params, rng)
        assert 0 <= idx < n
        asked += 1
    assert asked > 200


def test_parameters_and_defaults():
    info = parse_spec("mc_search").info
    names = [p.name for p in info.params]
    assert names[:2] == ["samples", "rollout_policy"]
    arr = parse_spec("mc_search:rollout_policy=random,samples=5").param_array()
    assert arr[0] == 5 and arr[1] == POLICY_RANDOM
    assert parse_spec("mc_search").param_array()[1] == POLICY_GREEDY
    with pytest.raises(ValueError):
        parse_spec("mc_search:rollout_policy=expert")
    with pytest.raises(ValueError):
        parse_spec("mc_search:samples=0")


def test_mc_search_beats_random_and_greedy():
    r = play_match("mc_search:samples=4", "random", 12, seed=2024)
    low, _ = r.summary["ci95"]
    assert r.summary["mean_diff"] > 50 and low > 0, r.summary
    r = play_match("mc_search:samples=6", "greedy", 24, seed=2025)
    low, _ = r.summary["ci95"]
    assert r.summary["mean_diff"] > 0 and low > 0, r.summary
    r = play_match("mc_search:samples=3,rollout_policy=random,rollout_turns=40", "random", 8, seed=2026)
    assert r.summary["mean_diff"] > 0, r.summary


def test_mc_search_results_do_not_depend_on_threads():
    a = run_deals(["mc_search:samples=2", "greedy"], 6, 17, threads=1).results
    b = run_deals(["mc_search:samples=2", "greedy"], 6, 17, threads=2).results
    assert np.array_equal(a, b)


# ------------------------------------------------------------------ speed work (issue 14): same moves, no allocation
def test_greedy_play_out_without_move_lists_is_the_listed_one():
    """The greedy play-out that computes greedy's moves from the hand (no move list) plays
    exactly the moves of the play-out that lists the legal moves and asks greedy_nb:
    the same final state from positions in every phase, with long piles and pending
    targets (random takes) included."""
    moves = np.empty((E.MAX_MOVES, E.MOVE_COLS), np.int64)
    res = np.zeros(E.N_RESULT_COLS, np.int64)
    rng = np.array([3], np.uint64)
    compared = targets = 0
    for rules in RULES:
        for i, (pos, rows) in enumerate(decisions(606, 12, rules, greedy_share=0.3)):
            if i % 4:
                continue
            st = pos.st.copy()
            st[E.O_DECISION] = PHASES.index(pos.phase)
            a, b = st.copy(), st.copy()
            ea = play_out(a, POLICY_GREEDY, 0, GREEDY_PARAMS, rng, moves, res)
            eb = listed_play_out(b, POLICY_GREEDY, 0, GREEDY_PARAMS, rng, moves, res)
            a[E.O_HAND] = b[E.O_HAND] = 0  # the listed play-out writes the mover's hand there for greedy
            assert ea == eb and np.array_equal(a, b)
            compared += 1
            targets += st[E.O_TARGET] >= 0
    assert compared > 300 and targets > 10


def _allocations() -> int:
    from numba.core.runtime import _nrt_python as nrt

    return nrt.memsys_get_stats_alloc()


def test_play_outs_and_worlds_do_not_allocate():
    """numba's own allocation counter: a play-out allocates nothing per turn, and an mc_search decision
    allocates the same number of buffers whether it plays 4 or 16 worlds (nothing per
    world or per play-out)."""
    from numba.core.runtime import _nrt_python as nrt

    was_on = nrt.memsys_stats_enabled()
    nrt.memsys_enable_stats()
    try:
        moves = np.empty((E.MAX_MOVES, E.MOVE_COLS), np.int64)
        res = np.zeros(E.N_RESULT_COLS, np.int64)
        rng = np.array([3], np.uint64)
        pos = start(12, 1, RuleOptions())
        st = pos.st.copy()
        for policy in (POLICY_GREEDY, POLICY_RANDOM):
            per_call = []
            for turns in (1, 0, 0):  # one turn, then the whole deal (twice: compiled before counting)
                sim = st.copy()
                before = _allocations()
                play_out(sim, policy, turns, GREEDY_PARAMS, rng, moves, res)
                per_call.append(_allocations() - before)
                assert turns == 1 or sim[E.O_TURN] > 10
            # passing the arrays in costs the same few allocations; the turns played cost none
            assert per_call[0] == per_call[2] and per_call[2] < 10, per_call
        obs = pos.observation()
        rows = pos.legal_rows()
        counts = []
        for samples in (4, 16):
            params = parse_spec(f"mc_search:samples={samples},race_z=0").param_array()
            r = np.array([8], np.uint64)
            mc_search_decide(0, obs, rows, len(rows), params, r)
            before = _allocations()
            mc_search_decide(0, obs, rows, len(rows), params, r)
            counts.append(_allocations() - before)
        assert counts[0] == counts[1] and counts[0] < 20, counts
    finally:
        if not was_on:
            nrt.memsys_disable_stats()


def test_race_z_0_is_the_search_before_racing():
    """race_z=0 plays every candidate in every world: the deals of the search as it was
    before racing and list-free play-outs (totals and turns pinned from that code, seed 41;
    base, select_z and max_candidates spelled out at the values that search had)."""
    spec = "mc_search:samples=8,race_z=0,base=greedy,select_z=0,max_candidates=0"
    r = run_deals([spec, "expert"] * 2, 3, 41, threads=1).results
    assert r[:, E.C_TOTAL : E.C_TOTAL + 2].tolist() == [[50, 115], [42, 169], [92, 231]]
    assert r[:, E.C_TURNS].tolist() == [29, 22, 39]


def test_race_step_drops_clear_losers_and_duplicates():
    """Racing (mc_search_nb docstring, 5): a candidate far below the leader in paired worlds
    leaves, one within the noise stays, one that scored exactly as an earlier one in every
    world so far leaves at race_min, and the leader always stays."""
    k = 6
    base = np.array([10.0, -40.0, 25.0, 0.0, 60.0, -5.0])
    scores = np.empty((k, 5))
    scores[:, 0] = base  # leader
    scores[:, 1] = base - 30.0 + np.array([1, -1, 2, -2, 0, 0])  # clearly worse
    scores[:, 2] = base + np.array([-20, 15, -10, 12, -8, 5])  # as good within the noise
    scores[:, 3] = scores[:, 2]  # the same outcome as candidate 2 in every world
    scores[:, 4] = base - 8.0 + np.array([30, -30, 30, -30, 30, -30])  # worse by 8, sd 33
    alive = np.ones(5, np.bool_)
    left = race_step(scores, k, 5, alive, 2.5, k)
    assert alive.tolist() == [True, False, True, False, True] and left == 3
    alive = np.ones(5, np.bool_)
    race_step(scores, k, 5, alive, 0.5, k + 1)  # a lower threshold, after race_min: no duplicate rule
    assert alive.tolist() == [True, False, True, True, False]


def test_analyse_decision_is_the_same_on_any_thread_count():
    """Worlds in parallel: each world from its own counter-based stream, so 1 and 2
    threads give the same table; every entry is a real play-out score."""
    import numba

    pos = None
    for p, rows in decisions(707, 2, RuleOptions()):
        if p.phase == "discard" and len(rows) > 4:
            pos = p
            break
    obs = pos.observation()
    params = parse_spec("mc_search:samples=6").param_array()
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = analyse_decision(obs, 2, rows, len(rows), params, 7, 3)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        b = analyse_decision(obs, 2, rows, len(rows), params, 7, 3)
    finally:
        numba.set_num_threads(old)
    assert a.shape == (6, len(rows)) and np.array_equal(a, b)
    assert not np.array_equal(a[0], a[1])  # the worlds differ
    c = analyse_decision(obs, 2, rows, len(rows), params, 7, 4)  # another deal index: other worlds
    assert not np.array_equal(a, c)


# ------------------------------------------------------------------ base and conservative selection (issue 14)
def test_base_expert_leads_and_orders_the_candidates():
    """base=expert: expert's move (mc_search_nb.EXPERT_PARAMS, a snapshot of its registered
    defaults) is the first candidate; with max_candidates=k the next ones are expert's move
    among the moves not yet listed, k in all, then the stock / pass / stop rows not listed
    (mc_search_nb.expert_ranked); max_candidates=0 keeps every legal move."""
    from strategies.persian.builtins import BUILTINS
    from strategies.persian.expert_nb import expert_decide
    from strategies.persian.mc_search_nb import BASE_EXPERT, EXPERT_PARAMS, choose_candidates

    expert = next(i for i in BUILTINS if i.name == "expert")
    assert EXPERT_PARAMS.tolist() == [float(p.default) for p in expert.params]
    always = (E.MV_STOCK, E.MV_PASS, E.MV_STOP)
    checked = 0
    for pos, rows in decisions(808, 3, RuleOptions()):
        n = len(rows)
        if n < 3:
            continue
        d, obs = PHASES.index(pos.phase), pos.observation()
        cand = np.empty(n, np.int64)
        assert choose_candidates(d, obs, rows, n, GREEDY_PARAMS, np.array([1], np.uint64), 0, cand, BASE_EXPERT) == n
        assert sorted(cand.tolist()) == list(range(n))
        nc = choose_candidates(d, obs, rows, n, GREEDY_PARAMS, np.array([1], np.uint64), 2, cand, BASE_EXPERT)
        first = expert_decide(d, obs, rows, n, EXPERT_PARAMS, np.array([1], np.uint64))
        rest = [i for i in range(n) if i != first]
        second = rest[expert_decide(d, obs, rows[rest], n - 1, EXPERT_PARAMS, np.array([1], np.uint64))]
        assert cand[:2].tolist() == [first, second]
        extra = sorted(i for i in rest if i != second and rows[i, 0] in always)
        assert sorted(cand[2:nc].tolist()) == extra
        checked += 1
    assert checked > 30


def test_base_learned_leads_with_learneds_move_then_experts_order():
    """base=learned (issue 25): the built-in learned's move (its committed weights over expert at
    EXPERT_PARAMS) is the first candidate, the next ones expert's order of the moves not yet listed
    (expert's own move second where the two differ), then the stock / pass / stop rows not listed;
    learned's move differs from expert's at some draw, so the base is not expert under a new name."""
    from strategies.persian.learned_nb import LEARNED_WEIGHTS, best_scored
    from strategies.persian.expert_nb import expert_decide
    from strategies.persian.mc_search_nb import BASE_LEARNED, EXPERT_PARAMS, choose_candidates

    always = (E.MV_STOCK, E.MV_PASS, E.MV_STOP)
    checked = differ = 0
    for seed in (808, 809, 810):
        for pos, rows in decisions(seed, 3, RuleOptions()):
            n = len(rows)
            if n < 3:
                continue
            d, obs = PHASES.index(pos.phase), pos.observation()
            cand = np.empty(n, np.int64)
            nc = choose_candidates(d, obs, rows, n, GREEDY_PARAMS, np.array([1], np.uint64), 2, cand, BASE_LEARNED)
            first = best_scored(d, obs, rows, n, LEARNED_WEIGHTS, EXPERT_PARAMS, np.array([1], np.uint64))
            rest = [i for i in range(n) if i != first]
            second = rest[expert_decide(d, obs, rows[rest], n - 1, EXPERT_PARAMS, np.array([1], np.uint64))]
            assert cand[:2].tolist() == [first, second]
            assert sorted(cand[2:nc].tolist()) == sorted(i for i in rest if i != second and rows[i, 0] in always)
            own = expert_decide(d, obs, rows, n, EXPERT_PARAMS, np.array([1], np.uint64))
            if own != first:
                differ += 1
                assert second == own
            checked += 1
    assert checked > 90 and differ > 0


def test_select_best_leaves_the_base_only_beyond_the_noise():
    """select_z (mc_search_nb.select_best): the best mean wins with select_z=0; with
    select_z > 0 a move replaces the base's (candidate 0) only when its paired mean lead is
    more than select_z standard errors, and the clearest such lead wins."""
    from strategies.persian.mc_search_nb import select_best

    x = np.array([[0.0, 12.0, 3.0, 5.0],
                  [10.0, -8.0, 12.0, 15.0],
                  [-5.0, 20.0, -3.0, 0.0],
                  [20.0, 50.0, 22.0, 25.0]])  # worlds x candidates; candidate 0 is the base's move
    k, nc = x.shape
    sums = x.sum(axis=0)
    dsq = ((x - x[:, :1]) ** 2).sum(axis=0)
    alive = np.ones(nc, np.bool_)
    # paired leads over the base: 1: +12.25 (SE 10.8), 2: +2.25 (SE 0.25), 3: +5 (SE 0)
    assert select_best(sums, dsq, alive, nc, k, 0.0) == 1  # best mean
    assert select_best(sums, dsq, alive, nc, k, 1.0) == 3  # best lower bound: 5 > 2.0 > 1.48
    assert select_best(sums, dsq, alive, nc, k, 0.1) == 1  # 12.25 - 1.08 > 5
    alive[3] = False
    assert select_best(sums, dsq, alive, nc, k, 2.0) == 2  # 2.25 - 0.5 > 0 > 12.25 - 21.5
    assert select_best(sums, dsq, alive, nc, k, 10.0) == 0  # no lead beyond 10 SE: the base's move
    alive[0] = False  # the base left the race: the best mean of the rest
    assert select_best(sums, dsq, alive, nc, k, 10.0) == 1
