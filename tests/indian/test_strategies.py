"""The built-in Indian Rummy strategies: parameter declarations tied to the kernels'
slots, parameter validation, behaviour (greedy never drops and never declares
wrongly, dropper drops more with a lower threshold, random drops and declares wrongly),
and the exactness of greedy's branch and bound against brute force."""

import numpy as np
import pytest

from sim.games.indian import enums as E
from sim.games.indian.deal_nb import shoe_kind, shuffled_shoe
from sim.games.indian.engine import results_frame, run_deals
from sim.games.indian.solver_nb import can_declare, min_deadwood
from strategies.indian import dropper_nb, random_nb
from strategies.indian.builtins import BUILTINS
from strategies.indian.builtins import SID_DROPPER, SID_GREEDY, SID_RANDOM
from sim.games.indian.cards_nb import card_value
from strategies.indian.greedy_nb import best_discard, cannot_lower, lowers_deadwood
from sim.plugin.registry import registry_for

SEED = 4242


def test_builtins_declared_and_slots_follow_declaration_order():
    by_name = {i.name: i for i in BUILTINS}
    assert {"random", "greedy", "dropper", "joker_keeper", "defensive", "expert"} <= set(by_name)
    assert (by_name["random"].sid, by_name["greedy"].sid, by_name["dropper"].sid) == (SID_RANDOM, SID_GREEDY, SID_DROPPER)
    assert [p.name for p in by_name["random"].params] == ["p_drop", "p_declare"]
    assert (random_nb.P_DROP, random_nb.P_DECLARE) == (0, 1)
    slots = {
        "first_drop_deadwood": dropper_nb.P_FIRST_DROP_DEADWOOD,
        "need_pure": dropper_nb.P_NEED_PURE,
        "need_joker": dropper_nb.P_NEED_JOKER,
        "middle_drop_deadwood": dropper_nb.P_MIDDLE_DROP_DEADWOOD,
        "middle_drop_turn": dropper_nb.P_MIDDLE_DROP_TURN,
        "alarm_pickups": dropper_nb.P_ALARM_PICKUPS,
        "alarm_deadwood": dropper_nb.P_ALARM_DEADWOOD,
        "joker_credit": dropper_nb.P_JOKER_CREDIT,
        "pure_saves_upto": dropper_nb.P_PURE_SAVES_UPTO,
        "drop_min_players": dropper_nb.P_DROP_MIN_PLAYERS,
    }
    assert [p.name for p in by_name["dropper"].params] == list(slots)
    assert [slots[p.name] for p in by_name["dropper"].params] == list(range(len(slots)))
    for info in BUILTINS:
        assert info.doc
        for p in info.params:
            assert p.help and p.low <= p.default <= p.high
    reg = registry_for("indian")
    arr = reg.parse_spec("dropper:middle_drop_turn=3,first_drop_deadwood=10").param_array()
    assert arr[dropper_nb.P_FIRST_DROP_DEADWOOD] == 10 and arr[dropper_nb.P_MIDDLE_DROP_TURN] == 3
    assert arr[dropper_nb.P_NEED_PURE] == 0 and arr[dropper_nb.P_MIDDLE_DROP_DEADWOOD] == 115


@pytest.mark.parametrize(
    "spec",
    ["random:p_drop=1.5", "random:p_declare=-0.1", "dropper:first_drop_deadwood=500", "dropper:need_pure=maybe",
     "dropper:middle_drop_turn=0", "greedy:x=1", "dropper:first_drop_deadwood=2.5"],
)
def test_parameters_validated(spec):
    with pytest.raises(ValueError):
        registry_for("indian").parse_spec(spec)


def test_greedy_never_drops_nor_declares_wrongly():
    run = run_deals(["greedy"] * 4, 40, SEED)
    r = run.results
    assert (r[:, E.C_DROP : E.C_DROP + 6] == 0).all()
    assert (r[:, E.C_WRONG : E.C_WRONG + 6] == 0).all()
    df = results_frame(run)
    assert (df.end == "declare").mean() > 0.9
    # greedy declares at its first chance (the engine's first-chance column agrees):
    # the winner's chance is the last turn, the others never had one
    for row in r[r[:, E.C_END] == E.END_DECLARE]:
        w = row[E.C_WINNER]
        assert row[E.C_FIRST_CHANCE + w] == row[E.C_TURNS] - 1
        assert all(row[E.C_FIRST_CHANCE + s] == -1 for s in range(4) if s != w)


def test_dropper_drops_more_with_a_lower_threshold():
    def drops(spec):
        r = run_deals([spec, "greedy", "greedy", "greedy"], 60, SEED).results
        return int((r[:, E.C_DROP] > 0).sum())

    low = drops("dropper:first_drop_deadwood=20,need_pure=false,need_joker=false,middle_drop_deadwood=200")
    high = drops("dropper:first_drop_deadwood=200,need_pure=false,need_joker=false,middle_drop_deadwood=200")
    assert low > high == 0
    joker = drops("dropper:first_drop_deadwood=200,need_pure=false,need_joker=true,middle_drop_deadwood=200")
    assert joker > 0
    pure = drops("dropper:first_drop_deadwood=200,need_pure=true,need_joker=false,middle_drop_deadwood=200")
    assert pure > 0
    # middle drops only with a middle threshold it can exceed
    r = run_deals(["dropper:first_drop_deadwood=200,need_pure=false,need_joker=false,middle_drop_deadwood=0,middle_drop_turn=1",
                   "greedy"], 30, SEED).results
    assert (r[:, E.C_DROP] == 2).sum() > 0 and (r[:, E.C_DROP] == 1).sum() == 0


def test_random_drops_and_declares_wrongly_sometimes():
    r = run_deals(["random"] * 4, 60, SEED).results
    assert (r[:, E.C_DROP : E.C_DROP + 4] > 0).sum() > 0
    assert (r[:, E.C_WRONG : E.C_WRONG + 4] > 0).sum() > 0
    assert (r[:, E.C_END] != E.END_CAP).all()  # deals end
    quiet = run_deals(["random:p_drop=0,p_declare=0"] * 4, 10, SEED, rules={"turn_cap": 60}).results
    assert (quiet[:, E.C_DROP : E.C_DROP + 4] == 0).all() and (quiet[:, E.C_WRONG : E.C_WRONG + 4] == 0).all()


def _hands(n, size, decks=3):
    out = []
    for d in range(n):
        shoe = shuffled_shoe(SEED, d, decks)
        h = np.zeros(53, np.int64)
        for p in shoe[:size]:
            h[shoe_kind(p, decks)] += 1
        out.append((h, d % 13, int(shoe_kind(shoe[size], decks))))
    return out


def test_greedy_branch_and_bound_is_exact():
    """best_discard / lowers_deadwood agree with trying every discard (I6 deadwood)."""
    for h, wild, extra in _hands(60, 14):
        best = None
        decl = []
        for k in range(53):
            if h[k] == 0:
                continue
            h[k] -= 1
            d = min_deadwood(h, wild, 1, 1, 1)
            if d == 0 and can_declare(h, wild, 1, 1, 1):
                decl.append(k)
            h[k] += 1
            key = (d, -card_value(k, wild), -k)
            best = key if best is None or key < best else best
        k, d, dk = best_discard(h, wild, 1, 1, 1, True)
        assert (d, -card_value(k, wild), -k) == best
        assert (dk >= 0) == bool(decl) and (dk < 0 or dk in decl)
    for h, wild, top in _hands(40, 13):
        cur = min_deadwood(h, wild, 1, 1, 1)
        h[top] += 1
        brute = False
        for k in range(53):
            if h[k]:
                h[k] -= 1
                brute |= min_deadwood(h, wild, 1, 1, 1) < cur
                h[k] += 1
        h[top] -= 1
        assert lowers_deadwood(h, top, cur, wild, 1, 1, 1) == brute


@pytest.mark.parametrize("rules", [(1, 1, 1), (1, 1, 0), (0, 0, 0), (2, 1, 0)])
def test_greedy_leaves_a_top_card_no_group_can_hold_without_a_search(rules):
    """greedy's draw takes the stock at once when no card held is worth more than the top
    discard and no group can hold the top (cannot_lower): by trying every discard of the 14
    cards, taking it then never lowers the least deadwood (I6), so the move is the one the
    search would choose. Tops of every value, with and without jokers a group (rules:
    jokers a run, jokers a set, identical triples)."""
    mjr, mjs, tir = rules
    shortcut = 0
    for h, wild, top in _hands(400, 13, decks=2 + (mjr % 2)):
        h[top] += 1
        if not cannot_lower(h, top, wild, mjr, mjs, tir):
            h[top] -= 1
            continue
        shortcut += 1
        h[top] -= 1
        cur = min_deadwood(h, wild, mjr, mjs, tir)
        h[top] += 1
        for k in np.flatnonzero(h):
            h[k] -= 1
            assert min_deadwood(h, wild, mjr, mjs, tir) >= cur, (k, top, wild)
            h[k] += 1
        h[top] -= 1
    assert shortcut >= 15, shortcut
