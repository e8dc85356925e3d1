"""Gin Rummy constants (RULES.md Part 3, G1-G9): cards, actions, phases, state and
observation slots, move rows, events and result columns.

Cards use OpenSpiel's numbering so that a move is the same number in both engines:
card ``c = suit * 13 + rank`` with suits in the order s, c, d, h and ranks A (0) .. K (12);
a hand is a bitmask of 52 bits (bit c set when the card is held). An *action* is
OpenSpiel's action id: 0..51 a card (discard, knock discard, lay-off), 52 draw the
upcard, 53 draw the stock, 54 pass, 55 knock, 56 + m lay meld m (0..184, MELD_* tables
of melds_nb.py).
"""

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

# rule array slots
R_KNOCK_CARD = 0
R_GIN_BONUS = 1
R_UNDERCUT_BONUS = 2
R_OKLAHOMA = 3
N_RULES = 4

# state = observation slots (public, or the deciding seat's own) followed by hidden slots
O_DECISION = 0
O_SEAT = 1  # the deciding seat (0 or 1)
O_FIRST = 2  # the seat that acts first in the deal (OpenSpiel's player 0)
O_HAND = 3  # the deciding seat's hand (bitmask)
O_UPCARD = 4  # the upcard, -1 when there is none
O_STOCK_N = 5
O_KNOCK_CARD = 6  # in force for the deal (oklahoma: the first upcard's value)
O_OUT = 7  # cards out of play (the discard pile), bitmask
O_KNOWN = 8  # per seat (2 slots): cards it took from the upcard and still holds (public, G9)
O_PICKUPS = 10  # per seat (2): upcards taken
O_PASSED = 12  # per seat (2): passed on the first upcard
O_TURN = 14  # completed discards in the deal
O_UPCARD_DRAWS = 15  # upcard draws counted for G8 (not the first upcard)
O_PREV_UPCARD = 16  # the upcard before the last draw (G8 repeated upcard), -1 none
O_REPEATED = 17  # the last discard was the upcard just drawn
O_KNOCKER = 18  # the seat that knocked, -1 none
O_MELDS = 19  # per seat (2): laid cards (bitmask), the knocker's melds then the defender's
O_LAYOFFS = 21  # cards laid off (bitmask)
O_N_LAYOFFS = 22
O_N_LAID = 23  # per seat (2): melds laid
MAX_LAID = 4  # melds a seat can lay (10 cards: at most 3)
O_KNOCKER_MELD_IDS = 25  # the knocker's meld ids in the order laid, -1 after the last
O_KNOCK_DISCARD = O_KNOCKER_MELD_IDS + MAX_LAID  # the knocker's discard, -1 before
O_GIN = O_KNOCK_DISCARD + 1  # 1 once the knocker has laid every card (G4: gin)
O_FIRST_UPCARD = O_GIN + 1
OBS_SIZE = O_FIRST_UPCARD + 1
S_HANDS = OBS_SIZE  # per seat (2): hands (hidden)
S_STOCK_POS = S_HANDS + 2  # index of the stock's top card in S_STOCK
S_STOCK = S_STOCK_POS + 1  # the stock in order, top first (STOCK_AT_DEAL cards, hidden)
ST_SIZE = S_STOCK + STOCK_AT_DEAL

# result row columns
C_DEAL = 0
C_FIRST = 1  # the seat that acted first
C_END = 2
C_KNOCKER = 3  # -1 when nobody knocked
C_TURNS = 4  # discards made
C_STOCK_LEFT = 5
C_KNOCK_CARD = 6
C_SCORE = 7  # per seat (2): points (zero-sum, G7)
C_DEADWOOD = 9  # per seat (2): final deadwood (after a knock: unmelded cards; else the best 10)
C_PICKUPS = 11  # per seat (2): upcards taken
C_LAYOFFS = 13  # per seat (2): cards laid off
C_UNDERCUT = 15  # 1 when the knocker was undercut
C_ERR_SEAT = 16
C_ERR_DECISION = 17
C_ERR_VALUE = 18
C_ERR_N_MOVES = 19
N_RESULT_COLS = 20
SEAT_COLUMNS = (("score", C_SCORE), ("deadwood", C_DEADWOOD), ("pickups", C_PICKUPS), ("layoffs", C_LAYOFFS))

# events (recording): (kind, seat, a, b, c)
EV_ACTION = 0  # a = action, b = decision, c = the card drawn from the stock (-1 otherwise)
EV_LEGAL = 1  # a = a legal action before the next EV_ACTION (record level 2)
EV_END = 2  # seat = knocker or -1, a = end code
EVENT_COLS = 5
MAX_EVENTS_PER_DEAL = 400
