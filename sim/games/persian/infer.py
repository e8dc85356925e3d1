"""Reading the other seats (``--infer POLICY``): how likely each sampled world makes their recorded choices.

The worlds of a Persian decision analysis are sampled uniformly from the deciding seat's view
(determinize_nb). With ``--infer POLICY`` each world w also gets a log-likelihood: the other
three seats' recorded draws (stock, a pile take at some depth, a pass) and discards since the
deal began are replayed in that world and the probability POLICY gives each recorded move is
multiplied in. The analysis then weights world w by it (sim.apps.analysis.weighted).

* **The hands of the past.** World w gives every hidden hand *now*. A seat's hand at one of
  its earlier decisions is rebuilt backwards from it: the cards it has since melded, laid off
  or discarded (public) go back in, the pile cards it has since taken (public) come out, and
  for each stock draw since, one of its cards not known to come from the pile is picked
  uniformly as the drawn card (with stream (seed, w)). Every such history is equally likely a
  priori (the number of choices at each step is fixed by public facts), so world x history is
  uniform, and one history per world is an unbiased estimate of the world's likelihood.
  A world the history contradicts (a card taken or played that it does not hold) gets 0.
* **The policy's probability of a move** ("tremble" model, parameter ``tremble`` = e): the
  policy is asked in the seat's rebuilt observation (sim.plugin.strategy.call_from_python, its
  stream keyed by (seed, w, choice)); the recorded move gets (1 - e) + e / n if the policy
  chose it, e / n otherwise, n the legal moves there (1 when the move was forced). e > 0 keeps
  a world whose hand the policy would have played differently possible: the policy is a model
  of the opponents, not their rule. The seats' plays (melds, lay-offs, stopping) are not used.
* The deciding seat's own choices tell nothing about hidden cards and are left out.
* ``chain_worlds`` (``--infer-method mcmc``): instead of weighting uniform worlds, draw worlds from
  the posterior by Metropolis-Hastings chains that swap unseen cards between hidden places
  (sim.apps.analysis.mcmc); the likelihood is world_loglik, the same as the weights'.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.games.persian import enums as E
from sim.games.persian.decisions_nb import STREAM_WORLD, world_pool
from sim.games.persian.determinize_nb import deal_into, determinize, pool_places
from sim.games.persian.position import row_to_move
from sim.games.persian.state_nb import legal_moves
from sim.apps.analysis.mcmc import Chains, chain_states
from sim.apps.analysis.weighted import tremble_probability
from sim.core.rng_nb import stream_key
from sim.plugin.strategy import call_from_python

STREAM_INFER = 1 << 21  # the choice of drawn cards when a hand is rebuilt (world w)
STREAM_INFER_POLICY = 1 << 22  # the policy's stream at the k-th recorded choice: + k

EV_STOCK, EV_IN, EV_OUT = 0, 1, 2  # a hidden stock card drawn; public pile cards taken; cards played or discarded


@dataclass
class Choice:
    """One recorded draw or discard of another seat: its public view and the move made."""

    seat: int
    decision: int  # D_DRAW or D_DISCARD
    obs: np.ndarray  # the seat's observation with O_HAND left 0 (filled per world)
    kind: int  # MV_* of the move recorded
    arg: int  # depth (MV_TAKE) or card (MV_DISCARD); 0 otherwise
    event: int  # index in that seat's events of the first event at or after this choice


@dataclass
class History:
    """What the other seats did from the deal to the decision analysed, as infer needs it."""

    seat: int  # the deciding seat
    choices: list[Choice] = field(default_factory=list)
    #: per seat, its hand events in order: (EV_*, card mask, pile-sourced cards it held then)
    events: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)


def history_of(start, moves: list[tuple], seat: int) -> History:
    """The History of a deal from Position ``start`` (changed in place) through ``moves``, the
    logged moves before the decision of seat ``seat``."""
    hist = History(seat)
    for move in moves:
        record(hist, start, move)
    return hist


def record(hist: History, pos, move: tuple) -> None:
    """Note the move ``move`` about to be made in Position ``pos`` (before it is applied) and
    apply it; a move of the deciding seat is applied only."""
    seat = pos.seat
    if seat == hist.seat:
        pos.apply(move)
        return
    ev = hist.events.setdefault(seat, [])
    phase = pos.phase
    if phase in ("draw", "discard"):
        rows = pos.legal_rows()
        kinds = [i for i, r in enumerate(rows) if _row_is(r, move)]
        r = rows[kinds[0]]
        obs = pos.observation()
        obs[E.O_HAND] = 0
        hist.choices.append(Choice(seat, int(obs[E.O_DECISION]), obs, int(r[0]),
                                   int(r[1]) if r[0] in (E.MV_TAKE, E.MV_DISCARD) else 0, len(ev)))
    before = int(pos.st[E.S_HANDS + seat])
    pos.apply(move)
    after = int(pos.st[E.S_HANDS + seat])
    pub = ev[-1][2] if ev else 0
    if phase == "draw":
        if move == ("stock",):
            ev.append((EV_STOCK, 0, pub))
        elif move[0] == "take":
            got = after & ~before
            ev.append((EV_IN, got, pub | got))
    elif before & ~after:
        out = before & ~after
        ev.append((EV_OUT, out, pub & ~out))


def _row_is(r, move: tuple) -> bool:
    return row_to_move(r) == move


def _popbits(mask: int) -> list[int]:
    return [i for i in range(E.N_CARDS) if mask >> i & 1]


def hands_back(hand: int, events: list, stop: int, pick) -> int | None:
    """The hand before events[stop:], rebuilt from ``hand`` after all of them (None: impossible);
    ``pick(k, cards)`` names the card drawn from the stock at event k among ``cards``."""
    for k in range(len(events) - 1, stop - 1, -1):
        kind, mask, pub = events[k]
        if kind == EV_OUT:
            if hand & mask:
                return None
            hand |= mask
        elif kind == EV_IN:
            if hand & mask != mask:
                return None
            hand &= ~mask
        else:
            cand = _popbits(hand & ~pub)
            if not cand:
                return None
            hand &= ~(1 << pick(k, cand))
    return hand


def choice_probability(ch: Choice, hand: int, fn, params, rng: np.ndarray, tremble: float,
                       st: np.ndarray, moves: np.ndarray) -> float:
    """The tremble-model probability of ``ch``'s recorded move for a seat holding ``hand``."""
    st[: E.OBS_SIZE] = ch.obs
    st[E.O_HAND] = hand
    st[E.S_HANDS + ch.seat] = hand
    n = legal_moves(st, ch.decision, moves)
    hit = np.flatnonzero((moves[:n, 0] == ch.kind) & ((moves[:n, 1] == ch.arg) |
                                                      ((ch.kind != E.MV_TAKE) & (ch.kind != E.MV_DISCARD))))
    return tremble_probability(
        hit, n, lambda: call_from_python(fn, ch.decision, st[: E.OBS_SIZE], moves[:n], n, params, rng), tremble)


def world_loglik(hist: History, world: np.ndarray, w: int, seed: int, params, fns, tremble: float,
                 pick=None) -> float:
    """log P(the other seats' recorded choices | world ``world``) under the policy (tremble model);
    ``pick(seat, k, cards)``: the stock card seat drew at its event k (default: uniform, stream (seed, w))."""
    gen = np.random.default_rng([seed, w, STREAM_INFER])
    if pick is None:
        def pick(seat, k, cards):
            return cards[int(gen.integers(len(cards)))]
    st = np.zeros(E.ST_SIZE, np.int64)
    moves = np.zeros((E.MAX_MOVES, E.MOVE_COLS), np.int64)
    rng = np.zeros(1, np.uint64)
    total = 0.0
    by_seat: dict[int, list[int]] = {}
    for k, ch in enumerate(hist.choices):
        by_seat.setdefault(ch.seat, []).append(k)
    for seat, ks in by_seat.items():
        events = hist.events.get(seat, [])
        hand, done = int(world[E.S_HANDS + seat]), len(events)
        for k in reversed(ks):
            ch = hist.choices[k]
            hand = hands_back(hand, events[: done], ch.event, lambda k, c, s=seat: pick(s, k, c))
            if hand is None:
                return -np.inf
            done = ch.event
            rng[0] = stream_key(seed, w, STREAM_INFER_POLICY + k)
            p = choice_probability(ch, hand, fns[seat], params[seat], rng, tremble, st, moves)
            if p <= 0.0:
                return -np.inf
            total += np.log(p)
    return total


def worlds_loglik(obs: np.ndarray, hist: History, worlds: np.ndarray, seed: int, params, fns,
                  tremble: float) -> np.ndarray:
    """Each world's log-likelihood; world w is the one decisions_nb.play_worlds plays (same stream)."""
    out = np.empty(len(worlds))
    rng = np.zeros(1, np.uint64)
    for i, w in enumerate(worlds):
        rng[0] = stream_key(np.int64(seed), np.int64(w), np.int64(STREAM_WORLD))
        out[i] = world_loglik(hist, determinize(obs, rng), int(w), seed, params, fns, tremble)
    return out


#: a chain's places: each other seat (partner included), the stock (N_SEATS); the likelihood
#: reads the other seats' hands only
HOT_PLACES = np.array([True] * E.N_SEATS + [False])


def chain_worlds(obs: np.ndarray, hist: History, samples: int, seed: int, params, fns, tremble: float,
                 chains: int, burn: int, thin: int, histories: int = 1) -> tuple[np.ndarray, Chains]:
    """``samples`` worlds (full states, one a row) from the posterior: Metropolis-Hastings chains
    over the unseen cards' order (sim.apps.analysis.mcmc), chain c starting at uniform world c
    (decisions_nb.world_pool, P10), each step swapping two unseen cards between two hidden
    places (determinize_nb.pool_places: another seat's cards beyond those it is known to hold
    from the pile, the stock; the own hand, pile and table are not in the pool, so every public
    fact and hand size stays), weighted by world_loglik (``histories`` > 1: the mean likelihood
    of that many random histories, a less noisy unbiased estimate). Reads ``obs`` and ``hist`` only."""
    known = np.zeros(E.N_SEATS, np.int64)
    pool = np.zeros(E.N_CARDS, np.int64)
    starts = []
    u = 0
    for c in range(chains):
        u = world_pool(obs, np.int64(seed), np.int64(c), known, pool)
        starts.append(pool[:u].copy())
    place = np.zeros(u, np.int64)
    pool_places(obs, known, u, place)
    st = np.zeros(E.ST_SIZE, np.int64)

    def state_of(p: np.ndarray) -> np.ndarray:
        pool[:u] = p
        deal_into(obs, pool, u, st, known)
        st[E.O_DECISION] = obs[E.O_DECISION]
        return st

    return chain_states(starts, place, HOT_PLACES, state_of,
                        lambda st_p, key: world_loglik(hist, st_p, key, seed, params, fns, tremble),
                        histories, samples, burn, thin, seed)
