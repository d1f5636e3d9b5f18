"""Neutral forces of the 1st edition (1e spec 10, 13, section A.13; readings C.2, C.3, C.21): the
three tokens and the unplayed houses' starting units, on land and at sea; a card-less battle won
at the token's strength; a failed attack routs the attackers in their area, with no casualties."""

from __future__ import annotations

import pytest
from combat_helpers import fight, total_units, units_in
from combat_helpers import kind as combat_kind
from march_helpers import (
    a,
    at_sentinel,
    controller,
    dests,
    done,
    move,
    order,
    play,
    routed,
    units,
)
from march_helpers import march as _march
from test_neutral_forces import _attack_sunspear

from got_env.engine import choice, invariants, scenario
from got_env.engine.decision import NO, DecisionKind
from got_env.engine.state import FOOTMAN, KNIGHT, SHIP


def march(spec: dict, house: str, area: str):
    """A 1st-edition position at the March step (3 players unless given), ``house``'s March in
    ``area`` picked."""
    return _march({"ruleset": "1e", "players": 3, **spec}, house, area)


def _sunspear(token_id: str, players: int = 4, **extra):
    """1e spec 10, the rulebook's example: Tyrell's Knight and Footman in Yronwood march on
    Sunspear (5); a Tyrell ship in Sea of Dorne (next to Sunspear on the stand-in board; the
    rulebook's "Sunset Sea", facts 2.2 item 5) has a Support order. At 4 players Tyrell holds the
    Blade (first on the Fiefdoms, spec 13)."""
    units_ = {"tyrell": {"yronwood": "KF", "sea-of-dorne": "S"}, **extra.pop("units", {})}
    orders = {"yronwood": token_id, "sea-of-dorne": "support-0a", **extra.pop("orders", {})}
    return march({"players": players, "units": units_, "orders": orders, **extra},
                 "tyrell", "yronwood")


# -- 1e spec 10: the three tokens --------------------------------------------------------------


def test_1e_10_rulebook_example_sunspear_taken_at_equal_strength():
    """1e spec 10 (example), A.13, C.3: Knight + Footman (3) with the +1 March give 4, the
    supporting ship 1: 5 >= 5 conquers Sunspear. The token is removed for good, the army enters;
    no house card is asked and the Blade (Tyrell's, at 4 players) is neither offered nor used."""
    s = _sunspear("march-special")
    assert s.holder(1) == s.ruleset.house("tyrell")
    assert s.neutral_forces[a(s, "sunspear")] == 5
    hand = _attack_sunspear(s)
    assert at_sentinel(s)  # no support, card or Blade decision on the way
    assert s.neutral_forces[a(s, "sunspear")] == 0
    assert units(s, "tyrell", "sunspear") == [1, 1, 0, 0]
    assert routed(s, "tyrell", "sunspear") == [0, 0, 0, 0]
    assert units(s, "tyrell", "yronwood") == [0, 0, 0, 0]
    assert controller(s, "sunspear") == "tyrell"
    assert (s.card_place == hand).all()
    assert not s.blade_used
    assert order(s, "yronwood") is None


def test_c2_failed_attack_routs_the_attackers_in_their_area_without_casualties():
    """1e spec 10, reading C.2 (``failed_neutral_attack: routed``): with a +0 March the strength
    is 4 < 5. The token stays; the Knight and the Footman are back in Yronwood, routed, none
    lost; the March order is used up and no card was played."""
    s = _sunspear("march-0")
    hand = _attack_sunspear(s)
    assert at_sentinel(s)
    assert s.ruleset.rules.failed_neutral_attack == "routed"
    assert s.neutral_forces[a(s, "sunspear")] == 5
    assert units(s, "tyrell", "yronwood") == [1, 1, 0, 0]
    assert routed(s, "tyrell", "yronwood") == [1, 1, 0, 0]
    assert units(s, "tyrell", "sunspear") == [0, 0, 0, 0]
    assert controller(s, "yronwood") == "tyrell"
    assert order(s, "yronwood") is None
    assert (s.card_place == hand).all()


def test_c2_only_the_attackers_are_routed():
    """Reading C.2: the units that stayed behind in the March area are not routed; only the
    Knight and the Footman that attacked are (Yronwood then holds 1 standing Footman)."""
    s = _sunspear("march-0", units={"tyrell": {"yronwood": "KFF", "sea-of-dorne": "S"}})
    move(s, KNIGHT, "sunspear")
    move(s, FOOTMAN, "sunspear")
    done(s)  # one Footman stays: no power token question
    assert at_sentinel(s)
    assert units(s, "tyrell", "yronwood") == [2, 1, 0, 0]
    assert routed(s, "tyrell", "yronwood") == [1, 1, 0, 0]


@pytest.mark.parametrize("answer,taken", [("support-attacker", True), ("nothing", False)])
def test_1e_10_support_from_any_house(answer, taken):
    """1e spec 10: "support from any house": at 5 players Tyrell's Knight and Footman (+0 March)
    and its own supporting ship in Sea of Dorne make 4; Greyjoy's Support order in East Summer
    Sea (next to Sunspear) is asked, and its ship (+1) makes 5: Sunspear falls. Refused, the
    attack fails and the attackers are routed (C.2)."""
    s = _sunspear("march-0", players=5, units={"greyjoy": {"east-summer-sea": "S"}},
                  orders={"east-summer-sea": "support-0a"})
    _attack_sunspear(s)
    d = s.pending
    assert d.kind == DecisionKind.SUPPORT_AGAINST_NEUTRAL
    assert d.player == s.ruleset.house("greyjoy")
    play(s, DecisionKind.SUPPORT_AGAINST_NEUTRAL, "greyjoy", choice(answer))
    assert at_sentinel(s)
    assert s.neutral_forces[a(s, "sunspear")] == (0 if taken else 5)
    assert units(s, "tyrell", "sunspear") == ([1, 1, 0, 0] if taken else [0, 0, 0, 0])
    assert routed(s, "tyrell", "yronwood") == ([0, 0, 0, 0] if taken else [1, 1, 0, 0])


def test_c2_a_march_on_a_neutral_force_must_fit_should_it_fail():
    """1e spec 7.2 (supply golden rule), C.2: Baratheon at supply 1 (armies 3, 2) sends a
    Kingswood Footman against King's Landing (5) and its Knight to The Reach (a Footman there).
    A failed attack puts the Footman back in Kingswood, which would leave armies 2, 2, 2: "done"
    waits until the last Footman leaves too. The attack then fails: the Footman stands routed in
    Kingswood, alone."""
    s = march({"units": {"baratheon": {"kingswood": "FFK", "storms-end": "FF",
                                       "the-reach": "F"}},
               "supply": {"baratheon": 1}, "orders": {"kingswood": "march-0"}},
              "baratheon", "kingswood")
    move(s, FOOTMAN, "kings-landing")
    move(s, KNIGHT, "the-reach")
    assert ("done",) not in s.pending.options
    assert dests(s, FOOTMAN) == {"storms-end", "the-boneway", "the-reach"}
    move(s, FOOTMAN, "the-boneway")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "baratheon", NO)
    assert at_sentinel(s)
    assert s.neutral_forces[a(s, "kings-landing")] == 5
    assert units(s, "baratheon", "kingswood") == [1, 0, 0, 0]
    assert routed(s, "baratheon", "kingswood") == [1, 0, 0, 0]
    assert units(s, "baratheon", "the-reach") == [1, 1, 0, 0]


# -- 1e spec 13, C.21: the unplayed houses' units, at sea too ----------------------------------


@pytest.mark.parametrize("token_id,taken", [("march-0", True), ("march-minus-1", False)])
def test_c21_ships_attack_a_neutral_force_at_sea(token_id, taken):
    """1e spec 13, C.21: at 3 players Greyjoy's ship in Ironman's Bay stands as a neutral force
    of 1. Lannister's ship in The Golden Sound attacks it with no cards: +0 gives 1 >= 1, the
    force is removed and the ship enters; -1 gives 0 < 1, the ship goes back routed (C.2)."""
    s = march({"units": {"lannister": {"the-golden-sound": "S"}},
               "orders": {"the-golden-sound": token_id}}, "lannister", "the-golden-sound")
    assert s.neutral_forces[a(s, "ironmans-bay")] == 1
    assert "ironmans-bay" in dests(s, SHIP)
    move(s, SHIP, "ironmans-bay")
    assert at_sentinel(s)
    assert s.neutral_forces[a(s, "ironmans-bay")] == (0 if taken else 1)
    assert units(s, "lannister", "ironmans-bay") == ([0, 0, 1, 0] if taken else [0, 0, 0, 0])
    assert units(s, "lannister", "the-golden-sound") == ([0, 0, 0, 0] if taken else [0, 0, 1, 0])
    assert routed(s, "lannister", "the-golden-sound") == [0, 0, 0 if taken else 1, 0]


@pytest.mark.parametrize("supporter,taken", [
    ({"riverrun": "F"}, False),  # land units never support a battle at sea (1e spec 8.2)
    ({"sunset-sea": "S"}, True),  # a ship in an adjacent sea does
])
def test_c21_support_against_a_neutral_force_at_sea(supporter, taken):
    """1e spec 8.2, 10, C.21: Lannister's ship with a -1 March (strength 0) attacks Ironman's
    Bay (1). A Lannister Support order in Riverrun (next to the bay, a Footman) adds nothing: land
    units never support at sea; one in Sunset Sea (a ship) adds 1 and the bay is taken."""
    (where, letters), = supporter.items()
    s = march({"units": {"lannister": {"the-golden-sound": "S", where: letters}},
               "orders": {"the-golden-sound": "march-minus-1", where: "support-0a"}},
              "lannister", "the-golden-sound")
    move(s, SHIP, "ironmans-bay")
    assert at_sentinel(s)
    assert s.neutral_forces[a(s, "ironmans-bay")] == (0 if taken else 1)
    assert units(s, "lannister", "ironmans-bay") == [0, 0, int(taken), 0]


def test_c21_neutral_ships_carry_no_one():
    """1e spec 7.2 (sea transport needs the house's own ships), C.21: the neutral force in
    Ironman's Bay is no ship of Lannister's, so a Lannisport Footman with Lannister ships in The
    Golden Sound and Sunset Sea reaches Riverrun, Searoad Marches and Flint's Finger, but not
    Seagard or Greywater Watch (reached only through the bay), and never the bay itself. With a
    Lannister ship in the bay (5 players: Greyjoy plays, the bay is free) Seagard is reached."""
    spec = {"units": {"lannister": {"lannisport": "F", "the-golden-sound": "S",
                                    "sunset-sea": "S"}},
            "orders": {"lannisport": "march-0"}}
    s = march(spec, "lannister", "lannisport")
    assert s.neutral_forces[a(s, "ironmans-bay")] == 1
    assert dests(s, FOOTMAN) == {"flints-finger", "riverrun", "searoad-marches", "stoney-sept"}
    spec["units"]["lannister"]["ironmans-bay"] = "S"
    s = march({**spec, "players": 5}, "lannister", "lannisport")
    assert {"seagard", "greywater-watch"} <= dests(s, FOOTMAN)


def test_c21_a_neutral_sea_is_never_a_retreat_area():
    """1e spec 8.4, C.21, AMBIG-13: Lannister (three ships with +0 and Kevan, 3 + 1 = 4) beats
    Baratheon's two ships in Sunset Sea (Ser Axell, 2 + 1 = 3); one sword, no fortification:
    one ship is lost. The other retreats to Bay of Ice or West Summer Sea: not The Golden Sound
    (the attacker's origin) and not Ironman's Bay, held by Greyjoy's neutral ship at 3
    players. (Plain cards without abilities: 1e spec 9 is not what this test is about.)"""
    s = scenario.build({
        "ruleset": "1e", "players": 3, "start": "marches",
        "units": {"lannister": {"the-golden-sound": "SSS"}, "baratheon": {"sunset-sea": "SS"}},
        "orders": {"the-golden-sound": "march-0"},
        "hands": {"lannister": ["kevan-lannister", "lannister-captain"],
                  "baratheon": ["ser-axell-florent", "robert-baratheon"]}})
    fight(s, "the-golden-sound", "sunset-sea", "SSS", "kevan-lannister", "ser-axell-florent")
    assert combat_kind(s) == DecisionKind.RETREAT_AREA
    assert s.pending.player == s.ruleset.house("baratheon")
    assert sorted(s.ruleset.areas[o[1]].id for o in s.pending.options) == \
        ["bay-of-ice", "west-summer-sea"]
    play(s, DecisionKind.RETREAT_AREA, "baratheon", ("area", a(s, "west-summer-sea")))
    assert units_in(s, "west-summer-sea", "baratheon") == "S"
    assert units_in(s, "sunset-sea", "lannister") == "SSS"
    assert total_units(s, "baratheon") == 1


def test_c21_units_never_share_an_area_with_a_neutral_force():
    """C.21, invariants: a ship in Ironman's Bay while Greyjoy's neutral force stands there is a
    state the rules never produce; the scenario builder refuses it and the invariants catch it."""
    with pytest.raises(scenario.ScenarioError, match="neutral force"):
        scenario.build({"ruleset": "1e", "players": 3,
                        "units": {"lannister": {"ironmans-bay": "S"}}})
    s = scenario.build({"ruleset": "1e", "players": 3})
    invariants.check(s)
    s.units[a(s, "ironmans-bay"), s.ruleset.house("lannister"), SHIP] = 1
    with pytest.raises(invariants.InvariantError, match="ironmans-bay"):
        invariants.check(s)
