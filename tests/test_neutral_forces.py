"""Neutral forces and impassable areas (rules spec §16, R12.3.3, AMBIG-11; DECISIONS D-27 to D-29,
Open point 4)."""

from __future__ import annotations

import pytest
from march_helpers import (
    a,
    at_sentinel,
    controller,
    dests,
    move,
    order,
    play,
    routed,
    units,
)
from march_helpers import (
    march as _march,
)

from got_env.engine import choice
from got_env.engine.decision import NO, DecisionKind
from got_env.engine.state import FOOTMAN, KNIGHT, SIEGE_ENGINE

# 5 players: Tyrell in play, Martell not; Tyrell first on Fiefdoms (it holds the Blade).
TRACKS_5P = {"fiefdoms": ["tyrell", "greyjoy", "stark", "baratheon", "lannister"]}


def march(spec, house, area):
    return _march({"players": 5, "tracks": TRACKS_5P, **spec}, house, area)


def _sunspear(token_id: str, **extra):
    """Tyrell Knight + Footman in Yronwood march on Sunspear (neutral force 5); Tyrell's ship in
    Sea of Dorne has a Support order."""
    units_ = {"tyrell": {"yronwood": "KF", "sea-of-dorne": "S"}, **extra.pop("units", {})}
    orders = {"yronwood": token_id, "sea-of-dorne": "support-0a", **extra.pop("orders", {})}
    return march({"units": units_, "orders": orders,
                  "neutral_forces": {"sunspear": 5, "salt-shore": 3}, **extra},
                 "tyrell", "yronwood")


def _attack_sunspear(s):
    hand = s.card_place.copy()
    move(s, KNIGHT, "sunspear")
    move(s, FOOTMAN, "sunspear")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "tyrell", NO)
    return hand


def test_r16_rulebook_example_sunspear():
    """R16.1-R16.4, rulebook example (§16): Knight + Footman (3) with March+1 give 4; Tyrell's own
    Support order in Sea of Dorne (1 ship, +0) adds 1: 5 >= 5. The token is destroyed, the army
    enters, and no house card or Blade is asked for (R16.3; Tyrell holds the Blade)."""
    s = _sunspear("march-special")
    assert "sunspear" in dests(s, KNIGHT)
    hand = _attack_sunspear(s)
    assert at_sentinel(s)  # no D-29, D-32, D-40 on the way
    assert s.neutral_forces[a(s, "sunspear")] == 0
    assert units(s, "tyrell", "sunspear") == [1, 1, 0, 0]
    assert units(s, "tyrell", "yronwood") == [0, 0, 0, 0]
    assert controller(s, "sunspear") == "tyrell"
    assert (s.card_place == hand).all()
    assert not s.blade_used
    assert order(s, "yronwood") is None
    assert order(s, "sea-of-dorne") == "support-0a"  # Support orders stay until cleanup


def test_r16_6_too_weak_the_units_stay():
    """R16.6, AMBIG-11 (reading in marches.py): with March +0 the strength is 4 < 5: the token
    stays, the units stay in Yronwood, not routed, and the March order is used up."""
    s = _sunspear("march-0")
    _attack_sunspear(s)
    assert at_sentinel(s)
    assert s.neutral_forces[a(s, "sunspear")] == 5
    assert units(s, "tyrell", "yronwood") == [1, 1, 0, 0]
    assert routed(s, "tyrell", "yronwood") == [0, 0, 0, 0]
    assert units(s, "tyrell", "sunspear") == [0, 0, 0, 0]
    assert controller(s, "yronwood") == "tyrell"
    assert order(s, "yronwood") is None


@pytest.mark.parametrize("answer,taken", [("support-attacker", True), ("nothing", False)])
def test_r16_2_other_houses_may_support_the_attacker(answer, taken):
    """R16.2, D-29, Open point 4: Greyjoy, with a Support order in East Summer Sea (next to
    Sunspear), is asked whether to support Tyrell; with its ship (+1) Tyrell's 4 reaches 5.
    Lannister's Support order elsewhere is not asked."""
    s = _sunspear("march-0", units={"greyjoy": {"east-summer-sea": "S"},
                                    "lannister": {"lannisport": "F"}},
                  orders={"east-summer-sea": "support-0a", "lannisport": "support-0a"})
    _attack_sunspear(s)
    d = s.pending
    assert d.kind == DecisionKind.SUPPORT_AGAINST_NEUTRAL
    assert d.player == s.ruleset.house("greyjoy")
    assert set(d.options) == {choice("support-attacker"), choice("nothing")}
    play(s, DecisionKind.SUPPORT_AGAINST_NEUTRAL, "greyjoy", choice(answer))
    assert at_sentinel(s)
    assert s.neutral_forces[a(s, "sunspear")] == (0 if taken else 5)
    assert units(s, "tyrell", "sunspear") == ([1, 1, 0, 0] if taken else [0, 0, 0, 0])


@pytest.mark.parametrize("start,target,neutral,wins", [
    ("the-boneway", "yronwood", {"yronwood": 3}, True),  # a castle: the Siege Engine gives 4
    ("the-reach", "the-boneway", {"the-boneway": 3}, False),  # no castle: it gives 0
])
def test_r16_2_siege_engines_count_only_against_a_castle(start, target, neutral, wins):
    """R16.2, §15.0: a Siege Engine adds 4 against a neutral force only in an area with a Castle
    or Stronghold: Footman + Siege Engine + March+0 give 5 against Yronwood, 1 against The
    Boneway (3)."""
    s = march({"units": {"tyrell": {start: "FE"}}, "orders": {start: "march-0"},
               "neutral_forces": neutral}, "tyrell", start)
    move(s, SIEGE_ENGINE, target)
    move(s, FOOTMAN, target)
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "tyrell", NO)
    assert at_sentinel(s)
    assert s.neutral_forces[a(s, target)] == (0 if wins else 3)
    assert units(s, "tyrell", target) == ([1, 0, 0, 1] if wins else [0, 0, 0, 0])
    assert units(s, "tyrell", start) == ([0, 0, 0, 0] if wins else [1, 0, 0, 1])


def test_r16_5_a_neutral_force_is_the_one_attack():
    """R16.5, R12.3.3: once a unit marches on Sunspear's neutral force, Salt Shore's neutral
    force and Baratheon's Footman in The Boneway are no longer offered; empty areas are (Storm's
    End by the ship in Sea of Dorne)."""
    s = _sunspear("march-special", units={"baratheon": {"the-boneway": "F"}})
    assert dests(s, FOOTMAN) == {"princes-pass", "salt-shore", "starfall", "storms-end",
                                 "sunspear", "the-boneway"}
    move(s, KNIGHT, "sunspear")
    assert dests(s, FOOTMAN) == {"princes-pass", "starfall", "storms-end", "sunspear"}


def test_r16_7_impassable_areas_are_never_offered():
    """R16.7, R12.3.2, R14.1 (3 players): "~" tokens close Highgarden, Starfall and Three Towers:
    Searoad Marches' Footman may go to its four other land neighbours and, by the Lannister ship
    in West Summer Sea, to The Arbor, but never into those three."""
    s = _march({"players": 3, "units": {"lannister": {"searoad-marches": "F",
                                                        "west-summer-sea": "S"}},
                "orders": {"searoad-marches": "march-0"}}, "lannister", "searoad-marches")
    assert s.impassable[a(s, "highgarden")]
    assert dests(s, FOOTMAN) == {"blackwater", "lannisport", "stoney-sept", "the-reach",
                                 "the-arbor"}


def test_r16_neutral_token_with_support_from_a_transport_neighbour_is_not_counted():
    """R14.4, R16.2: support comes only from really adjacent areas: Tyrell's Support order on
    The Arbor (next to Three Towers only by transport) adds nothing; Footman + March+1 = 2 < 3
    against Three Towers, so the Footman stays in Oldtown."""
    s = march({"units": {"tyrell": {"oldtown": "F", "the-arbor": "F", "redwyne-straits": "S"}},
               "orders": {"oldtown": "march-special", "the-arbor": "support-0a"},
               "neutral_forces": {"three-towers": 3}}, "tyrell", "oldtown")
    move(s, FOOTMAN, "three-towers")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "tyrell", NO)
    assert at_sentinel(s)
    assert s.neutral_forces[a(s, "three-towers")] == 3
    assert units(s, "tyrell", "oldtown") == [1, 0, 0, 0]



def test_r7_8_a_march_on_a_neutral_force_must_fit_even_if_it_fails():
    """R7.8, R12.3.9, AMBIG-11 (reading in marches.py): Baratheon at supply 1 (armies 3, 2) sends
    a Footman of Kingswood against King's Landing (5) and its Knight to The Reach (a Footman
    there): 1, 1, 2, 2 fits if the attack wins, but a failed attack leaves 2, 2, 2 (three armies).
    So "done" waits until the last Footman leaves Kingswood too, and not into the attack (2, 2, 2
    again); the attack then fails and the result fits."""
    s = _march({"units": {"baratheon": {"kingswood": "FFK", "storms-end": "FF",
                                        "the-reach": "F"}},
                "supply": {"baratheon": 1}, "orders": {"kingswood": "march-0"}},
               "baratheon", "kingswood")
    move(s, FOOTMAN, "kings-landing")
    move(s, KNIGHT, "the-reach")
    assert s.pending.kind == DecisionKind.MARCH_MOVE
    assert ("done",) not in s.pending.options
    assert dests(s, FOOTMAN) == {"storms-end", "the-boneway", "the-reach"}
    move(s, FOOTMAN, "the-boneway")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "baratheon", NO)
    assert at_sentinel(s)
    assert s.neutral_forces[a(s, "kings-landing")] == 5
    assert units(s, "baratheon", "kingswood") == [1, 0, 0, 0]
    assert units(s, "baratheon", "the-reach") == [1, 1, 0, 0]
    assert units(s, "baratheon", "the-boneway") == [1, 0, 0, 0]


@pytest.mark.parametrize("given,taken", [
    ({"salt-shore": True, "east-summer-sea": False}, True),  # 4 + 2 = 6 >= 6
    ({"salt-shore": False, "east-summer-sea": True}, False),  # 4 + 1 = 5 < 6
    ({"salt-shore": True, "east-summer-sea": True}, True),  # 4 + 3 = 7
])
def test_r15_1_6_support_against_a_neutral_force_is_declared_per_support_order(given, taken):
    """R15.1.1, R15.1.6, R16.2, D-29: Greyjoy has two Support orders next to Sunspear (neutral
    force 6): two Footmen in Salt Shore (+2) and a ship in East Summer Sea (+1). It is asked once
    per order, in area order, and each order counts only if given: Tyrell's 4 takes Sunspear
    with the Footmen's support, not with the ship's alone."""
    s = _sunspear("march-0", units={"greyjoy": {"salt-shore": "FF", "east-summer-sea": "S"}},
                  orders={"salt-shore": "support-0a", "east-summer-sea": "support-0b"},
                  neutral_forces={"sunspear": 6})
    _attack_sunspear(s)
    asked = []
    while s.pending is not None and s.pending.kind == DecisionKind.SUPPORT_AGAINST_NEUTRAL:
        area_id = s.ruleset.areas[s.pending.context["support_area"]].id
        asked.append(area_id)
        answer = "support-attacker" if given[area_id] else "nothing"
        play(s, DecisionKind.SUPPORT_AGAINST_NEUTRAL, "greyjoy", choice(answer))
    assert asked == sorted(given, key=s.ruleset.area)
    assert at_sentinel(s)
    assert s.neutral_forces[a(s, "sunspear")] == (0 if taken else 6)
