"""tests/frame_checks.py: identical frames pass at once, every difference still fails."""

from __future__ import annotations

import pandas as pd
import pytest

from frame_checks import assert_same_frame


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"team": pd.Categorical(["a", "b", "a"]), "score": [1.5, -2.0, float("nan")],
                         "deal": [0, 1, 2]})


def test_identical_frames_pass_and_every_difference_fails():
    assert_same_frame(_frame(), _frame())
    changes = [
        lambda f: f.assign(team=pd.Categorical(["a", "b", "b"])),            # a categorical value
        lambda f: f.assign(team=pd.Categorical(["a", "b", "a"], categories=["b", "a"])),  # its categories
        lambda f: f.assign(deal=f["deal"].astype("int32")),                   # a dtype
        lambda f: f.rename_axis("row"),                                       # the index name
        lambda f: f.set_axis([5, 6, 7]),                                      # the index
        lambda f: f[["score", "team", "deal"]],                               # the column order
        lambda f: f.assign(score=[1.5, -2.0, 0.0]),                           # a NaN
    ]
    for change in changes:
        with pytest.raises(AssertionError):
            assert_same_frame(_frame(), change(_frame()))


def test_tolerances_still_apply_to_frames_that_differ():
    near = _frame().assign(score=[1.5 + 1e-13, -2.0, float("nan")])
    assert_same_frame(_frame(), near, rtol=1e-12)
    with pytest.raises(AssertionError):
        assert_same_frame(_frame(), near, check_exact=True)
