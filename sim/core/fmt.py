"""Numbers as text and as strict JSON: one definition each, for every printed table and report.

* :func:`num` - a number in a format spec, ``n/a`` when missing or not finite;
* :func:`pct` - a share as a percentage with one decimal (``12.3%``);
* :func:`format_p` - a p-value in a sentence (``p = 0.031``, ``p < 1e-12``);
* :func:`short_p` - a p-value in a table cell (``0.031``, ``<1e-12``);
* :func:`json_ready` - plain Python values for ``json.dumps`` (numpy scalars and arrays
  converted, NaN/inf as ``None``: strict JSON has neither).

Intervals as text (``mean [low, high]``) are sim.core.intervals'.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

NA = "n/a"


def _finite(x) -> bool:
    try:
        return math.isfinite(x)
    except (TypeError, ValueError):
        return False


def num(x, fmt: str = "+.2f") -> str:
    """``x`` formatted with ``fmt``; ``n/a`` for None, non-numbers, NaN and inf."""
    return format(x, fmt) if _finite(x) else NA


def pct(x) -> str:
    """A share (0..1) as a percentage with one decimal."""
    return f"{100 * x:.1f}%" if _finite(x) else NA


def format_p(p) -> str:
    """A p-value in running text."""
    if not _finite(p):
        return NA
    return "p < 1e-12" if p < 1e-12 else f"p = {p:.2g}"


def short_p(p) -> str:
    """A p-value in a table cell (two significant digits)."""
    if not _finite(p):
        return NA
    return "<1e-12" if p < 1e-12 else f"{p:.2g}"


def json_ready(value: Any) -> Any:
    """Plain Python values (dict keys as strings, tuples and arrays as lists, numpy scalars as
    int/float/bool) with NaN and inf as None, so ``json.dumps(..., allow_nan=False)`` works."""
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if isinstance(value, np.ndarray):
        return json_ready(value.tolist())
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return v if math.isfinite(v) else None
    return value


__all__ = ["NA", "num", "pct", "format_p", "short_p", "json_ready"]
