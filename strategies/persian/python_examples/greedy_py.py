"""`greedy_py`: the built-in `greedy` written as a plain-Python strategy (issue 27).

The same decisions as strategies/persian/greedy_nb.py, move for move (tests/persian/
test_python_strategy.py compares every result row): take from the pile only for an
immediate meld with cheap extras, put down the play worth most points, discard the highest
card outside any partial meld. The decision logic is Python; the card arithmetic (what a
hand can meld, card values) calls the compiled helpers a compiled strategy uses, which are
ordinary functions from Python.

A Python strategy gets ``(decision, obs, moves, params, rng)``: ``moves`` holds exactly the
legal rows ``(kind, a, b, c)`` (MV_* of sim.games.persian.enums), ``obs`` the seat's view
(P10, the O_* slots), both read-only; it returns the index of the row it plays. Load it with
``--load strategies/persian/python_examples/greedy_py.py`` (or import it) and seat ``greedy_py``.
"""

from sim.games.persian.cards_nb import mask_value
from sim.games.persian.enums import D_DRAW, D_PLAY, JOKER0, MV_DISCARD, MV_TAKE, O_HAND, O_LAYOFF_CARDS
from sim.plugin.registry import register_python_strategy, registry_for
from strategies.persian.hand_melds_nb import highest_card, meldable_with, partial_meld_mask
from strategies.persian.moves_nb import blind_draw, move_points


def draw(obs, moves, max_extra: float) -> int:
    """The take gaining most meldable points net of its extra cards, else stock / pass."""
    hand = int(obs[O_HAND])
    lay = int(obs[O_LAYOFF_CARDS])
    base = mask_value(meldable_with(hand, obs, lay))
    best, best_score = -1, -1e18
    for i, (kind, _depth, _target, taken) in enumerate(moves.tolist()):
        if kind != MV_TAKE:
            continue
        used = meldable_with(hand | taken, obs, lay)
        extra = mask_value(taken & ~used)
        if extra > max_extra:
            continue
        score = mask_value(used) - base - extra
        if score > best_score:
            best, best_score = i, score
    return best if best >= 0 else blind_draw(moves, len(moves))


def play(obs, moves) -> int:
    """The play worth most table points; stop (row 0) when no play scores."""
    best, best_v = -1, 0
    for i in range(len(moves)):
        v = move_points(obs, moves, i)
        if v > best_v:
            best, best_v = i, v
    return best if best >= 0 else 0


def discard(obs, moves) -> int:
    """The highest-valued card in no partial meld (every card in one: the highest card);
    any joker stands for a joker."""
    hand = int(obs[O_HAND])
    loose = hand & ~partial_meld_mask(hand)
    pick = highest_card(loose if loose else hand)
    for i, (kind, card, _b, _c) in enumerate(moves.tolist()):
        if kind == MV_DISCARD and (card == pick or (card >= JOKER0 and pick >= JOKER0)):
            return i
    return 0


def greedy_py(decision, obs, moves, params, rng) -> int:
    """Persian greedy in Python: the index of the chosen legal move."""
    if decision == D_DRAW:
        return draw(obs, moves, params[0])
    if decision == D_PLAY:
        return play(obs, moves)
    return discard(obs, moves)


register_python_strategy("greedy_py", greedy_py, registry_for("persian").get("greedy").params,
                         doc="Persian greedy written in plain Python (the same moves as greedy).")
