"""Where a Persian deal's time goes, per built-in strategy (issue 14's profile).

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/profile_persian.py [--deals 20000] [--spec greedy ...]

It plays the same deals as the engine (``sim.games.persian.engine_nb``: the same
scratch arrays, generators, steps and strategy calls, in the same order; the result
rows are checked equal to ``run_deals``'s) on one thread, with the CPU's cycle counter
(``llvm.readcyclecounter``) read around every part of a deal:

* ``setup``: shuffle, fresh state, the seats' random streams;
* ``draw moves``, ``play moves``, ``discard moves``: legal-move generation (the play
  moves include the meld enumeration, lay-offs and the pending-target check);
* ``strategy``: the strategy's own work at the three decisions (observation set-up
  and dispatch included);
* ``state updates``: applying the chosen moves (``step_draw``/``step_play``/``step_discard``),
  counters into the result row included;
* ``scoring``: ``score_deal`` and the end-of-deal result columns;
* ``result frame``: the runner's per-play frame built from the raw rows
  (``sim.runner.frames.plays_frame``, measured separately in Python per deal).

Cycle counts are wall ticks: on a shared machine a preempted thread's wait lands in
whatever part was running, in proportion to its length, so the *shares* stay right
while the tick totals inflate. The table therefore gives each part's share and
scales it to the run's process CPU time per deal (``ns/deal``). The cost of reading
the counter itself is measured and subtracted (about 20-40 cycles a read).
"""

from __future__ import annotations

import argparse

import numpy as np
from numba import njit, types

from benchmarks.cycles import ticks
from benchmarks.profiling import frame_seconds_per_deal, measure_parts
from sim.games.persian.engine import Table, run_deals
from sim.games.persian.engine_nb import _decide, _new_scratch, shuffle_deck_into
from sim.games.persian.enums import (
    C_DEAL,
    C_DEALER,
    C_END,
    C_ERR_SEAT,
    C_MAX_DEPTH,
    C_OUT_SEAT,
    C_TURNS,
    C_TURNS_SEAT,
    D_DISCARD,
    D_DRAW,
    D_PLAY,
    END_CAP,
    END_OUT,
    N_RESULT_COLS,
    N_SEATS,
    O_DECISION,
    O_SEAT,
    O_TURN,
    R_TURN_CAP,
)
from sim.games.persian.rules import RuleOptions
from sim.games.persian.state_nb import (
    GOING_ON,
    discard_moves,
    draw_moves,
    play_moves,
    reset_state,
    score_deal,
    step_discard,
    step_draw,
    step_play,
)
from sim.core.rng_nb import STREAM_SEAT0, stream_key
from sim.plugin.strategy import SEAT_FNS

PARTS = ("setup", "draw moves", "play moves", "discard moves", "strategy", "state updates", "scoring")
P_SETUP, P_DRAW, P_PLAY, P_DISCARD, P_STRATEGY, P_STATE, P_SCORE = range(len(PARTS))
N_PARTS = len(PARTS)
SPECS = ("random", "greedy", "deep_taker", "quad_holder", "defensive", "expert", "mc_search")
SEED = 2026


@njit
def _account(acc, cnt, moves_part, t, u, v, w):
    """One timed decision: move generation ``t..u`` into ``moves_part``, the strategy
    ``u..v`` and the state update ``v..w`` (one segment each)."""
    acc[moves_part] += u - t
    acc[P_STRATEGY] += v - u
    acc[P_STATE] += w - v
    cnt[moves_part] += 1
    cnt[P_STRATEGY] += 1
    cnt[P_STATE] += 1


# the engine's own argument types: the strategies in ``fns`` become function slots
# (FunctionType), so ``_decide`` is the engine's compiled specialisation and every strategy
# is called through its function pointer, exactly as in ``play_deals_kernel``
PROFILED_SIG = types.void(types.int64, types.int64[::1], types.int64[::1], types.int64[::1], types.float64[:, ::1],
                          SEAT_FNS, types.int64[:, ::1], types.uint64[::1], types.int64[::1])


@njit(PROFILED_SIG)
def profiled_deals(seed, deals, rules, sids, params, fns, res, acc, cnt):
    """play_deals on one thread with the cycle counter read around every part; ``acc[p]``
    sums the ticks of part p, ``cnt[p]`` counts its timed segments."""
    ev = np.zeros((1, 1, 5), np.int64)
    ev_n = np.zeros(1, np.int64)
    slot = np.int64(0)
    record = np.int64(0)
    st, deck, rs, rng, obs, moves, smoves, sparams = _new_scratch(sids, params)
    for i in range(deals.shape[0]):
        deal = deals[i]
        r = res[i]
        t = ticks()
        dealer = deal % N_SEATS
        shuffle_deck_into(deck, rs, seed, deal)
        reset_state(st, deck, dealer, rules)
        for s in range(N_SEATS):
            rng[s, 0] = stream_key(seed, deal, STREAM_SEAT0 + s)
        r[:] = 0
        r[C_DEAL] = deal
        r[C_DEALER] = dealer
        r[C_OUT_SEAT] = -1
        r[C_ERR_SEAT] = -1
        for s in range(N_SEATS):
            r[C_MAX_DEPTH + s] = -1
        cap = rules[R_TURN_CAP]
        end = GOING_ON
        u = ticks()
        acc[P_SETUP] += u - t
        cnt[P_SETUP] += 1
        failed = False
        while st[O_TURN] < cap:
            r[C_TURNS_SEAT + st[O_SEAT]] += 1
            t = ticks()
            n = draw_moves(st, moves)
            u = ticks()
            idx = _decide(sids, params, fns, rng, st, obs, moves, n, D_DRAW, r, ev, ev_n, slot, record, smoves, sparams)
            v = ticks()
            if idx < 0:
                failed = True
                break
            end = step_draw(st, moves[idx, 0], moves[idx, 1], r)
            w = ticks()
            _account(acc, cnt, P_DRAW, t, u, v, w)
            if end != GOING_ON:
                break
            if st[O_DECISION] == D_DRAW:
                continue
            while st[O_DECISION] == D_PLAY:
                t = ticks()
                n = play_moves(st, moves)
                u = ticks()
                idx = _decide(sids, params, fns, rng, st, obs, moves, n, D_PLAY, r, ev, ev_n, slot, record,
                              smoves, sparams)
                v = ticks()
                if idx < 0:
                    failed = True
                    break
                end = step_play(st, moves[idx, 0], moves[idx, 1], moves[idx, 2], r)
                w = ticks()
                _account(acc, cnt, P_PLAY, t, u, v, w)
                if end != GOING_ON:
                    break
            if failed or end != GOING_ON:
                break
            t = ticks()
            n = discard_moves(st, moves)
            u = ticks()
            idx = _decide(sids, params, fns, rng, st, obs, moves, n, D_DISCARD, r, ev, ev_n, slot, record,
                          smoves, sparams)
            v = ticks()
            if idx < 0:
                failed = True
                break
            end = step_discard(st, moves[idx, 1], r)
            w = ticks()
            _account(acc, cnt, P_DISCARD, t, u, v, w)
            if end != GOING_ON:
                break
        if failed:
            continue
        t = ticks()
        if end == GOING_ON:
            end = END_CAP
        out_seat = st[O_SEAT] if end == END_OUT else -1
        r[C_END] = end
        r[C_OUT_SEAT] = out_seat
        r[C_TURNS] = st[O_TURN] + (0 if end == END_CAP else 1)
        score_deal(st, end, out_seat, r)
        acc[P_SCORE] += ticks() - t
        cnt[P_SCORE] += 1


def profile(spec: str, deals: int) -> dict:
    """Shares and CPU ns per deal of every part for ``spec`` x4 on ``deals`` deals."""
    sids, params, fns = Table.of(spec).kernel_args()
    m = measure_parts(profiled_deals, lambda n: run_deals([spec] * 4, n, SEED, threads=1).results, spec, SEED,
                      deals, RuleOptions().to_array(), sids, params, fns, N_RESULT_COLS, PARTS, warm=50)
    frame_ns = (1e9 * frame_seconds_per_deal(spec, min(deals, 20_000), SEED, "persian", 4) if spec != "mc_search"
                else float("nan"))
    return {"spec": spec, "deals": deals, "engine_ns_per_deal": 1e9 * m["engine_cpu_s"] / deals,
            "profiled_ns_per_deal": 1e9 * m["profiled_cpu_s"] / deals,
            "timer_overhead_ticks": m["timer_overhead_ticks"],
            "decisions_per_deal": m["cnt"][P_STRATEGY] / deals, "parts": m["parts"],
            "result_frame_ns_per_deal": frame_ns}


def format_table(rows: list[dict]) -> str:
    """A markdown table: one row per strategy, each part as share (ns per deal)."""
    head = "| strategy | engine ns/deal | decisions/deal | " + " | ".join(PARTS) + " | result frame ns/deal |"
    out = [head, "|" + "---|" * (len(PARTS) + 4)]
    for r in rows:
        cells = [f"{100 * r['parts'][p]['share']:.0f}% ({r['parts'][p]['ns_per_deal']:,.0f})" for p in PARTS]
        frame = "n/a" if np.isnan(r["result_frame_ns_per_deal"]) else f"{r['result_frame_ns_per_deal']:,.0f}"
        out.append(f"| {r['spec']} | {r['engine_ns_per_deal']:,.0f} | {r['decisions_per_deal']:.0f} | "
                   + " | ".join(cells) + f" | {frame} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--search-deals", type=int, default=10, help="deals for mc_search")
    ap.add_argument("--spec", action="append", help="strategy for all four seats (repeatable; default: every built-in)")
    args = ap.parse_args(argv)
    rows = []
    for spec in args.spec or SPECS:
        rows.append(profile(spec, args.search_deals if spec == "mc_search" else args.deals))
        print(f"{spec}: engine {rows[-1]['engine_ns_per_deal']:,.0f} ns/deal", flush=True)
    print()
    print(format_table(rows))


if __name__ == "__main__":
    main()
