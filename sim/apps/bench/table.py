"""The aligned table ``rummy-sim bench`` prints: rows of (measurement, value, range, target, mark)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

Row = tuple[str, str, str, str, str]


def rate(v: float) -> str:
    """A deals/s figure: whole numbers, two decimals for the slow searches."""
    return f"{v:,.0f}" if v >= 100 else f"{v:.2f}"


def format_range(result: dict, path: Sequence[str], fmt: Callable[[float], str]) -> str:
    """``min-max`` of the cell at ``path`` in ``deals_per_s_min`` / ``_max`` ("" if absent)."""
    lo, hi = result.get("deals_per_s_min"), result.get("deals_per_s_max")
    for k in path:
        lo = lo.get(k) if isinstance(lo, dict) else None
        hi = hi.get(k) if isinstance(hi, dict) else None
    return "" if lo is None or hi is None else f"{fmt(lo)}-{fmt(hi)}"


def table_lines(rows: Sequence[Row], header: Row | None) -> list[str]:
    """Aligned rows (measurement, value, range, target, mark); the range column only when
    some row has one."""
    with_range = any(r[2] for r in rows)
    cols = [0, 1, 2, 3] if with_range else [0, 1, 3]
    every = ([header] if header else []) + list(rows)
    widths = {i: max(len(r[i]) for r in every) for i in cols}

    def line(r: Row) -> str:
        text = f"  {r[0]:<{widths[0]}}  {r[1]:>{widths[1]}}"
        if with_range:
            text += f"  {r[2]:<{widths[2]}}"
        return (text + f"  {r[3]:<{widths[3]}}  {r[4]}").rstrip()

    return [line(r) for r in every]


def repeat_note(result: dict) -> list[str]:
    """The line saying what a deals/s figure is when cells ran more than once."""
    n = result.get("repeat", 1)
    if n <= 1:
        return []
    return [f"  deals/s: median of {n} runs per cell (range min-max), the cells measured round robin"]
