"""The helper kernels a Persian strategy may call, in one import.

A strategy writer imports from here (``from strategies.persian.helpers_nb import
meldable_mask, move_points``, as ``examples/top_taker.py`` does); each kernel lives in the
module of its purpose:

* ``hand_melds_nb``: what the seat's own hand can meld and what its cards are worth
* ``moves_nb``: picking from the engine's list of legal moves
* ``table_nb``: the public facts of the table (melds, pile, hand and stock sizes)
* ``feed_nb``: the feed-chance model, what a discard may hand the next player

All take what a seat may see (P10): its own hand mask and the observation array. The
built-in strategies import the modules themselves.
"""

from strategies.persian.feed_nb import (
    FEED_BASE,
    hand_feed_chance,
    pile_feed_masks,
    pile_key_feed,
    related_cards,
    third_cards,
)
from strategies.persian.hand_melds_nb import (
    fourth_cards,
    held_threes,
    highest_card,
    live_partial_mask,
    meld_points,
    meld_points_with,
    meldable_mask,
    meldable_with,
    partial_meld_mask,
    wanted_mask,
)
from strategies.persian.moves_nb import blind_draw, discard_index, find_move, move_points, play_keeping
from strategies.persian.table_nb import (
    bridge_cards,
    end_pressure,
    layoff_cards,
    opponent_near_out,
    pile_cards,
    table_cards,
    table_facts,
)

__all__ = [
    "FEED_BASE", "blind_draw", "bridge_cards", "discard_index", "end_pressure", "find_move",
    "fourth_cards", "hand_feed_chance", "held_threes", "highest_card", "layoff_cards",
    "live_partial_mask", "meld_points", "meld_points_with", "meldable_mask", "meldable_with",
    "move_points", "opponent_near_out", "partial_meld_mask", "pile_cards", "pile_feed_masks",
    "pile_key_feed", "play_keeping", "related_cards", "table_cards", "table_facts",
    "third_cards", "wanted_mask",
]
