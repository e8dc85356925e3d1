"""``assert_same_frame``: pandas' ``assert_frame_equal``, fast when the two frames are identical.

pandas 3 compares categorical and Arrow-backed columns value by value in Python (about 25 µs a
value: 7 of the 22 s of the Ctrl-C/resume test went to comparing its 280,000 values), while
``DataFrame.equals`` compares them vectorised. Frames identical in values, dtypes, labels and
index and column names pass at once (so they pass ``assert_frame_equal`` whatever its
tolerances); anything else goes to ``assert_frame_equal``, which says where they differ.
"""

from __future__ import annotations

import pandas as pd


def _identical(left, right) -> bool:
    return (isinstance(left, pd.DataFrame) and isinstance(right, pd.DataFrame) and left.shape == right.shape
            and type(left.index) is type(right.index) and left.index.equals(right.index)
            and left.columns.equals(right.columns)
            and list(left.index.names) == list(right.index.names)
            and list(left.columns.names) == list(right.columns.names)
            and all(_same_dtype(a, b) for a, b in zip(left.dtypes, right.dtypes)) and left.equals(right))


def _same_dtype(a, b) -> bool:
    """Equal dtypes; for categoricals also the order of the categories (unordered categoricals with
    the same categories in another order compare equal, ``assert_frame_equal`` tells them apart)."""
    if isinstance(a, pd.CategoricalDtype) and isinstance(b, pd.CategoricalDtype):
        return a.ordered == b.ordered and a.categories.equals(b.categories)
    return a == b


def assert_same_frame(left, right, **kwargs) -> None:
    """Pass when ``left`` and ``right`` are identical, else ``pd.testing.assert_frame_equal(left, right, **kwargs)``."""
    if not _identical(left, right):
        pd.testing.assert_frame_equal(left, right, **kwargs)
