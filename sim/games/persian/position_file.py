"""A Persian Rummy player's own position, from a file or the command line, as a decision to analyse.

The fields (docs/decisions.md, "Your own position"); cards by their log names, seats
absolute (0..3, team 0 = seats 0 and 2, P2):

* ``hand``: the deciding seat's cards (required);
* ``pile``: the discard pile, top first (default: empty);
* ``hand_sizes``: every hand's size from the deciding seat on, in turn order (default: the
  hand's size, then 7 for each other seat, as dealt, P3);
* ``stock``: cards left in the stock (default: what the other fields leave of the 56, P1);
* ``decision``: draw, play or discard (default draw); ``target``: with play, the card taken
  from the pile that must still go on the table (P6.1; default none);
* ``table``: the melds on the table, each ``{seat, cards}`` (the seat that made it; default
  none); ``placed``: per seat, every card it put on the table (default: each meld's cards
  to the seat that made it); ``table_points``: the teams' table points so far (default
  their placed cards' values, P4, P8);
* ``taken``: per seat, the cards it took from the pile (P10; default none);
* ``seat`` (default 1), ``dealer`` (default the seat before ``seat``), ``turn``: the turn of the deal,
  1-based as ``rummy-sim show`` numbers turns (default 1), ``passes``: passes in a row on an empty stock (default 0),
  ``rules``: rule options (default the defaults).

Everything is checked against the rules, each problem one line (PositionError): an unknown
card name, a card more often than the deck holds (P1), sizes that do not add up to 56 with
the stock, the pile and the table, a table meld that is not one (P5), a taken card that cannot
be where the view says it is, a decision that is not legal there.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from sim.apps.positions import (PositionError, an_int, card_list, check_fields, int_list, seat_cards,
                                to_toml)
from sim.games.persian import enums as E
from sim.games.persian.cards import card_name, card_value, mask_to_names, parse_card
from sim.games.persian.decisions import DECISIONS, PersianDecision, describe_row
from sim.games.persian.melds_nb import meld_kind_key, refresh_table
from sim.games.persian.position import is_meld
from sim.games.persian.rules import RuleOptions
from sim.games.persian.state_nb import next_seat

FIELDS = {
    "hand": "the deciding seat's cards",
    "pile": "the discard pile, top first",
    "stock": "cards in the stock",
    "hand_sizes": "hand sizes from the deciding seat on, in turn order",
    "decision": "draw, play or discard",
    "target": "with play: the pile card still to go on the table",
    "table": "the melds on the table, each {seat, cards}",
    "placed": "per seat, the cards it put on the table",
    "table_points": "the two teams' table points so far",
    "taken": "per seat, the cards it took from the pile",
    "seat": "the deciding seat 0..3",
    "dealer": "the dealer's seat 0..3",
    "turn": "the turn of the deal, 1-based",
    "passes": "passes in a row on an empty stock",
    "rules": "rule options",
}


class _Ids:
    """Card ids for names, the four identical jokers (P1) given distinct ids in order."""

    def __init__(self):
        self.jokers = 0

    def ids(self, names: list[str], what: str) -> list[int]:
        out = []
        for n in names:
            try:
                c = parse_card(n)
            except ValueError:
                raise PositionError(f"{what}: unknown card name {n!r} (rank 2-9 T J Q K A then suit C D H S, "
                                    f"or JK)") from None
            if c >= E.JOKER0:
                if self.jokers == E.N_JOKERS:
                    raise PositionError(f"{what}: a fifth joker; the deck holds {E.N_JOKERS} (P1)")
                c = E.JOKER0 + self.jokers
                self.jokers += 1
            out.append(c)
        return out


def _mask(ids) -> int:
    return sum(1 << c for c in ids)


def _seat_masks(pairs, what: str, joker_ids: list[int], skip_jokers_of: int = -1) -> list[int]:
    """Per-seat masks of (seat, cards) pairs. The jokers are identical (P1), so a joker named here
    takes the next id of ``joker_ids`` (for ``placed``: the table's jokers; for ``taken``: the
    jokers out of view, which the taker must still hold); ``skip_jokers_of``'s jokers are left
    out (the deciding seat's own taken cards never matter to the sampler)."""
    out = [0] * E.N_SEATS
    pool = list(joker_ids)
    for seat, cards in pairs:
        if not 0 <= seat < E.N_SEATS:
            raise PositionError(f"{what}: seat {seat} is not one of 0..{E.N_SEATS - 1}")
        for c in _Ids().ids(cards, f"{what} of seat {seat}"):
            if c >= E.JOKER0:
                if seat == skip_jokers_of:
                    continue
                if not pool:
                    raise PositionError(f"{what}: seat {seat} has a joker, but no joker is left for it "
                                        f"({'on the table' if what == 'placed' else 'out of view'})")
                c = pool.pop(0)
            out[seat] |= 1 << c
    return out


def decision_from_fields(data: Mapping[str, Any]) -> PersianDecision:
    """The decision a position's fields describe (see the module docstring); PositionError if inconsistent."""
    check_fields(data, FIELDS, "Persian")
    if "hand" not in data:
        raise PositionError("a position needs the deciding seat's hand (--hand or the field hand)")
    decision, seat, dealer, rules = _who_and_rules(data)
    hand, pile, melds, meld_masks, seen = _cards_in_view(data)
    sizes, on_table, stock = _card_counts(data, hand, pile, meld_masks)
    turn = an_int(data.get("turn", 1), "turn", 1, rules.turn_cap) - 1  # O_TURN counts the turns played
    passes = an_int(data.get("passes", 0), "passes", 0, E.N_SEATS - 1)
    if passes and stock:
        raise PositionError(f"passes: {passes} passes with {stock} cards in the stock; one passes only on an "
                            f"empty stock (P6.2)")

    st = np.zeros(E.ST_SIZE, dtype=np.int64)
    st[E.O_SEAT], st[E.O_DEALER], st[E.O_TURN], st[E.O_PASSES] = seat, dealer, turn, passes
    st[E.O_DECISION] = DECISIONS.index(decision)
    st[E.O_HAND] = st[E.S_HANDS + seat] = _mask(hand)
    for k, n in enumerate(sizes):
        st[E.O_HAND_SIZES + (seat + k) % E.N_SEATS] = n
    st[E.O_STOCK_N] = stock
    st[E.O_PILE: E.O_PILE + len(pile)] = pile[::-1]  # stored bottom first
    st[E.O_PILE_N] = len(pile)
    _fill_table(st, data, melds, meld_masks, seat, on_table)
    in_view = _mask(seen)
    taken = _seat_masks(seat_cards(data.get("taken"), "taken"), "taken",
                        [c for c in range(E.JOKER0, E.N_CARDS) if not in_view >> c & 1], skip_jokers_of=seat)
    _check_taken(taken, st, seat, sizes)
    st[E.O_TAKEN: E.O_TAKEN + E.N_SEATS] = taken
    _fill_last_moves(st, data, decision, pile, turn, passes, seat)
    st[E.O_RULES: E.O_RULES + E.N_RULES] = rules.to_array()
    dec = PersianDecision.from_observation(st[: E.OBS_SIZE], rules=rules)
    dec.where = "your position"
    _check_legal(dec, decision, stock)
    return dec


def _who_and_rules(data: Mapping[str, Any]) -> tuple[str, int, int, RuleOptions]:
    """The decision, the deciding seat, the dealer (default: the seat before it) and the rules."""
    decision = data.get("decision", "draw")
    if decision not in DECISIONS:
        raise PositionError(f"decision must be one of {', '.join(DECISIONS)}, got {decision!r}")
    seat = an_int(data.get("seat", 1), "seat", 0, E.N_SEATS - 1)
    dealer = an_int(data.get("dealer", (seat - 1) % E.N_SEATS), "dealer", 0, E.N_SEATS - 1)
    try:
        rules = RuleOptions.from_dict(data.get("rules") or {})
    except (TypeError, ValueError) as e:
        raise PositionError(f"rules: {e}") from None
    return decision, seat, dealer, rules


def _cards_in_view(data: Mapping[str, Any]):
    """The hand, the pile (top first), the table melds (owner, names) with their masks (each a
    meld, P5), and every card in view, no card given twice (P1)."""
    ids = _Ids()
    hand = ids.ids(card_list(data["hand"], "hand"), "hand")
    pile = ids.ids(card_list(data.get("pile"), "pile"), "pile")
    melds = seat_cards(data.get("table"), "table")
    meld_masks = []
    for k, (owner, cards) in enumerate(melds):
        if not 0 <= owner < E.N_SEATS:
            raise PositionError(f"table meld {k}: seat {owner} is not one of 0..{E.N_SEATS - 1}")
        m = _mask(ids.ids(cards, f"table meld {k}"))
        if not is_meld(m):
            raise PositionError(f"table meld {k} ({' '.join(cards)}) is not a set, joker set or run (P5)")
        meld_masks.append(m)
    if len(melds) > E.MAX_MELDS:
        raise PositionError(f"table: at most {E.MAX_MELDS} melds, got {len(melds)}")
    seen = hand + pile + [c for m in meld_masks for c in range(E.N_CARDS) if m >> c & 1]
    dup = sorted({card_name(c) for c in seen if seen.count(c) > 1})
    if dup:
        raise PositionError(f"{dup[0]} is given more than once (hand, pile and table together); the deck "
                            f"holds one of each card (P1)")
    return hand, pile, melds, meld_masks, seen


def _card_counts(data: Mapping[str, Any], hand: list[int], pile: list[int], meld_masks: list[int]):
    """The hand sizes from the deciding seat on, the cards on the table and the stock: together
    with the pile they make the deck (P1)."""
    sizes = int_list(data["hand_sizes"], "hand_sizes") if "hand_sizes" in data else (
        [len(hand)] + [E.HAND_SIZE] * (E.N_SEATS - 1))
    if len(sizes) != E.N_SEATS or min(sizes) < 0:
        raise PositionError(f"hand_sizes: {E.N_SEATS} sizes >= 0 from the deciding seat on, got {sizes}")
    if sizes[0] != len(hand):
        raise PositionError(f"hand_sizes starts with the deciding seat's {sizes[0]} cards, but the hand has "
                            f"{len(hand)}")
    on_table = sum(bin(m).count("1") for m in meld_masks)
    rest = E.N_CARDS - sum(sizes) - len(pile) - on_table
    stock = an_int(data.get("stock", rest), "stock", 0)
    if stock != rest:
        raise PositionError(f"hand sizes {sum(sizes)} + stock {stock} + pile {len(pile)} + table {on_table} make "
                            f"{sum(sizes) + stock + len(pile) + on_table} cards, not the deck's {E.N_CARDS} (P1)")
    return sizes, on_table, stock


def _fill_table(st: np.ndarray, data: Mapping[str, Any], melds, meld_masks, seat: int, on_table: int) -> None:
    """The table melds, the cards each seat put there (``placed``, default: each meld's owner
    placed it) and the teams' table points (``table_points``, default: the placed cards' values)."""
    for k, ((owner, _), m) in enumerate(zip(melds, meld_masks)):
        kind, key = meld_kind_key(np.int64(m))
        st[E.O_MELD_MASK + k], st[E.O_MELD_KIND + k], st[E.O_MELD_KEY + k] = m, kind, key
        st[E.O_MELD_OWNER + k] = owner
    st[E.O_N_MELDS] = len(melds)
    refresh_table(st)
    if "placed" in data:
        table_jokers = [c for c in range(E.JOKER0, E.N_CARDS) if st[E.O_TABLE_CARDS] >> c & 1]
        placed = _seat_masks(seat_cards(data["placed"], "placed"), "placed", table_jokers)
        if sum(bin(m).count("1") for m in placed) != on_table:
            raise PositionError(f"placed: {sum(bin(m).count('1') for m in placed)} cards put on the table, but "
                                f"the table melds hold {on_table}")
    else:
        placed = [0] * E.N_SEATS
        for (owner, _), m in zip(melds, meld_masks):
            placed[owner] |= m
    st[E.O_PLACED: E.O_PLACED + E.N_SEATS] = placed
    if "table_points" in data:
        points = int_list(data["table_points"], "table_points")
        if len(points) != E.N_TEAMS:
            raise PositionError(f"table_points: one number per team ({E.N_TEAMS}), got {points}")
    else:
        points = [sum(card_value(c) for s in range(E.N_SEATS) if s % 2 == t for c in range(E.N_CARDS)
                      if placed[s] >> c & 1) for t in range(E.N_TEAMS)]
    st[E.O_TEAM_TABLE: E.O_TEAM_TABLE + E.N_TEAMS] = points


def _fill_last_moves(st: np.ndarray, data: Mapping[str, Any], decision: str, pile: list[int], turn: int,
                     passes: int, seat: int) -> None:
    """The previous turn's discard (P6.5: the top card, when the previous turn discarded it) and
    a play decision's card still to go on the table (``target``)."""
    st[E.O_TARGET] = -1
    st[E.O_LAST_DISCARD] = st[E.O_LAST_DISCARDER] = -1
    if decision == "draw" and pile and turn > 0 and not passes:  # the previous turn discarded the top (P6.5)
        st[E.O_LAST_DISCARD] = pile[0]
        st[E.O_LAST_DISCARDER] = (seat - 1) % E.N_SEATS
    if data.get("target") is not None:
        if decision != "play":
            raise PositionError(f"target: only a play decision has a card still to go on the table, not {decision}")
        t = _Ids().ids(card_list(data["target"], "target"), "target")
        held = [c for c in range(E.N_CARDS) if st[E.O_HAND] >> c & 1 and (c == t[0] or min(c, t[0]) >= E.JOKER0)]
        if len(t) != 1 or not held:
            raise PositionError(f"target: one card of the deciding hand, got {data['target']!r}")
        st[E.O_TARGET] = held[0]


def _check_taken(taken: list[int], st: np.ndarray, seat: int, sizes: list[int]) -> None:
    """A card taken from the pile is now on the table, back in the pile, or held by the last seat that
    took it (P10): out of view only in the hand of a seat that took it, in the deciding hand only if
    the deciding seat took it too (another took it, discarded it, and the deciding seat took it)."""
    public = int(st[E.O_TABLE_CARDS]) | _mask(int(c) for c in st[E.O_PILE: E.O_PILE + st[E.O_PILE_N]])
    own = int(st[E.O_HAND])
    others = [m & ~public for s, m in enumerate(taken) if s != seat]
    by_others = sum(others) and np.bitwise_or.reduce(others)
    once, twice = 0, 0
    for m in others:
        twice |= once & m
        once |= m
    for s, m in enumerate(taken):
        loose = m & ~public
        if s == seat:
            gone = loose & ~own & ~int(by_others)
            if gone:
                raise PositionError(f"taken: seat {s} took {card_name(gone.bit_length() - 1)}, which is not in its "
                                    f"hand, the pile or on the table, and no other seat took it")
            continue
        if loose & own & ~taken[seat]:
            c = card_name((loose & own & ~taken[seat]).bit_length() - 1)
            raise PositionError(f"taken: seat {s} took {c}, which is in the deciding hand, but the deciding seat "
                                f"never took it from the pile")
        held = bin(loose & ~own & ~twice).count("1")
        size = sizes[(s - seat) % E.N_SEATS]
        if held > size:
            raise PositionError(f"taken: seat {s} must still hold the {held} cards it took (not in view), but its "
                                f"hand has {size}")


def _check_legal(dec: PersianDecision, decision: str, stock: int) -> None:
    if len(dec.rows):
        return
    why = {"draw": "the stock is empty and no pile card can go on the table, yet a pass is always legal"
           if stock == 0 else "no draw is possible",
           "play": "the deciding hand is empty",
           "discard": "the deciding hand is empty: there is nothing to discard"}[decision]
    raise PositionError(f"a {decision} decision is not legal here: {why}")


def fields_from_decision(dec: PersianDecision) -> dict:
    """The fields of a decision's view (its observation), every one spelled out: a file that
    ``decision_from_fields`` reads back to the same view (jokers, being identical, may swap ids)."""
    o, seat = dec.obs, dec.seat
    names = lambda m: " ".join(mask_to_names(int(m)))  # noqa: E731
    per_seat = lambda base: [{"seat": s, "cards": names(o[base + s])} for s in range(E.N_SEATS)  # noqa: E731
                             if o[base + s]]
    in_view = int(o[E.O_HAND]) | int(o[E.O_TABLE_CARDS]) | sum(
        1 << int(c) for c in set(o[E.O_PILE: E.O_PILE + o[E.O_PILE_N]].tolist()))
    # a taken joker is written only where it says something: out of view, in an opponent's hand
    taken = [o[E.O_TAKEN + s] & ~(E.JOKER_MASK & (in_view if s != seat else -1)) for s in range(E.N_SEATS)]
    fields = {
        "decision": DECISIONS[dec.decision],
        "seat": seat,
        "dealer": int(o[E.O_DEALER]),
        "hand": names(o[E.O_HAND]),
        "pile": " ".join(card_name(int(c)) for c in o[E.O_PILE: E.O_PILE + o[E.O_PILE_N]][::-1]),
        "stock": int(o[E.O_STOCK_N]),
        "hand_sizes": [int(o[E.O_HAND_SIZES + (seat + k) % E.N_SEATS]) for k in range(E.N_SEATS)],
        "target": card_name(int(o[E.O_TARGET])) if o[E.O_TARGET] >= 0 else None,
        "turn": int(o[E.O_TURN]) + 1,
        "passes": int(o[E.O_PASSES]) or None,
        "table": [{"seat": int(o[E.O_MELD_OWNER + k]), "cards": names(o[E.O_MELD_MASK + k])}
                  for k in range(o[E.O_N_MELDS])] or None,
        "placed": per_seat(E.O_PLACED) or None,
        "table_points": [int(o[E.O_TEAM_TABLE + t]) for t in range(E.N_TEAMS)],
        "taken": [{"seat": s, "cards": names(m)} for s, m in enumerate(taken) if m] or None,
    }
    if dec.rules.to_dict() != RuleOptions().to_dict():
        fields["rules"] = dec.rules.to_dict()
    return {k: v for k, v in fields.items() if v is not None}


def fields_from_args(args) -> dict:
    """The fields given as command-line flags (--hand, --pile ...; None: not given)."""
    for flag in ("cut", "players", "decks", "pickups", "dropped"):
        if getattr(args, flag, None) is not None:
            raise PositionError(f"--{flag} is not part of a Persian position (the fields are {', '.join(FIELDS)})")
    flags = {"hand": args.hand, "pile": args.pile, "stock": args.stock, "hand_sizes": args.hand_sizes,
             "decision": args.decision, "target": args.target, "table": args.table, "taken": args.taken,
             "seat": args.seat, "dealer": args.dealer, "turn": args.turn}
    return {k: v for k, v in flags.items() if v is not None}


def describe(dec: PersianDecision) -> str:
    """The position as understood: its fields as a position file, then the legal moves."""
    head = (f"Persian position: seat {dec.seat} (team {dec.seat % 2}), {DECISIONS[dec.decision]} decision, "
            f"{len(dec.rows)} legal moves")
    moves = "\n".join(f"#   {describe_row(r)}" for r in dec.rows)
    return to_toml(fields_from_decision(dec), head) + "# legal moves:\n" + moves + "\n"
