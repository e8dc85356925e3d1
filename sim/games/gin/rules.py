"""Rule options of Gin Rummy (RULES.md Part 3, G9), validated: OpenSpiel's parameters.

* ``knock_card`` (0..10): the most deadwood a knock may leave (G4); 0 allows gin only.
* ``gin_bonus``, ``undercut_bonus`` (G7).
* ``oklahoma`` (G9): the knock card is the first upcard's value; an ace allows gin only.

A hand always ends (G8: at most 50 upcard draws, and the stock runs down to the wall), so
there is no turn cap to choose; ``turn_cap`` reports the bound for the experiment layer.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.games.gin import enums as E
from sim.plugin.rule_options import RuleOptionsBase, check_int


@dataclass(frozen=True)
class RuleOptions(RuleOptionsBase):
    """Every rule option of Part 3 with OpenSpiel's defaults."""

    knock_card: int = 10
    gin_bonus: int = 25
    undercut_bonus: int = 25
    oklahoma: bool = False

    def __post_init__(self) -> None:
        check_int("knock_card", self.knock_card, 0, 10)
        check_int("gin_bonus", self.gin_bonus, 0, 10_000)
        check_int("undercut_bonus", self.undercut_bonus, 0, 10_000)
        if not isinstance(self.oklahoma, (bool, np.bool_)):
            raise ValueError(f"rule option oklahoma: {self.oklahoma!r} is not true or false")

    @property
    def deals_per_game(self) -> int:
        """One hand is one game (OpenSpiel plays a single hand)."""
        return 1

    @property
    def turn_cap(self) -> int:
        """No cap is needed (G8); the most discards a hand can see."""
        return E.MAX_UPCARD_DRAWS + E.STOCK_AT_DEAL + 2

    def to_dict(self) -> dict:
        d = super().to_dict()
        d["oklahoma"] = bool(d["oklahoma"])
        return d

    def to_array(self, players: int = 2) -> np.ndarray:
        """The int64 rules array the kernels read (R_* slots of enums.py)."""
        check_players(players)
        arr = np.zeros(E.N_RULES, dtype=np.int64)
        arr[E.R_KNOCK_CARD] = self.knock_card
        arr[E.R_GIN_BONUS] = self.gin_bonus
        arr[E.R_UNDERCUT_BONUS] = self.undercut_bonus
        arr[E.R_OKLAHOMA] = int(bool(self.oklahoma))
        return arr

    def openspiel_params(self) -> dict:
        """The same options as OpenSpiel's gin_rummy parameters."""
        return {"knock_card": self.knock_card, "gin_bonus": self.gin_bonus, "undercut_bonus": self.undercut_bonus,
                "oklahoma": bool(self.oklahoma)}


def check_players(players) -> int:
    """G1: two players."""
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players != 2:
        raise ValueError(f"Gin Rummy needs 2 players (G1), got {players!r}")
    return 2
