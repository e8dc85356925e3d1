"""Plain-Python twin of strategies/indian/features_nb.py (the `learned` strategy's features).

Written from the feature list in that module's docstring, on the naive reference
(tests/indian/naive_indian.py: its own brute-force deadwood, I6, and pure-run test, I4), so a
slip in the kernel's bookkeeping (a wrong hand kept, a feature in the wrong slot, a missed
scale) shows as a disagreement. Observations are the engine's int64 arrays (I9: what the
deciding seat sees).
"""

from __future__ import annotations

from collections import Counter

from sim.games.indian import enums as E
from tests.indian.naive_indian import card_value, has_pure_run, is_joker_card, min_deadwood

N_FEATURES = 19
ACE = 12


def hand_counts(obs) -> Counter:
    """The deciding seat's own hand as kind -> copies."""
    return Counter({k: int(obs[E.O_HAND + k]) for k in range(E.N_KINDS) if obs[E.O_HAND + k] > 0})


def rules(obs):
    """(wild rank, max jokers per run, per set, triple is a run) of the observation."""
    r = E.O_RULES
    return (int(obs[E.O_WILD_RANK]), int(obs[r + E.R_MAX_J_RUN]), int(obs[r + E.R_MAX_J_SET]),
            int(obs[r + E.R_TRIPLE_IS_RUN]))


def deadwood(h: Counter, obs, capped: bool = True) -> int:
    """I6 deadwood of ``h``, at most the rules' max_points (``capped``)."""
    wild, mjr, mjs, tir = rules(obs)
    d = min_deadwood(list(h.elements()), wild, mjr, mjs, bool(tir))
    return min(d, int(obs[E.O_RULES + E.R_MAX_POINTS])) if capped else d


def held(h: Counter, suit: int, p: int) -> bool:
    """A card of ``suit`` at run position ``p`` (0 = low ace, 1..13 = 2..A) is held."""
    if not 0 <= p <= 13:
        return False
    return h[suit * 13 + (ACE if p == 0 else p - 1)] > 0


def long_seed(h: Counter, wild: int, mjr: int) -> bool:
    """Four consecutive positions of one suit holding four naturals, or three and a joker."""
    if mjr > 1:
        return True
    jokers = sum(c for k, c in h.items() if is_joker_card(k, wild))
    for s in range(4):
        for a in range(11):
            cnt = sum(1 for p in range(a, a + 4) if held(h, s, p))
            if cnt == 4 or (cnt == 3 and jokers > 0 and mjr > 0):
                return True
    return False


def links(h: Counter, k: int, near: float, far: float, same_rank: float, same_kind: float) -> float:
    """Links of natural ``k`` to the cards of ``h`` (the ace at both ends of its suit)."""
    s, r = divmod(k, 13)
    t = 0.0
    for p in ([r + 1, 0] if r == ACE else [r + 1]):
        t += near * (held(h, s, p - 1) + held(h, s, p + 1)) + far * (held(h, s, p - 2) + held(h, s, p + 2))
    t += same_rank * sum(1 for u in range(4) if u != s and h[u * 13 + r] > 0)
    return t + (same_kind if h[k] > 0 else 0.0)


def next_in_play(obs) -> int:
    seat, players = int(obs[E.O_SEAT]), int(obs[E.O_PLAYERS])
    for j in range(1, players):
        s = (seat + j) % players
        if obs[E.O_STATUS + s] == E.ST_IN:
            return s
    return seat


def feed_and_safe(obs, k: int, nx: int, wild: int) -> tuple[float, float]:
    """Links of ``k`` to what seat ``nx`` took from the pile and still holds, and to what it let go."""
    if is_joker_card(k, wild):
        return 2.0, 0.0
    picked = Counter({x: max(int(obs[E.O_PICKED + nx * 53 + x]) - int(obs[E.O_DISCARDED + nx * 53 + x]), 0)
                      for x in range(52)})
    gone = Counter({x: int(obs[E.O_DISCARDED + nx * 53 + x]) for x in range(52)})
    return links(+picked, k, 1.0, 0.5, 1.0, 0.5), links(+gone, k, 0.5, 0.0, 1.0, 1.0)


def hand_part(f: list, h: Counter, dead: int, ctx: dict, obs) -> None:
    wild, mjr, _, tir = rules(obs)
    d = dead / 100.0
    f[1], f[2], f[3], f[18] = d, d * ctx["turn"], d * ctx["pick"], d * ctx["low"]
    f[4] = float(has_pure_run(h, bool(tir)))
    f[5] = float(long_seed(h, wild, mjr))
    f[6] = float(sum(c for k, c in h.items() if is_joker_card(k, wild)))


def kept_after_take(h: Counter, t: int, obs) -> tuple[Counter, int]:
    """The best 13 of the hand plus ``t`` (least deadwood, ties the higher value, then the higher
    kind) and their capped deadwood."""
    wild = rules(obs)[0]
    h14 = h + Counter([t])
    best = None
    for k in h14:
        d = deadwood(h14 - Counter([k]), obs, capped=False)
        key = (d, -card_value(k, wild), -k)
        if best is None or key < best[0]:
            best = (key, k, d)
    return h14 - Counter([best[1]]), min(best[2], int(obs[E.O_RULES + E.R_MAX_POINTS]))


def move_features(obs, row, chosen_here: bool, ctx: dict) -> list[float]:
    """The N_FEATURES features of one legal move ``row`` (kind, a, b, c)."""
    f = [0.0] * N_FEATURES
    h, wild = hand_counts(obs), rules(obs)[0]
    kind, a = int(row[0]), int(row[1])
    if kind == E.MV_STOCK:
        hand_part(f, h, deadwood(h, obs), ctx, obs)
    elif kind in (E.MV_PILE, E.MV_DISCARD):
        rest = h - Counter([a]) if kind == E.MV_DISCARD else h
        if not is_joker_card(a, wild):
            f[16], f[17] = links(rest, a, 1.0, 0.5, 0, 0), links(rest, a, 0, 0, 1.0, 0)
        f[8] = card_value(a, wild) / 10.0
        if kind == E.MV_PILE:
            f[7] = 1.0
            kept, d = kept_after_take(h, a, obs)
        else:
            kept, d = rest, deadwood(rest, obs)
            nx = next_in_play(obs)
            if nx != int(obs[E.O_SEAT]):
                f[14], f[15] = feed_and_safe(obs, a, nx, wild)
        hand_part(f, kept, d, ctx, obs)
    elif kind == E.MV_DROP:
        f[9] = 1.0
        f[10] = float(obs[E.O_HAS_DRAWN + int(obs[E.O_SEAT])] != 0)
        f[11], f[12], f[13] = ctx["turn"], ctx["pick"], int(obs[E.O_IN_PLAY]) / 6.0
    f[0] = 1.0 if chosen_here else 0.0
    return f


def features(obs, rows, chosen: int) -> list[list[float]]:
    """Every legal move's features (declare rows: all 0 but feature 0 when it is ``chosen``)."""
    seat, players = int(obs[E.O_SEAT]), int(obs[E.O_PLAYERS])
    done = sum(int(obs[E.O_DISCARDED + seat * 53 + k]) for k in range(53))
    pick = max([int(obs[E.O_PICKUPS + s]) for s in range(players)
                if s != seat and obs[E.O_STATUS + s] == E.ST_IN] + [0])
    ctx = {"turn": done / 10.0, "pick": pick / 4.0, "low": max(0.0, 1.0 - int(obs[E.O_STOCK_N]) / 60.0)}
    return [move_features(obs, row, i == chosen, ctx) for i, row in enumerate(rows)]
