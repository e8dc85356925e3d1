"""Solver work a built-in strategy keeps from one decision of its seat to the next (issue 28).

Within one turn the same cards are solved again and again: greedy's draw solves the 14
cards its hand would hold with the pile's top, its discard solves the 14 it holds (the same
cards when it took the top), the engine then asks whether some discard of them declares
(the first-chance column, I5), which the discard's own search has already answered, and the
next draw wants the deadwood of the 13 cards kept, which that search found too (and so does
the deal's scoring at its end, turn_nb.finish_deal: a declarer's 13 are kept with deadwood 0).

The engine's observation scratch has ``MEMO_SIZE`` slots after the observation's
``OBS_SIZE``: one ``MEMO_SEAT`` block per seat that only the package's built-in strategies see
(a user strategy gets exactly the observation, sim.plugin.strategy). Each entry is keyed by
the exact hand it describes (``hand_key``: the 53 counts at 4 bits each, in 4 words), so it is
used only for those cards and a stale one is ignored; the engine zeroes the blocks when a deal
starts (an all-zero key is the empty hand, never asked about). Anywhere else (the analysis,
inference, a call from Python) a strategy's observation has ``OBS_SIZE`` slots and ``memo_at``
says there is no memo: the strategy computes everything, with the same answers.

One entry is the engine's: ``M_DECLARES``, set to -1 (unknown) by the engine before each of the
seat's decisions; a built-in's discard sets it to 1 or 0 once it knows whether some discard of
its 14 cards leaves a valid declaration, and the engine's first-chance note then needs no
search of its own (turn_nb.note_first_chance).
"""

from numba import njit

from sim.core.layout import layout as _layout
from sim.games.indian.enums import MAX_SEATS, N_KINDS, O_SEAT, OBS_SIZE

KEY_WORDS = 4  # 53 counts (at most 6 of a kind: three decks' printed jokers) at 4 bits, 16 a word
MEMO_FIELDS = (
    ("M_KEY14", KEY_WORDS),  # the 14 cards of the draw's take (the hand with the pile's top)
    ("M_M14", 1),  # their min_deadwood
    ("M_LOOSE14", 1),  # their loose kinds (solver deadwood_and_loose) as a bit mask
    ("M_KEY13", KEY_WORDS),  # the 13 cards the last discard kept
    ("M_D13", 1),  # their min_deadwood
    ("M_LOOSE13", 1),  # their loose kinds in an arrangement of least deadwood (bit mask), -1 unknown
    ("M_DECLARES", 1),  # the engine's: 1/0 some discard of the 14 held declares, -1 unknown
)
_M, MEMO_SEAT = _layout(MEMO_FIELDS)
M_KEY14 = _M["M_KEY14"]
M_M14 = _M["M_M14"]
M_LOOSE14 = _M["M_LOOSE14"]
M_KEY13 = _M["M_KEY13"]
M_D13 = _M["M_D13"]
M_LOOSE13 = _M["M_LOOSE13"]
M_DECLARES = _M["M_DECLARES"]
MEMO_SIZE = MAX_SEATS * MEMO_SEAT
DECLARES_UNKNOWN = -1


@njit(cache=True, inline="always", _nrt=False)
def memo_at(obs):
    """The first slot of the deciding seat's memo block in ``obs``, or -1 when ``obs`` is a
    bare observation (no memo)."""
    if obs.shape[0] < OBS_SIZE + MEMO_SIZE:
        return -1
    return OBS_SIZE + obs[O_SEAT] * MEMO_SEAT


@njit(cache=True, inline="always", _nrt=False)
def _key_word(h, w):
    x = 0
    for j in range(16):
        k = w * 16 + j
        if k < N_KINDS:
            x |= h[k] << (4 * j)
    return x


@njit(cache=True, inline="always", _nrt=False)
def key_matches(obs, slot, h):
    """The key at ``obs[slot:slot + KEY_WORDS]`` is that of the hand ``h``."""
    for w in range(KEY_WORDS):
        if obs[slot + w] != _key_word(h, w):
            return False
    return True


@njit(cache=True, inline="always", _nrt=False)
def store_key(obs, slot, h):
    """Write the key of the hand ``h`` at ``obs[slot:slot + KEY_WORDS]``."""
    for w in range(KEY_WORDS):
        obs[slot + w] = _key_word(h, w)


@njit(cache=True, inline="always", _nrt=False)
def kept_deadwood(obs, seat, h):
    """min_deadwood of ``seat``'s hand ``h`` when its last discard kept exactly these cards and
    said so (M_KEY13, M_D13: a built-in's own exact answer), else -1 (a user strategy's seat,
    another hand, or a bare observation): the deal's scoring then solves it."""
    if obs.shape[0] < OBS_SIZE + MEMO_SIZE:
        return -1
    at = OBS_SIZE + seat * MEMO_SEAT
    return obs[at + M_D13] if key_matches(obs, at + M_KEY13, h) else -1


@njit(cache=True, inline="always", _nrt=False)
def added_kind(obs, slot, h):
    """The kind k when the hand ``h`` is the hand keyed at ``obs[slot:]`` plus one card of k
    (the card a seat drew after its last discard), else -1."""
    c = -1
    for k in range(N_KINDS):
        d = h[k] - ((obs[slot + k // 16] >> (4 * (k % 16))) & 15)
        if d != 0:
            if d != 1 or c >= 0:
                return -1
            c = k
    return c


@njit(cache=True, inline="always", _nrt=False)
def loose_mask(h, loose):
    """The kinds held that ``loose`` marks (solver deadwood_and_loose), as a bit mask."""
    x = 0
    for k in range(N_KINDS):
        if h[k] > 0 and loose[k]:
            x |= 1 << k
    return x


@njit(cache=True, inline="always", _nrt=False)
def unpack_loose(mask, loose):
    """``loose[k]`` = 1 for the kinds in ``mask``, else 0."""
    for k in range(N_KINDS):
        loose[k] = (mask >> k) & 1


@njit(cache=True, inline="always", _nrt=False)
def clear_memo(obs):
    """Forget every seat's entries (a deal starts): all-zero keys, the engine's entry unknown."""
    for i in range(OBS_SIZE, OBS_SIZE + MEMO_SIZE):
        obs[i] = 0
    for s in range(MAX_SEATS):
        obs[OBS_SIZE + s * MEMO_SEAT + M_DECLARES] = DECLARES_UNKNOWN
