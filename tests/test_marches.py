"""March orders (rules spec §12.3, R7.8; DECISIONS D-26 to D-28): which moves are offered, what a
March leaves on the board, one attack per March, chained marches, supply."""

from __future__ import annotations

import pytest
from march_helpers import (
    a,
    at_sentinel,
    can_finish,
    controller,
    dests,
    done,
    in_combat,
    march,
    move,
    moves,
    order,
    play,
    power,
    routed,
    token,
    units,
)

from got_env.engine import IllegalActionError, apply
from got_env.engine.decision import NO, DecisionKind
from got_env.engine.state import FOOTMAN, KNIGHT, SHIP, SIEGE_ENGINE

WINTERFELL_LAND = {"castle-black", "karhold", "moat-cailin", "the-stony-shore", "white-harbor"}


def test_r12_3_8_rulebook_example_lannisport():
    """R12.3.8 (rulebook example), R12.3.1, R12.3.2: Lannister marches 3 Footmen from Lannisport:
    one to Stoney Sept, one to Searoad Marches (already holding a Lannister Footman), one stays.
    No combat, no D-28 (Lannisport still holds a unit), and the March token is removed."""
    s = march({"units": {"lannister": {"lannisport": "FFF", "searoad-marches": "F"}},
               "orders": {"lannisport": "march-0"}}, "lannister", "lannisport")
    assert moves(s) == {("F", "riverrun"), ("F", "searoad-marches"), ("F", "stoney-sept")}
    assert can_finish(s)
    move(s, FOOTMAN, "stoney-sept")
    move(s, FOOTMAN, "searoad-marches")
    done(s)
    assert at_sentinel(s)  # no D-28, no combat
    assert units(s, "lannister", "lannisport") == [1, 0, 0, 0]
    assert units(s, "lannister", "stoney-sept") == [1, 0, 0, 0]
    assert units(s, "lannister", "searoad-marches") == [2, 0, 0, 0]
    assert order(s, "lannisport") is None
    assert controller(s, "stoney-sept") == "lannister"
    assert power(s, "lannister") == 5
    assert token(s, "lannisport") is None


def test_r12_3_1_a_march_may_move_nothing():
    """R12.3.1, R12.3.8: "done" at once is legal; the units stay, the March token is removed and
    no power token is asked for (D-28 only when the area is emptied)."""
    s = march({"units": {"stark": {"winterfell": "FK"}}, "orders": {"winterfell": "march-0"}},
              "stark", "winterfell")
    done(s)
    assert at_sentinel(s)
    assert units(s, "stark", "winterfell") == [1, 1, 0, 0]
    assert order(s, "winterfell") is None


def test_r12_3_1_units_split_to_different_areas():
    """R12.3.1: the units of one March may go to different adjacent areas, all of them leaving."""
    s = march({"units": {"stark": {"winterfell": "FFK"}}, "orders": {"winterfell": "march-0"}},
              "stark", "winterfell")
    move(s, KNIGHT, "castle-black")
    move(s, FOOTMAN, "karhold")
    move(s, FOOTMAN, "white-harbor")
    assert at_sentinel(s)  # nothing left to move, Winterfell is Stark's home: no D-28
    assert units(s, "stark", "winterfell") == [0, 0, 0, 0]
    assert units(s, "stark", "castle-black") == [0, 1, 0, 0]
    assert units(s, "stark", "karhold") == [1, 0, 0, 0]
    assert units(s, "stark", "white-harbor") == [1, 0, 0, 0]


def test_r12_3_2_land_units_move_only_to_adjacent_land():
    """R12.3.2, R19.1: Footmen, Knights and Siege Engines go to adjacent land areas only, never to
    the adjacent seas (Bay of Ice, The Shivering Sea) or the port of Winterfell."""
    s = march({"units": {"stark": {"winterfell": "FKE"}}, "orders": {"winterfell": "march-0"}},
              "stark", "winterfell")
    for u in (FOOTMAN, KNIGHT, SIEGE_ENGINE):
        assert dests(s, u) == WINTERFELL_LAND
    for sea in ("bay-of-ice", "the-shivering-sea", "port-of-winterfell"):
        with pytest.raises(IllegalActionError):
            apply(s, ("move", FOOTMAN, a(s, sea)))


def test_r12_3_2_ships_move_to_adjacent_seas_and_own_port_only():
    """R12.3.2, R18.3: ships move between sea areas and friendly ports, never onto land: from Bay
    of Ice to Sunset Sea or Stark's own port of Winterfell, not to the six land areas."""
    s = march({"units": {"stark": {"bay-of-ice": "SS"}}, "orders": {"bay-of-ice": "march-0"}},
              "stark", "bay-of-ice")
    assert moves(s) == {("S", "sunset-sea"), ("S", "port-of-winterfell")}
    move(s, SHIP, "port-of-winterfell")
    move(s, SHIP, "sunset-sea")
    assert at_sentinel(s)  # a sea area: no D-28 (R13.1.2)
    assert units(s, "stark", "port-of-winterfell") == [0, 0, 1, 0]
    assert units(s, "stark", "sunset-sea") == [0, 0, 1, 0]


def test_r12_3_2_routed_units_cannot_move():
    """R12.3.2 (§15.6): a routed unit stays put even in an area with a March order."""
    s = march({"units": {"stark": {"winterfell": "FK"}}, "routed": {"stark": {"winterfell": "K"}},
               "orders": {"winterfell": "march-0"}}, "stark", "winterfell")
    assert dests(s, FOOTMAN) == WINTERFELL_LAND
    assert dests(s, KNIGHT) == set()
    move(s, FOOTMAN, "karhold")
    assert at_sentinel(s)  # nothing else may move
    assert units(s, "stark", "winterfell") == [0, 1, 0, 0]
    assert routed(s, "stark", "winterfell") == [0, 1, 0, 0]


def test_r12_3_2_non_adjacent_areas_are_never_offered():
    """R12.3.2: without ships, a land unit reaches adjacent land areas only: Riverrun's four
    land neighbours, not Pyke across Ironman's Bay nor Searoad Marches two areas away."""
    s = march({"units": {"lannister": {"riverrun": "F"}}, "orders": {"riverrun": "march-0"}},
              "lannister", "riverrun")
    assert dests(s, FOOTMAN) == {"harrenhal", "lannisport", "seagard", "stoney-sept"}


def test_r12_3_3_one_attack_per_march():
    """R12.3.3, R12.3.4, AMBIG-23: after units enter one enemy-held area (Karhold), no other enemy
    area (Castle Black) is offered; more units may join the same attack, and areas that are empty
    or hold only an enemy power token (White Harbor) stay open. The combat starts after the moves
    and the D-28 question, with the units that went in."""
    s = march({"units": {"stark": {"winterfell": "FFK"}, "lannister": {"karhold": "F"},
                         "greyjoy": {"castle-black": "F"}},
               "power_tokens": {"white-harbor": "lannister"},
               "orders": {"winterfell": "march-0"}}, "stark", "winterfell")
    assert dests(s, KNIGHT) == WINTERFELL_LAND
    move(s, KNIGHT, "karhold")
    assert dests(s, FOOTMAN) == WINTERFELL_LAND - {"castle-black"}
    assert dests(s, KNIGHT) == set()
    with pytest.raises(IllegalActionError):
        apply(s, ("move", FOOTMAN, a(s, "castle-black")))
    move(s, FOOTMAN, "white-harbor")  # a power token only: no combat, the attack is not used up
    assert token(s, "white-harbor") is None
    assert units(s, "stark", "white-harbor") == [1, 0, 0, 0]
    move(s, FOOTMAN, "karhold")
    combat = in_combat(s)
    assert combat is not None
    assert (combat.attacker, combat.defender, combat.area, combat.units) == \
        (s.ruleset.house("stark"), s.ruleset.house("lannister"), a(s, "karhold"), [1, 1, 0, 0])
    assert (s.pending.kind, s.pending.player) == (DecisionKind.HOUSE_CARD,
                                                  s.ruleset.house("stark"))
    assert units(s, "greyjoy", "castle-black") == [1, 0, 0, 0]


def _bonus_battle(token_id: str):
    """Stark Knight from Riverrun (Greatjon Umber, 2) against 2 Lannister Footmen in Stoney
    Sept (The Hound, 2, two fortifications): 4 + the March bonus against 4; a tie goes to
    Lannister (Fiefdoms)."""
    return march({"units": {"stark": {"riverrun": "K"}, "lannister": {"stoney-sept": "FF"}},
                  "orders": {"riverrun": token_id},
                  "hands": {"stark": ["greatjon-umber"], "lannister": ["the-hound"]},
                  "tracks": {"fiefdoms": ["greyjoy", "tyrell", "martell", "lannister", "stark",
                                          "baratheon"]}},
                 "stark", "riverrun")


@pytest.mark.parametrize("token_id,wins", [("march-minus-1", False), ("march-0", False),
                                           ("march-special", True)])
def test_r12_3_5_march_modifier_counts_in_the_combat(token_id, wins):
    """R12.3.5, R12.3.4: the March token's number (-1, +0, +1) is added to the attacker's
    strength: only the +1 March beats 4. The winner's Knight enters Stoney Sept; a loser's Knight
    is routed back in Riverrun (§15.6)."""
    s = _bonus_battle(token_id)
    move(s, KNIGHT, "stoney-sept")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "stark", NO)
    if wins:  # Greatjon's sword is stopped by the Hound's towers: both Footmen retreat
        play(s, DecisionKind.RETREAT_AREA, "lannister", ("area", a(s, "searoad-marches")))
    assert at_sentinel(s)
    if wins:
        assert units(s, "stark", "stoney-sept") == [0, 1, 0, 0]
        assert units(s, "stark", "riverrun") == [0, 0, 0, 0]
        assert units(s, "lannister", "searoad-marches") == [2, 0, 0, 0]
        assert controller(s, "stoney-sept") == "stark"
    else:
        assert units(s, "stark", "riverrun") == [0, 1, 0, 0]
        assert routed(s, "stark", "riverrun") == [0, 1, 0, 0]
        assert units(s, "lannister", "stoney-sept") == [2, 0, 0, 0]
    assert order(s, "riverrun") is None


def test_r12_3_7_chained_marches():
    """R12.3.7: units moved into an area with another March order of their house move again
    when that order is resolved."""
    s = march({"units": {"lannister": {"lannisport": "K", "stoney-sept": "F"}},
               "orders": {"lannisport": "march-0", "stoney-sept": "march-special"}},
              "lannister", "lannisport")
    move(s, KNIGHT, "stoney-sept")  # Lannisport is Lannister's home: no D-28 (R13.3.1)
    play(s, DecisionKind.MARCH_TO_RESOLVE, "lannister", ("area", a(s, "stoney-sept")))
    assert moves(s) == {(u, d) for u in "FK" for d in
                        ("blackwater", "harrenhal", "lannisport", "riverrun", "searoad-marches")}
    move(s, KNIGHT, "harrenhal")
    move(s, FOOTMAN, "harrenhal")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "lannister", NO)
    assert at_sentinel(s)
    assert units(s, "lannister", "harrenhal") == [1, 1, 0, 0]
    assert order(s, "stoney-sept") is None and order(s, "lannisport") is None


def test_r7_8_moves_that_break_supply_are_not_offered():
    """R12.3.9, R7.8, R7.2 (level 0: two armies of 2): a Footman of Winterfell's army may not join
    the army of 2 in White Harbor (an army of 3), while every other neighbour stays open."""
    s = march({"units": {"stark": {"winterfell": "FF", "white-harbor": "FF"}},
               "supply": {"stark": 0}, "orders": {"winterfell": "march-0"}},
              "stark", "winterfell")
    assert dests(s, FOOTMAN) == WINTERFELL_LAND - {"white-harbor"}
    with pytest.raises(IllegalActionError):
        apply(s, ("move", FOOTMAN, a(s, "white-harbor")))


def test_r7_8_supply_is_checked_on_the_march_as_a_whole():
    """R7.8, R12.3.9 (reading in marches.py): the March is one action, so a move is offered when
    the March can still end within the limits. Level 1 (armies 3, 2): Winterfell 3, Castle Black
    1, White Harbor 2. One Footman to Castle Black makes three armies of 2 for a moment; a second
    one ends with 1, 3, 2, which fits. "done" waits until the position fits again."""
    s = march({"units": {"stark": {"winterfell": "FFF", "castle-black": "F",
                                   "white-harbor": "FF"}},
               "supply": {"stark": 1}, "orders": {"winterfell": "march-0"}},
              "stark", "winterfell")
    assert "castle-black" in dests(s, FOOTMAN)
    move(s, FOOTMAN, "castle-black")
    assert not can_finish(s)
    assert dests(s, FOOTMAN) == WINTERFELL_LAND
    move(s, FOOTMAN, "castle-black")
    assert can_finish(s)
    assert dests(s, FOOTMAN) == WINTERFELL_LAND - {"castle-black", "white-harbor"}
    done(s)
    assert at_sentinel(s)
    assert units(s, "stark", "castle-black") == [3, 0, 0, 0]
    assert units(s, "stark", "winterfell") == [1, 0, 0, 0]


def test_r12_3_3_one_naval_attack_per_march():
    """R12.3.3, R12.3.4, R12.3.2: ships attack too, once per March: after a Greyjoy ship enters
    The Golden Sound (Lannister ship), Sunset Sea (Stark ship) is closed, Greyjoy's own port of
    Pyke stays open; Sunset Sea is a sea area, so no D-28 comes before the combat."""
    s = march({"units": {"greyjoy": {"ironmans-bay": "SSS"},
                         "lannister": {"the-golden-sound": "S"}, "stark": {"sunset-sea": "S"}},
               "orders": {"ironmans-bay": "march-0"}}, "greyjoy", "ironmans-bay")
    assert dests(s, SHIP) == {"port-of-pyke", "sunset-sea", "the-golden-sound"}
    move(s, SHIP, "the-golden-sound")
    assert dests(s, SHIP) == {"port-of-pyke", "the-golden-sound"}
    move(s, SHIP, "port-of-pyke")
    move(s, SHIP, "the-golden-sound")
    combat = in_combat(s)
    assert combat is not None
    assert (combat.defender, combat.area, combat.units) == \
        (s.ruleset.house("lannister"), a(s, "the-golden-sound"), [0, 0, 2, 0])
    assert units(s, "greyjoy", "port-of-pyke") == [0, 0, 1, 0]
