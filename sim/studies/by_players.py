"""One study per table size (``match | tournament | sweep --players 2,4,6``), once for every kind.

A game that seats several table sizes plays the same experiment at each, on the same seed and
deal indices (a deal's cards depend on the table size too). What is the same for every kind
lives here: the sizes (:func:`parse_players`), one results file per size (:func:`sized_outs`,
``{players}`` in the name), the runs in order, stopping at the first interrupted one
(:func:`run_by_players`), and the table with a column per size that tournaments and sweeps
print (:func:`size_columns_lines`). What a row says is the kind's (match.py, sweep.py,
tournament.py ``by_players_table``), and a game's own columns come from its ``Game``
(``size_columns``, ``size_head``, ``size_cell``).
"""

from __future__ import annotations

from typing import Callable, Sequence

import pandas as pd

from sim.runner.results import ExperimentResult, RunInterrupted
from sim.runner.run import run_experiment

COMPLETE = ("deals", "sprt")  # a size whose run stopped otherwise is marked interrupted


def parse_players(players) -> list[int]:
    """Player counts from an int, a sequence of ints, or text ``"2,4,6"`` / ``"2-6"`` (in the order
    given, each once); a ValueError names a bad item."""
    if isinstance(players, (int,)) and not isinstance(players, bool):
        return [players]
    items: list = []
    if isinstance(players, str):
        for part in (x.strip() for x in players.split(",")):
            lo, dash, hi = part.partition("-")
            try:
                items += list(range(int(lo), int(hi) + 1)) if dash else [int(part)]
            except ValueError:
                raise ValueError(f"players {players!r}: {part!r} is not a player count (N, N,M,... or N-M)") from None
    else:
        items = list(players)
    if not items:
        raise ValueError(f"players {players!r}: no player count")
    dup = sorted({n for n in items if items.count(n) > 1})
    if dup:
        raise ValueError(f"players {players!r}: {', '.join(map(str, dup))} given more than once")
    return [int(n) for n in items]


def sized_outs(out, sizes: Sequence[int], example: str, what: str = "out") -> list[str | None]:
    """The results file of each size: ``out`` with ``{players}`` filled in (required with several
    sizes; ``example`` shows one, e.g. ``m-{players}p.parquet``); None without ``out``."""
    if out is not None and len(sizes) > 1 and "{players}" not in str(out):
        shown = out if what == "--out" else repr(out)
        raise ValueError(f"{what} {shown}: with several player counts the file name needs {{players}}, e.g. "
                         f"{example} (one results file per table size)")
    return [None if out is None else str(out).format(players=n) for n in sizes]


def play_by_players(play_one: Callable[[int, str | None], object], players, out, example: str) -> list:
    """``play_one(n, out_n)`` for every size ``n`` of ``players``, in the order given (the Python
    ``play_*_by_players``)."""
    sizes = parse_players(players)
    return [play_one(n, o) for n, o in zip(sizes, sized_outs(out, sizes, example))]


def run_by_players(exps: Sequence, outs: Sequence[str | None], **options) -> tuple[list[ExperimentResult],
                                                                                   RunInterrupted | None]:
    """Run the experiments (one per size, every one checked before) in order, each to its file;
    an interrupted run ends the list (its partial result last) and is returned beside it."""
    runs = []
    for exp, out in zip(exps, outs):
        try:
            runs.append(run_experiment(exp, **{**options, "out": out}))
        except RunInterrupted as e:
            runs.append(e.result)
            return runs, e
    return runs, None


def run_of(res) -> ExperimentResult:
    """The run of a study's result object (MatchResult, SweepResult ...), or the run itself."""
    return res if isinstance(res, ExperimentResult) else res.run


def interrupted_sizes(t: pd.DataFrame) -> list[int]:
    """The sizes of a by-size table (columns ``players``, ``stopped_by``) whose run did not finish."""
    sizes = list(dict.fromkeys(t["players"]))
    return [n for n in sizes if t.loc[t["players"] == n, "stopped_by"].iloc[0] not in COMPLETE]


def size_columns_lines(t: pd.DataFrame, heads: Sequence[str], aligns: Sequence[str], rows: Sequence[tuple],
                       cells: dict) -> list[str]:
    """A row per ``rows`` item (its labels under ``heads``, aligned ``"<"`` or ``">"``), a column per
    table size of ``t`` holding ``cells[(players, row)]`` ("n/a" when missing), then the sizes not
    finished."""
    sizes = list(dict.fromkeys(t["players"]))
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    cw = max(len(c) for c in cells.values())

    def labels(values) -> str:
        return "  " + "  ".join(f"{v:{a}{w}}" for v, a, w in zip(values, aligns, widths))

    lines = [(labels(heads) + "".join(f"  {f'{n} players':<{cw}}" for n in sizes)).rstrip()]
    for r in rows:
        lines.append((labels(r) + "".join(f"  {cells.get((n, r), 'n/a'):<{cw}}" for n in sizes)).rstrip())
    stopped = interrupted_sizes(t)
    if stopped:
        lines.append(f"  [interrupted at {', '.join(map(str, stopped))} players]")
    return lines
