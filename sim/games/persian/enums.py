"""Integer codes and array layouts shared by the compiled Persian Rummy engine and its wrappers.

Everything the kernels exchange is a plain int64 array; this module names the slots.
Cards are ids 0..55: ``suit * 13 + rank`` for the 52 French cards (suits C D H S,
ranks 2..A as 0..12) and 52..55 for the four jokers (P1). A set of cards is an
int64 bitmask with bit ``id`` set (56 bits, so the sign bit is never used).
"""

from sim.core.layout import layout

N_SUITS = 4
N_RANKS = 13
TOP_RANK = N_RANKS - 1  # the ace (aces high only, P5)
RANK_BITS = (1 << N_RANKS) - 1  # the 13 rank bits of one suit in a mask (0x1FFF)
JOKER0 = N_SUITS * N_RANKS  # first joker id (52); jokers are 52, 53, 54, 55
N_JOKERS = 4
N_CARDS = JOKER0 + N_JOKERS  # 56
JOKER_MASK = ((1 << N_JOKERS) - 1) << JOKER0
N_SEATS = 4
N_TEAMS = 2  # seats s and s + 2 are partners: team s % 2 (P2)
HAND_SIZE = 7  # P3
STOCK_SIZE = N_CARDS - N_SEATS * HAND_SIZE - 1  # 27: the rest after the hands and the first pile card (P3)
MIN_MELD = 3  # cards in the smallest meld (P5)
SET_MAX = 4  # cards in a full set: four of a rank, or four jokers (P5)
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
RULE_FIELDS = (
    ("R_LAST_CARD", 1),  # 0 = meld (default), 1 = discard (P6.5)
    ("R_OUT_BONUS", 1),  # 25 (P8)
    ("R_FOUR_DOUBLE", 1),  # 1 = four of a kind melded at once counts double (P8)
    ("R_DEALS_PER_GAME", 1),  # 2 (P9)
    ("R_TURN_CAP", 1),  # turns after which a deal stops as "cap" (P7)
)
_R, N_RULES = layout(RULE_FIELDS)
R_LAST_CARD = _R["R_LAST_CARD"]
R_OUT_BONUS = _R["R_OUT_BONUS"]
R_FOUR_DOUBLE = _R["R_FOUR_DOUBLE"]
R_DEALS_PER_GAME = _R["R_DEALS_PER_GAME"]
R_TURN_CAP = _R["R_TURN_CAP"]
LAST_CARD_MELD = 0
LAST_CARD_DISCARD = 1

# --- slot layouts --------------------------------------------------------------------
# Each layout is an ordered list of (name, width): a slot starts where the one before it
# ends, so adding or widening a slot can never make two slots overlap or leave a gap.
# The named constants below are read back from these lists (tests/contract/test_layout.py
# checks that every listed name has its constant, in order, without gaps or overlaps;
# tests/persian/test_layout.py that no value moved).


# --- observation: what the deciding seat may see (P10), an int64 array ---------------
OBS_FIELDS = (
    ("O_SEAT", 1),  # the deciding seat
    ("O_DEALER", 1),
    ("O_TURN", 1),  # turns played so far in this deal
    ("O_HAND", 1),  # the deciding seat's own hand (mask)
    ("O_STOCK_N", 1),  # cards left in the stock
    ("O_PILE_N", 1),  # cards in the discard pile
    ("O_TARGET", 1),  # card taken from the pile that must still go on the table, or -1
    ("O_N_MELDS", 1),  # melds on the table
    ("O_PASSES", 1),  # consecutive passes on an empty stock so far
    ("O_DECISION", 1),  # D_* of the current decision
    ("O_HAND_SIZES", N_SEATS),  # cards in each seat's hand
    ("O_TAKEN", N_SEATS),  # mask of every card each seat has taken from the pile so far
    ("O_PLACED", N_SEATS),  # mask of every card each seat has put on the table
    ("O_TEAM_TABLE", N_TEAMS),  # table points of team 0 and team 1 so far (P8)
    ("O_PILE", N_CARDS),  # the discard pile, bottom first (O_PILE + O_PILE_N - 1 is the top)
    ("O_MELD_MASK", MAX_MELDS),  # cards in each meld
    ("O_MELD_KIND", MAX_MELDS),  # MK_* of each meld
    ("O_MELD_KEY", MAX_MELDS),  # rank of a set, suit of a run, -1 for jokers
    ("O_MELD_OWNER", MAX_MELDS),  # the seat that made the meld
    ("O_RULES", N_RULES),  # the rule options in force
    ("O_LAST_DISCARD", 1),  # the card discarded by the previous turn, until the next draw; else -1
    ("O_LAST_DISCARDER", 1),  # the seat that discarded it, or -1
    # derived from the table melds above, kept up to date by the engine whenever a meld is put
    # down or extended (state_nb.refresh_table): public facts (P10) that move generation and
    # strategies read instead of looping over the melds at every decision (issue 14). Read-only.
    ("O_TABLE_CARDS", 1),  # every card in a table meld
    ("O_LAYOFF_CARDS", 1),  # every card one lay-off could put on a table meld now (P6.3)
    ("O_BRIDGE_CARDS", 1),  # every card two ranks beyond the end of a table run (same suit)
    ("O_RUN_UP", 1),  # the card just above every table run (none above an ace)
    ("O_RUN_DOWN", 1),  # the card just below every table run (none below a two)
    ("O_SET_RANKS", 1),  # 13-bit field of the ranks with a set (of any size) on the table
    ("O_JOKER_ROOM", 1),  # 1 when a joker set of three is on the table (a joker lays off), else 0
)
_O, OBS_SIZE = layout(OBS_FIELDS)
O_SEAT = _O["O_SEAT"]
O_DEALER = _O["O_DEALER"]
O_TURN = _O["O_TURN"]
O_HAND = _O["O_HAND"]
O_STOCK_N = _O["O_STOCK_N"]
O_PILE_N = _O["O_PILE_N"]
O_TARGET = _O["O_TARGET"]
O_N_MELDS = _O["O_N_MELDS"]
O_PASSES = _O["O_PASSES"]
O_DECISION = _O["O_DECISION"]
O_HAND_SIZES = _O["O_HAND_SIZES"]
O_TAKEN = _O["O_TAKEN"]
O_PLACED = _O["O_PLACED"]
O_TEAM_TABLE = _O["O_TEAM_TABLE"]
O_PILE = _O["O_PILE"]
O_MELD_MASK = _O["O_MELD_MASK"]
O_MELD_KIND = _O["O_MELD_KIND"]
O_MELD_KEY = _O["O_MELD_KEY"]
O_MELD_OWNER = _O["O_MELD_OWNER"]
O_RULES = _O["O_RULES"]
O_LAST_DISCARD = _O["O_LAST_DISCARD"]
O_LAST_DISCARDER = _O["O_LAST_DISCARDER"]
O_TABLE_CARDS = _O["O_TABLE_CARDS"]
O_LAYOFF_CARDS = _O["O_LAYOFF_CARDS"]
O_BRIDGE_CARDS = _O["O_BRIDGE_CARDS"]
O_RUN_UP = _O["O_RUN_UP"]
O_RUN_DOWN = _O["O_RUN_DOWN"]
O_SET_RANKS = _O["O_SET_RANKS"]
O_JOKER_ROOM = _O["O_JOKER_ROOM"]

# --- per-deal result columns (an int64 matrix, one row per deal) ---------------------
RESULT_FIELDS = (
    ("C_DEAL", 1),  # deal index
    ("C_DEALER", 1),
    ("C_END", 1),  # END_*
    ("C_OUT_SEAT", 1),  # -1 unless END_OUT
    ("C_TURNS", 1),
    ("C_TABLE", N_TEAMS),  # table points per team
    ("C_HAND", N_TEAMS),  # hand penalty per team (positive, subtracted)
    ("C_BONUS", N_TEAMS),
    ("C_TOTAL", N_TEAMS),
    ("C_ERR_SEAT", 1),  # seat whose strategy made an illegal move, or -1
    ("C_ERR_DECISION", 1),  # D_* of that decision
    ("C_ERR_VALUE", 1),  # the value the strategy returned
    ("C_ERR_N_MOVES", 1),  # how many legal moves it had
    # strategy counters, one column per seat
    ("C_TAKES", N_SEATS),  # discard-pile takes
    ("C_TAKE_DEPTH", N_SEATS),  # sum of take depths
    ("C_MAX_DEPTH", N_SEATS),  # deepest take (-1 if none)
    ("C_CARDS_TAKEN", N_SEATS),  # cards taken from the pile (targets included)
    ("C_FOURS", N_SEATS),  # sets of four of one rank melded at once (not jokers)
    ("C_JOKER_FOURS", N_SEATS),  # four jokers melded at once
    ("C_LAYOFF_OPP", N_SEATS),  # points laid off onto opponents' melds
    ("C_HAND_PTS", N_SEATS),  # points caught in hand at the end
    ("C_TURNS_SEAT", N_SEATS),  # turns the seat played
    ("C_TABLE_SEAT", N_SEATS),  # table points the seat scored
    ("C_DISCARDS", N_SEATS),  # discards the seat made
    ("C_FED", N_SEATS),  # of those, discards the next player took (in a take of any depth) on its very next draw
)
_C, N_RESULT_COLS = layout(RESULT_FIELDS)
C_DEAL = _C["C_DEAL"]
C_DEALER = _C["C_DEALER"]
C_END = _C["C_END"]
C_OUT_SEAT = _C["C_OUT_SEAT"]
C_TURNS = _C["C_TURNS"]
C_TABLE = _C["C_TABLE"]
C_HAND = _C["C_HAND"]
C_BONUS = _C["C_BONUS"]
C_TOTAL = _C["C_TOTAL"]
C_ERR_SEAT = _C["C_ERR_SEAT"]
C_ERR_DECISION = _C["C_ERR_DECISION"]
C_ERR_VALUE = _C["C_ERR_VALUE"]
C_ERR_N_MOVES = _C["C_ERR_N_MOVES"]
C_TAKES = _C["C_TAKES"]
C_TAKE_DEPTH = _C["C_TAKE_DEPTH"]
C_MAX_DEPTH = _C["C_MAX_DEPTH"]
C_CARDS_TAKEN = _C["C_CARDS_TAKEN"]
C_FOURS = _C["C_FOURS"]
C_JOKER_FOURS = _C["C_JOKER_FOURS"]
C_LAYOFF_OPP = _C["C_LAYOFF_OPP"]
C_HAND_PTS = _C["C_HAND_PTS"]
C_TURNS_SEAT = _C["C_TURNS_SEAT"]
C_TABLE_SEAT = _C["C_TABLE_SEAT"]
C_DISCARDS = _C["C_DISCARDS"]
C_FED = _C["C_FED"]
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
STATE_FIELDS = (
    ("S_HANDS", N_SEATS),  # every seat's hand (hidden)
    ("S_STOCK", STOCK_SIZE),  # the stock, bottom first; top at S_STOCK + O_STOCK_N - 1 (hidden)
)
_S, ST_SIZE = layout(STATE_FIELDS, OBS_SIZE)
S_HANDS = _S["S_HANDS"]
S_STOCK = _S["S_STOCK"]

#: every layout as (fields, first offset, name of its size constant, prefix of its slot constants)
LAYOUTS = (
    (RULE_FIELDS, 0, "N_RULES", "R_"),
    (OBS_FIELDS, 0, "OBS_SIZE", "O_"),
    (STATE_FIELDS, OBS_SIZE, "ST_SIZE", "S_"),
    (RESULT_FIELDS, 0, "N_RESULT_COLS", "C_"),
)
