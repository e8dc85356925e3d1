"""Rule options of Persian Rummy (RULES.md Part 1, "Rule options"), validated."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.games.persian import enums as E
from sim.plugin.rule_options import RuleOptionsBase, check_int

LAST_CARD_CHOICES = ("meld", "discard")


@dataclass(frozen=True)
class RuleOptions(RuleOptionsBase):
    """Every rule option of Part 1, defaults first (P6.5, P7, P8, P9).

    ``turn_cap`` is the engine's P7 safety stop: a deal that reaches it ends as "cap".
    """

    last_card: str = "meld"
    out_bonus: int = 25
    four_of_a_kind_double: bool = True
    deals_per_game: int = 2
    turn_cap: int = 1000

    def __post_init__(self) -> None:
        if self.last_card not in LAST_CARD_CHOICES:
            raise ValueError(f"rule option last_card: {self.last_card!r} is not one of {', '.join(LAST_CARD_CHOICES)}")
        check_int("out_bonus", self.out_bonus, 0, 10_000)
        if not isinstance(self.four_of_a_kind_double, (bool, np.bool_)):
            raise ValueError(f"rule option four_of_a_kind_double: {self.four_of_a_kind_double!r} is not true or false")
        check_int("deals_per_game", self.deals_per_game, 1, 1000)
        check_int("turn_cap", self.turn_cap, 4, 100_000)


    def to_array(self, players: int = E.N_SEATS) -> np.ndarray:
        """The int64 array the kernels read (R_* slots). ``players`` as every game's
        ``to_array`` takes it: Persian Rummy is played by four (P2), never another count."""
        if players != E.N_SEATS:
            raise ValueError(f"Persian Rummy is played by {E.N_SEATS} players (P2), got {players}")
        arr = np.zeros(E.N_RULES, dtype=np.int64)
        arr[E.R_LAST_CARD] = LAST_CARD_CHOICES.index(self.last_card)
        arr[E.R_OUT_BONUS] = self.out_bonus
        arr[E.R_FOUR_DOUBLE] = int(bool(self.four_of_a_kind_double))
        arr[E.R_DEALS_PER_GAME] = self.deals_per_game
        arr[E.R_TURN_CAP] = self.turn_cap
        return arr
