"""Reading the opponents in Indian Rummy (``--infer POLICY``): how likely each sampled world makes their choices.

The worlds of an Indian decision analysis are sampled uniformly from the deciding seat's view
(decisions_nb.sample_world, I9). With ``--infer POLICY`` each world w also gets a
log-likelihood: the other seats' recorded choices since the deal began (at a draw decision:
the stock, the top discard, or a drop, I3, I7; so passing on the top discard and not dropping
are choices too; at a discard decision: the kind discarded) are replayed in that world and the
probability POLICY gives each recorded move is multiplied in. The analysis then weights world
w by it (sim.apps.analysis.weighted, game-agnostic).

* **The hands of the past.** World w gives every hidden hand *now* (counts per kind). A
  seat's hand at one of its earlier decisions is rebuilt backwards from it: the kinds it has
  since discarded (public) go back in, the kinds it has since taken from the pile (public) come
  out, and for each stock draw since, one of its cards not known to come from the pile (its
  copies beyond picked-minus-discarded of that kind, as determinize_nb keeps them) is picked
  uniformly as the drawn card (stream (seed, w)). Each such history has the same number of
  choices at every step (fixed by public facts), so one history per world is an unbiased
  estimate of the world's likelihood. A world the history contradicts (a kind taken back out
  that the hand does not hold) gets likelihood 0.
* **The policy's probability of a move** ("tremble" model, parameter ``tremble`` = e): the
  policy is asked in the seat's observation of then with the rebuilt hand
  (sim.plugin.strategy.call_from_python, its stream keyed by (seed, w, choice)); the recorded
  move gets (1 - e) + e / n if the policy chose it, e / n otherwise (n legal moves; 1 when
  forced). e > 0 keeps possible a world whose hand the policy would have played differently.
* **Not used:** the deciding seat's own choices (they tell nothing about hidden cards), and
  every choice of a seat no longer in the deal (dropped or declared wrongly, I5, I7): its hand
  left play unseen and the worlds do not deal it (determinize_nb), so nothing to replay.
* ``chain_worlds`` (``--infer-method mcmc``): instead of weighting uniform worlds, draw worlds from
  the posterior by Metropolis-Hastings chains that swap unseen cards between hidden places
  (sim.apps.analysis.mcmc); the likelihood is world_loglik, the same as the weights'.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.apps.analysis.mcmc import Chains, chain_states
from sim.apps.analysis.weighted import tremble_probability
from sim.core.rng_nb import stream_key
from sim.games.indian import enums as E
from sim.games.indian.decisions_nb import sample_world, world_pool
from sim.games.indian.determinize_nb import deal_into, pool_places
from sim.games.indian.position import row_to_move
from sim.games.indian.state_nb import discard_moves, draw_moves
from sim.plugin.strategy import call_from_python

STREAM_INFER = 1 << 21  # the choice of stock-drawn cards when a hand is rebuilt (world w)
STREAM_INFER_POLICY = 1 << 22  # the policy's stream at the k-th recorded choice: + k

EV_STOCK, EV_IN, EV_OUT = 0, 1, 2  # a hidden stock card drawn; a pile kind taken; a kind discarded


@dataclass
class Choice:
    """One recorded draw or discard decision of another seat: its public view and the move made."""

    seat: int
    decision: int  # D_DRAW or D_DISCARD
    obs: np.ndarray  # the seat's observation then, O_HAND left 0 (filled per world)
    kind: int  # MV_* of the move recorded
    arg: int  # the kind taken (MV_PILE) or discarded (MV_DISCARD, MV_DECLARE); 0 otherwise
    event: int  # index in that seat's events of the first event at or after this choice


@dataclass
class History:
    """What the other seats did from the deal to the decision analysed, as inference needs it."""

    seat: int  # the deciding seat
    choices: list[Choice] = field(default_factory=list)
    #: per seat, its hand events in order: (EV_*, kind or -1, copies known to come from the pile then)
    events: dict[int, list[tuple[int, int, np.ndarray | None]]] = field(default_factory=dict)


def _hand(pos, seat: int) -> np.ndarray:
    b = E.S_HANDS + seat * E.N_KINDS
    return pos.st[b: b + E.N_KINDS].copy()


def _pile_held(pos, seat: int) -> np.ndarray:
    """Copies of each kind ``seat`` publicly holds from the pile (picked minus discarded, >= 0)."""
    b = seat * E.N_KINDS
    picked = pos.st[E.O_PICKED + b: E.O_PICKED + b + E.N_KINDS]
    gone = pos.st[E.O_DISCARDED + b: E.O_DISCARDED + b + E.N_KINDS]
    return np.maximum(picked - gone, 0)


def record(hist: History, pos, move: tuple) -> None:
    """Note ``move`` (a Position move tuple) about to be made in Position ``pos`` and apply it;
    a move of the deciding seat is applied only. ValueError from Position.apply if illegal."""
    seat = pos.seat
    if seat == hist.seat:
        pos.apply(move)
        return
    ev = hist.events.setdefault(seat, [])
    obs = pos.observation()
    obs[E.O_HAND: E.O_HAND + E.N_KINDS] = 0
    rows = [r for r in pos.legal_rows() if row_to_move(r) == tuple(move)]
    decision = int(obs[E.O_DECISION])
    if rows:
        r = rows[0]
        hist.choices.append(Choice(seat, decision, obs, int(r[0]), int(r[1]), len(ev)))
    before = _hand(pos, seat)
    pos.apply(move)
    after = _hand(pos, seat)
    if move[0] == "stock":
        ev.append((EV_STOCK, -1, _pile_held(pos, seat)))
    elif move[0] == "pile":
        ev.append((EV_IN, int(np.flatnonzero(after > before)[0]), None))
    elif move[0] in ("discard", "declare") and (before > after).any():
        ev.append((EV_OUT, int(np.flatnonzero(before > after)[0]), None))


def uniform_pick(gen: np.random.Generator):
    """``pick(k, free)``: a kind drawn uniformly among the card copies counted by ``free``."""
    def pick(k: int, free: np.ndarray) -> int:
        i = int(gen.integers(int(free.sum())))
        return int(np.searchsorted(np.cumsum(free), i, side="right"))
    return pick


def hand_back(hand: np.ndarray, events: list, stop: int, pick) -> np.ndarray | None:
    """The hand (counts) before events[stop:], rebuilt from ``hand`` after all of them (None:
    impossible); ``pick(k, free)`` names the kind drawn from the stock at event k among the
    copies ``free`` not known to come from the pile."""
    hand = hand.copy()
    for k in range(len(events) - 1, stop - 1, -1):
        kind, card, pub = events[k]
        if kind == EV_OUT:
            hand[card] += 1
        elif kind == EV_IN:
            if hand[card] < 1:
                return None
            hand[card] -= 1
        else:
            free = np.maximum(hand - pub, 0)
            if free.sum() == 0:
                return None
            card = pick(k, free)
            if free[card] < 1:
                return None
            hand[card] -= 1
    return hand


def choice_probability(ch: Choice, hand: np.ndarray, fn, params, rng: np.ndarray, tremble: float,
                       st: np.ndarray, moves: np.ndarray) -> float:
    """The tremble-model probability of ``ch``'s recorded move for a seat holding ``hand``."""
    st[: E.OBS_SIZE] = ch.obs
    st[E.O_HAND: E.O_HAND + E.N_KINDS] = hand
    b = E.S_HANDS + ch.seat * E.N_KINDS
    st[b: b + E.N_KINDS] = hand
    n = (draw_moves if ch.decision == E.D_DRAW else discard_moves)(st, moves)
    hit = np.flatnonzero((moves[:n, 0] == ch.kind) & (moves[:n, 1] == ch.arg))
    return tremble_probability(
        hit, n, lambda: call_from_python(fn, ch.decision, st[: E.OBS_SIZE], moves[:n], n, params, rng), tremble)


def world_loglik(hist: History, world: np.ndarray, w: int, seed: int, params, fns, tremble: float,
                 pick=None) -> float:
    """log P(the other seats' recorded choices | world ``world``, a full state) under the policy
    (tremble model); seats out of the deal in ``world`` are left out (module docstring).
    ``pick(seat, k, free)``: the kind seat drew from the stock at its event k (default: uniform
    among ``free``, stream (seed, w))."""
    if pick is None:
        draw = uniform_pick(np.random.default_rng([seed, w, STREAM_INFER]))

        def pick(seat, k, free):
            return draw(k, free)
    st = np.zeros(E.ST_SIZE, np.int64)
    moves = np.zeros((E.MAX_MOVES, E.MOVE_COLS), np.int64)
    rng = np.zeros(1, np.uint64)
    by_seat: dict[int, list[int]] = {}
    for k, ch in enumerate(hist.choices):
        by_seat.setdefault(ch.seat, []).append(k)
    total = 0.0
    for seat, ks in by_seat.items():
        if int(world[E.O_STATUS + seat]) != E.ST_IN:
            continue
        events = hist.events.get(seat, [])
        b = E.S_HANDS + seat * E.N_KINDS
        hand, done = world[b: b + E.N_KINDS].copy(), len(events)
        for k in reversed(ks):
            ch = hist.choices[k]
            hand = hand_back(hand, events[:done], ch.event, lambda k, free, s=seat: pick(s, k, free))
            if hand is None:
                return -np.inf
            done = ch.event
            rng[0] = stream_key(np.int64(seed), np.int64(w), np.int64(STREAM_INFER_POLICY + k))
            p = choice_probability(ch, hand, fns[seat], params[seat], rng, tremble, st, moves)
            if p <= 0.0:
                return -np.inf
            total += float(np.log(p))
    return total


def worlds_loglik(obs: np.ndarray, hist: History, worlds: np.ndarray, seed: int, params, fns,
                  tremble: float) -> np.ndarray:
    """Each world's log-likelihood; world w is the one decisions_nb.play_worlds plays (sample_world)."""
    out = np.empty(len(worlds))
    st = np.zeros(E.ST_SIZE, np.int64)
    known = np.zeros(E.MAX_SEATS * E.N_KINDS, np.int64)
    avail = np.zeros(E.N_KINDS, np.int64)
    pool = np.zeros(E.MAX_SHOE, np.int64)
    for i, w in enumerate(worlds):
        sample_world(obs, np.int64(seed), np.int64(w), st, known, avail, pool)
        out[i] = world_loglik(hist, st, int(w), seed, params, fns, tremble)
    return out


#: a chain's places: each opponent's seat, the stock (MAX_SEATS), out of play (MAX_SEATS + 1);
#: the likelihood reads the opponents' hands only
HOT_PLACES = np.array([True] * E.MAX_SEATS + [False, False])


def chain_worlds(obs: np.ndarray, hist: History, samples: int, seed: int, params, fns, tremble: float,
                 chains: int, burn: int, thin: int, histories: int = 1) -> tuple[np.ndarray, Chains]:
    """``samples`` worlds (full states, one a row) from the posterior: Metropolis-Hastings chains
    over the unseen cards' order (sim.apps.analysis.mcmc), chain c starting at uniform world c
    (decisions_nb.world_pool, I9), each step swapping two unseen cards between two hidden
    places (pool_places: an opponent's cards beyond its known pile copies, the stock below the
    cut joker, cards out of play; so every public fact and count stays, I2, I9), weighted by
    world_loglik (``histories`` > 1: the mean likelihood of that many random histories, a less
    noisy unbiased estimate). Reads ``obs`` and ``hist`` only (public facts)."""
    known = np.zeros(E.MAX_SEATS * E.N_KINDS, np.int64)
    avail = np.zeros(E.N_KINDS, np.int64)
    pool = np.zeros(E.MAX_SHOE, np.int64)
    u, fixed = 0, False
    starts = []
    for c in range(chains):
        u, fixed = world_pool(obs, np.int64(seed), np.int64(c), known, avail, pool)
        starts.append(pool[:u].copy())
    place = np.zeros(u, np.int64)
    pool_places(obs, known, u, fixed, place)
    st = np.zeros(E.ST_SIZE, np.int64)

    def state_of(p: np.ndarray) -> np.ndarray:
        pool[:u] = p
        deal_into(obs, pool, u, fixed, st, known, avail)
        st[E.O_DECISION] = obs[E.O_DECISION]
        return st

    return chain_states(starts, place, HOT_PLACES, state_of,
                        lambda st_p, key: world_loglik(hist, st_p, key, seed, params, fns, tremble),
                        histories, samples, burn, thin, seed)
