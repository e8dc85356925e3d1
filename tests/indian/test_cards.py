"""The one compiled definition of a card's points and of a joker (sim.games.indian.cards_nb)
against the pure-Python reference rules (tests/indian/naive_indian.py), for every kind and
every wild rank, and the tables and callers read off it."""

import os
import sys

import numpy as np
import pytest

from sim.games.indian import cards_nb
from sim.games.indian.cards import CARD_VALUES, N_KINDS, hand_counts
from sim.games.indian.solver_nb import min_deadwood

sys.path.insert(0, os.path.dirname(__file__))
import naive_indian as naive  # noqa: E402

WILD_RANKS = range(13)


@pytest.mark.parametrize("wild", WILD_RANKS)
def test_I6_card_value_of_every_kind(wild):
    got = [cards_nb.card_value(k, wild) for k in range(N_KINDS)]
    assert got == [naive.card_value(k, wild) for k in range(N_KINDS)]


@pytest.mark.parametrize("wild", WILD_RANKS)
def test_I2_jokers_are_the_printed_joker_and_the_wild_rank(wild):
    assert [cards_nb.is_joker(k, wild) for k in range(N_KINDS)] == [naive.is_joker_card(k, wild)
                                                                    for k in range(N_KINDS)]


def test_I6_printed_values_table_is_the_compiled_definition():
    assert list(CARD_VALUES) == [cards_nb.card_value(k, -1) for k in range(N_KINDS)]
    assert list(CARD_VALUES[:13]) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10] and CARD_VALUES[52] == 0


def test_I6_hand_points_and_jokers_in_a_hand():
    gen = np.random.default_rng(5)
    for _ in range(200):
        wild = int(gen.integers(13))
        kinds = [int(k) for k in gen.integers(0, N_KINDS, size=13)]
        h = hand_counts(kinds)
        assert cards_nb.hand_points(h, wild) == sum(naive.card_value(k, wild) for k in kinds)
        assert cards_nb.jokers_in(h, wild) == sum(naive.is_joker_card(k, wild) for k in kinds)


def test_I6_a_hand_with_no_arrangement_loses_its_points():
    # no pure run possible (I5): the solver counts every card, as hand_points does
    h = hand_counts(["2C", "5C", "9C", "KD", "3D", "7H", "JH", "4S", "8S", "QS", "6D", "TH", "AC"])
    wild = 3  # fives are wild
    assert min_deadwood(h, wild, 1, 1, 1) == cards_nb.hand_points(h, wild) == sum(
        naive.card_value(k, wild) for k in range(N_KINDS) for _ in range(int(h[k])))
