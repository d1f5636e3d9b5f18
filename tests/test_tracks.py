"""Moving houses on the influence tracks outside bidding (R21.1-R21.2; got_env.engine.tracks).

6 players, starting King's Court: Lannister, Stark, Martell, Baratheon, Tyrell, Greyjoy.
"""

from __future__ import annotations

import pytest

from got_env.engine import scenario
from got_env.engine.state import FIEFDOMS, KINGS_COURT
from got_env.engine.tracks import move_down, move_to, move_to_bottom, move_to_top, track_order


@pytest.fixture
def state():
    return scenario.build({"players": 6})


def ids(state, track):
    return [state.ruleset.houses[h].id for h in track_order(state, track)]


def h(state, house_id):
    return state.ruleset.house(house_id)


def test_r21_1_move_to_top_shifts_the_others_down(state):
    """R21.1: a house moved to position 1 pushes the former position 1 to 2, and so on, up to its
    old place; R21.2: it now holds the dominance token."""
    move_to_top(state, KINGS_COURT, h(state, "baratheon"))
    assert ids(state, KINGS_COURT) == ["baratheon", "lannister", "stark", "martell", "tyrell",
                                       "greyjoy"]
    assert state.holder(KINGS_COURT) == h(state, "baratheon")


def test_r21_1_move_to_bottom_shifts_the_others_up(state):
    """R21.1, R21.2: the position-1 house sent last passes the token to the new position 1."""
    move_to_bottom(state, KINGS_COURT, h(state, "lannister"))
    assert ids(state, KINGS_COURT) == ["stark", "martell", "baratheon", "tyrell", "greyjoy",
                                       "lannister"]
    assert state.holder(KINGS_COURT) == h(state, "stark")


def test_r21_1_move_down_stops_at_the_last_position(state):
    """R21.1: moving down 2 from position 5 of 6 ends on position 6."""
    move_down(state, KINGS_COURT, h(state, "stark"), 2)
    assert ids(state, KINGS_COURT)[:4] == ["lannister", "martell", "baratheon", "stark"]
    move_down(state, KINGS_COURT, h(state, "tyrell"), 2)
    assert ids(state, KINGS_COURT)[-2:] == ["greyjoy", "tyrell"]


def test_move_keeps_empty_positions_with_fewer_players():
    """With 3 players the track has 3 positions; the rest stay empty (-1)."""
    s = scenario.build({"players": 3})
    move_to(s, FIEFDOMS, h(s, "stark"), 10)
    assert ids(s, FIEFDOMS) == ["baratheon", "lannister", "stark"]
    assert s.tracks[FIEFDOMS, 3:].tolist() == [-1, -1, -1]


def test_move_refuses_a_house_not_on_the_track():
    """A house not in play is on no track."""
    s = scenario.build({"players": 3})
    with pytest.raises(ValueError):
        move_to(s, FIEFDOMS, h(s, "martell"), 0)
    with pytest.raises(ValueError):
        move_to(s, FIEFDOMS, h(s, "stark"), -1)
