"""Gin Rummy on the game contract (sim.plugin.game): two players, one hand a game (G1-G9).

Duplicate seatings: each deal is played twice with the seats swapped (rotation 0: A in seat
0, rotation 1: A in seat 1), so each strategy plays both hands of every deal, and seat
``deal % 2`` acts first (OpenSpiel's player 0), so each plays first on half the deals. A's
score is the points of A's seat (G7, zero-sum: B's is its negative).
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from typing import Sequence

import numpy as np

from sim.games.gin import enums as E
from sim.games.gin.rules import RuleOptions
from sim.plugin.bench import BenchFigure, BenchPlan
from sim.plugin.game import DerivedColumn, Game, ResultColumn, ResultSchema, Seating
from sim.plugin.specs import StrategySpec


def _fixed(dtype):
    return lambda rules: np.dtype(dtype)


def _points(rules) -> np.dtype:
    worst = E.MAX_DEADWOOD + max(rules.gin_bonus, rules.undercut_bonus) + 10
    return np.dtype(np.int16 if worst <= np.iinfo(np.int16).max else np.int32)


_SEAT_DTYPES = {"score": _points, "deadwood": _fixed(np.int16), "pickups": _fixed(np.int8),
                "layoffs": _fixed(np.int8)}


def _side_points(seat: int):
    return lambda col: col[f"score_s{seat}"]


class GinGame(Game):
    name = "gin"
    title = "Gin Rummy (OpenSpiel's gin_rummy)"
    rules_ref = "RULES.md Part 3 (G1-G9)"
    strategies_module = "strategies.gin.builtins"
    seat_counts = (2,)
    default_players = 2
    rules_type = RuleOptions
    seating_text = ("each deal twice, seats swapped: rotation r seats A in seat r and B in the other; "
                    "seat deal % 2 acts first")

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        self.check_players(players)
        return ((0,), (1,))

    # -- playing -----------------------------------------------------------------------------

    def run_deals(self, specs, deals, seed, rules=None, threads=None, record=0, check=False):
        from sim.games.gin.engine import run_deals

        return run_deals(list(specs), deals, seed, self.rules(rules), threads, record, check=check)

    def results_frame(self, run):
        from sim.games.gin.engine import results_frame

        return results_frame(run)

    def result_columns(self, players: int) -> tuple:
        self.check_players(players)
        cols: list = [ResultColumn("deal", E.C_DEAL, _fixed(np.int64)),
                      ResultColumn("first", E.C_FIRST, _fixed(np.int8)),
                      ResultColumn("end", E.C_END, _fixed(np.int8)),
                      ResultColumn("knocker", E.C_KNOCKER, _fixed(np.int8)),
                      ResultColumn("turns", E.C_TURNS, _fixed(np.int16)),
                      ResultColumn("stock_left", E.C_STOCK_LEFT, _fixed(np.int8)),
                      ResultColumn("knock_card", E.C_KNOCK_CARD, _fixed(np.int8)),
                      ResultColumn("undercut", E.C_UNDERCUT, _fixed(np.int8))]
        cols += [ResultColumn(f"{name}_s{s}", c + s, _SEAT_DTYPES[name]) for name, c in E.SEAT_COLUMNS
                 for s in range(2)]
        cols += [DerivedColumn(f"points_{s}", _side_points(s)) for s in range(2)]
        return tuple(cols)

    @cached_property
    def schema(self) -> ResultSchema:
        return ResultSchema(
            columns=self.result_columns(2),
            end_names=tuple(n for n in E.END_NAMES if n != "error"),
            end_column="end",
            side_word="seat",
            score_parts=("points",),
            counters=tuple(name for name, _ in E.SEAT_COLUMNS if name != "score"),
            n_result_cols=E.N_RESULT_COLS,
        )

    # -- duplicate comparisons ----------------------------------------------------------------

    def _one(self, team: Sequence[StrategySpec], which: str) -> StrategySpec:
        if len(set(team)) != 1:
            raise ValueError(f"Gin Rummy: team {which} must be one strategy (two players, each alone), "
                             f"got {'+'.join(str(s) for s in team)}")
        return team[0]

    def rotations(self, a: Sequence[StrategySpec], b: Sequence[StrategySpec], players: int) -> int:
        self._one(a, "A")
        self._one(b, "B")
        self.check_players(players)
        return 2

    def seating(self, a: Sequence[StrategySpec], b: Sequence[StrategySpec], rotation: int,
                players: int) -> Seating:
        self.check_players(players)
        if rotation not in (0, 1):
            raise ValueError(f"rotation must be 0 or 1, got {rotation}")
        sa, sb = self._one(a, "A"), self._one(b, "B")
        specs = (sa, sb) if rotation == 0 else (sb, sa)
        return Seating(specs, (rotation,), (1 - rotation,))

    # -- benchmark ---------------------------------------------------------------------------

    def bench_plan(self) -> BenchPlan:
        """``rummy-sim bench --game gin``: every built-in heads-up, the deadwood solvers' hands/s."""
        return BENCH_PLAN

    # -- deal logs ----------------------------------------------------------------------------

    def record_logs(self, specs, deals, seed, rules=None, threads=None, check=False) -> list[dict]:
        from sim.games.gin.engine import run_deals
        from sim.games.gin.log import deal_logs

        run = run_deals(list(specs), deals, seed, self.rules(rules), threads, record=1, check=check)
        return list(deal_logs(run))

    def log_summary(self, logs: list[dict]) -> str:
        ends = Counter(d["end"] for d in logs)
        pts = [sum(d["score"][s] for d in logs) / max(len(logs), 1) for s in range(2)]
        return (", ".join(f"{ends[e]} {e}" for e in E.END_NAMES[:-1] if ends[e])
                + f"; mean points per seat {pts[0]:+.1f}, {pts[1]:+.1f}")

    def validate_log(self, log: dict) -> None:
        from sim.games.gin.log_check import validate_log

        validate_log(log)

    def render_deal(self, log: dict, color: bool = False) -> str:
        from sim.games.gin.show import render_deal

        return render_deal(log, color=color)

    # -- information (G9) ---------------------------------------------------------------------

    def decision_states(self, specs, seed, deal, rules=None):
        from sim.games.gin.information import decision_states

        return decision_states(list(specs), seed, deal, self.rules(rules))

    def hidden_variant(self, state, gen):
        from sim.games.gin.information import hidden_variant

        return hidden_variant(state, gen)

    def view(self, state, rules=None):
        from sim.games.gin.information import view

        return view(state)

    def readable_view(self, decision, obs, moves):
        from sim.games.gin.readable import view_fields

        return view_fields(decision, obs, moves)


def solver_hands_per_s(quick: bool) -> dict[str, float]:
    """Hands/s of the deadwood solvers on one thread (solver_bench.py): the exact 10-card deadwood,
    the exact best 10 of 11, and OpenSpiel's 11-card figure the engine knocks by."""
    from sim.games.gin.solver_bench import solver_hands_per_second

    hands = 100_000 if quick else 1_000_000
    return {"10": solver_hands_per_second(hands, "deadwood10"), "11": solver_hands_per_second(hands, "best10"),
            "11 openspiel": solver_hands_per_second(hands, "openspiel11")}


BENCH_PLAN = BenchPlan(
    specs=("greedy", "random", "simple"),
    players=(2,),
    deals=20_000, quick_deals=2_000,
    targets=(("solver_hands_per_s", ">=", 5_000_000.0),),
    figures=(BenchFigure("solver_hands_per_s", "deadwood solvers, 1 thread ...",
                         "deadwood solver, {variant} cards, 1 thread", "hands/s", solver_hands_per_s),),
)

GAME = GinGame()
