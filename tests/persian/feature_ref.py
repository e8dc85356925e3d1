"""The `learned` strategy's features in plain Python (a reference for strategies/persian/features_nb.py).

Written from the rules and the feature list, not from the kernel's bit tricks: each card is an id
(suit * 13 + rank, jokers 52..55, P1), values are P4's, melds P5's, points P8's.
"""

from sim.games.persian import enums as E

JOKERS = set(range(E.JOKER0, E.N_CARDS))


def cards(mask: int) -> set[int]:
    return {c for c in range(E.N_CARDS) if (int(mask) >> c) & 1}


def value(c: int) -> int:
    if c >= E.JOKER0:
        return 20
    r = c % 13
    return r + 2 if r <= 7 else (10 if r <= 11 else 15)


def meldable(hand: set[int], obs) -> set[int]:
    """Sets of a rank, then jokers, then runs of what is left, then single lay-offs (features_nb)."""
    plain = {c for c in hand if c < E.JOKER0}
    used = {c for c in plain if sum(1 for d in plain if d % 13 == c % 13) >= 3}
    if len(hand & JOKERS) >= 3:
        used |= hand & JOKERS
    left = plain - used
    for c in left:
        s, r = divmod(c, 13)
        for lo in (r - 2, r - 1, r):
            if lo >= 0 and lo + 2 <= 12 and all(s * 13 + q in left for q in range(lo, lo + 3)):
                used.add(c)
    rest = hand - used
    if not rest & cards(obs[E.O_LAYOFF_CARDS]):
        return used
    for k in range(int(obs[E.O_N_MELDS])):
        meld = cards(obs[E.O_MELD_MASK + k])
        kind = obs[E.O_MELD_KIND + k]
        if kind == E.MK_RUN:
            c = min(meld)
            while c % 13 > 0 and c - 1 in rest:
                c -= 1
                used.add(c)
                rest.discard(c)
            c = max(meld)
            while c % 13 < 12 and c + 1 in rest:
                c += 1
                used.add(c)
                rest.discard(c)
        elif len(meld) == 3:
            fit = sorted(rest & JOKERS) if kind == E.MK_JOKERS else sorted(
                c for c in rest if c < E.JOKER0 and c % 13 == obs[E.O_MELD_KEY + k])
            if fit:
                used.add(fit[0])
                rest.discard(fit[0])
    return used


def meld_pts(used: set[int], obs) -> int:
    pts = sum(value(c) for c in used)
    if obs[E.O_RULES + E.R_FOUR_DOUBLE]:
        for r in range(13):
            four = {s * 13 + r for s in range(4)}
            if four <= used:
                pts += sum(value(c) for c in four)
        if JOKERS <= used:
            pts += 80
    return pts


def partial(dead: set[int]) -> set[int]:
    out = set()
    for c in dead:
        if c >= E.JOKER0:
            if len(dead & JOKERS) >= 2:
                out.add(c)
            continue
        s, r = divmod(c, 13)
        if any(d != c and d < E.JOKER0 and d % 13 == r for d in dead):
            out.add(c)
        if any(0 < abs(q - r) <= 2 and s * 13 + q in dead for q in range(13)):
            out.add(c)
    return out


def pressure(obs) -> float:
    seat = int(obs[E.O_SEAT])
    smallest = min(int(obs[E.O_HAND_SIZES + (seat + k) % 4]) for k in (1, 2, 3))
    p_hand = (2 - smallest) / 2 if smallest <= 1 else 0.0
    p_stock = (1 - obs[E.O_STOCK_N] / E.STOCK_SIZE) ** 2
    return max(p_hand, p_stock)


def related(card: int) -> set[int]:
    if card >= E.JOKER0:
        return JOKERS - {card}
    s, r = divmod(card, 13)
    same = {t * 13 + r for t in range(4)} - {card}
    return same | {s * 13 + q for q in range(13) if 0 < abs(q - r) <= 2}


def move_features(obs, row, i: int, chosen: int) -> list[float]:
    """features_nb.move_features of legal move ``row`` (index ``i``) in plain Python."""
    kind, a, b, c = (int(x) for x in row)
    hand = cards(obs[E.O_HAND])
    if kind == E.MV_TAKE:
        after = hand | cards(c)
    elif kind == E.MV_MELD:
        after = hand - cards(a)
    elif kind in (E.MV_LAYOFF, E.MV_DISCARD):
        after = hand - {a}
    else:
        after = set(hand)
    used = meldable(after, obs)
    dead = after - used
    points = 0
    if kind == E.MV_MELD:
        points = sum(value(x) for x in cards(a))
        if b != E.MK_RUN and len(cards(a)) == 4 and obs[E.O_RULES + E.R_FOUR_DOUBLE]:
            points *= 2
    elif kind == E.MV_LAYOFF:
        points = value(a)
    deadwood = sum(value(x) for x in dead) / 100
    feed_table = feed_taken = 0.0
    if kind == E.MV_DISCARD:
        feed_table = float(a in cards(obs[E.O_LAYOFF_CARDS]))
        nxt = (int(obs[E.O_SEAT]) + 1) % 4
        taken = cards(obs[E.O_TAKEN + nxt]) - cards(obs[E.O_TABLE_CARDS])
        feed_taken = float(bool(related(a) & taken))
    return [
        float(i == chosen), points / 100, meld_pts(used, obs) / 100, deadwood, deadwood * pressure(obs),
        len(after) / 10, float(len(after & JOKERS)),
        sum(value(x) for x in cards(c)) / 100 if kind == E.MV_TAKE else 0.0,
        a / 10 if kind == E.MV_TAKE else 0.0,
        len(partial(dead)) / 10, feed_table, feed_taken,
        float(kind == E.MV_STOP), float(kind in (E.MV_STOCK, E.MV_PASS)),
    ]
