"""The Indian strategy library (issue 10 section 2): joker_keeper, defensive, expert and
dropper's pickup and joker rules. Each parameter is shown to move what it should, on
hand-made observations (I9: own hand plus the public history) or on a few deals; with
their switches off the heuristics play exactly as greedy (identical results)."""

import numpy as np
import pytest

from sim.games.indian import enums as E
from sim.games.indian.engine import run_deals
from sim.games.indian.rules import RuleOptions
from strategies.indian import defensive_nb, dropper_nb, expert_nb, joker_keeper_nb
from strategies.indian.builtins import BUILTINS
from strategies.indian.defensive_nb import defensive_decide
from strategies.indian.dropper_nb import wants_drop
from strategies.indian.expert_nb import expert_decide
from strategies.indian.joker_keeper_nb import joker_keeper_decide
from strategies.indian.plan_nb import is_close, keep_value, makes_meld
from sim.plugin.registry import registry_for

SEED = 5151
SUITS = "CDHS"
RANKS = "23456789TJQKA"


def kind(text: str) -> int:
    """'KH' -> the kind of the king of hearts; 'JK' the printed joker."""
    if text == "JK":
        return E.JOKER
    return SUITS.index(text[1]) * 13 + RANKS.index(text[0])


def counts(cards: str) -> np.ndarray:
    h = np.zeros(E.N_KINDS, np.int64)
    for c in cards.split():
        h[kind(c)] += 1
    return h


def observation(hand: str, players: int = 2, wild: str = "2", top: str | None = None, decision=E.D_DISCARD):
    obs = np.zeros(E.OBS_SIZE, np.int64)
    obs[E.O_SEAT] = 0
    obs[E.O_PLAYERS] = players
    obs[E.O_DECISION] = decision
    obs[E.O_WILD_RANK] = RANKS.index(wild)
    obs[E.O_TOP] = kind(top) if top else -1
    obs[E.O_PILE_N] = 1 if top else 0
    obs[E.O_STOCK_N] = 50
    obs[E.O_IN_PLAY] = players
    obs[E.O_RULES: E.O_RULES + E.N_RULES] = RuleOptions().to_array(players)
    obs[E.O_HAND: E.O_HAND + E.N_KINDS] = counts(hand)
    for s in range(players):
        obs[E.O_HAND_N + s] = 13
        obs[E.O_HAS_DRAWN + s] = 1
    return obs


def moves_for(obs) -> np.ndarray:
    rows = []
    if obs[E.O_DECISION] == E.D_DRAW:
        rows = [(E.MV_STOCK, 0), (E.MV_PILE, obs[E.O_TOP]), (E.MV_DROP, 0)]
    else:
        held = [k for k in range(E.N_KINDS) if obs[E.O_HAND + k] > 0]
        rows = [(E.MV_DISCARD, k) for k in held] + [(E.MV_DECLARE, k) for k in held]
    m = np.zeros((len(rows), E.MOVE_COLS), np.int64)
    for i, (a, b) in enumerate(rows):
        m[i, 0], m[i, 1] = a, b
    return m


def params(spec: str) -> np.ndarray:
    return registry_for("indian").parse_spec(spec).param_array()


def choose(fn, spec: str, obs) -> tuple[int, int]:
    """(move kind, card) chosen by kernel ``fn`` with the parameters of ``spec``."""
    m = moves_for(obs)
    i = fn(int(obs[E.O_DECISION]), obs.copy(), m, len(m), params(spec), np.zeros(1, np.uint64))
    return int(m[i, 0]), int(m[i, 1])


def test_declared_parameters_follow_the_kernels_slots():
    by_name = {i.name: i for i in BUILTINS}
    for name, module in (("dropper", dropper_nb), ("joker_keeper", joker_keeper_nb), ("defensive", defensive_nb),
                         ("expert", expert_nb)):
        names = [p.name for p in by_name[name].params]
        assert [getattr(module, "P_" + n.upper()) for n in names] == list(range(len(names))), name
        assert by_name[name].doc and all(p.help and p.low <= p.default <= p.high for p in by_name[name].params)


# ---------------------------------------------------------------- switched off = greedy


@pytest.mark.parametrize("spec", [
    "joker_keeper:keep_jokers=false,take_jokers=false,take_meld=false,take_lowers=true,pure_keep=0,long_keep=0,"
    "run_keep=0,set_keep=0",
    "defensive:feed_weight=0,safe_weight=0,shed_weight=0,run_keep=0",
    "dropper:first_drop_deadwood=200,need_pure=false,need_joker=false,middle_drop_deadwood=200,alarm_pickups=0",
])
def test_switched_off_is_exactly_greedy(spec):
    for players in (2, 4):
        a = run_deals([spec] + ["greedy"] * (players - 1), 12, SEED).results
        b = run_deals(["greedy"] * players, 12, SEED).results
        assert np.array_equal(a, b)


# ---------------------------------------------------------------- joker_keeper


def test_keep_value_terms():
    h = counts("5H 6H 7H 8H 9C 9D KS QS 3D 4C TC JD AD 3S")  # no joker; one pure run: 5H 6H 7H 8H
    w, mjr, tir = RANKS.index("2"), 1, 0
    # 6H is needed for the only pure run and for the only seed of the run of four
    assert keep_value(h, kind("6H"), w, mjr, tir, 15.0, 0.0, 0.0, 0.0) == 15.0
    assert keep_value(h, kind("6H"), w, mjr, tir, 0.0, 8.0, 0.0, 0.0) == 8.0
    # without 8H the pure run 5H 6H 7H stays, the run of four has no seed left (no joker)
    assert keep_value(h, kind("8H"), w, mjr, tir, 15.0, 8.0, 0.0, 0.0) == 8.0
    # connectors: KS has QS one rank away; 5H has 6H one away and 7H two away
    assert keep_value(h, kind("KS"), w, mjr, tir, 0.0, 0.0, 4.0, 0.0) == 4.0
    assert keep_value(h, kind("5H"), w, mjr, tir, 0.0, 0.0, 4.0, 0.0) == 6.0
    # 9C: 9D of its rank (set_keep), TC one away (run_keep)
    assert keep_value(h, kind("9C"), w, mjr, tir, 0.0, 0.0, 0.0, 3.0) == 3.0
    assert keep_value(h, kind("9C"), w, mjr, tir, 0.0, 0.0, 2.0, 0.0) == 2.0
    assert keep_value(h, kind("2S"), w, mjr, tir, 15.0, 8.0, 4.0, 3.0) == 0.0  # a joker: no keep term
    h2 = h.copy()
    h2[kind("KS")] += 1  # a second copy: discarding one keeps the other
    assert keep_value(h2, kind("KS"), w, mjr, tir, 0.0, 0.0, 4.0, 0.0) == 0.0


def test_joker_keeper_discard_parameters():
    # no I5 arrangement (no pure run): deadwood is every card's value, so greedy sheds the highest
    # card: KS (ties by kind). KS has QS beside it; 9C is alone.
    hand = "KS QS 9C 4D 6D 8H TH 3S 5S AC 3C 5H JK 2D"
    zero = "joker_keeper:pure_keep=0,long_keep=0,run_keep=0,set_keep=0"
    assert choose(joker_keeper_decide, zero, observation(hand)) == (E.MV_DISCARD, kind("KS"))
    # run_keep=1: KS costs 10 - 1, TH and AC 10 - 0.5 (a card two ranks away): TH (higher kind)
    assert choose(joker_keeper_decide, zero.replace("run_keep=0", "run_keep=1"),
                  observation(hand)) == (E.MV_DISCARD, kind("TH"))
    # run_keep=4: the lone 9C (9 points) goes before KS (10 - 4) and TH (10 - 2)
    assert choose(joker_keeper_decide, zero.replace("run_keep=0", "run_keep=4"),
                  observation(hand)) == (E.MV_DISCARD, kind("9C"))


def test_joker_keeper_keeps_jokers_unless_told():
    # no pure run, so no arrangement: every natural has a same-suit neighbour, and with run_keep=13
    # each costs more kept than its value: only the joker is cheaper to throw (0 points)
    hand = "3C 4C 6C 9H TH 6D 7D QS KS QD KD 8S 9S JK"
    spec = "joker_keeper:keep_jokers={},pure_keep=0,long_keep=0,run_keep=13,set_keep=0"
    assert choose(joker_keeper_decide, spec.format("false"), observation(hand)) == (E.MV_DISCARD, E.JOKER)
    assert choose(joker_keeper_decide, spec.format("true"), observation(hand))[1] != E.JOKER
    only = choose(joker_keeper_decide, "joker_keeper", observation("JK " * 14))
    assert only[1] == E.JOKER  # nothing else to discard


def test_joker_keeper_draw_parameters():
    hand = "5H 6H 9C 9D KS QS 3D 4C 8C JC AD 7S 2S"
    draw = lambda spec, top: choose(joker_keeper_decide, spec, observation(hand, top=top, decision=E.D_DRAW))[0]
    off = "joker_keeper:take_jokers=false,take_meld=false,connector_max=0,take_lowers=false"
    for top in ("JK", "2H", "7H", "9S", "4H", "QC"):
        assert draw(off, top) == E.MV_STOCK
    assert draw(off.replace("take_jokers=false", "take_jokers=true"), "JK") == E.MV_PILE
    assert draw(off.replace("take_jokers=false", "take_jokers=true"), "2H") == E.MV_PILE  # wild rank 2
    assert draw(off.replace("take_meld=false", "take_meld=true"), "7H") == E.MV_PILE  # 5H 6H 7H
    assert draw(off.replace("take_meld=false", "take_meld=true"), "9S") == E.MV_PILE  # 9C 9D 9S
    assert draw(off.replace("take_meld=false", "take_meld=true"), "4H") == E.MV_PILE  # 4H 5H 6H
    assert draw(off.replace("take_meld=false", "take_meld=true"), "QC") == E.MV_STOCK  # only JC near
    assert draw(off.replace("connector_max=0", "connector_max=10"), "QC") == E.MV_PILE  # beside JC
    assert draw(off.replace("connector_max=0", "connector_max=9"), "QC") == E.MV_STOCK  # worth 10
    h = counts(hand)
    assert makes_meld(h, kind("AH"), 0) is False


def test_take_lowers_takes_more_from_the_pile():
    def pickups(spec):
        r = run_deals([spec, "greedy", "greedy"], 12, SEED).results
        return int(r[:, E.C_PICKUPS].sum())

    base = "joker_keeper:take_jokers=false,take_meld=false,connector_max=0"
    assert pickups(base + ",take_lowers=false") == 0
    assert pickups(base + ",take_lowers=true") > 0


# ---------------------------------------------------------------- defensive


def test_defensive_feed_and_safe_weights():
    # no arrangement: KH and KC are the highest cards; greedy's tie-break throws KH (higher kind)
    hand = "KH KC 9S 4D 6D 8S 3S 5C 3C 5H 7D 2D JK 4S"
    obs = observation(hand)
    off = "defensive:feed_weight=0,safe_weight=0,shed_weight=0,run_keep=0"
    assert choose(defensive_decide, off, obs) == (E.MV_DISCARD, kind("KH"))
    fed = obs.copy()
    fed[E.O_PICKED + 1 * E.N_KINDS + kind("QH")] = 1  # the next seat took QH and still holds it
    fed[E.O_PICKUPS + 1] = 1
    assert choose(defensive_decide, off, fed) == (E.MV_DISCARD, kind("KH"))
    assert choose(defensive_decide, off.replace("feed_weight=0", "feed_weight=3"), fed) == (E.MV_DISCARD, kind("KC"))
    # once it has discarded QH again, it no longer holds it: no feeding
    fed[E.O_DISCARDED + 1 * E.N_KINDS + kind("QH")] = 1
    assert choose(defensive_decide, off.replace("feed_weight=0", "feed_weight=3"), fed) == (E.MV_DISCARD, kind("KH"))
    safe = obs.copy()
    safe[E.O_DISCARDED + 1 * E.N_KINDS + kind("QC")] = 1  # the next seat let QC go: KC looks safe
    assert choose(defensive_decide, off, safe) == (E.MV_DISCARD, kind("KH"))
    assert choose(defensive_decide, off.replace("safe_weight=0", "safe_weight=2"), safe) == (E.MV_DISCARD, kind("KC"))


def test_defensive_sheds_when_an_opponent_looks_close():
    # KS has QS beside it: run_keep keeps it and 9C (alone) goes, until an opponent looks close
    hand = "KS QS 9C 4D 6D 8H TH 3S 5S 7C 3C 5H JK 2D"
    spec = "defensive:feed_weight=0,safe_weight=0,shed_weight=1,run_keep=4,close_pickups=3,close_turn=0"
    obs = observation(hand)
    assert choose(defensive_decide, spec, obs) == (E.MV_DISCARD, kind("TH"))
    obs[E.O_PICKUPS + 1] = 3
    assert is_close(obs, 3.0, 0.0, 0) and not is_close(obs, 4.0, 0.0, 0)
    assert choose(defensive_decide, spec, obs) == (E.MV_DISCARD, kind("KS"))
    obs[E.O_PICKUPS + 1] = 0
    obs[E.O_DISCARDED + kind("8S")] = 5  # five turns done
    assert choose(defensive_decide, spec.replace("close_turn=0", "close_turn=5"), obs) == (E.MV_DISCARD, kind("KS"))
    assert choose(defensive_decide, spec.replace("close_turn=0", "close_turn=6"), obs) == (E.MV_DISCARD, kind("TH"))


# ---------------------------------------------------------------- dropper and expert


def test_dropper_alarm_and_joker_credit():
    spec = dict(first_dw=200.0, need_pure=False, need_joker=False, middle_dw=200.0, middle_turn=100.0)
    obs = observation("KS QS 9C 4D 6D 8H TH 3S 5S 7C 3C 5H JK", decision=E.D_DRAW)  # deadwood 80 (JK 0)
    call = lambda o, alarm, adw, credit, **kw: wants_drop(o, *{**spec, **kw}.values(), alarm, adw, credit, 0.0, 2.0)
    assert not call(obs, 0.0, 0.0, 0.0)
    obs[E.O_PICKUPS + 1] = 4  # the opponent has taken four cards from the pile
    assert call(obs, 4.0, 70.0, 0.0) and not call(obs, 5.0, 70.0, 0.0) and not call(obs, 4.0, 80.0, 0.0)
    # a joker held raises the threshold by joker_credit
    assert not call(obs, 4.0, 70.0, 10.0)
    # first drop: deadwood 80 against first_drop_deadwood 70, one joker
    obs[E.O_HAS_DRAWN] = 0
    assert call(obs, 0.0, 0.0, 0.0, first_dw=70.0) and call(obs, 0.0, 0.0, 9.0, first_dw=70.0)
    assert not call(obs, 0.0, 0.0, 10.0, first_dw=70.0)


def test_dropper_table_size_gates():
    """pure_saves_upto: a pure run saves a jokerless dealt hand from need_joker's first drop
    (I7) at tables of at most that many players; drop_min_players: no drop below that size."""
    pure = "4H 5H 6H 9C KD QS 8S 3C TD JC 7D 9S AH"      # no joker (wild 2), pure run 4-5-6 of hearts
    bare = "KS QD 9C 4D 6C 8H TH 3S 5S 7C 3C 5H AD"      # no joker, no pure run
    rule = dict(first_dw=200.0, need_pure=False, need_joker=True, middle_dw=200.0, middle_turn=100.0, alarm=0.0,
                adw=200.0, credit=0.0)

    def first(hand, players, saves, min_players):
        obs = observation(hand, players=players, decision=E.D_DRAW)
        obs[E.O_HAS_DRAWN] = 0
        return wants_drop(obs, *rule.values(), float(saves), float(min_players))

    assert not first(pure, 2, 2, 2) and first(pure, 2, 0, 2) and first(pure, 3, 2, 2) and first(pure, 4, 3, 2)
    assert first(bare, 2, 2, 2) and first(bare, 2, 6, 2)             # no pure run: nothing saves it
    assert not first(bare, 2, 2, 3) and first(bare, 3, 2, 3) and not first(bare, 5, 2, 6)
    # the middle drop is gated too
    obs = observation(bare, players=2, decision=E.D_DRAW)
    late = dict(rule, middle_dw=0.0, middle_turn=1.0)
    obs[E.O_DISCARDED + kind("2C")] = 1    # one completed turn
    assert wants_drop(obs, *late.values(), 2.0, 2.0) and not wants_drop(obs, *late.values(), 2.0, 3.0)
    # through the dropper kernel with its defaults (pure_saves_upto 2, drop_min_players 2)
    for hand, players, drops in ((pure, 2, False), (pure, 4, True), (bare, 2, True)):
        obs = observation(hand, players=players, decision=E.D_DRAW, top="KC")
        obs[E.O_HAS_DRAWN] = 0
        assert (choose(dropper_nb.dropper_decide, "dropper", obs)[0] == E.MV_DROP) == drops, (hand, players)


@pytest.mark.parametrize("name", ["dropper", "expert"])
def test_gates_leave_three_players_and_more_as_before(name):
    """The default gates act only heads-up: at 3 and 4 players the defaults play exactly the
    deals of the rules without them (pure_saves_upto=0: every jokerless hand dropped)."""
    for players in (3, 4):
        a = run_deals([name] + ["greedy"] * (players - 1), 12, SEED).results
        b = run_deals([f"{name}:pure_saves_upto=0,drop_min_players=2"] + ["greedy"] * (players - 1), 12, SEED).results
        assert np.array_equal(a, b)


def test_expert_drop_gates_by_default():
    """expert's defaults (pure_saves_upto 2, drop_min_players 2): heads-up a jokerless dealt
    hand is dropped only without a pure run; at 4 players it is dropped either way; with
    drop_min_players=3 it never drops heads-up."""
    pure = "4H 5H 6H 9C KD QS 8S 3C TD JC 7D 9S AH"
    bare = "KS QD 9C 4D 6C 8H TH 3S 5S 7C 3C 5H AD"
    for hand, players, spec, drops in ((pure, 2, "expert", False), (bare, 2, "expert", True),
                                       (pure, 4, "expert", True), (bare, 2, "expert:drop_min_players=3", False),
                                       (bare, 4, "expert:drop_min_players=3", True)):
        obs = observation(hand, players=players, decision=E.D_DRAW, top="KC")
        obs[E.O_HAS_DRAWN] = 0
        assert (choose(expert_decide, spec, obs)[0] == E.MV_DROP) == drops, (hand, players, spec)


def test_expert_combines_the_parts():
    obs = observation("KS QS 9C 4D 6D 8H TH 3S 5S 7C 3C 5H JK", decision=E.D_DRAW, top="4C")
    drop = "expert:first_drop_deadwood=0,need_pure=false,need_joker=false,drop_min_players=2"
    obs[E.O_HAS_DRAWN] = 0
    assert choose(expert_decide, drop, obs)[0] == E.MV_DROP
    keep = "expert:first_drop_deadwood=200,need_pure=false,need_joker=false,connector_max=0,take_lowers=false"
    assert choose(expert_decide, keep, obs)[0] == E.MV_STOCK
    assert choose(expert_decide, keep.replace("connector_max=0", "connector_max=4"), obs)[0] == E.MV_PILE  # by 3C
    # discard: the same keep and feed terms as joker_keeper / defensive
    hand = "KH KC 9S 4D 6D 8S 3S 5C 3C 5H 7D 2D JK 4S"
    fed = observation(hand)
    fed[E.O_PICKED + 1 * E.N_KINDS + kind("QH")] = 1
    base = "expert:pure_keep=0,long_keep=0,run_keep=0,set_keep=0,safe_weight=0,shed_weight=0"
    assert choose(expert_decide, base + ",feed_weight=0", fed) == (E.MV_DISCARD, kind("KH"))
    assert choose(expert_decide, base + ",feed_weight=3", fed) == (E.MV_DISCARD, kind("KC"))


def test_new_strategies_play_whole_deals_at_every_table_size():
    for players in (2, 4, 6):
        table = ["joker_keeper", "defensive", "expert", "dropper", "greedy", "random"][:players]
        r = run_deals(table, 8, SEED, rules={"turn_cap": 300}).results
        assert (r[:, E.C_END] != E.END_ERROR).all() and (r[:, E.C_END] == E.END_DECLARE).mean() >= 0.75
