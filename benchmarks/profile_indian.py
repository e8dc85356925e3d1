"""Where an Indian Rummy deal's time goes, per built-in strategy (issue 14's profile, Indian part).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/profile_indian.py [--deals 10000] [--players 4] [--spec greedy ...]

It plays the same deals as the engine (``sim.games.indian.engine_nb.play_deal`` with
``record=0``: the same shuffle, state, generators, steps and strategy calls, in the same
order; the result rows are checked equal to ``run_deals``'s) on one thread, with the CPU's
cycle counter (``llvm.readcyclecounter``) read around every part of a deal:

* ``setup``: shuffle the shoe, deal (``init_state``), the seats' random streams, scratch;
* ``draw moves``: the I8 reshuffle check and the draw-decision move list (stock, pile, drop);
* ``discard moves``: the discard-decision move list (discard or declare each kind held);
* ``strategy: draw``, ``strategy: discard``: the strategy's own work at the two decisions
  (observation and move copies, dispatch and the clean-up of the scratch rows included;
  for greedy and the heuristics this is mostly the deadwood solver they call);
* ``first chance``: the engine's own solver call after each draw (``declaring_discard``:
  does some discard leave a valid declaration? it feeds the ``first_chance`` column);
* ``declaration check``: ``can_declare`` when a seat declares (once per declaring deal);
* ``state updates``: drawing, discarding, drops and wrong declarations leaving the deal,
  the next turn;
* ``scoring``: the end of the deal (every seat still in play gets its ``min_deadwood``, the
  losses, the winner's gain, the counters into the result row);
* ``result frame``: the runner's per-play frame built from the raw rows
  (``sim.runner.frames.plays_frame``, measured separately in Python per deal).

Cycle counts are wall ticks: on a shared machine a preempted thread's wait lands in
whatever part was running, in proportion to its length, so the *shares* stay right while
the tick totals inflate. The table therefore gives each part's share and scales it to the
engine's own process CPU time per deal (``ns/deal``, ``run_deals`` on one thread). The cost
of reading the counter itself is measured and subtracted.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from numba import njit

from benchmarks.cycles import ticks
from benchmarks.profiling import frame_seconds_per_deal, measure_parts
from sim.games.indian.deal_nb import shuffle_shoe
from sim.games.indian.engine import kernel_args, parse_specs, run_deals
from sim.games.indian.engine_nb import MAX_PARAMS, MOVE_SLACK, _decide
from sim.games.indian.enums import (
    C_DEADWOOD,
    C_DEAL,
    C_DEALER,
    C_DROP,
    C_END,
    C_ERR_DECISION,
    C_ERR_SEAT,
    C_FIRST_CHANCE,
    C_GAIN,
    C_JOKERS,
    C_LOST,
    C_PICKUPS,
    C_PLAYERS,
    C_TURNS,
    C_TURNS_SEAT,
    C_WINNER,
    C_WRONG,
    D_DISCARD,
    D_DRAW,
    END_CAP,
    END_DECLARE,
    END_LAST_PLAYER,
    EVENT_COLS,
    HAND_SIZE,
    MAX_MOVES,
    MAX_SEATS,
    MAX_SHOE,
    MOVE_COLS,
    MV_DECLARE,
    MV_DROP,
    MV_STOCK,
    N_KINDS,
    N_RESULT_COLS,
    O_DECISION,
    O_HAS_DRAWN,
    O_IN_PLAY,
    O_PICKUPS,
    O_SEAT,
    O_STATUS,
    O_TURN,
    O_WILD_RANK,
    OBS_SIZE,
    R_DECKS,
    R_FIRST_DROP,
    R_MAX_J_RUN,
    R_MAX_J_SET,
    R_MAX_POINTS,
    R_MIDDLE_DROP,
    R_PLAYERS,
    R_TRIPLE_IS_RUN,
    R_TURN_CAP,
    R_WRONG_DECL,
    S_FIRST_CHANCE,
    ST_DROP_FIRST,
    ST_DROP_MIDDLE,
    ST_IN,
    ST_SIZE,
    ST_WRONG,
)
from sim.games.indian.rules import RuleOptions
from sim.games.indian.cards_nb import jokers_in
from sim.games.indian.solver_nb import can_declare, min_deadwood
from sim.games.indian.state_nb import (
    declaring_discard,
    discard,
    discard_moves,
    draw_moves,
    draw_pile,
    draw_stock,
    hand_of,
    init_state,
    leave_deal,
    maybe_reshuffle,
    next_turn,
)
from sim.core.rng_nb import STREAM_SEAT0, stream_key

PARTS = ("setup", "draw moves", "discard moves", "strategy: draw", "strategy: discard", "first chance",
         "declaration check", "state updates", "scoring")
(P_SETUP, P_DRAW, P_DISCARD, P_STRAT_DRAW, P_STRAT_DISCARD, P_FIRST, P_DECLARE, P_STATE,
 P_SCORE) = range(len(PARTS))
N_PARTS = len(PARTS)
SPECS = ("random", "greedy", "dropper", "joker_keeper", "defensive", "expert", "mc_search")
SEED = 2026


@njit
def _lap(acc, cnt, part, t):
    """Add the ticks since ``t`` to ``part``; return the counter's value now."""
    u = ticks()
    acc[part] += u - t
    cnt[part] += 1
    return u


@njit
def profiled_deal(seed, deal, rules, sids, params, fns, res, acc, cnt):
    """engine_nb.play_deal with ``record=0``, the cycle counter read between its parts."""
    ev = np.zeros((1, 1, EVENT_COLS), np.int64)
    ev_n = np.zeros(1, np.int64)
    slot = np.int64(0)
    record = np.int64(0)
    t = ticks()
    players = rules[R_PLAYERS]
    decks = rules[R_DECKS]
    mjr = rules[R_MAX_J_RUN]
    mjs = rules[R_MAX_J_SET]
    tir = rules[R_TRIPLE_IS_RUN]
    dealer = deal % players
    rs = np.empty(1, np.uint64)
    shoe = shuffle_shoe(seed, deal, decks, rs)
    st = np.empty(ST_SIZE, np.int64)
    hands_seq = np.empty((MAX_SEATS, HAND_SIZE), np.int64)
    buf = np.empty(MAX_SHOE, np.int64)
    free = np.empty(N_KINDS, np.int64)
    init_state(st, shoe, rules, players, dealer, hands_seq, buf)
    wild = st[O_WILD_RANK]
    rng = np.empty((MAX_SEATS, 1), np.uint64)
    for s in range(players):
        rng[s, 0] = stream_key(seed, deal, STREAM_SEAT0 + s)
    obs = np.empty(OBS_SIZE, np.int64)
    moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
    mv = np.zeros((MAX_MOVES + MOVE_SLACK, MOVE_COLS), np.int64)
    prm = np.empty(MAX_PARAMS, np.float64)
    res[:] = 0
    res[C_DEAL] = deal
    res[C_DEALER] = dealer
    res[C_PLAYERS] = players
    res[C_WINNER] = -1
    res[C_ERR_SEAT] = -1
    res[C_ERR_DECISION] = -1
    cap = rules[R_TURN_CAP]
    end = END_CAP
    winner = -1
    t = _lap(acc, cnt, P_SETUP, t)
    while st[O_TURN] < cap:
        seat = st[O_SEAT]
        res[C_TURNS_SEAT + seat] += 1
        t = ticks()
        maybe_reshuffle(st, rs, buf)
        st[O_DECISION] = D_DRAW
        n = draw_moves(st, moves)
        t = _lap(acc, cnt, P_DRAW, t)
        idx = _decide(sids, params, fns, rng, st, obs, moves, mv, prm, n, st[O_DECISION], res, ev, ev_n, slot, record)
        t = _lap(acc, cnt, P_STRAT_DRAW, t)
        if idx < 0:
            return
        kind = moves[idx, 0]
        if kind == MV_DROP:
            h = hand_of(st, seat)
            res[C_JOKERS + seat] = jokers_in(h, wild)
            if st[O_HAS_DRAWN + seat] == 0:
                loss = rules[R_FIRST_DROP]
                status = ST_DROP_FIRST
            else:
                loss = rules[R_MIDDLE_DROP]
                status = ST_DROP_MIDDLE
            res[C_LOST + seat] = loss
            res[C_DROP + seat] = status
            leave_deal(st, seat, status)
            if st[O_IN_PLAY] == 1:
                end = END_LAST_PLAYER
                _lap(acc, cnt, P_STATE, t)
                break
            next_turn(st)
            _lap(acc, cnt, P_STATE, t)
            continue
        if kind == MV_STOCK:
            draw_stock(st)
        else:
            draw_pile(st)
        h = hand_of(st, seat)
        t = _lap(acc, cnt, P_STATE, t)
        if st[S_FIRST_CHANCE + seat] < 0:
            if declaring_discard(h, wild, mjr, mjs, tir, free) >= 0:
                st[S_FIRST_CHANCE + seat] = st[O_TURN]
            t = _lap(acc, cnt, P_FIRST, t)
        st[O_DECISION] = D_DISCARD
        n = discard_moves(st, moves)
        t = _lap(acc, cnt, P_DISCARD, t)
        idx = _decide(sids, params, fns, rng, st, obs, moves, mv, prm, n, st[O_DECISION], res, ev, ev_n, slot, record)
        t = _lap(acc, cnt, P_STRAT_DISCARD, t)
        if idx < 0:
            return
        kind = moves[idx, 0]
        k = moves[idx, 1]
        discard(st, k)
        if kind == MV_DECLARE:
            t = _lap(acc, cnt, P_STATE, t)
            valid = can_declare(h, wild, mjr, mjs, tir)
            t = _lap(acc, cnt, P_DECLARE, t)
            if valid:
                end = END_DECLARE
                winner = seat
                break
            res[C_JOKERS + seat] = jokers_in(h, wild)
            res[C_LOST + seat] = rules[R_WRONG_DECL]
            res[C_WRONG + seat] = 1
            leave_deal(st, seat, ST_WRONG)
            if st[O_IN_PLAY] == 1:
                end = END_LAST_PLAYER
                _lap(acc, cnt, P_STATE, t)
                break
        next_turn(st)
        _lap(acc, cnt, P_STATE, t)

    t = ticks()
    if end == END_LAST_PLAYER:
        for s in range(players):
            if st[O_STATUS + s] == ST_IN:
                winner = s
    res[C_END] = end
    res[C_WINNER] = winner
    res[C_TURNS] = st[O_TURN] + (0 if end == END_CAP else 1)
    total = 0
    maxp = rules[R_MAX_POINTS]
    for s in range(players):
        res[C_PICKUPS + s] = st[O_PICKUPS + s]
        res[C_FIRST_CHANCE + s] = st[S_FIRST_CHANCE + s]
        if st[O_STATUS + s] == ST_IN:
            h = hand_of(st, s)
            dw = min_deadwood(h, wild, mjr, mjs, tir)
            res[C_DEADWOOD + s] = dw
            res[C_JOKERS + s] = jokers_in(h, wild)
            if end == END_DECLARE and s != winner:
                res[C_LOST + s] = dw if dw < maxp else maxp
        else:
            res[C_DEADWOOD + s] = -1
        total += res[C_LOST + s]
    if winner >= 0:
        res[C_GAIN + winner] = total
    _lap(acc, cnt, P_SCORE, t)


@njit
def profiled_deals(seed, deals, rules, sids, params, fns, res, acc, cnt):
    """``profiled_deal`` over ``deals`` in order on the calling thread, one result row each."""
    for i in range(deals.shape[0]):
        profiled_deal(seed, deals[i], rules, sids, params, fns, res[i], acc, cnt)


def profile(spec: str, deals: int, players: int = 4) -> dict:
    """Shares and CPU ns per deal of every part for ``spec`` in every seat on ``deals`` deals."""
    specs = parse_specs([spec] * players)
    sids, params, fns = kernel_args(specs)
    m = measure_parts(profiled_deals, lambda n: run_deals(specs, n, SEED, threads=1).results, spec, SEED, deals,
                      RuleOptions().to_array(players), sids, params, fns, N_RESULT_COLS, PARTS, warm=20)
    cnt = m["cnt"]
    frame_ns = (1e9 * frame_seconds_per_deal(spec, min(deals, 20_000), SEED, "indian", players)
                if spec != "mc_search" else float("nan"))
    return {"spec": spec, "players": players, "deals": deals, "engine_ns_per_deal": 1e9 * m["engine_cpu_s"] / deals,
            "profiled_ns_per_deal": 1e9 * m["profiled_cpu_s"] / deals,
            "timer_overhead_ticks": m["timer_overhead_ticks"],
            "decisions_per_deal": (cnt[P_STRAT_DRAW] + cnt[P_STRAT_DISCARD]) / deals,
            "turns_per_deal": float(m["rows"][:, C_TURNS].mean()), "parts": m["parts"],
            "result_frame_ns_per_deal": frame_ns}


def format_table(rows: list[dict]) -> str:
    """A markdown table: one row per strategy, each part as share (ns per deal)."""
    head = ("| strategy | engine ns/deal | turns/deal | decisions/deal | " + " | ".join(PARTS)
            + " | result frame ns/deal |")
    out = [head, "|" + "---|" * (len(PARTS) + 5)]
    for r in rows:
        cells = [f"{100 * r['parts'][p]['share']:.0f}% ({r['parts'][p]['ns_per_deal']:,.0f})" for p in PARTS]
        frame = "n/a" if np.isnan(r["result_frame_ns_per_deal"]) else f"{r['result_frame_ns_per_deal']:,.0f}"
        out.append(f"| {r['spec']} x{r['players']} | {r['engine_ns_per_deal']:,.0f} | {r['turns_per_deal']:.1f} | "
                   f"{r['decisions_per_deal']:.1f} | " + " | ".join(cells) + f" | {frame} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10_000)
    ap.add_argument("--search-deals", type=int, default=8, help="deals for mc_search")
    ap.add_argument("--players", type=int, default=4, help="players at the table, every seat the same strategy")
    ap.add_argument("--spec", action="append", help="strategy for every seat (repeatable; default: every built-in)")
    args = ap.parse_args(argv)
    rows = []
    for spec in args.spec or SPECS:
        rows.append(profile(spec, args.search_deals if spec == "mc_search" else args.deals, args.players))
        print(f"{spec} x{args.players}: engine {rows[-1]['engine_ns_per_deal']:,.0f} ns/deal "
              f"(profiled loop {rows[-1]['profiled_ns_per_deal']:,.0f})", file=sys.stderr, flush=True)
    print(format_table(rows))


if __name__ == "__main__":
    main()
