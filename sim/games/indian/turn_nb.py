"""One Indian Rummy deal, step by step (I2-I8): the steps every driver of a deal takes.

The engine's deal loop (engine_nb), ``Position`` (position.py: the information check and
decision analysis stand on it) and the profiler (benchmarks/profile_indian.py) play a deal
with these steps and differ only in who chooses the moves and what they record::

    start_deal                                   I2: shuffle, deal, the seats' streams, the row
    while st[O_TURN] < the turn cap:
        begin_turn                               I8 reshuffle, a draw decision
        draw_moves -> choose -> step_draw        I3 draw (the first-chance note) or I7 drop
        if it drew:
            discard_moves -> choose -> step_discard   I3 discard, I5 declaration, the next turn
    finish_deal                                  I5-I7 scoring, the end columns

A step returns GOING_ON or the END_* code that ended the deal. mc_search's play-outs
(strategies/indian/rollout_nb.py) step with the same state kernels under their own cheap
policy (no drops, no wrong declarations, one seat's score); a test steps them side by
side with these steps.

The steps read the rules from the state (``st[O_RULES:]``) and write the deal's result
row ``res`` (C_* columns: who dropped, wrong declarations, losses). They are inlined
into the loops that call them (``inline="always"``): every compiled function that links
the solver re-optimises it (cold compile), so the steps add no linked function of
their own to the engine; called from Python (Position) each compiles once on its own.
"""

from numba import njit

from sim.core.rng_nb import STREAM_SEAT0, stream_key
from sim.games.indian.cards_nb import jokers_in
from sim.games.indian.deal_nb import shuffle_shoe_into
from sim.games.indian.enums import (
    C_DEADWOOD,
    C_DEAL,
    C_DEALER,
    C_DROP,
    C_END,
    C_ERR_DECISION,
    C_ERR_SEAT,
    C_FIRST_CHANCE,
    C_GAIN,
    C_JOKERS,
    C_LOST,
    C_PICKUPS,
    C_PLAYERS,
    C_TURNS,
    C_TURNS_SEAT,
    C_WINNER,
    C_WRONG,
    D_DISCARD,
    D_DRAW,
    END_CAP,
    END_DECLARE,
    END_LAST_PLAYER,
    MV_DECLARE,
    MV_DROP,
    MV_STOCK,
    O_DECISION,
    O_HAS_DRAWN,
    O_IN_PLAY,
    O_PICKUPS,
    O_PLAYERS,
    O_RULES,
    O_SEAT,
    O_STATUS,
    O_TURN,
    O_WILD_RANK,
    R_DECKS,
    R_FIRST_DROP,
    R_MAX_J_RUN,
    R_MAX_J_SET,
    R_MAX_POINTS,
    R_MIDDLE_DROP,
    R_PLAYERS,
    R_TRIPLE_IS_RUN,
    R_WRONG_DECL,
    S_FIRST_CHANCE,
    ST_DROP_FIRST,
    ST_DROP_MIDDLE,
    ST_IN,
    ST_WRONG,
)
from sim.games.indian.memo_nb import kept_deadwood
from sim.games.indian.solver_nb import can_declare, min_deadwood
from sim.games.indian.state_nb import (
    declaring_discard,
    discard,
    draw_pile,
    draw_stock,
    hand_of,
    init_state,
    leave_deal,
    maybe_reshuffle,
    next_turn,
)

GOING_ON = -1  # a step's answer while the deal goes on


@njit(cache=True, inline="always", _nrt=False)
def start_deal(seed, deal, rules, st, shoe, rs, rng, hands_seq, buf, res):
    """Deal ``deal`` of a run with ``seed`` into ``st`` (I2: the dealer is ``deal % players``)
    and start its result row ``res``. Scratch, all overwritten: ``shoe`` and ``buf``
    (int64[>= MAX_SHOE]), ``rs`` (uint64[1]: the deal's stream 0, continued by the I8
    reshuffles), ``rng`` (uint64[>= players, 1]: seat s's strategy stream), ``hands_seq``
    (int64[MAX_SEATS, 13])."""
    players = rules[R_PLAYERS]
    dealer = deal % players
    n = shuffle_shoe_into(shoe, rs, seed, deal, rules[R_DECKS])
    init_state(st, shoe[:n], rules, players, dealer, hands_seq, buf)
    for s in range(players):
        rng[s, 0] = stream_key(seed, deal, STREAM_SEAT0 + s)
    res[:] = 0
    res[C_DEAL] = deal
    res[C_DEALER] = dealer
    res[C_PLAYERS] = players
    res[C_WINNER] = -1
    res[C_ERR_SEAT] = -1
    res[C_ERR_DECISION] = -1


@njit(cache=True, inline="always", _nrt=False)
def begin_turn(st, rs, buf, res):
    """The start of the seat's turn: counted in its ``turns_played``, the I8 reshuffle if
    the stock is empty (state_nb.maybe_reshuffle: returns the cards moved, ``buf[:m]`` the
    new stock top first), then its draw decision."""
    res[C_TURNS_SEAT + st[O_SEAT]] += 1
    m = maybe_reshuffle(st, rs, buf)
    st[O_DECISION] = D_DRAW
    return m


@njit(cache=True, inline="always", _nrt=False)
def drop_out(st, res):
    """I7: the seat to move drops (a first drop before its first draw of the deal, else a
    middle drop): its points lost, its hand leaves play. The last seat left wins
    (END_LAST_PLAYER); otherwise the turn passes."""
    seat = st[O_SEAT]
    res[C_JOKERS + seat] = jokers_in(hand_of(st, seat), st[O_WILD_RANK])
    if st[O_HAS_DRAWN + seat] == 0:
        loss = st[O_RULES + R_FIRST_DROP]
        status = ST_DROP_FIRST
    else:
        loss = st[O_RULES + R_MIDDLE_DROP]
        status = ST_DROP_MIDDLE
    res[C_LOST + seat] = loss
    res[C_DROP + seat] = status
    leave_deal(st, seat, status)
    if st[O_IN_PLAY] == 1:
        return END_LAST_PLAYER
    next_turn(st)
    return GOING_ON


@njit(cache=True, inline="always", _nrt=False)
def take_card(st, kind):
    """I3: the seat draws the top card of the stock (MV_STOCK) or of the pile (MV_PILE);
    its discard decision follows. Returns the kind drawn."""
    k = draw_stock(st) if kind == MV_STOCK else draw_pile(st)
    st[O_DECISION] = D_DISCARD
    return k


@njit(cache=True, inline="always", _nrt=False)
def discard_declares(st, k):
    """I5: the 13 cards the seat to move keeps when it discards ``k`` form a valid declaration
    (the hand is changed and restored)."""
    h = hand_of(st, st[O_SEAT])
    h[k] -= 1
    ok = can_declare(h, st[O_WILD_RANK], st[O_RULES + R_MAX_J_RUN], st[O_RULES + R_MAX_J_SET],
                     st[O_RULES + R_TRIPLE_IS_RUN])
    h[k] += 1
    return ok


@njit(cache=True, inline="always", _nrt=False)
def note_first_chance(st, valid, free, declares):
    """The ``first_chance`` column: the first turn at which the seat, holding 14 cards,
    could validly declare (I5, state_nb.declaring_discard), whether or not it does.

    Noted at the seat's discard decision, with its move chosen and not yet applied (the 14
    cards are those of its draw, and the turn the same): when the move is a valid
    declaration (``valid``, which the step computes anyway) the seat has its chance without
    another search; so without one when the seat's built-in strategy found the answer in its
    own discard search (``declares`` 1 or 0, memo_nb.M_DECLARES; -1: unknown, the check is
    made). ``free`` (int64[N_KINDS]) is scratch."""
    seat = st[O_SEAT]
    if st[S_FIRST_CHANCE + seat] < 0:
        if valid or declares == 1 or (declares < 0 and declaring_discard(
                hand_of(st, seat), st[O_WILD_RANK], st[O_RULES + R_MAX_J_RUN], st[O_RULES + R_MAX_J_SET],
                st[O_RULES + R_TRIPLE_IS_RUN], free) >= 0):
            st[S_FIRST_CHANCE + seat] = st[O_TURN]


@njit(cache=True, inline="always", _nrt=False)
def step_draw(st, kind, res):
    """Apply the draw decision's move ``kind`` (MV_STOCK, MV_PILE or MV_DROP; I3, I7)."""
    if kind == MV_DROP:
        return drop_out(st, res)
    take_card(st, kind)
    return GOING_ON


@njit(cache=True, inline="always", _nrt=False)
def settle_declaration(st, valid, res):
    """After a declaring discard: a valid declaration ends the deal (END_DECLARE, the seat
    to move wins); a wrong one costs ``wrong_declaration`` and the seat's 13 cards leave
    play (I5), the deal goes on without it unless one seat is left (END_LAST_PLAYER)."""
    if valid:
        return END_DECLARE
    seat = st[O_SEAT]
    res[C_JOKERS + seat] = jokers_in(hand_of(st, seat), st[O_WILD_RANK])
    res[C_LOST + seat] = st[O_RULES + R_WRONG_DECL]
    res[C_WRONG + seat] = 1
    leave_deal(st, seat, ST_WRONG)
    if st[O_IN_PLAY] == 1:
        return END_LAST_PLAYER
    next_turn(st)
    return GOING_ON


@njit(cache=True, inline="always", _nrt=False)
def settle_discard(st, kind, k, valid, res):
    """Discard kind ``k`` (MV_DISCARD) or declare discarding it (MV_DECLARE, ``valid``: whether
    the declaration holds, ``discard_declares``); I3, I5. The turn passes unless the deal ended."""
    discard(st, k)
    if kind == MV_DECLARE:
        return settle_declaration(st, valid, res)
    next_turn(st)
    return GOING_ON


@njit(cache=True, inline="always", _nrt=False)
def step_discard(st, kind, k, res, free, declares):
    """Apply the discard decision's move (``settle_discard``), the seat's first-chance note
    first (``note_first_chance``; ``free`` is its scratch, ``declares`` what the strategy
    found, -1 if nothing)."""
    valid = kind == MV_DECLARE and discard_declares(st, k)
    note_first_chance(st, valid, free, declares)
    return settle_discard(st, kind, k, valid, res)


@njit(cache=True, inline="always", _nrt=False)
def finish_deal(st, end, res, memo):
    """Score the deal that ended with ``end`` (GOING_ON counts as END_CAP: the turn cap) into
    ``res`` and return the winner (-1 at the cap). I6: after a valid declaration every
    other seat still in loses min(max_points, its least deadwood); dropped seats and wrong
    declarers lost their points already; the winner gains every loss. Every seat still
    in gets its deadwood and jokers, every seat its pickups and first chance. ``memo``: the
    observation scratch with the seats' memo blocks (memo_nb.kept_deadwood: a built-in's last
    discard already solved the 13 cards it kept), or any bare array."""
    if end == GOING_ON:
        end = END_CAP
    players = st[O_PLAYERS]
    winner = st[O_SEAT] if end == END_DECLARE else -1
    if end == END_LAST_PLAYER:
        for s in range(players):
            if st[O_STATUS + s] == ST_IN:
                winner = s
    res[C_END] = end
    res[C_WINNER] = winner
    res[C_TURNS] = st[O_TURN] + (0 if end == END_CAP else 1)
    wild = st[O_WILD_RANK]
    mjr = st[O_RULES + R_MAX_J_RUN]
    mjs = st[O_RULES + R_MAX_J_SET]
    tir = st[O_RULES + R_TRIPLE_IS_RUN]
    maxp = st[O_RULES + R_MAX_POINTS]
    total = 0
    for s in range(players):
        res[C_PICKUPS + s] = st[O_PICKUPS + s]
        res[C_FIRST_CHANCE + s] = st[S_FIRST_CHANCE + s]
        if st[O_STATUS + s] == ST_IN:
            h = hand_of(st, s)
            dw = kept_deadwood(memo, s, h)
            if dw < 0:
                dw = min_deadwood(h, wild, mjr, mjs, tir)
            res[C_DEADWOOD + s] = dw
            res[C_JOKERS + s] = jokers_in(h, wild)
            if end == END_DECLARE and s != winner:
                res[C_LOST + s] = dw if dw < maxp else maxp
        else:
            res[C_DEADWOOD + s] = -1
        total += res[C_LOST + s]
    if winner >= 0:
        res[C_GAIN + winner] = total
    return winner
