"""An Indian Rummy player's own position, from a file or the command line (issue 24, item 2).

The fields (docs/decisions.md, "Your own position"); cards by their log names ("JK" the
printed joker), seats absolute (0 .. players-1):

* ``hand``: the deciding seat's cards (required: 13 at a draw, 14 at a discard, I2, I3);
* ``cut``: the cut joker (required, I2); ``players`` (default: as many as ``hand_sizes``
  lists, else 4), ``decks`` (default by the player count, I1);
* ``pile``: the discard pile, top first (default empty); ``stock``: cards in the stock
  (default: what the other fields leave of the shoe);
* ``hand_sizes``: every hand's size from the deciding seat on, in turn order (default 13
  for each seat in the deal, 14 for the decider at a discard, 0 for a seat out of it);
* ``dropped``: the seats out of the deal, each ``{seat, how}`` with how first_drop,
  middle_drop or wrong_declaration (flag: ``"2: first_drop; 4: middle_drop"``; default none;
  each took 13 cards out of play, I5, I7);
* ``pickups``: per seat, the cards it took from the pile and still holds (I9; default none);
* ``decision``: draw (drop, stock or the top discard) or discard (default draw);
  ``seat`` (default 1), ``dealer`` (default the seat before ``seat``), ``turn``: the turn of
  the deal, 1-based (default 1), ``rules``: rule options. A seat has drawn in the deal
  (its drop is a middle drop, I7) when it holds pickups or its first turn, counted from the
  left of the dealer, came before ``turn`` (with dropped seats an approximation).

The hidden cards are not part of a position: to check the position against the rules with
the engine's own checks (``position.check_state``) and to list its legal moves, the unseen
cards are dealt in card order to the hidden hands (after their pickups) and the stock (the
cut card at its bottom while it is unseen, I2). Only the deciding seat's view is printed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from sim.apps.positions import (PositionError, an_int, card_list, check_fields, int_list, seat_cards,
                                to_toml)
from sim.games.indian import enums as E
from sim.games.indian.cards import kind_name, parse_kind
from sim.games.indian.position import Position
from sim.games.indian.rules import RuleOptions, check_players

FIELDS = {
    "hand": "the deciding seat's cards",
    "cut": "the cut joker",
    "players": "seats at the table, 2..6",
    "decks": "decks in the shoe",
    "pile": "the discard pile, top first",
    "stock": "cards in the stock",
    "hand_sizes": "hand sizes from the deciding seat on, in turn order",
    "dropped": "the seats out of the deal, each {seat, how}",
    "pickups": "per seat, the pile cards it took and still holds",
    "decision": "draw or discard",
    "seat": "the deciding seat",
    "dealer": "the dealer's seat",
    "turn": "the turn of the deal, 1-based",
    "rules": "rule options",
}
HOW = ("first_drop", "middle_drop", "wrong_declaration")
DECISIONS = tuple(E.DECISION_NAMES)


def _kinds(names: list[str], what: str) -> list[int]:
    out = []
    for n in names:
        try:
            out.append(parse_kind(n))
        except ValueError:
            raise PositionError(f"{what}: unknown card name {n!r} (rank 2-9 T J Q K A then suit C D H S, "
                                f"or JK)") from None
    return out


def _dropped(value: Any) -> dict[int, str]:
    if value is None:
        return {}
    if isinstance(value, str):
        pairs = [p.partition(":") for p in filter(None, (p.strip() for p in value.split(";")))]
        items = [(an_int(s.strip(), "dropped: the seat"), h.strip() or "first_drop") for s, _, h in pairs]
    elif isinstance(value, list) and all(isinstance(d, dict) and "seat" in d for d in value):
        items = [(an_int(d["seat"], "dropped: the seat"), d.get("how", "first_drop")) for d in value]
    else:
        raise PositionError(f"dropped: expected 'SEAT: HOW; ...' or a list of {{seat, how}}, got {value!r}")
    for s, how in items:
        if how not in HOW:
            raise PositionError(f"dropped: seat {s} out as {how!r}; expected {', '.join(HOW)}")
    return dict(items)


def position_from_fields(data: Mapping[str, Any]) -> Position:
    """The Position a player's fields describe (the hidden cards filled in card order, see the
    module docstring); PositionError naming the first problem."""
    check_fields(data, FIELDS, "Indian")
    for need in ("hand", "cut"):
        if need not in data:
            raise PositionError(f"an Indian position needs the {FIELDS[need]} (--{need} or the field {need})")
    sizes = int_list(data["hand_sizes"], "hand_sizes") if "hand_sizes" in data else None
    players = an_int(data.get("players", len(sizes) if sizes else 4), "players", 2, E.MAX_SEATS)
    rules, (decks, jokers, shoe) = _rules_and_shoe(data, players)
    decision, seat, dealer, turn, out = _who_decides(data, players)
    hand = _kinds(card_list(data["hand"], "hand"), "hand")
    pile = _kinds(card_list(data.get("pile"), "pile"), "pile")
    cut = _kinds(card_list(data["cut"], "cut"), "cut")
    if len(cut) != 1:
        raise PositionError(f"cut: one card, got {data['cut']!r}")
    sizes, stock = _sizes_and_stock(data, sizes, hand, pile, players, seat, out, decision, shoe)
    pickups, seen = _pickups_in_view(data, players, seat, out, sizes, hand, pile, decks, jokers)
    hands, stock_cards = _hidden_cards(seen, hand, pickups, sizes, players, seat, cut[0], stock, decks, jokers)
    try:
        return Position([[kind_name(k) for k in h] for h in hands], [kind_name(k) for k in pile],
                        [kind_name(k) for k in stock_cards], kind_name(cut[0]), dealer=dealer,
                        rules=rules, to_move=seat, decision=decision, turn=turn, out=out,
                        pickups=[[kind_name(k) for k in p] for p in pickups], has_drawn=_has_drawn(
                            players, dealer, seat, turn, decision, pickups))
    except ValueError as e:
        raise PositionError(str(e).splitlines()[0]) from None


def _rules_and_shoe(data: Mapping[str, Any], players: int) -> tuple[RuleOptions, tuple[int, int, int]]:
    """The rules (``decks`` may be given on its own) and the shoe they make at this table:
    (decks, printed jokers, cards), I1."""
    try:
        check_players(players)
        rules = RuleOptions.from_dict({**(data.get("rules") or {}),
                                       **({"decks": data["decks"]} if "decks" in data else {})})
        arr = rules.to_array(players)
    except (TypeError, ValueError) as e:
        raise PositionError(f"rules: {e}") from None
    return rules, (int(arr[E.R_DECKS]), int(arr[E.R_N_JOKERS]), int(arr[E.R_SHOE]))


def _who_decides(data: Mapping[str, Any], players: int):
    """The decision, the deciding seat, the dealer, the turn (0-based) and the seats out of the
    deal (the decider must be in it)."""
    decision = data.get("decision", "draw")
    if decision not in DECISIONS:
        raise PositionError(f"decision must be one of {', '.join(DECISIONS)}, got {decision!r} (a drop is a "
                            f"move of the draw decision, I7)")
    seat = an_int(data.get("seat", 1 % players), "seat", 0, players - 1)
    dealer = an_int(data.get("dealer", (seat - 1) % players), "dealer", 0, players - 1)
    turn = an_int(data.get("turn", 1), "turn", 1) - 1
    out = _dropped(data.get("dropped"))
    for s in out:
        if not 0 <= s < players:
            raise PositionError(f"dropped: seat {s} is not at a table of {players}")
    if seat in out:
        raise PositionError(f"seat {seat} decides but is out of the deal ({out[seat]})")
    return decision, seat, dealer, turn, out


def _sizes_and_stock(data, sizes, hand, pile, players, seat, out, decision, shoe) -> tuple[list[int], int]:
    """The hand sizes from the decider on (13 in the deal, 14 for the decider at a discard, 0
    out of it; I2, I3) and the stock, which with the pile and the cards out of play make the
    shoe (I1)."""
    want = [0 if (seat + k) % players in out else E.HAND_SIZE + (k == 0 and decision == "discard")
            for k in range(players)]
    if len(hand) != want[0]:
        raise PositionError(f"hand: {len(hand)} cards, but at a {decision} decision the deciding seat holds "
                            f"{want[0]} (I2, I3)")
    sizes = want if sizes is None else sizes
    if len(sizes) != players:
        raise PositionError(f"hand_sizes: {players} sizes from the deciding seat on, got {sizes}")
    if sizes[0] != len(hand):
        raise PositionError(f"hand_sizes starts with the deciding seat's {sizes[0]} cards, but the hand has "
                            f"{len(hand)}")
    if sizes != want:
        k = next(i for i in range(players) if sizes[i] != want[i])
        raise PositionError(f"hand_sizes: seat {(seat + k) % players} holds {sizes[k]}, but at a {decision} "
                            f"decision it holds {want[k]} (13 in the deal, 14 for the decider at a discard, 0 "
                            f"out of it; I2, I3)")
    gone = E.HAND_SIZE * len(out)
    rest = shoe - sum(sizes) - len(pile) - gone
    stock = an_int(data.get("stock", rest), "stock", 0)
    if stock != rest:
        raise PositionError(f"hand sizes {sum(sizes)} + stock {stock} + pile {len(pile)} + {gone} cards out of play "
                            f"with the dropped seats make {sum(sizes) + stock + len(pile) + gone}, not the shoe's "
                            f"{shoe} (I1)")
    return sizes, stock


def _pickups_in_view(data, players, seat, out, sizes, hand, pile, decks, jokers):
    """The pile cards each seat took and still holds (I9), and every card in view (hand, pile,
    the others' pickups), none more often than the shoe holds (I1)."""
    pickups = [[] for _ in range(players)]
    for s, cards in seat_cards(data.get("pickups"), "pickups"):
        if not 0 <= s < players:
            raise PositionError(f"pickups: seat {s} is not at a table of {players}")
        pickups[s] += _kinds(cards, f"pickups of seat {s}")
    seen = Counter(hand) + Counter(pile) + sum((Counter(p) for s, p in enumerate(pickups) if s != seat), Counter())
    for k, n in sorted(seen.items()):
        most = jokers if k == E.JOKER else decks
        if n > most:
            raise PositionError(f"{kind_name(k)} is given {n} times (hand, pile and the others' pickups together); "
                                f"a shoe of {decks} decks holds {most} (I1)")
    for s, p in enumerate(pickups):
        if s in out and p:
            raise PositionError(f"pickups: seat {s} is out of the deal ({out[s]}) and holds nothing")
        if len(p) > sizes[(s - seat) % players]:
            raise PositionError(f"pickups: seat {s} still holds {len(p)} pile cards, but its hand has "
                                f"{sizes[(s - seat) % players]}")
        if s == seat and Counter(p) - Counter(hand):
            c = kind_name(next(iter(Counter(p) - Counter(hand))))
            raise PositionError(f"pickups: the deciding seat took {c} and still holds it, but it is not in the hand")
    return pickups, seen


def _hidden_cards(seen, hand, pickups, sizes, players, seat, cut, stock, decks, jokers):
    """The unseen cards dealt in card order: each other hand its pickups and then the next
    unseen cards, the rest the stock with the cut card at its bottom (I2)."""
    unseen = Counter({k: (jokers if k == E.JOKER else decks) for k in range(E.N_KINDS)}) - seen
    pool = [k for k in range(E.N_KINDS) for _ in range(unseen[k])]
    if cut in pool and stock:  # the cut card lies face up at the bottom of the stock (I2)
        pool.remove(cut)
        pool.append(cut)
    hands = []
    for s in range(players):
        if s == seat:
            hands.append(hand)
            continue
        need = sizes[(s - seat) % players] - len(pickups[s])
        hands.append(pickups[s] + pool[:need])
        del pool[:need]
    return hands, (pool[-stock:] if stock else [])


def _has_drawn(players: int, dealer: int, seat: int, turn: int, decision: str, pickups) -> list[bool]:
    """Which seats drew in this deal (a first or a middle drop, I7): a seat with pickups, the decider at
    a discard, and every seat whose first turn (left of the dealer on, I3) came before turn ``turn``."""
    return [bool(pickups[s]) or (s == seat and decision == "discard") or turn > (s - dealer - 1) % players
            for s in range(players)]


def fields_from_position(pos: Position) -> dict:
    """The deciding seat's view of ``pos`` as position fields (no hidden card)."""
    st, seat, n = pos.st, pos.seat, pos.players
    out = [{"seat": s, "how": pos.status(s)} for s in range(n) if pos.status(s) != "in"]
    picked = [{"seat": s, "cards": " ".join(kind_name(k) for k in range(E.N_KINDS)
                                               for _ in range(int(st[E.O_PICKED + s * E.N_KINDS + k])))}
              for s in range(n) if st[E.O_PICKUPS + s]]
    return {k: v for k, v in {
        "decision": pos.decision, "players": n, "decks": int(st[E.O_RULES + E.R_DECKS]), "seat": seat,
        "dealer": int(st[E.O_DEALER]), "turn": pos.turn + 1, "cut": kind_name(int(st[E.O_CUT_JOKER])),
        "hand": " ".join(pos.hand(seat)), "pile": " ".join(pos.pile()), "stock": int(st[E.O_STOCK_N]),
        "hand_sizes": [int(st[E.O_HAND_N + (seat + k) % n]) for k in range(n)],
        "dropped": out or None, "pickups": picked or None,
    }.items() if v is not None}


def decision_from_fields(data: Mapping[str, Any]) -> Position:
    """The position to decide in (what `rummy-sim analyze --game indian` analyses)."""
    return position_from_fields(data)


def fields_from_args(args) -> dict:
    """The fields given as command-line flags (None: not given)."""
    for flag in ("table", "taken", "target"):
        if getattr(args, flag, None) is not None:
            raise PositionError(f"--{flag} is not part of an Indian position (the fields are {', '.join(FIELDS)})")
    flags = {"hand": args.hand, "pile": args.pile, "stock": args.stock, "hand_sizes": args.hand_sizes,
             "decision": args.decision, "seat": args.seat, "dealer": args.dealer, "turn": args.turn,
             "cut": args.cut, "players": args.players, "decks": args.decks, "pickups": args.pickups,
             "dropped": args.dropped}
    return {k: v for k, v in flags.items() if v is not None}


def describe(pos: Position) -> str:
    """The position as understood: the deciding seat's view as a position file, then its legal moves."""
    head = (f"Indian position: seat {pos.seat} of {pos.players}, {pos.decision} decision, wild rank "
            f"{kind_name(pos.wild_rank)[0]}, {len(pos.legal_rows())} legal moves")
    moves = "\n".join(f"#   {' '.join(map(str, m))}" for m in pos.legal_moves())
    return to_toml(fields_from_position(pos), head) + "# legal moves:\n" + moves + "\n"
