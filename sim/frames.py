"""The result frames of an experiment: per play, per game, per deal set (docs/results.md).

``plays_frame`` turns the engine's raw int64 result rows of a chunk into the compact
per-play DataFrame (small ints and categoricals, fixed categories per experiment so
every chunk has the same schema). ``games_frame`` and ``sets_frame`` derive the
per-game (P9) and per-deal-set views from any plays frame with pandas.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.experiment import Experiment, a_team_of, seating
from sim.persian import enums as E

END_CATEGORIES = ("out", "passes", "cap")
END_DTYPE = pd.CategoricalDtype(list(END_CATEGORIES))
SCORE_PARTS = (("table", E.C_TABLE), ("hand", E.C_HAND), ("bonus", E.C_BONUS), ("total", E.C_TOTAL))

# Per-seat counters bounded by the seat's turns (at most turn_cap // 4 + 1 each) times a
# per-turn maximum; the others are bounded by the cards' values. Each gets the smallest
# integer type that holds its bound under the experiment's turn_cap (int16 by default).
_PER_TURN = {"takes": 1, "turns_played": 1, "discards": 1, "discards_fed": 1,
             "take_depth_sum": 55, "cards_taken": 56}
_TINY = {"max_depth", "fours_melded", "joker_fours_melded"}  # -1..55 and at most 14 per deal: int8
_INT_TYPES = tuple(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))


def counter_dtype(name: str, turn_cap: int) -> np.dtype:
    if name in _TINY:
        return np.dtype(np.int8)
    bound = _PER_TURN.get(name, 0) * (turn_cap // 4 + 1)
    return np.dtype(np.int16 if bound <= np.iinfo(np.int16).max else np.int32)


def turns_dtype(turn_cap: int) -> np.dtype:
    return np.dtype(np.int16 if turn_cap <= np.iinfo(np.int16).max else np.int32)


@dataclass(frozen=True)
class Block:
    """Raw engine rows of one pairing in one rotation over one deal range."""

    pairing: int
    rotation: int
    results: np.ndarray  # (n, N_RESULT_COLS) int64, in deal order


class Schema:
    """The fixed categories and column types of one experiment (same in every chunk)."""

    def __init__(self, exp: Experiment):
        self.exp = exp
        self.teams = pd.CategoricalDtype(list(dict.fromkeys(exp.team_labels())))
        self.strategies = pd.CategoricalDtype(exp.strategy_labels())
        self._team_code = {t: i for i, t in enumerate(self.teams.categories)}
        self._strategy_code = {s: i for i, s in enumerate(self.strategies.categories)}
        cap = exp.rules.turn_cap
        # (column, result column, type) of every column copied from the engine's rows
        copied = [("deal", E.C_DEAL, np.dtype(np.int64)), ("dealer", E.C_DEALER, np.dtype(np.int8)),
                  ("end", E.C_END, np.dtype(np.int8)), ("out_seat", E.C_OUT_SEAT, np.dtype(np.int8)),
                  ("turns", E.C_TURNS, turns_dtype(cap))]
        copied += [(f"{part}_{t}", c + t, np.dtype(np.int16)) for part, c in SCORE_PARTS for t in range(2)]
        copied += [(f"{name}_s{s}", c + s, counter_dtype(name, cap)) for name, c in E.COUNTER_NAMES
                   for s in range(4)]
        self.copied = copied
        self.groups = {dt: [(n, c) for n, c, d in copied if d == dt] for dt in _INT_TYPES}
        self.src = {dt: np.array([c for _, c in cols], dtype=np.int64) for dt, cols in self.groups.items()}

    def team_code(self, team_index: int) -> int:
        return self._team_code[str(self.exp.teams[team_index])]

    def seat_codes(self, pairing: int, rotation: int) -> list[int]:
        i, j = self.exp.pairings[pairing]
        return [self._strategy_code[str(s)] for s in seating(self.exp.teams[i], self.exp.teams[j], rotation)]


def plays_frame(schema: Schema, blocks: list[Block]) -> pd.DataFrame:
    """One row per play, blocks in the given order (columns: docs/results.md)."""
    from sim.frames_nb import narrow_rows

    exp = schema.exp
    sizes = [b.results.shape[0] for b in blocks]
    total = sum(sizes)
    outs = {dt: np.empty((len(schema.src[dt]), total), dtype=dt) for dt in _INT_TYPES}
    i8, i16, i32, i64 = _INT_TYPES
    off = 0
    for b in blocks:
        bad = narrow_rows(np.ascontiguousarray(b.results), off, schema.src[i8], outs[i8], schema.src[i16],
                          outs[i16], schema.src[i32], outs[i32], schema.src[i64], outs[i64])
        if bad >= 0:
            name, _, dt = next(x for x in schema.copied if x[1] == bad)
            raise RuntimeError(f"column {name}: a value does not fit its {dt} column")
        off += b.results.shape[0]
    col = {n: outs[dt][k] for dt in _INT_TYPES for k, (n, _) in enumerate(schema.groups[dt])}

    def rep(values, dtype) -> np.ndarray:
        return np.repeat(np.asarray(values, dtype=dtype), sizes)

    def categorical(codes, dtype) -> pd.Categorical:
        return pd.Categorical.from_codes(codes, dtype=dtype, validate=False)

    a_team = rep([a_team_of(b.rotation) for b in blocks], np.int8)
    seat_codes = np.array([schema.seat_codes(b.pairing, b.rotation) for b in blocks], dtype=np.int64)
    a_codes = rep([schema.team_code(exp.pairings[b.pairing][0]) for b in blocks], np.int64)
    b_codes = rep([schema.team_code(exp.pairings[b.pairing][1]) for b in blocks], np.int64)
    data: dict[str, object] = {
        "pairing": rep([b.pairing for b in blocks], np.int16),
        "a": categorical(a_codes, schema.teams),
        "b": categorical(b_codes, schema.teams),
        "deal": col["deal"],
        "rotation": rep([b.rotation for b in blocks], np.int8),
        "a_team": a_team,
    }
    for seat in range(4):
        data[f"strategy_s{seat}"] = categorical(np.repeat(seat_codes[:, seat], sizes), schema.strategies)
    data["dealer"] = col["dealer"]
    data["end"] = pd.Categorical.from_codes(col["end"], dtype=END_DTYPE)  # validated: no "error" rows
    data["out_seat"] = col["out_seat"]
    data["turns"] = col["turns"]
    for part, _ in SCORE_PARTS:
        for team in range(2):
            data[f"{part}_{team}"] = col[f"{part}_{team}"]
    a_is_0 = a_team == 0
    data["a_total"] = np.where(a_is_0, col["total_0"], col["total_1"])
    data["b_total"] = np.where(a_is_0, col["total_1"], col["total_0"])
    for name, _ in E.COUNTER_NAMES:
        for seat in range(4):
            data[f"{name}_s{seat}"] = col[f"{name}_s{seat}"]
    return pd.DataFrame(data, copy=False)


def plays_columns(exp: Experiment | None = None) -> list[str]:
    """Column names of the per-play frame, in order (the same for every experiment)."""
    cols = ["pairing", "a", "b", "deal", "rotation", "a_team", *[f"strategy_s{s}" for s in range(4)],
            "dealer", "end", "out_seat", "turns"]
    cols += [f"{part}_{t}" for part, _ in SCORE_PARTS for t in range(2)]
    cols += ["a_total", "b_total"]
    cols += [f"{name}_s{s}" for name, _ in E.COUNTER_NAMES for s in range(4)]
    return cols


def with_diff(plays: pd.DataFrame) -> pd.DataFrame:
    """``plays`` with ``diff`` = a_total - b_total (int32) added."""
    return plays.assign(diff=plays["a_total"].astype(np.int32) - plays["b_total"].astype(np.int32))


def sets_frame(plays: pd.DataFrame) -> pd.DataFrame:
    """One row per (pairing, deal): mean A - B over the deal's rotations, and A's and B's means."""
    p = with_diff(plays)
    g = p.groupby(["pairing", "deal"], sort=True, observed=True)
    out = g.agg(a=("a", "first"), b=("b", "first"), plays=("diff", "size"),
                diff=("diff", "mean"), a_total=("a_total", "mean"), b_total=("b_total", "mean"))
    return out.reset_index()


def games_frame(plays: pd.DataFrame, deals_per_game: int = 2) -> pd.DataFrame:
    """One row per (pairing, rotation, game): a game is deals ``g*dpg .. g*dpg + dpg - 1`` (P9)
    played in one rotation. ``complete`` is False when some of its deals were not played;
    ``outcome`` is +1 A won, 0 tie, -1 A lost (by the game's team totals)."""
    p = with_diff(plays).assign(game=lambda d: d["deal"] // deals_per_game)
    g = p.groupby(["pairing", "rotation", "game"], sort=True, observed=True)
    out = g.agg(a=("a", "first"), b=("b", "first"), deals=("deal", "size"),
                a_total=("a_total", "sum"), b_total=("b_total", "sum"), diff=("diff", "sum")).reset_index()
    out["complete"] = out["deals"] == deals_per_game
    out["outcome"] = np.sign(out["diff"]).astype(np.int8)
    return out
