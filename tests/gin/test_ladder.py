"""The Gin Rummy ladder (issue 26, item 3): a tournament's text gives, beside the points, the hands
won by every side of every pairing and against the field, each with a 95% CI; at two players,
one a side, a play where A's net beat B's is a deal won, and the text says so."""

from __future__ import annotations

import pytest

from sim.studies.tournament import expected_points, format_tournament, pairing_outcomes, play_tournament


@pytest.fixture(scope="module")
def ladder():
    return play_tournament(["greedy", "simple", "random"], 40, seed=4, game="gin", keep_plays=True, progress=False)


def test_hands_won_are_counted_from_the_plays(ladder):
    plays = ladder.run.plays
    outcomes = pairing_outcomes(ladder.run).set_index(["a", "b"])
    ep = expected_points(ladder.run).set_index(["team", "opponent"])
    field_won = {}
    for (a, b), g in plays.groupby(["a", "b"], observed=True):
        won, lost = int((g["a_total"] > g["b_total"]).sum()), int((g["a_total"] < g["b_total"]).sum())
        o = outcomes.loc[(a, b)]
        assert (o["a_won"], o["b_won"], o["tied"]) == (won, lost, len(g) - won - lost)
        assert o["b_win_rate"] == pytest.approx(lost / len(g)) == ep.loc[(b, a), "deal_win_rate"]
        for team, k in ((a, won), (b, lost)):
            field_won[team] = field_won.get(team, 0) + k
    for team, k in field_won.items():  # every team met two opponents on the same number of plays
        assert ep.loc[(team, "field"), "deal_win_rate"] == pytest.approx(k / (2 * 80))


def test_the_text_says_hands_won_at_two_players(ladder):
    text = format_tournament(ladder)
    assert "net > B's mean" not in text and "deals won  " in text
    assert "deals won by the row team" in text and "pairings: A - B points per deal (paired 95% CI)" in text
    line = next(x for x in text.splitlines() if x.strip().endswith("greedy - simple"))
    o = pairing_outcomes(ladder.run).iloc[0]
    assert f"{100 * o['a_win_rate']:.1f}%" in line and f"{o['mean_diff']:+.2f}" in line
