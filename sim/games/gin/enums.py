"""Gin Rummy constants (RULES.md Part 3, G1-G9): cards, actions, phases, state and
observation slots, move rows, events and result columns.

Cards use OpenSpiel's numbering so that a move is the same number in both engines:
card ``c = suit * 13 + rank`` with suits in the order s, c, d, h and ranks A (0) .. K (12);
a hand is a bitmask of 52 bits (bit c set when the card is held). An *action* is
OpenSpiel's action id: 0..51 a card (discard, knock discard, lay-off), 52 draw the
upcard, 53 draw the stock, 54 pass, 55 knock, 56 + m lay meld m (0..184, MELD_* tables
of melds_nb.py).
"""

from sim.core.layout import layout

N_CARDS = 52
N_RANKS = 13
N_SUITS = 4
HAND_SIZE = 10
STOCK_AT_DEAL = N_CARDS - 2 * HAND_SIZE - 1  # 31 cards after the deal and the upcard
WALL_STOCK = 2  # G6
MAX_UPCARD_DRAWS = 50  # G8
MAX_DEADWOOD = 98  # OpenSpiel's bound for the defender's melds (any meld is legal)
N_MELDS = 185

# OpenSpiel action ids
A_UPCARD = 52
A_STOCK = 53
A_PASS = 54
A_KNOCK = 55
A_MELD0 = 56
N_ACTIONS = A_MELD0 + N_MELDS

# decisions (the phase a seat acts in)
D_FIRST = 0  # first upcard (G2): take it or pass; after two passes the first player draws the stock
D_DRAW = 1  # G3: the upcard or the stock
D_DISCARD = 2  # G3/G4: discard a card, or knock
D_KNOCK_DISCARD = 3  # G4: the knocker's discard that keeps the knock legal
D_KNOCK_MELD = 4  # G4: lay a meld, or pass once the rest counts at most the knock card
D_LAYOFF = 5  # G5: lay off a card onto the knocker's melds, or pass
D_DEFEND_MELD = 6  # G5: the defender lays a meld, or passes (ends the hand)
D_WALL = 7  # G6: knock taking the upcard, or pass (a draw)
DECISION_NAMES = ("first upcard", "draw", "discard", "knock discard", "knock meld", "lay-off", "defender meld",
                  "wall")

# move rows handed to strategies: (kind, action, x, mask), in ascending action order
MV_CARD = 0  # x = card: a discard, the knock discard or a lay-off
MV_UPCARD = 1
MV_STOCK = 2
MV_PASS = 3
MV_KNOCK = 4
MV_MELD = 5  # x = meld id, mask = its cards
MOVE_COLS = 4
MAX_MOVES = 64

# ends (G6-G8) and the engine's error code
END_KNOCK = 0
END_GIN = 1
END_WALL = 2
END_REPEATED = 3
END_UPCARD_LIMIT = 4
END_ERROR = 5
END_NAMES = ("knock", "gin", "wall", "repeated_upcard", "upcard_limit", "error")

# --- slot layouts ----------------------------------------------------------------------
# Each layout is an ordered list of (name, width): a slot starts where the one before it
# ends, so adding or widening a slot can never make two slots overlap or leave a gap
# (sim.core.layout; tests/contract/test_layout.py checks every game's LAYOUTS, and
# tests/gin/test_layout.py that no value moved).
N_SEATS = 2
MAX_LAID = 4  # melds a seat can lay (10 cards: at most 3)

# rule array slots
RULE_FIELDS = (
    ("R_KNOCK_CARD", 1),
    ("R_GIN_BONUS", 1),
    ("R_UNDERCUT_BONUS", 1),
    ("R_OKLAHOMA", 1),
)
_R, N_RULES = layout(RULE_FIELDS)
R_KNOCK_CARD = _R["R_KNOCK_CARD"]
R_GIN_BONUS = _R["R_GIN_BONUS"]
R_UNDERCUT_BONUS = _R["R_UNDERCUT_BONUS"]
R_OKLAHOMA = _R["R_OKLAHOMA"]

# state = observation slots (public, or the deciding seat's own) followed by hidden slots
OBS_FIELDS = (
    ("O_DECISION", 1),
    ("O_SEAT", 1),  # the deciding seat (0 or 1)
    ("O_FIRST", 1),  # the seat that acts first in the deal (OpenSpiel's player 0)
    ("O_HAND", 1),  # the deciding seat's hand (bitmask)
    ("O_UPCARD", 1),  # the upcard, -1 when there is none
    ("O_STOCK_N", 1),
    ("O_KNOCK_CARD", 1),  # in force for the deal (oklahoma: the first upcard's value)
    ("O_OUT", 1),  # cards out of play (the discard pile), bitmask
    ("O_KNOWN", N_SEATS),  # per seat: cards it took from the upcard and still holds (public, G9)
    ("O_PICKUPS", N_SEATS),  # per seat: upcards taken
    ("O_PASSED", N_SEATS),  # per seat: passed on the first upcard
    ("O_TURN", 1),  # completed discards in the deal
    ("O_UPCARD_DRAWS", 1),  # upcard draws counted for G8 (not the first upcard)
    ("O_PREV_UPCARD", 1),  # the upcard before the last draw (G8 repeated upcard), -1 none
    ("O_REPEATED", 1),  # the last discard was the upcard just drawn
    ("O_KNOCKER", 1),  # the seat that knocked, -1 none
    ("O_MELDS", N_SEATS),  # per seat: laid cards (bitmask), the knocker's melds then the defender's
    ("O_LAYOFFS", 1),  # cards laid off (bitmask)
    ("O_N_LAYOFFS", 1),
    ("O_N_LAID", N_SEATS),  # per seat: melds laid
    ("O_KNOCKER_MELD_IDS", MAX_LAID),  # the knocker's meld ids in the order laid, -1 after the last
    ("O_KNOCK_DISCARD", 1),  # the knocker's discard, -1 before
    ("O_GIN", 1),  # 1 once the knocker has laid every card (G4: gin)
    ("O_FIRST_UPCARD", 1),
)
_O, OBS_SIZE = layout(OBS_FIELDS)
O_DECISION = _O["O_DECISION"]
O_SEAT = _O["O_SEAT"]
O_FIRST = _O["O_FIRST"]
O_HAND = _O["O_HAND"]
O_UPCARD = _O["O_UPCARD"]
O_STOCK_N = _O["O_STOCK_N"]
O_KNOCK_CARD = _O["O_KNOCK_CARD"]
O_OUT = _O["O_OUT"]
O_KNOWN = _O["O_KNOWN"]
O_PICKUPS = _O["O_PICKUPS"]
O_PASSED = _O["O_PASSED"]
O_TURN = _O["O_TURN"]
O_UPCARD_DRAWS = _O["O_UPCARD_DRAWS"]
O_PREV_UPCARD = _O["O_PREV_UPCARD"]
O_REPEATED = _O["O_REPEATED"]
O_KNOCKER = _O["O_KNOCKER"]
O_MELDS = _O["O_MELDS"]
O_LAYOFFS = _O["O_LAYOFFS"]
O_N_LAYOFFS = _O["O_N_LAYOFFS"]
O_N_LAID = _O["O_N_LAID"]
O_KNOCKER_MELD_IDS = _O["O_KNOCKER_MELD_IDS"]
O_KNOCK_DISCARD = _O["O_KNOCK_DISCARD"]
O_GIN = _O["O_GIN"]
O_FIRST_UPCARD = _O["O_FIRST_UPCARD"]

STATE_FIELDS = (
    ("S_HANDS", N_SEATS),  # per seat: hands (hidden)
    ("S_STOCK_POS", 1),  # index of the stock's top card in S_STOCK
    ("S_STOCK", STOCK_AT_DEAL),  # the stock in order, top first (hidden)
)
_S, ST_SIZE = layout(STATE_FIELDS, OBS_SIZE)
S_HANDS = _S["S_HANDS"]
S_STOCK_POS = _S["S_STOCK_POS"]
S_STOCK = _S["S_STOCK"]

# result row columns
RESULT_FIELDS = (
    ("C_DEAL", 1),
    ("C_FIRST", 1),  # the seat that acted first
    ("C_END", 1),
    ("C_KNOCKER", 1),  # -1 when nobody knocked
    ("C_TURNS", 1),  # discards made
    ("C_STOCK_LEFT", 1),
    ("C_KNOCK_CARD", 1),
    ("C_SCORE", N_SEATS),  # per seat: points (zero-sum, G7)
    ("C_DEADWOOD", N_SEATS),  # per seat: final deadwood (after a knock: unmelded cards; else the best 10)
    ("C_PICKUPS", N_SEATS),  # per seat: upcards taken
    ("C_LAYOFFS", N_SEATS),  # per seat: cards laid off
    ("C_UNDERCUT", 1),  # 1 when the knocker was undercut
    ("C_ERR_SEAT", 1),
    ("C_ERR_DECISION", 1),
    ("C_ERR_VALUE", 1),
    ("C_ERR_N_MOVES", 1),
)
_C, N_RESULT_COLS = layout(RESULT_FIELDS)
C_DEAL = _C["C_DEAL"]
C_FIRST = _C["C_FIRST"]
C_END = _C["C_END"]
C_KNOCKER = _C["C_KNOCKER"]
C_TURNS = _C["C_TURNS"]
C_STOCK_LEFT = _C["C_STOCK_LEFT"]
C_KNOCK_CARD = _C["C_KNOCK_CARD"]
C_SCORE = _C["C_SCORE"]
C_DEADWOOD = _C["C_DEADWOOD"]
C_PICKUPS = _C["C_PICKUPS"]
C_LAYOFFS = _C["C_LAYOFFS"]
C_UNDERCUT = _C["C_UNDERCUT"]
C_ERR_SEAT = _C["C_ERR_SEAT"]
C_ERR_DECISION = _C["C_ERR_DECISION"]
C_ERR_VALUE = _C["C_ERR_VALUE"]
C_ERR_N_MOVES = _C["C_ERR_N_MOVES"]

#: every layout as (fields, first offset, name of its size constant, prefix of its slot constants)
LAYOUTS = (
    (RULE_FIELDS, 0, "N_RULES", "R_"),
    (OBS_FIELDS, 0, "OBS_SIZE", "O_"),
    (STATE_FIELDS, OBS_SIZE, "ST_SIZE", "S_"),
    (RESULT_FIELDS, 0, "N_RESULT_COLS", "C_"),
)
SEAT_COLUMNS = (("score", C_SCORE), ("deadwood", C_DEADWOOD), ("pickups", C_PICKUPS), ("layoffs", C_LAYOFFS))

# events (recording): (kind, seat, a, b, c)
EV_ACTION = 0  # a = action, b = decision, c = the card drawn from the stock (-1 otherwise)
EV_LEGAL = 1  # a = a legal action before the next EV_ACTION (record level 2)
EV_END = 2  # seat = knocker or -1, a = end code
EVENT_COLS = 5
MAX_EVENTS_PER_DEAL = 400
