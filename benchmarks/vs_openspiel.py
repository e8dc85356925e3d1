"""rummy-sim's Gin Rummy against OpenSpiel's gin_rummy (issue 26): checked move for move, and raced.

    python benchmarks/vs_openspiel.py --check --hands N --seed S [--specs A,B ...] [--rules all]
    python benchmarks/vs_openspiel.py --speed [--hands N]

--check plays each hand in both engines in lockstep. rummy-sim plays it in recording mode
(every legal action before each move, and the move made, in OpenSpiel's action ids); the
deal maps to OpenSpiel's chance outcomes (the 52 cards in dealing order: 10 to player 0,
10 to player 1, the upcard; then each stock draw's card); at every decision of OpenSpiel's
state the current player must be the seat that moved, the legal actions the same set, and
the move is applied in both; the final returns must be equal. Where a seat plays ``simple``,
OpenSpiel's SimpleGinRummyBot must choose the same action in that state. Hands cycle through
the strategy pairs (default: every built-in against every built-in) and the rule variants
(``--rules all``: the defaults, every knock card, Oklahoma, other bonuses). Any difference
exits 1 after printing the first few with the state.

--speed: hands/s of rummy-sim ``simple`` x2 and of OpenSpiel's C++ evaluate_bots with two
SimpleGinRummyBots, both on one core (taskset), plus random play in both and RLCard's gin
rummy with random agents; one table.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time

import numpy as np

RULE_VARIANTS = [{}] + [{"knock_card": k} for k in range(0, 10)] + [
    {"oklahoma": True}, {"gin_bonus": 0, "undercut_bonus": 0}, {"gin_bonus": 31, "undercut_bonus": 7},
    {"oklahoma": True, "undercut_bonus": 10}]
CHUNK = 400  # hands per recorded engine run (the level-2 event buffers are ~160 kB a hand)


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        sys.exit("vs_openspiel.py needs OpenSpiel: pip install open_spiel (a dev dependency of rummy-sim)")
    return pyspiel


class Checker:
    """Counts and the first differences of a lockstep check."""

    def __init__(self, show: int = 5):
        self.hands = self.decisions = self.bot_decisions = 0
        self.problems: list[str] = []
        self.show = show

    def problem(self, text: str) -> None:
        self.problems.append(text)


def check_hands(specs: tuple[str, str], rules: dict, seed: int, deals: np.ndarray, chk: Checker) -> None:
    """Play ``deals`` with ``specs`` under ``rules`` in both engines (module docstring)."""
    pyspiel = _pyspiel()
    from sim.games.gin import enums as E
    from sim.games.gin.engine import run_deals
    from sim.games.gin.rules import RuleOptions
    from sim.games.gin.state_nb import shuffled_deck

    ro = RuleOptions.from_dict(rules)
    game = pyspiel.load_game("gin_rummy", ro.openspiel_params())
    bots = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in range(2)]
    run = run_deals(list(specs), deals, seed, ro, threads=1, record=2)
    for i in range(len(deals)):
        deal = int(run.deals[i])
        first = deal % 2
        where = f"specs {specs[0]},{specs[1]} rules {rules or 'default'} seed {seed} deal {deal}"
        state = game.new_initial_state()
        for c in shuffled_deck(np.int64(seed), np.int64(deal))[:21]:
            state.apply_action(int(c))
        for b in bots:
            b.restart()
        legal: list[int] = []
        ok = True
        for kind, seat, a, b, c in run.deal_events(i).tolist():
            if kind == E.EV_LEGAL:
                legal.append(a)
                continue
            if kind == E.EV_END:
                if not state.is_terminal():
                    chk.problem(f"{where}: rummy-sim ended the hand ({E.END_NAMES[a]}), OpenSpiel did not:\n{state}")
                    ok = False
                    break
                want = [int(run.results[i, E.C_SCORE + (first + p) % 2]) for p in range(2)]
                got = [int(x) for x in state.returns()]
                if got != want:
                    chk.problem(f"{where}: returns by OpenSpiel player: OpenSpiel {got}, rummy-sim {want}\n{state}")
                    ok = False
                break
            player = state.current_player()
            if state.is_terminal() or (first + player) % 2 != seat:
                chk.problem(f"{where}: seat {seat} moves in rummy-sim; OpenSpiel: player {player}\n{state}")
                ok = False
                break
            os_legal = state.legal_actions()
            chk.decisions += 1
            if sorted(os_legal) != sorted(legal) or len(set(legal)) != len(legal):
                chk.problem(f"{where}: legal actions differ: OpenSpiel {os_legal}, rummy-sim {legal}\n{state}")
                ok = False
                break
            if specs[seat] == "simple":
                chk.bot_decisions += 1
                bot_action = bots[player].step(state)
                if bot_action != a:
                    chk.problem(f"{where}: SimpleGinRummyBot plays {bot_action}, simple plays {a}\n{state}")
                    ok = False
                    break
            state.apply_action(a)
            legal = []
            if a == E.A_STOCK:
                state.apply_action(c)  # the chance outcome: the card the stock gave
        chk.hands += ok


def run_check(args) -> int:
    from sim.plugin.registry import get_game

    reg = get_game("gin").strategies
    names = [n for n in reg.names() if reg.get(n).sid >= 0]  # the built-ins (a user strategy has no twin)
    pairs = [tuple(p.split(",")) for p in args.specs] if args.specs else list(itertools.product(names, repeat=2))
    variants = RULE_VARIANTS if args.rules == "all" else [{}]
    combos = [(pairs[k % len(pairs)], variants[(k // len(pairs)) % len(variants)])
              for k in range(len(pairs) * len(variants))]
    chunk = max(4, min(CHUNK, args.hands // len(combos)))
    chk = Checker()
    t0 = time.perf_counter()
    k = args.first // chunk  # resume at a chunk boundary: the same chunks as one uninterrupted run
    done = start = k * chunk
    while done < args.hands and len(chk.problems) < chk.show:
        n = min(chunk, args.hands - done)
        specs, rules = combos[k % len(combos)]
        check_hands(specs, rules, args.seed, np.arange(done, done + n, dtype=np.int64), chk)
        done += n
        k += 1
        if args.progress and k % 100 == 0:
            print(f"  {done:,} hands, {chk.decisions:,} decisions, {time.perf_counter() - t0:.0f} s", flush=True)
    took = time.perf_counter() - t0
    span = f" (hands {start:,} to {done - 1:,})" if start else ""
    print(f"checked {done - start:,} hands{span} ({chk.hands:,} in lockstep to the end) against OpenSpiel gin_rummy: "
          f"{chk.decisions:,} decisions compared ({chk.bot_decisions:,} of them with SimpleGinRummyBot), "
          f"{len(pairs)} strategy pairs x {len(variants)} rule variants, {took:.1f} s")
    if chk.problems:
        print(f"{len(chk.problems)} difference(s); the first:")
        for p in chk.problems[: chk.show]:
            print(p)
        return 1
    print("no difference")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="lockstep check against OpenSpiel")
    mode.add_argument("--speed", action="store_true", help="hands/s of both engines and RLCard, one core")
    ap.add_argument("--hands", type=int, default=None, help="hands to play (check: 2,000; speed: 20,000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0,
                    help="check: start at this hand (rounded down to a whole chunk) to finish a long check")
    ap.add_argument("--specs", nargs="*", help="strategy pairs A,B (default: every built-in pair)")
    ap.add_argument("--rules", choices=("default", "all"), default="all")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--repeat", type=int, default=3, help="speed: timed runs per engine, the best counts")
    args = ap.parse_args(argv)
    if args.hands is not None and args.hands <= 0:
        print(f"vs_openspiel.py: --hands must be positive, got {args.hands}", file=sys.stderr)
        return 2
    if args.check:
        args.hands = args.hands or 2000
        return run_check(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from vs_openspiel_speed import run_speed

    return run_speed(args)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.exit(main())
