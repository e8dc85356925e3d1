"""Indian Rummy's rules arrays, pinned (tests/contract/test_rules_arrays.py reads this file).

The int64 array the engine's kernels get (``RuleOptions.to_array(players)``) for every
table size the game allows and every variant below, written out value by value: a change
of what a rule option or a table size puts in the array (a derived slot set for the wrong
table, a slot moved) fails the contract test until this table is changed with it, on
purpose. ``None``: the game refuses that table (ValueError).
"""

#: the array's slots in order (enums.RULE_FIELDS)
SLOTS = (
    "R_PLAYERS", "R_DECKS", "R_N_JOKERS", "R_SHOE", "R_MAX_J_RUN", "R_MAX_J_SET", "R_TRIPLE_IS_RUN",
    "R_FIRST_DROP", "R_MIDDLE_DROP", "R_MAX_POINTS", "R_WRONG_DECL", "R_TURN_CAP", "R_DEALS_PER_GAME",
)

#: variant name -> rule option values
VARIANTS = {
    'default': {},
    'decks=1': {'decks': 1},
    'decks=2': {'decks': 2},
    'decks=3': {'decks': 3},
    'every option': {
        'max_jokers_per_run': 2, 'max_jokers_per_set': 0, 'first_drop': 25, 'middle_drop': 50,
        'max_points': 70, 'wrong_declaration': 60, 'turn_cap': 500,
    },
}

#: (variant, players) -> the rules array, or None when refused
ARRAYS = {
    ('default', 2): (2, 2, 4, 108, 1, 1, 0, 20, 40, 80, 80, 1000, 1),
    ('default', 3): (3, 2, 4, 108, 1, 1, 0, 20, 40, 80, 80, 1000, 1),
    ('default', 4): (4, 3, 6, 162, 1, 1, 1, 20, 40, 80, 80, 1000, 1),
    ('default', 5): (5, 3, 6, 162, 1, 1, 1, 20, 40, 80, 80, 1000, 1),
    ('default', 6): (6, 3, 6, 162, 1, 1, 1, 20, 40, 80, 80, 1000, 1),
    ('decks=1', 2): (2, 1, 2, 54, 1, 1, 0, 20, 40, 80, 80, 1000, 1),
    ('decks=1', 3): (3, 1, 2, 54, 1, 1, 0, 20, 40, 80, 80, 1000, 1),
    ('decks=1', 4): None,
    ('decks=1', 5): None,
    ('decks=1', 6): None,
    ('decks=2', 2): (2, 2, 4, 108, 1, 1, 0, 20, 40, 80, 80, 1000, 1),
    ('decks=2', 3): (3, 2, 4, 108, 1, 1, 0, 20, 40, 80, 80, 1000, 1),
    ('decks=2', 4): (4, 2, 4, 108, 1, 1, 0, 20, 40, 80, 80, 1000, 1),
    ('decks=2', 5): (5, 2, 4, 108, 1, 1, 0, 20, 40, 80, 80, 1000, 1),
    ('decks=2', 6): (6, 2, 4, 108, 1, 1, 0, 20, 40, 80, 80, 1000, 1),
    ('decks=3', 2): (2, 3, 6, 162, 1, 1, 1, 20, 40, 80, 80, 1000, 1),
    ('decks=3', 3): (3, 3, 6, 162, 1, 1, 1, 20, 40, 80, 80, 1000, 1),
    ('decks=3', 4): (4, 3, 6, 162, 1, 1, 1, 20, 40, 80, 80, 1000, 1),
    ('decks=3', 5): (5, 3, 6, 162, 1, 1, 1, 20, 40, 80, 80, 1000, 1),
    ('decks=3', 6): (6, 3, 6, 162, 1, 1, 1, 20, 40, 80, 80, 1000, 1),
    ('every option', 2): (2, 2, 4, 108, 2, 0, 0, 25, 50, 70, 60, 500, 1),
    ('every option', 3): (3, 2, 4, 108, 2, 0, 0, 25, 50, 70, 60, 500, 1),
    ('every option', 4): (4, 3, 6, 162, 2, 0, 1, 25, 50, 70, 60, 500, 1),
    ('every option', 5): (5, 3, 6, 162, 2, 0, 1, 25, 50, 70, 60, 500, 1),
    ('every option', 6): (6, 3, 6, 162, 2, 0, 1, 25, 50, 70, 60, 500, 1),
}
