"""Ship transport and islands (rules spec §14, R19.4, AMBIG-14; DECISIONS D-27)."""

from __future__ import annotations

from march_helpers import (
    a,
    at_sentinel,
    controller,
    dests,
    in_combat,
    march,
    move,
    moves,
    order,
    play,
    units,
)

from got_env.engine.decision import NO, DecisionKind
from got_env.engine.state import FOOTMAN, KNIGHT, SHIP

HIGHGARDEN_LAND = {"dornish-marches", "oldtown", "searoad-marches", "the-reach"}
IRONMANS_BAY_LAND = {"flints-finger", "greywater-watch", "riverrun", "seagard"}


def test_r14_rulebook_example_highgarden_to_sunspear():
    """R14.1, R14.2, rulebook example (§14): Tyrell ships in Redwyne Straits, West Summer Sea and
    East Summer Sea, all connected, let a unit in Highgarden reach Sunspear, or any land area
    next to those seas, with one March. The same ships carry two units to different areas."""
    s = march({"units": {"tyrell": {"highgarden": "FK", "redwyne-straits": "S",
                                    "west-summer-sea": "S", "east-summer-sea": "S"}},
               "garrisons": {}, "orders": {"highgarden": "march-0"}}, "tyrell", "highgarden")
    by_sea = {"oldtown", "the-arbor", "three-towers", "searoad-marches", "starfall",
              "salt-shore", "storms-end", "sunspear"}
    assert dests(s, FOOTMAN) == dests(s, KNIGHT) == HIGHGARDEN_LAND | by_sea
    move(s, KNIGHT, "sunspear")  # no garrison, no units: Martell's shield only, no combat
    move(s, FOOTMAN, "the-arbor")
    assert at_sentinel(s)  # Highgarden is Tyrell's home: no D-28
    assert units(s, "tyrell", "sunspear") == [0, 1, 0, 0]
    assert units(s, "tyrell", "the-arbor") == [1, 0, 0, 0]
    assert controller(s, "sunspear") == "tyrell"
    assert units(s, "tyrell", "east-summer-sea") == [0, 0, 1, 0]  # ships never move


def test_r14_1_the_chain_must_be_connected():
    """R14.1: a chain of *connected* seas: with no ship in West Summer Sea, ships in Redwyne
    Straits and East Summer Sea (not adjacent) give Highgarden only Redwyne Straits' coast."""
    s = march({"units": {"tyrell": {"highgarden": "F", "redwyne-straits": "S",
                                    "east-summer-sea": "S"}},
               "orders": {"highgarden": "march-0"}}, "tyrell", "highgarden")
    assert dests(s, FOOTMAN) == HIGHGARDEN_LAND | {"the-arbor", "three-towers"}


def test_r14_3_another_houses_ships_never_transport():
    """R14.3: Greyjoy ships in Ironman's Bay do not carry a Lannister Footman from Riverrun to
    Greywater Watch, Flint's Finger or Seagard's other coast; only Riverrun's land neighbours."""
    s = march({"units": {"lannister": {"riverrun": "F"}, "greyjoy": {"ironmans-bay": "SS"}},
               "orders": {"riverrun": "march-0"}}, "lannister", "riverrun")
    assert dests(s, FOOTMAN) == {"harrenhal", "lannisport", "seagard", "stoney-sept"}


def test_r14_5_routed_ships_still_transport():
    """R14.5, R14.8, R19.4: a routed Greyjoy ship in Ironman's Bay still carries a Footman off the
    island of Pyke to any land area on that sea."""
    s = march({"units": {"greyjoy": {"pyke": "F", "ironmans-bay": "S"}},
               "routed": {"greyjoy": {"ironmans-bay": "S"}},
               "orders": {"pyke": "march-0"}}, "greyjoy", "pyke")
    assert dests(s, FOOTMAN) == IRONMANS_BAY_LAND
    move(s, FOOTMAN, "seagard")
    assert at_sentinel(s)
    assert units(s, "greyjoy", "seagard") == [1, 0, 0, 0]
    assert units(s, "greyjoy", "ironmans-bay") == [0, 0, 1, 0]


def test_r14_6_transport_into_an_enemy_area_is_the_one_attack():
    """R14.6, R12.3.3: a Footman carried into Greywater Watch (Stark) attacks; Seagard (Lannister)
    is then closed, Riverrun (empty) stays open, and the combat starts with the carried unit."""
    s = march({"units": {"greyjoy": {"pyke": "FF", "ironmans-bay": "S"},
                         "stark": {"greywater-watch": "F"}, "lannister": {"seagard": "F"}},
               "orders": {"pyke": "march-0"}}, "greyjoy", "pyke")
    assert dests(s, FOOTMAN) == IRONMANS_BAY_LAND
    move(s, FOOTMAN, "greywater-watch")
    assert dests(s, FOOTMAN) == {"flints-finger", "greywater-watch", "riverrun"}
    move(s, FOOTMAN, "riverrun")
    combat = in_combat(s)
    assert combat is not None
    assert (combat.defender, combat.area, combat.units) == \
        (s.ruleset.house("stark"), a(s, "greywater-watch"), [1, 0, 0, 0])
    assert units(s, "greyjoy", "riverrun") == [1, 0, 0, 0]


def test_r14_7_ships_are_never_transported():
    """R14.7, R12.3.2: other Greyjoy ships in Sunset Sea do not carry a ship of Ironman's Bay
    further: it moves to adjacent seas and Greyjoy's own port only."""
    s = march({"units": {"greyjoy": {"ironmans-bay": "S", "sunset-sea": "S",
                                     "the-golden-sound": "S"}},
               "orders": {"ironmans-bay": "march-0"}}, "greyjoy", "ironmans-bay")
    assert moves(s) == {("S", "sunset-sea"), ("S", "the-golden-sound"), ("S", "port-of-pyke")}
    move(s, SHIP, "port-of-pyke")
    assert at_sentinel(s)
    assert units(s, "greyjoy", "port-of-pyke") == [0, 0, 1, 0]


def test_r14_8_island_without_ships_cannot_be_left():
    """R14.8, R19.4: Footmen on Dragonstone with no Baratheon ship at sea have nowhere to go:
    the March resolves with no move (its only option, "done", is played at once) and is
    removed."""
    s = march({"units": {"baratheon": {"dragonstone": "FK"}},
               "orders": {"dragonstone": "march-0"}}, "baratheon", "dragonstone")
    assert at_sentinel(s)
    assert units(s, "baratheon", "dragonstone") == [1, 1, 0, 0]
    assert order(s, "dragonstone") is None


def test_r14_9_ships_in_a_port_are_not_links():
    """R14.9, AMBIG-14 (reading: only sea areas form chains): a Greyjoy ship in the port of
    Pyke does not carry Pyke's Footman anywhere."""
    s = march({"units": {"greyjoy": {"pyke": "F", "port-of-pyke": "S"}},
               "orders": {"pyke": "march-0"}}, "greyjoy", "pyke")
    assert at_sentinel(s)
    assert units(s, "greyjoy", "pyke") == [1, 0, 0, 0]


def test_r19_4_islands_are_entered_only_by_transport():
    """R19.4, R14.8: Dragonstone is offered to Kingswood's units only while a Baratheon ship
    holds Shipbreaker Bay, and entering it is a normal land move (D-28 for Kingswood)."""
    kingswood_land = {"kings-landing", "storms-end", "the-boneway", "the-reach"}
    s = march({"units": {"baratheon": {"kingswood": "F"}}, "neutral_forces": {},
               "orders": {"kingswood": "march-0"}}, "baratheon", "kingswood")
    assert dests(s, FOOTMAN) == kingswood_land
    s = march({"units": {"baratheon": {"kingswood": "F", "shipbreaker-bay": "S"}},
               "neutral_forces": {}, "orders": {"kingswood": "march-0"}},
              "baratheon", "kingswood")
    assert dests(s, FOOTMAN) == kingswood_land | {"crackclaw-point", "dragonstone"}
    move(s, FOOTMAN, "dragonstone")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "baratheon", NO)
    assert at_sentinel(s)
    assert units(s, "baratheon", "dragonstone") == [1, 0, 0, 0]
    assert controller(s, "kingswood") is None
