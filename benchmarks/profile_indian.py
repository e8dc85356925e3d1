"""Where an Indian Rummy deal's time goes, per built-in strategy (issue 14's profile, Indian part).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/profile_indian.py [--deals 10000] [--players 4] [--spec greedy ...]

It plays the same deals as the engine (the deal loop of ``sim.games.indian.engine_nb``
with ``record=0``: the same scratch, the same steps of ``turn_nb`` and strategy calls, in
the same order; the result rows are checked equal to ``run_deals``'s) on one thread, with the CPU's
cycle counter (``llvm.readcyclecounter``) read around every part of a deal:

* ``setup``: shuffle the shoe, deal, the seats' random streams, the result row (``turn_nb.start_deal``);
* ``draw moves``: the I8 reshuffle check and the draw-decision move list (stock, pile, drop);
* ``discard moves``: the discard-decision move list (discard or declare each kind held);
* ``strategy: draw``, ``strategy: discard``: the strategy's own work at the two decisions
  (observation and move copies, dispatch and the clean-up of the scratch rows included;
  for greedy and the heuristics this is mostly the deadwood solver they call);
* ``first chance``: the engine's own solver call at each discard decision until the seat's
  first chance (``declaring_discard``: does some discard leave a valid declaration? it feeds
  the ``first_chance`` column; skipped when the move is itself a valid declaration or the
  seat's built-in found the answer in its own discard search, memo_nb.M_DECLARES);
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
from sim.games.indian.engine import kernel_args, parse_specs, run_deals
from sim.games.indian.engine_nb import _decide, _new_scratch
from sim.games.indian.enums import (C_TURNS, EVENT_COLS, MV_DECLARE, MV_DROP, N_RESULT_COLS, O_DECISION, O_TURN,
                                    R_TURN_CAP)
from sim.games.indian.enums import O_SEAT, OBS_SIZE
from sim.games.indian.memo_nb import M_DECLARES, MEMO_SEAT, clear_memo
from sim.games.indian.rules import RuleOptions
from sim.games.indian.state_nb import discard, discard_moves, draw_moves, next_turn
from sim.games.indian.turn_nb import (GOING_ON, begin_turn, discard_declares, drop_out, finish_deal,
                                      note_first_chance, settle_declaration, start_deal, take_card)

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
def profiled_deal(seed, deal, rules, sids, params, fns, res, acc, cnt, st, shoe, rs, rng, hands_seq, buf, free, obs,
                  moves, mv, prm, ev, ev_n):
    """The engine's deal loop (engine_nb._play_deal_in) with ``record=0``, its steps
    (turn_nb) taken piece by piece with the cycle counter read between them: step_draw is
    drop_out or take_card, step_discard is discard_declares (a declaration only),
    note_first_chance, then discard + settle_declaration or next_turn."""
    slot = np.int64(0)
    record = np.int64(0)
    t = ticks()
    start_deal(seed, deal, rules, st, shoe, rs, rng, hands_seq, buf, res)
    clear_memo(obs)
    cap = rules[R_TURN_CAP]
    end = GOING_ON
    t = _lap(acc, cnt, P_SETUP, t)
    while st[O_TURN] < cap:
        t = ticks()
        begin_turn(st, rs, buf, res)
        n = draw_moves(st, moves)
        t = _lap(acc, cnt, P_DRAW, t)
        idx = _decide(sids, params, fns, rng, st, obs, moves, mv, prm, n, st[O_DECISION], res, ev, ev_n, slot, record)
        t = _lap(acc, cnt, P_STRAT_DRAW, t)
        if idx < 0:
            return
        kind = moves[idx, 0]
        if kind == MV_DROP:
            end = drop_out(st, res)
            _lap(acc, cnt, P_STATE, t)
            if end != GOING_ON:
                break
            continue
        take_card(st, kind)
        t = _lap(acc, cnt, P_STATE, t)
        n = discard_moves(st, moves)
        t = _lap(acc, cnt, P_DISCARD, t)
        idx = _decide(sids, params, fns, rng, st, obs, moves, mv, prm, n, st[O_DECISION], res, ev, ev_n, slot, record)
        t = _lap(acc, cnt, P_STRAT_DISCARD, t)
        if idx < 0:
            return
        kind = moves[idx, 0]
        valid = False
        if kind == MV_DECLARE:
            valid = discard_declares(st, moves[idx, 1])
            t = _lap(acc, cnt, P_DECLARE, t)
        note_first_chance(st, valid, free, obs[OBS_SIZE + st[O_SEAT] * MEMO_SEAT + M_DECLARES])
        t = _lap(acc, cnt, P_FIRST, t)
        discard(st, moves[idx, 1])
        if kind == MV_DECLARE:
            end = settle_declaration(st, valid, res)
            _lap(acc, cnt, P_STATE, t)
            if end != GOING_ON:
                break
            continue
        next_turn(st)
        _lap(acc, cnt, P_STATE, t)
    t = ticks()
    finish_deal(st, end, res, obs)
    _lap(acc, cnt, P_SCORE, t)


@njit
def profiled_deals(seed, deals, rules, sids, params, fns, res, acc, cnt):
    """``profiled_deal`` over ``deals`` in order on the calling thread, one result row each,
    with one set of scratch arrays (as the engine's play_deals_kernel)."""
    st, shoe, rs, rng, hands_seq, buf, free, obs, moves, mv, prm, _, _, _ = _new_scratch()
    ev = np.zeros((1, 1, EVENT_COLS), np.int64)
    ev_n = np.zeros(1, np.int64)
    for i in range(deals.shape[0]):
        profiled_deal(seed, deals[i], rules, sids, params, fns, res[i], acc, cnt, st, shoe, rs, rng, hands_seq, buf,
                      free, obs, moves, mv, prm, ev, ev_n)


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
