"""Indian Rummy on the game contract (sim.games.base): 2-6 players, each alone (I1).

Duplicate seatings: "A against a field of B". Team A is one strategy, team B the
strategy of every other seat; the pairing is played in ``players`` rotations, A in
seat r in rotation r, so on every deal index A plays each seat's cards once and the
field plays the rest. A's score is its seat's net points (won minus lost, I6/I7);
B's is the mean net of the field's seats; the deal set's A - B difference is taken
over the rotations, which cancels most of the luck of the cards (each seat's cards
are played by A once and by B ``players - 1`` times).
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from typing import Sequence

import numpy as np

from sim.games.base import DerivedColumn, Game, ResultColumn, ResultSchema, Seating
from sim.games.indian import enums as E
from sim.games.indian.rules import RuleOptions
from strategies.registry import StrategySpec

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


class IndianGame(Game):
    name = "indian"
    title = "Indian Rummy (13-card points rummy)"
    rules_ref = "RULES.md Part 2 (I1-I9)"
    seat_counts = tuple(range(E.MIN_SEATS, E.MAX_SEATS + 1))
    default_players = 4
    rules_type = RuleOptions
    seating_text = ("A against a field of B: rotation r seats A in seat r and B in every other seat; "
                    "as many rotations as players")

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

    def rotations(self, a: Sequence[StrategySpec], b: Sequence[StrategySpec], players: int) -> int:
        self._one(a, "A")
        self._one(b, "B")
        return self.check_players(players)

    def seating(self, a: Sequence[StrategySpec], b: Sequence[StrategySpec], rotation: int,
                players: int) -> Seating:
        players = self.check_players(players)
        if rotation not in range(players):
            raise ValueError(f"rotation must be 0..{players - 1}, got {rotation}")
        sa, sb = self._one(a, "A"), self._one(b, "B")
        specs = tuple(sa if s == rotation else sb for s in range(players))
        return Seating(specs, (rotation,), tuple(s for s in range(players) if s != rotation))

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


GAME = IndianGame()
