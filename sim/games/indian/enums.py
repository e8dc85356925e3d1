"""Integer codes and array layouts of the compiled Indian Rummy engine (RULES.md Part 2).

Everything the kernels exchange is a plain int64 array; this module names the slots.
Layouts are built from ``(name, width)`` lists by ``_layout`` so that adding a slot
moves every later slot with it and can never make two slots overlap silently.

Cards are *kinds* 0..52: ``suit * 13 + rank`` for naturals (suits C D H S = 0..3,
rank index 0..12 = 2..9, T, J, Q, K, A) and 52 for the printed joker (I1). A hand is
``counts[53]``. Physical shoe ids (deal_nb.py): ``decks * 52`` naturals then
``2 * decks`` printed jokers; physical id p is kind ``p % 52`` if p < decks*52, else 52.
"""

from sim.core.layout import layout as _layout

N_KINDS = 53
JOKER = 52
N_SUITS = 4
N_RANKS = 13
ACE_RANK = 12  # rank index of the ace: wild when the cut joker is a printed joker (I2)
MIN_SEATS = 2
MAX_SEATS = 6  # I1: 2 to 6 players
HAND_SIZE = 13  # I2
MIN_DECKS = 1
MAX_DECKS = 3
MAX_SHOE = MAX_DECKS * 54  # 162 cards: three decks and six printed jokers (I1)
MAX_MOVES = 32  # a discard decision has at most 14 discard rows + 14 declare rows
MOVE_COLS = 4
RING = 64  # the last RING discards are kept in order in the observation
MAX_GROUPS = 13  # arrange() writes at most 13 groups of at most 14 cards
GROUP_WIDTH = 14


# --- decisions (what a strategy is asked) -----------------------------------------
D_DRAW = 0  # stock, top of the pile, or drop (I3, I7)
D_DISCARD = 1  # discard a kind, or declare discarding a kind (I3, I5)
DECISION_NAMES = ("draw", "discard")

# --- move rows: moves[i] = (kind, a, b, c) ----------------------------------------
MV_STOCK = 0  # a = 0: the top card of the stock (legal when the stock is non-empty after any I8 reshuffle)
MV_PILE = 1  # a = kind of the top discard (legal when the pile is non-empty)
MV_DROP = 2  # a = 0: leave the deal (I7; always legal at a draw decision)
MV_DISCARD = 3  # a = kind discarded (one row per distinct kind held, ascending)
MV_DECLARE = 4  # a = kind discarded; the other 13 are shown (I5)
MOVE_NAMES = ("stock", "pile", "drop", "discard", "declare")

# --- seat status ----------------------------------------------------------------------
ST_IN = 0
ST_DROP_FIRST = 1  # I7 first drop (before its first draw)
ST_DROP_MIDDLE = 2  # I7 middle drop
ST_WRONG = 3  # I5 wrong declaration
STATUS_NAMES = ("in", "first_drop", "middle_drop", "wrong_declaration")

# --- end reasons --------------------------------------------------------------------
END_DECLARE = 0  # a valid declaration (I5, I6)
END_LAST_PLAYER = 1  # everyone else dropped or declared wrongly (I7)
END_CAP = 2  # turn cap reached: no winner
END_ERROR = 3  # a strategy returned an illegal move index; the deal was abandoned
END_NAMES = ("declare", "last_player", "cap", "error")

# --- rule options, as an int64 array (sim.games.indian.rules.RuleOptions.to_array) ---
RULE_FIELDS = (
    ("R_PLAYERS", 1),  # seated strategies, 2..6 (I1)
    ("R_DECKS", 1),  # 52-card decks in the shoe (resolved: never 0 here)
    ("R_N_JOKERS", 1),  # printed jokers: 2 per deck (I1)
    ("R_SHOE", 1),  # cards in the shoe: decks * 54
    ("R_MAX_J_RUN", 1),  # max_jokers_per_run (I4)
    ("R_MAX_J_SET", 1),  # max_jokers_per_set (I4)
    ("R_TRIPLE_IS_RUN", 1),  # 1 when three identical cards count as a pure run (three decks, I4)
    ("R_FIRST_DROP", 1),  # I7
    ("R_MIDDLE_DROP", 1),  # I7
    ("R_MAX_POINTS", 1),  # I6 cap on the points one player loses in a deal
    ("R_WRONG_DECL", 1),  # I5
    ("R_TURN_CAP", 1),  # turns after which a deal stops as "cap"
    ("R_DEALS_PER_GAME", 1),  # 1: points rummy, every deal stands alone
)
_R, N_RULES = _layout(RULE_FIELDS)
R_PLAYERS = _R["R_PLAYERS"]
R_DECKS = _R["R_DECKS"]
R_N_JOKERS = _R["R_N_JOKERS"]
R_SHOE = _R["R_SHOE"]
R_MAX_J_RUN = _R["R_MAX_J_RUN"]
R_MAX_J_SET = _R["R_MAX_J_SET"]
R_TRIPLE_IS_RUN = _R["R_TRIPLE_IS_RUN"]
R_FIRST_DROP = _R["R_FIRST_DROP"]
R_MIDDLE_DROP = _R["R_MIDDLE_DROP"]
R_MAX_POINTS = _R["R_MAX_POINTS"]
R_WRONG_DECL = _R["R_WRONG_DECL"]
R_TURN_CAP = _R["R_TURN_CAP"]
R_DEALS_PER_GAME = _R["R_DEALS_PER_GAME"]

# --- state array: the observation prefix (I9, public), then the hidden tail --------
# The first OBS_SIZE slots are exactly what a strategy sees; O_HAND is filled with the
# deciding seat's own hand in the copy handed to the strategy (it stays 0 in the state).
OBS_FIELDS = (
    ("O_SEAT", 1),  # the deciding seat
    ("O_DEALER", 1),
    ("O_PLAYERS", 1),
    ("O_DECISION", 1),  # D_* of the current decision
    ("O_TURN", 1),  # turns played so far in this deal (a drop counts as a turn)
    ("O_STOCK_N", 1),  # cards in the stock
    ("O_CUT_JOKER", 1),  # kind of the cut joker (I2)
    ("O_WILD_RANK", 1),  # rank index of the wild jokers (ace if the cut card is a printed joker)
    ("O_TOP", 1),  # kind on top of the discard pile, -1 if empty
    ("O_PILE_N", 1),  # cards in the discard pile
    ("O_IN_PLAY", 1),  # seats still in the deal
    ("O_N_DISCARDS", 1),  # discards made so far in the deal (ring index = count % RING)
    ("O_PILE_COUNTS", N_KINDS),  # the current pile's contents, counts per kind
    ("O_HAND_N", MAX_SEATS),  # cards in each seat's hand (0 once out of play)
    ("O_STATUS", MAX_SEATS),  # ST_* per seat
    ("O_HAS_DRAWN", MAX_SEATS),  # 1 once the seat has drawn in this deal (I7)
    ("O_PICKUPS", MAX_SEATS),  # draws from the discard pile per seat
    ("O_PICKED", MAX_SEATS * N_KINDS),  # per seat, counts of kinds it took from the pile
    ("O_DISCARDED", MAX_SEATS * N_KINDS),  # per seat, counts of kinds it discarded
    ("O_RING", 2 * RING),  # the last RING discards: (seat, kind) at 2 * (j % RING) for discard j
    ("O_RULES", N_RULES),  # the rules array in force
    ("O_HAND", N_KINDS),  # the deciding seat's own hand (filled in the observation copy)
)
_O, OBS_SIZE = _layout(OBS_FIELDS)
O_SEAT = _O["O_SEAT"]
O_DEALER = _O["O_DEALER"]
O_PLAYERS = _O["O_PLAYERS"]
O_DECISION = _O["O_DECISION"]
O_TURN = _O["O_TURN"]
O_STOCK_N = _O["O_STOCK_N"]
O_CUT_JOKER = _O["O_CUT_JOKER"]
O_WILD_RANK = _O["O_WILD_RANK"]
O_TOP = _O["O_TOP"]
O_PILE_N = _O["O_PILE_N"]
O_IN_PLAY = _O["O_IN_PLAY"]
O_N_DISCARDS = _O["O_N_DISCARDS"]
O_PILE_COUNTS = _O["O_PILE_COUNTS"]
O_HAND_N = _O["O_HAND_N"]
O_STATUS = _O["O_STATUS"]
O_HAS_DRAWN = _O["O_HAS_DRAWN"]
O_PICKUPS = _O["O_PICKUPS"]
O_PICKED = _O["O_PICKED"]
O_DISCARDED = _O["O_DISCARDED"]
O_RING = _O["O_RING"]
O_RULES = _O["O_RULES"]
O_HAND = _O["O_HAND"]

STATE_FIELDS = (
    ("S_HANDS", MAX_SEATS * N_KINDS),  # every seat's hand counts (hidden)
    ("S_STOCK", MAX_SHOE),  # the stock, bottom first: the top is S_STOCK + O_STOCK_N - 1
    ("S_PILE", MAX_SHOE),  # the pile in order, bottom first: the top is S_PILE + O_PILE_N - 1
    ("S_FIRST_CHANCE", MAX_SEATS),  # turn of each seat's first chance of a valid declaration, -1
)
_S, ST_SIZE = _layout(STATE_FIELDS, OBS_SIZE)
S_HANDS = _S["S_HANDS"]
S_STOCK = _S["S_STOCK"]
S_PILE = _S["S_PILE"]
S_FIRST_CHANCE = _S["S_FIRST_CHANCE"]

# --- per-deal result columns (one int64 row per deal) ------------------------------
RESULT_FIELDS = (
    ("C_DEAL", 1),
    ("C_DEALER", 1),
    ("C_PLAYERS", 1),
    ("C_END", 1),  # END_*
    ("C_WINNER", 1),  # seat, -1 if none (cap, error)
    ("C_TURNS", 1),  # turns played in the deal
    ("C_LOST", MAX_SEATS),  # points each seat lost (I5, I6, I7)
    ("C_GAIN", MAX_SEATS),  # points each seat won (the winner: the sum of the others' losses)
    ("C_DROP", MAX_SEATS),  # 0 none, 1 first drop, 2 middle drop
    ("C_WRONG", MAX_SEATS),  # 1 = wrong declaration
    ("C_TURNS_SEAT", MAX_SEATS),  # turns each seat played
    ("C_PICKUPS", MAX_SEATS),  # draws from the discard pile
    ("C_JOKERS", MAX_SEATS),  # jokers (printed + wild rank) held at the end, or when leaving the deal
    ("C_DEADWOOD", MAX_SEATS),  # min_deadwood of the 13 cards at the end (uncapped), -1 out of play
    ("C_FIRST_CHANCE", MAX_SEATS),  # turn of the first valid declaration chance, -1 never
    ("C_ERR_SEAT", 1),  # seat whose strategy returned an illegal index, or -1
    ("C_ERR_DECISION", 1),  # D_* of that decision
    ("C_ERR_VALUE", 1),  # the index returned
    ("C_ERR_N_MOVES", 1),  # how many legal moves it had
)
_C, N_RESULT_COLS = _layout(RESULT_FIELDS)
C_DEAL = _C["C_DEAL"]
C_DEALER = _C["C_DEALER"]
C_PLAYERS = _C["C_PLAYERS"]
C_END = _C["C_END"]
C_WINNER = _C["C_WINNER"]
C_TURNS = _C["C_TURNS"]
C_LOST = _C["C_LOST"]
C_GAIN = _C["C_GAIN"]
C_DROP = _C["C_DROP"]
C_WRONG = _C["C_WRONG"]
C_TURNS_SEAT = _C["C_TURNS_SEAT"]
C_PICKUPS = _C["C_PICKUPS"]
C_JOKERS = _C["C_JOKERS"]
C_DEADWOOD = _C["C_DEADWOOD"]
C_FIRST_CHANCE = _C["C_FIRST_CHANCE"]
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
SEAT_COLUMNS = (
    ("lost", C_LOST),
    ("gain", C_GAIN),
    ("drop", C_DROP),
    ("wrong_declaration", C_WRONG),
    ("turns_played", C_TURNS_SEAT),
    ("pickups", C_PICKUPS),
    ("jokers", C_JOKERS),
    ("deadwood", C_DEADWOOD),
    ("first_chance", C_FIRST_CHANCE),
)

# --- recorded events (record >= 1), rows of (kind, seat, a, b, c) ------------------
EV_STOCK = 0  # a = kind drawn from the stock
EV_PILE = 1  # a = kind taken from the top of the pile
EV_DROP = 2  # a = 1 first drop, 2 middle drop; b = points lost
EV_DISCARD = 3  # a = kind discarded
EV_DECLARE = 4  # a = kind discarded, b = 1 valid / 0 wrong, c = number of groups (rows EV_GROUP follow)
EV_GROUP = 5  # one card shown in a declaration: a = group index, b = kind
EV_RESHUFFLE = 6  # I8: a = cards in the new stock; that many EV_CARD rows follow, top first
EV_CARD = 7  # one card of a reshuffled stock: a = kind
EV_END = 8  # seat = winner or -1, a = END_*
EV_LEGAL = 9  # (record 2) a legal move before a decision: a = move kind, b = move a, c = row index
EV_DECISION = 10  # (record 2) a decision: a = D_*, b = number of legal moves, c = index chosen
EVENT_COLS = 5
MAX_EVENTS_PER_DEAL = 8192  # record 1; record 2 uses a larger buffer (engine.run_deals)
