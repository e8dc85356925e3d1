"""Indian Rummy on the game contract (sim.plugin.game): 2-6 players, each alone (I1).

Duplicate seatings (``--seating``, docs/results.md):

* ``field`` (the default): "A against a field of B". Team A is one strategy, team B the
  strategy of every other seat; the pairing is played in ``players`` rotations, A in seat
  r in rotation r, so on every deal index A plays each seat's cards once and the field
  plays the rest (each seat's cards: once by A, ``players - 1`` times by B).
* ``half`` (an even table of 4 or 6): A in alternate seats, B in the others. Rotation 0
  seats A in the even seats, rotation 1 in the odd ones, so each seat's cards are played
  once by A and once by B, and every A passes its discards to a B and takes from one.

A's score is the mean net points (won minus lost, I6/I7) of A's seats, B's the mean net of
B's seats; the deal set's A - B difference is the mean over its rotations. Both sides
play the same cards in the same seats, which cancels the luck of the deal as far as the
two strategies' play does not make the deals diverge (measured: ``variance_reduction``).
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from typing import Sequence

import numpy as np

from sim.plugin.bench import BenchFigure, BenchPlan
from sim.plugin.game import Decisions, DerivedColumn, Game, ResultColumn, ResultSchema, Seating
from sim.games.indian import enums as E
from sim.games.indian.rules import RuleOptions
from sim.plugin.specs import StrategySpec

SEAT_COUNTERS = tuple(name for name, _ in E.SEAT_COLUMNS)


def _fixed(dtype):
    return lambda rules: np.dtype(dtype)


def _turns(rules) -> np.dtype:
    return np.dtype(np.int16 if rules.turn_cap <= np.iinfo(np.int16).max else np.int32)


def _points(rules) -> np.dtype:
    """Lost and gained points: at most 5 x the largest single loss."""
    worst = 5 * max(rules.max_points, rules.wrong_declaration, rules.first_drop, rules.middle_drop)
    return np.dtype(np.int16 if worst <= np.iinfo(np.int16).max else np.int32)


_SEAT_DTYPES = {"lost": _points, "gain": _points, "drop": _fixed(np.int8), "wrong_declaration": _fixed(np.int8),
                "turns_played": _turns, "pickups": _turns, "jokers": _fixed(np.int8),
                "deadwood": _fixed(np.int16), "first_chance": _turns}


def _net(seat: int):
    return lambda col: (col[f"gain_s{seat}"].astype(np.int32) - col[f"lost_s{seat}"]).astype(col[f"lost_s{seat}"].dtype)


_SEATING_TEXT = {
    "field": ("A against a field of B: rotation r seats A in seat r and B in every other seat; "
              "as many rotations as players"),
    "half": ("half the table: rotation 0 seats A in the even seats and B in the odd ones, rotation 1 the "
             "other way round; 2 rotations"),
}


class IndianGame(Game):
    name = "indian"
    title = "Indian Rummy (13-card points rummy)"
    rules_ref = "RULES.md Part 2 (I1-I9)"
    strategies_module = "strategies.indian.builtins"
    trainer_module = "strategies.indian.train"  # expert iteration of `learned` (issue 25)
    seat_counts = tuple(range(E.MIN_SEATS, E.MAX_SEATS + 1))
    default_players = 4
    rules_type = RuleOptions
    seating_modes = ("field", "half")
    seating_text = _SEATING_TEXT["field"]

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        return tuple((s,) for s in range(self.check_players(players)))

    # -- playing -----------------------------------------------------------------------------

    def run_deals(self, specs, deals, seed, rules=None, threads=None, record=0, check=False):
        from sim.games.indian.engine import run_deals

        return run_deals(list(specs), deals, seed, self.rules(rules), threads, record, check=check)

    def results_frame(self, run):
        from sim.games.indian.engine import results_frame

        return results_frame(run)

    def result_columns(self, players: int) -> tuple:
        players = self.check_players(players)
        cols: list = [ResultColumn("deal", E.C_DEAL, _fixed(np.int64)),
                      ResultColumn("dealer", E.C_DEALER, _fixed(np.int8)),
                      ResultColumn("end", E.C_END, _fixed(np.int8)),
                      ResultColumn("winner", E.C_WINNER, _fixed(np.int8)),
                      ResultColumn("turns", E.C_TURNS, _turns)]
        cols += [ResultColumn(f"{name}_s{s}", c + s, _SEAT_DTYPES[name]) for name, c in E.SEAT_COLUMNS
                 for s in range(players)]
        cols += [DerivedColumn(f"net_{s}", _net(s)) for s in range(players)]
        return tuple(cols)

    @cached_property
    def schema(self) -> ResultSchema:
        return ResultSchema(
            columns=self.result_columns(self.default_players),
            end_names=tuple(n for n in E.END_NAMES if n != "error"),
            end_column="end",
            side_word="seat",
            score_parts=("net",),
            counters=SEAT_COUNTERS,
            n_result_cols=E.N_RESULT_COLS,
        )

    # -- duplicate comparisons ----------------------------------------------------------------

    def _one(self, team: Sequence[StrategySpec], which: str) -> StrategySpec:
        if len(set(team)) != 1:
            raise ValueError(f"Indian Rummy: team {which} must be one strategy (every player plays alone), "
                             f"got {'+'.join(str(s) for s in team)}")
        return team[0]

    def check_seating(self, mode: str | None, players: int) -> str:
        """"" (field, the default) or "half"; half needs an even table of at least 4 players."""
        mode = super().check_seating(mode, players)
        players = self.check_players(players)
        if mode == "half" and (players % 2 or players < 4):
            raise ValueError(f"indian: seating 'half' (A in alternate seats) needs an even table of 4 or 6 "
                             f"players, got {players}; use seating 'field'")
        return mode

    def describe_seating(self, mode: str = "") -> str:
        return _SEATING_TEXT[self.check_seating(mode, 4) or "field"]

    def rotations(self, a: Sequence[StrategySpec], b: Sequence[StrategySpec], players: int,
                  mode: str = "") -> int:
        """field: ``players`` rotations; half: 2."""
        self._one(a, "A")
        self._one(b, "B")
        mode = self.check_seating(mode, players)
        return 2 if mode == "half" else self.check_players(players)

    def seating(self, a: Sequence[StrategySpec], b: Sequence[StrategySpec], rotation: int,
                players: int, mode: str = "") -> Seating:
        """field: A in seat ``rotation``, B elsewhere; half: A in the seats of ``rotation``'s parity."""
        players = self.check_players(players)
        mode = self.check_seating(mode, players)
        n_rot = 2 if mode == "half" else players
        if rotation not in range(n_rot):
            raise ValueError(f"rotation must be 0..{n_rot - 1}, got {rotation}")
        sa, sb = self._one(a, "A"), self._one(b, "B")
        if mode == "half":
            a_seats = tuple(s for s in range(players) if s % 2 == rotation)
        else:
            a_seats = (rotation,)
        specs = tuple(sa if s in a_seats else sb for s in range(players))
        return Seating(specs, a_seats, tuple(s for s in range(players) if s not in a_seats))

    # -- the figures a points-rummy player reads (sim/games/indian/figures.py) ------------------

    def figure_columns(self, players: int) -> list[str]:
        from sim.games.indian.figures import figure_columns

        return figure_columns(self.check_players(players))

    def chunk_figures(self, exp, plays):
        from sim.games.indian.figures import chunk_sums

        return chunk_sums(exp, plays)

    def summary_figures(self, totals, pairing: int) -> dict:
        from sim.games.indian.figures import summary_columns

        return summary_columns(totals, pairing)

    def figures_json(self, row) -> dict:
        from sim.games.indian.figures import figures_json

        return figures_json(row)

    def figures_lines(self, row, players: int) -> list[str]:
        from sim.games.indian.figures import figures_lines

        return figures_lines(row, players)

    def pairings_lines(self, summary, players: int) -> list[str]:
        from sim.games.indian.figures import pairings_lines

        return pairings_lines(summary, players)

    def size_columns(self, columns, kind: str) -> list[str]:
        from sim.games.indian.by_size import size_columns

        return size_columns(columns, kind)

    def size_head(self, columns) -> str:
        from sim.games.indian.by_size import size_head

        return size_head(columns)

    def size_cell(self, row) -> str:
        from sim.games.indian.by_size import size_cell

        return size_cell(row)

    def report_sections(self) -> list:
        from sim.games.indian.report_sections import FiguresSection

        return [FiguresSection()]

    def bench_plan(self) -> BenchPlan:
        """``rummy-sim bench --game indian``: every built-in at 2, 4 and 6 players, the deadwood
        solver's hands/s."""
        return BENCH_PLAN

    # -- deal logs ----------------------------------------------------------------------------

    def record_logs(self, specs, deals, seed, rules=None, threads=None, check=False) -> list[dict]:
        from sim.games.indian.engine import run_deals
        from sim.games.indian.log import deal_logs

        run = run_deals(list(specs), deals, seed, self.rules(rules), threads, record=1, check=check)
        return list(deal_logs(run))

    def log_summary(self, logs: list[dict]) -> str:
        ends = Counter(d["end"] for d in logs)
        n = len(logs[0]["strategies"]) if logs else 0
        lost = [sum(d["points"][s] for d in logs) / max(len(logs), 1) for s in range(n)]
        return (f"{ends['declare']} declare, {ends['last_player']} last player, {ends['cap']} cap; "
                f"mean points lost per seat {', '.join(f'{x:.1f}' for x in lost)}")

    @property
    def decisions(self) -> Decisions:
        """Indian decision analysis: sim/games/indian/decisions.py (one decision) and audit.py (a
        strategy's drop, pickup or discard decisions)."""
        from sim.games.indian import audit, decisions

        return Decisions(decisions=decisions.DECISIONS, audit_features=audit.FEATURES,
                         analyze_log=decisions.analyze_log, analyze=decisions.analyze,
                         decision_from_log=decisions.decision_from_log, audit=audit.audit,
                         write_report=audit.write_report, summarize=audit.summarize)

    def position_format(self):
        """A player's own position (issue 24, item 2): the module that reads its fields
        (FIELDS, decision_from_fields, fields_from_args, describe; docs/decisions.md)."""
        from sim.games.indian import position_file

        return position_file

    def validate_log(self, log: dict) -> None:
        from sim.games.indian.log_check import validate_log

        validate_log(log)

    def render_deal(self, log: dict, color: bool = False) -> str:
        from sim.games.indian.show import render_deal

        return render_deal(log, color=color)

    # -- information (I9) ---------------------------------------------------------------------

    def decision_states(self, specs, seed, deal, rules=None):
        from sim.games.indian.information import decision_states

        return decision_states(list(specs), seed, deal, self.rules(rules))

    def hidden_variant(self, state, gen):
        from sim.games.indian.information import hidden_variant

        return hidden_variant(state, gen)

    def view(self, state, rules=None):
        from sim.games.indian.information import view

        return view(state)

    def readable_view(self, decision, obs, moves):
        from sim.games.indian.readable import view_fields

        return view_fields(decision, obs, moves)


def solver_hands_per_s(quick: bool) -> dict[str, float]:
    """The deadwood solver's hands/s on one thread, by deck count: 200,000 random hands (10,000 quick)."""
    from sim.games.indian.solver_bench import solver_hands_per_second

    hands = 10_000 if quick else 200_000
    return {str(d): solver_hands_per_second(hands, decks=d) for d in (2, 3)}


BENCH_PLAN = BenchPlan(
    specs=("greedy", "random", "dropper", "joker_keeper", "defensive", "expert", "learned"),  # all but the search
    search_specs=("mc_search",),  # a few deals/s
    players=(2, 4, 6),
    deals=10_000, quick_deals=1_000,  # 2-8 s per run
    search_deals=8, search_quick_deals=2, search_warmup=1,
    targets=(("greedy_4_all", ">=", 2_000.0), ("first_call_s", "<", 2.0), ("compile_s", "<", 90.0),
             ("solver_hands_per_s", ">=", 200_000.0)),
    figures=(BenchFigure("solver_hands_per_s", "deadwood solver, 1 thread ...",
                         "deadwood solver, {variant} decks, 1 thread", "hands/s", solver_hands_per_s),),
)

GAME = IndianGame()
