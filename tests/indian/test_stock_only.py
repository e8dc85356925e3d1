"""strategies/indian/examples/stock_only.py: greedy without draws from the pile (notebook 07)."""

from __future__ import annotations

import strategies.indian.examples.stock_only  # noqa: F401  (registers "stock_only")
from sim.games.indian.engine import results_frame, run_deals


def test_stock_only_never_takes_from_the_pile_and_otherwise_plays():
    """It never draws from the pile (I3: stock or pile's top) where greedy at the same table does,
    and it still declares and wins deals."""
    df = results_frame(run_deals(["stock_only", "greedy", "stock_only"], 40, 5))
    assert (df["pickups_s0"] == 0).all() and (df["pickups_s2"] == 0).all()
    assert df["pickups_s1"].sum() > 0
    assert (df["winner"].isin([0, 2])).any()
    assert set(df["end"]) <= {"declare", "last_player", "cap"}
