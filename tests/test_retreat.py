"""Retreat and routing after a combat (rules spec §15.6 6.3, R7.8, R13.2.4, R14, R18.2, AMBIG-12,
AMBIG-13; DECISIONS D-44, D-45)."""

import pytest
from combat_helpers import (
    areas,
    build,
    fight,
    kind,
    last_combat,
    march,
    play_cards,
    retreat,
    routed_in,
    total_units,
    unit_options,
    units_in,
    who,
)

from got_env.engine import DONE, apply
from got_env.engine.combat.frame import combat_frame
from got_env.engine.combat.strength import initial_strength
from got_env.engine.decision import DecisionKind

CARDS = {"tyrell": ["alester-florent", "randyll-tarly"],
         "lannister": ["ser-jaime-lannister", "the-hound"],
         "baratheon": ["brienne-of-tarth", "melisandre"],
         "stark": ["greatjon-umber", "ser-rodrick-cassel"],
         "greyjoy": ["dagmar-cleftjaw", "euron-crows-eye"]}


def tyrell_attacks_from_the_reach(target="blackwater", **spec):
    """Tyrell's 2 Knights (March +0) take ``target`` from Lannister with Randyll Tarly (1 sword)
    against The Hound (2 fortifications): Lannister loses, no casualties; returns at D-44 (or
    later, when the retreat needs no choice)."""
    units = spec.pop("units", {})
    s = build(units={"tyrell": {"the-reach": "KK"}, **units},
              orders={"the-reach": "march-0", **spec.pop("orders", {})},
              hands={"tyrell": CARDS["tyrell"], "lannister": CARDS["lannister"]}, **spec)
    fight(s, "the-reach", target, "KK", "randyll-tarly", "the-hound")
    return s


# --- the losing attacker ------------------------------------------------------------------------


def test_p21_routing_example(ended):
    """p.21 example, §15.0, §15.6 6.3: a routed Tyrell Knight in Storm's End gives 0, so Tyrell's
    initial strength there is 1 (its Footman). Tyrell loses again: the routed Knight must
    retreat again and is destroyed; the Footman retreats (routed) to The Boneway, the only
    legal area (Kingswood is where the attack came from)."""
    s = build(units={"baratheon": {"kingswood": "FK"}, "tyrell": {"storms-end": "FK"}},
              routed={"tyrell": {"storms-end": "K"}},
              orders={"kingswood": "march-0"},
              hands={"baratheon": CARDS["baratheon"], "tyrell": CARDS["tyrell"]})
    march(s, "kingswood", "storms-end", "FK")
    frame = combat_frame(s)
    assert initial_strength(s, frame, "defender") == 1
    play_cards(s, "melisandre", "alester-florent")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3 + 1, "defender": 1 + 1}
    assert units_in(st, "storms-end", "baratheon") == "FK"
    assert units_in(st, "the-boneway", "tyrell") == "F"
    assert routed_in(st, "the-boneway", "tyrell") == "F"
    assert total_units(st, "tyrell") == 1


def test_losing_attacker_goes_back_routed_and_loses_its_siege_engine(ended):
    """§15.6 6.3: the losing attacker's survivors go back to the area they marched from, routed;
    a Siege Engine can never retreat and is destroyed. Stark's Knight + Siege Engine (6 into the
    Harrenhal castle) + Ser Rodrick 1 = 7 lose to Baratheon's 2 Knights with Defense★ (6) +
    Brienne 2 = 8; 1 sword - 2 fortifications = no casualties."""
    s = build(units={"stark": {"stoney-sept": "KE"}, "baratheon": {"harrenhal": "KK"}},
              orders={"stoney-sept": "march-0", "harrenhal": "defense-special"},
              hands={"stark": CARDS["stark"], "baratheon": CARDS["baratheon"]})
    fight(s, "stoney-sept", "harrenhal", "KE", "ser-rodrick-cassel", "brienne-of-tarth")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 7, "defender": 8}
    assert units_in(st, "stoney-sept", "stark") == "K"
    assert routed_in(st, "stoney-sept", "stark") == "K"
    assert total_units(st, "stark") == 1
    assert units_in(st, "harrenhal", "baratheon") == "KK"


def test_losing_attacker_over_supply_destroys_retreating_units(ended):
    """§15.6 6.3 item 5 applied to the attacker (AMBIG-12, R7.8): Lannister at supply 1 (armies
    3, 2) attacks Blackwater with 1 of its 3 Stoney Sept Footmen and moves another to Searoad
    Marches (armies 2, 2 then). The attacker loses; the Footman back in Stoney Sept would make a
    third army of 2, so it is destroyed (D-45, the only choice) and Stoney Sept keeps its one
    standing Footman."""
    s = build(units={"lannister": {"stoney-sept": "FFF", "lannisport": "FF",
                                   "searoad-marches": "F"},
                     "tyrell": {"blackwater": "K"}},
              orders={"stoney-sept": "march-0"}, supply={"lannister": 1},
              hands={"lannister": CARDS["lannister"], "tyrell": CARDS["tyrell"]})
    rs = s.ruleset
    apply(s, ("move", 0, rs.area("blackwater")))
    apply(s, ("move", 0, rs.area("searoad-marches")))
    apply(s, DONE)
    play_cards(s, "ser-jaime-lannister", "alester-florent")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3, "defender": 3}
    assert frame.winner == "defender"  # the tie: Tyrell is higher on Fiefdoms
    assert units_in(st, "stoney-sept", "lannister") == "F"
    assert routed_in(st, "stoney-sept", "lannister") == ""
    assert units_in(st, "searoad-marches", "lannister") == "FF"
    assert total_units(st, "lannister") == 5


# --- where the losing defender may go -----------------------------------------------------------


def test_defender_retreat_areas():
    """§15.6 6.3 items 2-3, R13.2.4, AMBIG-13: from Blackwater the Lannister Footman may go to an
    adjacent area that is empty or friendly: Searoad Marches (its own power token) and Stoney
    Sept (its units); not Crackclaw Point (a Baratheon power token), Harrenhal (Stark units),
    King's Landing (a neutral force) or The Reach, which Tyrell marched from (empty now)."""
    s = tyrell_attacks_from_the_reach(
        units={"lannister": {"blackwater": "F", "stoney-sept": "F"}, "stark": {"harrenhal": "F"}},
        power_tokens={"crackclaw-point": "baratheon", "searoad-marches": "lannister"},
        neutral_forces={"kings-landing": 5})
    assert kind(s) == DecisionKind.RETREAT_AREA and who(s) == "lannister"
    assert areas(s, s.pending.options) == ["searoad-marches", "stoney-sept"]


@pytest.mark.parametrize("garrisons", [{}, None])
def test_defender_never_retreats_into_an_enemy_home_area(garrisons):
    """AMBIG-13, R13.3.1: an enemy home area with no units is held by its printed shield, which
    counts as an enemy power token: Highgarden (Tyrell) is not a retreat area, with or without
    its garrison; Lannister's own Lannisport is."""
    spec = {} if garrisons is None else {"garrisons": garrisons}
    s = tyrell_attacks_from_the_reach("searoad-marches",
                                      units={"lannister": {"searoad-marches": "F"}}, **spec)
    assert areas(s, s.pending.options) == ["blackwater", "lannisport", "stoney-sept"]


@pytest.mark.parametrize("ship,expected", [
    (True, ["blackwater", "lannisport", "riverrun", "stoney-sept"]),
    (False, ["blackwater", "lannisport", "stoney-sept"]),
])
def test_defender_may_retreat_by_ship_transport(ship, expected):
    """§15.6 6.3 item 2, R14: the retreat area may be reached through the house's own ships:
    with a Lannister ship in The Golden Sound, Riverrun (not adjacent to Searoad Marches) is a
    retreat area. Footmen never retreat to sea (item 4)."""
    units = {"lannister": {"searoad-marches": "F", **({"the-golden-sound": "S"} if ship else {})}}
    s = tyrell_attacks_from_the_reach("searoad-marches", units=units)
    assert areas(s, s.pending.options) == expected


def test_defender_units_retreat_together_and_are_routed(ended):
    """§15.6 6.3 items 1 and "routed": all the survivors go to one area and are routed there."""
    s = tyrell_attacks_from_the_reach(units={"lannister": {"blackwater": "FK"}})
    retreat(s, "searoad-marches")
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert units_in(st, "searoad-marches", "lannister") == "FK"
    assert routed_in(st, "searoad-marches", "lannister") == "FK"
    assert units_in(st, "blackwater", "lannister") == ""
    assert units_in(st, "blackwater", "tyrell") == "KK"


def test_defender_siege_engine_is_destroyed_instead_of_retreating(ended):
    """§15.6 6.3: a Siege Engine never retreats: Baratheon's is destroyed, its Footman retreats."""
    s = build(units={"lannister": {"stoney-sept": "KK"}, "baratheon": {"harrenhal": "FE"}},
              orders={"stoney-sept": "march-0"},
              hands={"lannister": CARDS["lannister"], "baratheon": CARDS["baratheon"]})
    fight(s, "stoney-sept", "harrenhal", "KK", "ser-jaime-lannister", "brienne-of-tarth")
    assert areas(s, s.pending.options) == ["blackwater", "crackclaw-point", "riverrun"]
    retreat(s, "riverrun")
    st, _ = last_combat(ended)
    assert units_in(st, "riverrun", "baratheon") == "F"
    assert routed_in(st, "riverrun", "baratheon") == "F"
    assert total_units(st, "baratheon") == 1


def test_no_legal_retreat_destroys_all(ended):
    """§15.6 6.3 item 6: Baratheon's Knight in Harrenhal loses and every neighbour is taken
    (Blackwater Lannister, Crackclaw Point Tyrell, Riverrun Stark, Stoney Sept the attacker's
    origin): it is destroyed, no D-44 is asked."""
    s = build(units={"lannister": {"stoney-sept": "KK", "blackwater": "F"},
                     "baratheon": {"harrenhal": "K"}, "tyrell": {"crackclaw-point": "F"},
                     "stark": {"riverrun": "F"}},
              orders={"stoney-sept": "march-0"},
              hands={"lannister": CARDS["lannister"], "baratheon": CARDS["baratheon"]})
    fight(s, "stoney-sept", "harrenhal", "KK", "ser-jaime-lannister", "brienne-of-tarth")
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert total_units(st, "baratheon") == 0
    assert units_in(st, "harrenhal", "lannister") == "KK"


# --- supply -----------------------------------------------------------------------------------


def test_retreat_areas_that_break_supply_are_not_offered_when_others_fit():
    """§15.6 6.3 item 5, R7.8: Lannister at supply 0 (two armies of 2) may not retreat its 2
    Footmen into Stoney Sept, which already holds 2; the empty neighbours fit."""
    s = tyrell_attacks_from_the_reach(
        units={"lannister": {"blackwater": "FF", "stoney-sept": "FF"}},
        supply={"lannister": 0})
    assert areas(s, s.pending.options) == ["crackclaw-point", "harrenhal", "kings-landing",
                                           "searoad-marches"]


def test_only_retreat_area_over_supply_destroys_the_excess_first(ended):
    """§15.6 6.3 item 5, R7.8, D-45: Stoney Sept is Lannister's only legal retreat area, and its
    Footman + Knight arriving there (2 + 2 = 4) break supply 4 (armies 3, 3, 2, 2) next to the 3
    Footmen of Lannisport: Lannister destroys one retreating unit of its choice (the Knight),
    the rest retreats routed; the units already in Stoney Sept are untouched."""
    s = tyrell_attacks_from_the_reach(
        units={"lannister": {"blackwater": "FK", "stoney-sept": "FF", "lannisport": "FFF"},
               "baratheon": {"crackclaw-point": "F", "harrenhal": "F"},
               "stark": {"searoad-marches": "F"}},
        neutral_forces={"kings-landing": 5}, supply={"lannister": 4})
    assert kind(s) == DecisionKind.RETREAT_SUPPLY_LOSS and who(s) == "lannister"
    assert unit_options(s) == [("stoney-sept", "F"), ("stoney-sept", "K")]
    apply(s, ("unit", s.ruleset.area("stoney-sept"), 1))
    st, _ = last_combat(ended)
    assert units_in(st, "stoney-sept", "lannister") == "FFF"
    assert routed_in(st, "stoney-sept", "lannister") == "F"
    assert total_units(st, "lannister") == 6


# --- ships --------------------------------------------------------------------------------------

SEA = {
    "units": {"lannister": {"the-golden-sound": "SS"}, "greyjoy": {"ironmans-bay": "S"}},
    "orders": {"the-golden-sound": "march-0"},
    "hands": {"lannister": CARDS["lannister"], "greyjoy": CARDS["greyjoy"]},
}


def sea_battle(supply=None, **units):
    """Lannister's 2 ships (+ The Hound) beat Greyjoy's ship in Ironman's Bay (+ Dagmar, the
    Blade unused): 4 against 2, no casualties; returns at D-44 or later."""
    s = build(**{**SEA, "units": {"lannister": {"the-golden-sound": "SS"},
                                  "greyjoy": {"ironmans-bay": "S"}, **units},
                 "supply": supply or {}})
    fight(s, "the-golden-sound", "ironmans-bay", "SS", "the-hound", "dagmar-cleftjaw", blade=False)
    return s


def test_ships_retreat_to_a_sea_or_an_own_port():
    """§15.6 6.3 item 4, R18.3: ships retreat into an adjacent sea area or a friendly port, never
    onto land (Pyke, Riverrun, ...), never to the attacker's origin (The Golden Sound)."""
    s = sea_battle()
    assert who(s) == "greyjoy"
    assert areas(s, s.pending.options) == ["port-of-pyke", "sunset-sea"]


def test_ships_never_retreat_into_enemy_ships():
    """§15.6 6.3 item 2: a sea area holding enemy ships is not a retreat area."""
    s = sea_battle(stark={"sunset-sea": "S"})
    assert kind(s) != DecisionKind.RETREAT_AREA
    assert units_in(s, "port-of-pyke", "greyjoy") == "S"


def test_ships_never_retreat_into_a_full_port(ended):
    """§15.6 6.3, R18.2: a port holds at most 3 ships, so a Greyjoy port with 3 ships is not a
    retreat area, even where supply (6: an army of 4) would allow 4 ships; with Sunset Sea
    blocked too, the ship has no legal retreat and is destroyed (item 6)."""
    sea_battle(supply={"greyjoy": 6}, greyjoy={"ironmans-bay": "S", "port-of-pyke": "SSS"},
               stark={"sunset-sea": "S"})
    st, _ = last_combat(ended)
    assert units_in(st, "port-of-pyke", "greyjoy") == "SSS"
    assert total_units(st, "greyjoy") == 3


def test_ships_retreat_into_a_port_with_room(ended):
    """§15.6 6.3, R18.2: a friendly port with 2 ships takes the retreating third."""
    sea_battle(greyjoy={"ironmans-bay": "S", "port-of-pyke": "SS"}, stark={"sunset-sea": "S"})
    st, _ = last_combat(ended)
    assert units_in(st, "port-of-pyke", "greyjoy") == "SSS"
    assert routed_in(st, "port-of-pyke", "greyjoy") == "S"


def test_several_retreat_areas_all_over_supply_the_fewest_losses_is_taken(ended):
    """§15.6 6.3 item 5, R7.8 (combat reading): when every legal area breaks supply, the
    loser must take one with the fewest losses, then destroys the excess there (D-45). Lannister
    at supply 0 (two armies of 2): Searoad Marches (1 Footman) and Stoney Sept (2) both break
    it; only Searoad Marches (one loss, against two) is legal, so nothing is asked, and one of
    the 2 retreating Footmen dies there."""
    s = tyrell_attacks_from_the_reach(
        units={"lannister": {"blackwater": "FF", "stoney-sept": "FF", "searoad-marches": "F"},
               "baratheon": {"crackclaw-point": "F", "harrenhal": "F"}},
        neutral_forces={"kings-landing": 5}, supply={"lannister": 0})
    assert kind(s) != DecisionKind.RETREAT_AREA
    st, _ = last_combat(ended)
    assert units_in(st, "searoad-marches", "lannister") == "FF"
    assert routed_in(st, "searoad-marches", "lannister") == "F"
    assert units_in(st, "stoney-sept", "lannister") == "FF"


def test_never_retreat_into_impassable_areas(ended):
    """AMBIG-13, R16.7: with 3 players Storm's End and The Boneway are impassable, so
    Baratheon's Footman, beaten in Kingswood from King's Landing, can only go to The Reach."""
    s = build(players=3, units={"lannister": {"kings-landing": "KK"},
                                "baratheon": {"kingswood": "F"}},
              orders={"kings-landing": "march-0"},
              hands={"lannister": CARDS["lannister"], "baratheon": CARDS["baratheon"]})
    fight(s, "kings-landing", "kingswood", "KK", "the-hound", "melisandre")
    st, _ = last_combat(ended)
    assert units_in(st, "the-reach", "baratheon") == "F"
    assert routed_in(st, "the-reach", "baratheon") == "F"


def test_retreat_that_gains_a_land_area_captures_its_port(ended):
    """R18.8 with AMBIG-15 (DECISIONS Open point 6): Tyrell's Footman retreats into empty Storm's
    End and so gains control of it; Baratheon's 2 ships in its port are then captured (D-47):
    Tyrell replaces them with ships of its own, here 1."""
    s = build(units={"lannister": {"kings-landing": "KK"}, "tyrell": {"kingswood": "F"},
                     "baratheon": {"port-of-storms-end": "SS"}},
              orders={"kings-landing": "march-0"},
              hands={"lannister": CARDS["lannister"], "tyrell": CARDS["tyrell"]})
    fight(s, "kings-landing", "kingswood", "KK", "ser-jaime-lannister", "alester-florent")
    retreat(s, "storms-end")
    assert kind(s) == DecisionKind.PORT_CAPTURE and who(s) == "tyrell"
    assert s.pending.options == (("count", 0), ("count", 1), ("count", 2))
    apply(s, ("count", 1))
    st, _ = last_combat(ended)
    assert units_in(st, "port-of-storms-end", "tyrell") == "S"
    assert units_in(st, "port-of-storms-end", "baratheon") == ""
    assert routed_in(st, "storms-end", "tyrell") == "F"
