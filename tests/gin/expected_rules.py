"""Gin Rummy's rules arrays, pinned (tests/contract/test_rules_arrays.py reads this file).

The int64 array the engine's kernels get (``RuleOptions.to_array(players)``) for every
table size the game allows and every variant below, written out value by value: a change
of what a rule option or a table size puts in the array (a derived slot set for the wrong
table, a slot moved) fails the contract test until this table is changed with it, on
purpose. ``None``: the game refuses that table (ValueError).
"""

#: the array's slots in order (enums.RULE_FIELDS)
SLOTS = ("R_KNOCK_CARD", "R_GIN_BONUS", "R_UNDERCUT_BONUS", "R_OKLAHOMA")

#: variant name -> rule option values
VARIANTS = {
    'default': {},
    'every option': {'knock_card': 7, 'gin_bonus': 20, 'undercut_bonus': 10, 'oklahoma': True},
}

#: (variant, players) -> the rules array, or None when refused
ARRAYS = {
    ('default', 2): (10, 25, 25, 0),
    ('every option', 2): (7, 20, 10, 1),
}
