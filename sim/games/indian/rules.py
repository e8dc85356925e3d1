"""Rule options of Indian Rummy (RULES.md Part 2, I1-I9), validated.

Readings of the rule book made here (each a rule option where it is a real choice):

* ``decks`` (I1): 0 means "by player count" (two decks for 2-3 players, three for
  4-6). An explicit 1, 2 or 3 is accepted when the shoe can deal: players * 13 cards,
  one card to start the pile and the cut joker must leave at least one more card in
  the stock. Every deck adds two printed jokers (I1: 4 for two decks, 6 for three).
* Three identical cards count as a pure run only with three decks (I4), so
  ``triple_is_run`` is derived, not an option.
* ``max_points`` is the I6 cap on what one player loses in a deal (80); it caps the
  deadwood of the players caught by a declaration, not drops or wrong declarations
  (those are fixed amounts, all at most 80 by default).
* ``turn_cap``: a deal that reaches it ends as ``cap`` (no winner; drops and wrong
  declarations already made still count).
* The player count (2..6, I1) is the number of seated strategies, not a rule option;
  ``to_array(players)`` puts it into the kernels' rules array.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.games.indian import enums as E
from sim.plugin.rule_options import RuleOptionsBase, check_int


@dataclass(frozen=True)
class RuleOptions(RuleOptionsBase):
    """Every rule option of Part 2, defaults first (I1, I4, I5, I6, I7)."""

    decks: int = 0
    max_jokers_per_run: int = 1
    max_jokers_per_set: int = 1
    first_drop: int = 20
    middle_drop: int = 40
    max_points: int = 80
    wrong_declaration: int = 80
    turn_cap: int = 1000

    def __post_init__(self) -> None:
        check_int("decks", self.decks, 0, E.MAX_DECKS)
        check_int("max_jokers_per_run", self.max_jokers_per_run, 0, 13)
        check_int("max_jokers_per_set", self.max_jokers_per_set, 0, 3)
        check_int("first_drop", self.first_drop, 0, 10_000)
        check_int("middle_drop", self.middle_drop, 0, 10_000)
        check_int("max_points", self.max_points, 1, 10_000)
        check_int("wrong_declaration", self.wrong_declaration, 0, 10_000)
        check_int("turn_cap", self.turn_cap, 1, 1_000_000)

    @property
    def deals_per_game(self) -> int:
        """Points rummy: every deal stands alone (the experiment layer groups by it)."""
        return 1


    def decks_for(self, players: int) -> int:
        """The decks in the shoe for ``players`` seats (I1), checked against the deal (I2)."""
        check_players(players)
        decks = self.decks or (2 if players <= 3 else 3)
        shoe = decks * 54
        need = players * E.HAND_SIZE + 2
        if shoe - need < 1:
            raise ValueError(
                f"rule option decks: {decks} deck(s) ({shoe} cards with {2 * decks} jokers) cannot deal "
                f"{players} players: {players} x 13 cards, the first discard and the cut joker need {need} "
                "and leave no stock"
            )
        return decks

    def to_array(self, players: int) -> np.ndarray:
        """The int64 rules array the kernels read (R_* slots of enums.py)."""
        decks = self.decks_for(players)
        arr = np.zeros(E.N_RULES, dtype=np.int64)
        arr[E.R_PLAYERS] = players
        arr[E.R_DECKS] = decks
        arr[E.R_N_JOKERS] = 2 * decks
        arr[E.R_SHOE] = 54 * decks
        arr[E.R_MAX_J_RUN] = self.max_jokers_per_run
        arr[E.R_MAX_J_SET] = self.max_jokers_per_set
        arr[E.R_TRIPLE_IS_RUN] = 1 if decks == 3 else 0
        arr[E.R_FIRST_DROP] = self.first_drop
        arr[E.R_MIDDLE_DROP] = self.middle_drop
        arr[E.R_MAX_POINTS] = self.max_points
        arr[E.R_WRONG_DECL] = self.wrong_declaration
        arr[E.R_TURN_CAP] = self.turn_cap
        arr[E.R_DEALS_PER_GAME] = self.deals_per_game
        return arr


def check_players(players) -> int:
    """I1: 2 to 6 players."""
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise ValueError(f"players: {players!r} is not an integer")
    if not E.MIN_SEATS <= players <= E.MAX_SEATS:
        raise ValueError(f"Indian Rummy needs {E.MIN_SEATS} to {E.MAX_SEATS} players (I1), got {players}")
    return int(players)
