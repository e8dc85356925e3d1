"""Hand-made Indian positions the decision-analysis and audit tests share (tests/indian/test_decisions.py,
test_audit.py): four seats, seat 1 to move, its hand a valid declaration once it discards QS."""

from __future__ import annotations

from sim.games.indian.position import Position

# seat 1 to move at a discard holding 14: 5H 6H 7H (pure run), 8C 9C TC (pure run), KS KD KH (set),
# AD 2D 3D 4D (pure run) and QS: declaring discarding QS is valid (I5), any other declaration wrong.
DECLARER = "5H 6H 7H 8C 9C TC KS KD KH AD 2D 3D 4D QS".split()
OTHERS = ["2S 3S 4S 6S 7S 9S JS 2C 3C 4C 5C 6C 7C", "9H TH JH QH AH 5D 6D 7D 8D 9D TD JD QD",
          "KC AC JC QC 8S TS AS 2H 3H 4H 8H 5S KD"]
STOCK = "JK QC 9S 6C TC 5S 8H JC".split()  # top first; the cut joker JC at the bottom (I2)


def position(others=OTHERS, stock=STOCK, decision="discard") -> Position:
    hands = [others[0].split(), DECLARER if decision == "discard" else DECLARER[:13], others[1].split(),
             others[2].split()]
    return Position(hands, ["3C"], stock, "JC", dealer=0, decision=decision, to_move=1,
                    discards=[(0, "3C")])
