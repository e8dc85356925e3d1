"""Persian Rummy's rules arrays, pinned (tests/contract/test_rules_arrays.py reads this file).

The int64 array the engine's kernels get (``RuleOptions.to_array(players)``) for every
table size the game allows and every variant below, written out value by value: a change
of what a rule option or a table size puts in the array (a derived slot set for the wrong
table, a slot moved) fails the contract test until this table is changed with it, on
purpose. ``None``: the game refuses that table (ValueError).
"""

#: the array's slots in order (enums.RULE_FIELDS)
SLOTS = ("R_LAST_CARD", "R_OUT_BONUS", "R_FOUR_DOUBLE", "R_DEALS_PER_GAME", "R_TURN_CAP")

#: variant name -> rule option values
VARIANTS = {
    'default': {},
    'every option': {
        'last_card': 'discard', 'out_bonus': 30, 'four_of_a_kind_double': False, 'deals_per_game': 1,
        'turn_cap': 500,
    },
}

#: (variant, players) -> the rules array, or None when refused
ARRAYS = {
    ('default', 4): (0, 25, 1, 2, 1000),
    ('every option', 4): (1, 30, 0, 1, 500),
}
