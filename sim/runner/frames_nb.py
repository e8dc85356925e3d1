"""Compiled narrowing of the engine's int64 result rows into small-int columns (sim/runner/frames.py).

One pass over the row-major result matrix writes every kept column into a row of a
column-major output of its type, and reports a value that does not fit its type.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def narrow_rows(raw, off, src8, out8, src16, out16, src32, out32, src64, out64):
    """Copy ``raw[i, src*[k]]`` to ``out*[k, off + i]``; return the first result column whose
    value does not fit its output type, or -1."""
    bad = -1
    for i in range(raw.shape[0]):
        j = off + i
        for k in range(src8.shape[0]):
            v = raw[i, src8[k]]
            if v < -128 or v > 127:
                bad = src8[k]
            out8[k, j] = v
        for k in range(src16.shape[0]):
            v = raw[i, src16[k]]
            if v < -32768 or v > 32767:
                bad = src16[k]
            out16[k, j] = v
        for k in range(src32.shape[0]):
            v = raw[i, src32[k]]
            if v < -2147483648 or v > 2147483647:
                bad = src32[k]
            out32[k, j] = v
        for k in range(src64.shape[0]):
            out64[k, j] = raw[i, src64[k]]
    return bad
