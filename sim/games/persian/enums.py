"""Integer codes and array layouts shared by the compiled Persian Rummy engine and its wrappers.

Everything the kernels exchange is a plain int64 array; this module names the slots.
Cards are ids 0..55: ``suit * 13 + rank`` for the 52 French cards (suits C D H S,
ranks 2..A as 0..12) and 52..55 for the four jokers (P1). A set of cards is an
int64 bitmask with bit ``id`` set (56 bits, so the sign bit is never used).
"""

N_CARDS = 56
N_SUITS = 4
N_RANKS = 13
JOKER0 = 52  # first joker id; jokers are 52, 53, 54, 55
JOKER_MASK = 0xF << 52
N_SEATS = 4
HAND_SIZE = 7  # P3
STOCK_SIZE = 27  # P3
MAX_MELDS = 20  # 56 cards / 3 per meld, rounded up
MAX_MOVES = 512  # more than the most legal moves any decision can have

# --- decision kinds (what a strategy is asked) -----------------------------------
D_DRAW = 0  # stock, a discard-pile depth, or pass on an empty stock (P6.1, P6.2)
D_PLAY = 1  # a new meld, a lay-off, or stop playing (P6.3)
D_DISCARD = 2  # which card to discard (P6.5)
DECISION_NAMES = ("draw", "play", "discard")

# --- move rows: moves[i] = (kind, a, b, c) -----------------------------------------
MV_STOCK = 0  # take the top stock card
MV_TAKE = 1  # a = depth, b = target card, c = mask of the depth+1 cards taken
MV_PASS = 2  # pass on an empty stock
MV_MELD = 3  # a = mask of the new meld, b = meld kind (MK_*), c = rank (sets) or suit (runs)
MV_LAYOFF = 4  # a = card, b = meld number
MV_STOP = 5  # end the plays (only when no discard-pile target is pending)
MV_DISCARD = 6  # a = card
MOVE_COLS = 4
MOVE_NAMES = ("stock", "take", "pass", "meld", "layoff", "stop", "discard")

# --- meld kinds ----------------------------------------------------------------------
MK_SET = 0  # 3-4 cards of one rank (P5)
MK_JOKERS = 1  # 3-4 jokers (P5)
MK_RUN = 2  # 3+ consecutive cards of one suit, aces high only (P5)

# --- end reasons (P7) ---------------------------------------------------------------
END_OUT = 0
END_PASSES = 1
END_CAP = 2
END_ERROR = 3  # a strategy returned an illegal move; the deal was abandoned
END_NAMES = ("out", "passes", "cap", "error")

# --- rule options, as an int64 array (see sim.games.persian.rules.RuleOptions) ------------
R_LAST_CARD = 0  # 0 = meld (default), 1 = discard (P6.5)
R_OUT_BONUS = 1  # 25 (P8)
R_FOUR_DOUBLE = 2  # 1 = four of a kind melded at once counts double (P8)
R_DEALS_PER_GAME = 3  # 2 (P9)
R_TURN_CAP = 4  # turns after which a deal stops as "cap" (P7)
N_RULES = 5
LAST_CARD_MELD = 0
LAST_CARD_DISCARD = 1

# --- observation: what the deciding seat may see (P10), an int64 array ---------------
O_SEAT = 0  # the deciding seat
O_DEALER = 1
O_TURN = 2  # turns played so far in this deal
O_HAND = 3  # the deciding seat's own hand (mask)
O_STOCK_N = 4  # cards left in the stock
O_PILE_N = 5  # cards in the discard pile
O_TARGET = 6  # card taken from the pile that must still go on the table, or -1
O_N_MELDS = 7  # melds on the table
O_PASSES = 8  # consecutive passes on an empty stock so far
O_DECISION = 9  # D_* of the current decision
O_HAND_SIZES = 10  # 4 slots: cards in each seat's hand
O_TAKEN = 14  # 4 slots: mask of every card each seat has taken from the pile so far
O_PLACED = 18  # 4 slots: mask of every card each seat has put on the table
O_TEAM_TABLE = 22  # 2 slots: table points of team 0 and team 1 so far (P8)
O_PILE = 24  # N_CARDS slots: the discard pile, bottom first (O_PILE + O_PILE_N - 1 is the top)
O_MELD_MASK = O_PILE + N_CARDS  # MAX_MELDS slots: cards in each meld
O_MELD_KIND = O_MELD_MASK + MAX_MELDS  # MAX_MELDS slots: MK_* of each meld
O_MELD_KEY = O_MELD_KIND + MAX_MELDS  # MAX_MELDS slots: rank of a set, suit of a run, -1 for jokers
O_MELD_OWNER = O_MELD_KEY + MAX_MELDS  # MAX_MELDS slots: the seat that made the meld
O_RULES = O_MELD_OWNER + MAX_MELDS  # N_RULES slots: the rule options in force
O_LAST_DISCARD = O_RULES + N_RULES  # the card discarded by the previous turn, until the next draw; else -1
O_LAST_DISCARDER = O_LAST_DISCARD + 1  # the seat that discarded it, or -1
OBS_SIZE = O_LAST_DISCARDER + 1

# --- per-deal result columns (an int64 matrix, one row per deal) ---------------------
C_DEAL = 0  # deal index
C_DEALER = 1
C_END = 2  # END_*
C_OUT_SEAT = 3  # -1 unless END_OUT
C_TURNS = 4
C_TABLE = 5  # 2 columns: table points per team
C_HAND = 7  # 2 columns: hand penalty per team (positive, subtracted)
C_BONUS = 9  # 2 columns
C_TOTAL = 11  # 2 columns
C_ERR_SEAT = 13  # seat whose strategy made an illegal move, or -1
C_ERR_DECISION = 14  # D_* of that decision
C_ERR_VALUE = 15  # the value the strategy returned
C_ERR_N_MOVES = 16  # how many legal moves it had
# strategy counters, 4 columns each (one per seat)
C_TAKES = 17  # discard-pile takes
C_TAKE_DEPTH = 21  # sum of take depths
C_MAX_DEPTH = 25  # deepest take (-1 if none)
C_CARDS_TAKEN = 29  # cards taken from the pile (targets included)
C_FOURS = 33  # sets of four of one rank melded at once (not jokers)
C_JOKER_FOURS = 37  # four jokers melded at once
C_LAYOFF_OPP = 41  # points laid off onto opponents' melds
C_HAND_PTS = 45  # points caught in hand at the end
C_TURNS_SEAT = 49  # turns the seat played
C_TABLE_SEAT = 53  # table points the seat scored
C_DISCARDS = 57  # discards the seat made
C_FED = 61  # of those, discards the next player took (in a take of any depth) on its very next draw
N_RESULT_COLS = 65
COUNTER_NAMES = (
    ("takes", C_TAKES),
    ("take_depth_sum", C_TAKE_DEPTH),
    ("max_depth", C_MAX_DEPTH),
    ("cards_taken", C_CARDS_TAKEN),
    ("fours_melded", C_FOURS),
    ("joker_fours_melded", C_JOKER_FOURS),
    ("layoff_points_on_opponents", C_LAYOFF_OPP),
    ("hand_points", C_HAND_PTS),
    ("turns_played", C_TURNS_SEAT),
    ("table_points", C_TABLE_SEAT),
    ("discards", C_DISCARDS),
    ("discards_fed", C_FED),
)

# --- recorded events (recording mode), rows of (kind, seat, a, b, c) ------------------
EV_STOCK = 0  # a = card drawn
EV_TAKE = 1  # a = depth, b = mask of the cards taken
EV_PASS = 2
EV_MELD = 3  # a = mask of the new meld
EV_LAYOFF = 4  # a = card, b = meld number
EV_DISCARD = 5  # a = card
EV_END = 6  # seat = out seat or -1, a = END_*
EV_LEGAL = 7  # (trace level 2) a legal move before a decision: a = move kind, b = move a, c = move b
EV_DECISION = 8  # (trace level 2) a decision starts: a = D_*, b = number of legal moves, c = index chosen
EVENT_COLS = 5
MAX_EVENTS_PER_DEAL = 4096  # trace level 1; level 2 uses the wrapper's larger buffer

# --- full game state: the observation layout followed by the hidden part -----------
S_HANDS = OBS_SIZE  # 4 slots: every seat's hand (hidden)
S_STOCK = S_HANDS + N_SEATS  # STOCK_SIZE slots: the stock, bottom first; top at S_STOCK + O_STOCK_N - 1 (hidden)
ST_SIZE = S_STOCK + STOCK_SIZE
