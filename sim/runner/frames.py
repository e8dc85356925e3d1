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

from sim.experiment import Experiment
from sim.plugin.game import DerivedColumn, ResultColumn
from sim.runner.frames_nb import narrow_rows

_INT_TYPES = tuple(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))


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
        game = exp.game_spec
        self.result = rs = game.schema
        self.end_dtype = pd.CategoricalDtype(list(rs.end_names))
        self.seats = exp.players
        self.sides = len(game.sides(exp.players))
        self.teams = pd.CategoricalDtype(list(dict.fromkeys(exp.team_labels())))
        self.strategies = pd.CategoricalDtype(exp.strategy_labels())
        self._team_code = {t: i for i, t in enumerate(self.teams.categories)}
        self._strategy_code = {s: i for i, s in enumerate(self.strategies.categories)}
        self.all_columns = game.result_columns(exp.players)
        # (column, result column, type) of every column copied from the engine's rows
        self.copied = copied = [(c.name, c.index, c.dtype(exp.rules)) for c in self.all_columns
                                if isinstance(c, ResultColumn)]
        self.derived = [c for c in self.all_columns if isinstance(c, DerivedColumn)]
        self.groups = {dt: [(n, c) for n, c, d in copied if d == dt] for dt in _INT_TYPES}
        self.src = {dt: np.array([c for _, c in cols], dtype=np.int64) for dt, cols in self.groups.items()}

    def team_code(self, team_index: int) -> int:
        return self._team_code[str(self.exp.teams[team_index])]

    def seat_codes(self, pairing: int, rotation: int) -> list[int]:
        return [self._strategy_code[str(s)] for s in self.exp.seating(pairing, rotation).specs]

    def columns(self) -> list[str]:
        """Column names of the per-play frame, in order."""
        rs = self.result
        cols = ["pairing", "a", "b", "deal", "rotation", f"a_{rs.side_word}",
                *[f"strategy_s{s}" for s in range(self.seats)]]
        total = f"{rs.score_parts[-1]}_{self.sides - 1}"
        for name in (c.name for c in self.all_columns):
            if name != "deal":
                cols.append(name)
            if name == total:
                cols += ["a_total", "b_total"]
        return cols


def plays_frame(schema: Schema, blocks: list[Block]) -> pd.DataFrame:
    """One row per play, blocks in the given order (columns: docs/results.md)."""
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

    seatings = [exp.seating(b.pairing, b.rotation) for b in blocks]
    rs = schema.result
    a_side = rep([st.a_sides[0] for st in seatings], np.int8)
    seat_codes = np.array([schema.seat_codes(b.pairing, b.rotation) for b in blocks], dtype=np.int64)
    a_codes = rep([schema.team_code(exp.pairings[b.pairing][0]) for b in blocks], np.int64)
    b_codes = rep([schema.team_code(exp.pairings[b.pairing][1]) for b in blocks], np.int64)
    data: dict[str, object] = {
        "pairing": rep([b.pairing for b in blocks], np.int16),
        "a": categorical(a_codes, schema.teams),
        "b": categorical(b_codes, schema.teams),
        "deal": col["deal"],
        "rotation": rep([b.rotation for b in blocks], np.int8),
        f"a_{rs.side_word}": a_side,
    }
    for seat in range(schema.seats):
        data[f"strategy_s{seat}"] = categorical(np.repeat(seat_codes[:, seat], sizes), schema.strategies)
    for c in schema.derived:
        col[c.name] = c.compute(col)
    part = rs.score_parts[-1]
    for name in schema.columns()[len(data):]:
        if name == "a_total":
            data[name] = _side_mean(col, part, [st.a_sides for st in seatings], sizes)
        elif name == "b_total":
            data[name] = _side_mean(col, part, [st.b_sides for st in seatings], sizes)
        elif name == rs.end_column:
            data[name] = pd.Categorical.from_codes(col[name], dtype=schema.end_dtype)  # validated: no error rows
        else:
            data[name] = col[name]
    return pd.DataFrame(data, copy=False)


def _side_mean(col: dict, part: str, sides: list[tuple[int, ...]], sizes: list[int]) -> np.ndarray:
    """Per play, the score ``part`` of the given sides (their mean when a block names several)."""
    if all(len(s) == 1 for s in sides):
        dtype = col[f"{part}_0"].dtype
        out = np.empty(sum(sizes), dtype=dtype)
        off = 0
        for s, n in zip(sides, sizes):
            out[off:off + n] = col[f"{part}_{s[0]}"][off:off + n]
            off += n
        return out
    out = np.empty(sum(sizes), dtype=np.float64)
    off = 0
    for s, n in zip(sides, sizes):
        out[off:off + n] = np.mean([col[f"{part}_{k}"][off:off + n] for k in s], axis=0)
        off += n
    return out


def plays_columns(exp: Experiment) -> list[str]:
    """Column names of the per-play frame of ``exp``, in order."""
    return Schema(exp).columns()


SCORE_SCALE = 60
"""lcm(1, ..., 6): a side's score is an integer or a mean over at most six seats (Indian
Rummy's field), so ``SCORE_SCALE`` x score is a whole number."""


def scaled_diff(a, b) -> tuple[np.ndarray, int]:
    """(D, s): A - B per play as whole numbers ``D`` over the scale ``s`` (A - B = D / s).

    A field's mean score (a sum of seats' nets over the field's size) is not exact in
    floating point, so ``a - b`` of two identical strategies leaves rounding noise of
    ~1e-16 that a zero-variance paired test would call significant. Scaled to whole
    numbers the sums over rotations are exact and equal sides give exactly 0. Integer
    scores keep ``s = 1``; a score that is no mean over <= 6 seats falls back to floats.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if np.array_equal(a, np.rint(a)) and np.array_equal(b, np.rint(b)):
        return a - b, 1
    sa, sb = a * SCORE_SCALE, b * SCORE_SCALE
    ra, rb = np.rint(sa), np.rint(sb)
    if np.all(np.abs(sa - ra) < 1e-6) and np.all(np.abs(sb - rb) < 1e-6):
        return ra - rb, SCORE_SCALE
    return a - b, 1


def with_diff(plays: pd.DataFrame) -> pd.DataFrame:
    """``plays`` with ``diff`` = a_total - b_total added: int32 for integer scores, float64 when a
    side's score is a mean over several seats (Indian Rummy's field; never truncated, and exact
    to the last bit for a mean over <= 6 seats: sim.runner.frames.scaled_diff)."""
    a, b = plays["a_total"], plays["b_total"]
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        d, s = scaled_diff(a.to_numpy(), b.to_numpy())
        return plays.assign(diff=d / s)
    return plays.assign(diff=a.astype(np.int32) - b.astype(np.int32))


def sets_frame(plays: pd.DataFrame) -> pd.DataFrame:
    """One row per (pairing, deal): mean A - B over the deal's rotations, and A's and B's means
    (the mean difference is summed in whole numbers: sim.runner.frames.scaled_diff)."""
    d, s = scaled_diff(plays["a_total"].to_numpy(), plays["b_total"].to_numpy())
    p = plays.assign(diff_scaled=d)
    g = p.groupby(["pairing", "deal"], sort=True, observed=True)
    out = g.agg(a=("a", "first"), b=("b", "first"), plays=("diff_scaled", "size"),
                diff=("diff_scaled", "sum"), a_total=("a_total", "mean"), b_total=("b_total", "mean"))
    out["diff"] = out["diff"] / (s * out["plays"])
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
