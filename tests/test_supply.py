"""Supply: adjusting the track and reconciling armies (R7.1-R7.9, R18.2; DECISIONS D-04)."""

import numpy as np
import pytest

from got_env.engine import DecisionKind, IllegalActionError, apply, scenario
from got_env.engine.state import FOOTMAN, KNIGHT, SHIP

CARDS = {"I": ["supply"], "II": ["last-days-of-summer"], "III": ["web-of-lies"]}


def supply_card(**spec):
    """6 players, Westeros phase of round 2 (the last round), deck I: Supply."""
    return scenario.build({"round": 2, "options": {"max_rounds": 2}, "start": "westeros",
                           "westeros_top": {**CARDS, **spec.pop("cards", {})}, **spec})


def levels(state):
    return {h.id: int(state.supply[h.index]) for h in state.ruleset.houses}


def unit(state, area, unit_type):
    return ("unit", state.ruleset.area(area), unit_type)


def reconciling(state, house):
    d = state.pending
    return d is not None and d.kind == DecisionKind.RECONCILE_ARMIES \
        and d.player == state.ruleset.house(house)


# R7.4's example: Lannister at supply 5 with armies 4, 3, 2, 2 (The Twins, Harrenhal, Lannisport,
# Riverrun) controls 3 barrels (Lannisport 2, Riverrun 1), so it drops to 3; Stoney Sept holds a
# lone Footman.
LANNISTER_EXAMPLE = {
    "units": {"lannister": {"the-twins": "KFFF", "harrenhal": "KFF", "lannisport": "KF",
                            "riverrun": "FF", "stoney-sept": "F"}},
    "supply": {"lannister": 5},
}


def test_rulebook_example_lannister_drops_from_5_to_3():
    """R7.1, R7.3, R7.4 (the book's example), R7.2: Lannister drops from 5 to 3 with armies
    4, 3, 2, 2; it must reach 3, 2, 2, 2, so it destroys one Footman at The Twins and one at
    Harrenhal. Only units in armies (2+ units) can be chosen: not Stoney Sept's lone Footman."""
    s = supply_card(**LANNISTER_EXAMPLE)
    rs = s.ruleset
    assert levels(s) == {"stark": 1, "lannister": 3, "baratheon": 1, "greyjoy": 1, "tyrell": 2,
                         "martell": 1}
    assert reconciling(s, "lannister")
    assert set(s.pending.options) == {
        unit(s, a, u) for a, u in [("the-twins", KNIGHT), ("the-twins", FOOTMAN),
                                   ("harrenhal", KNIGHT), ("harrenhal", FOOTMAN),
                                   ("lannisport", KNIGHT), ("lannisport", FOOTMAN),
                                   ("riverrun", FOOTMAN)]}
    apply(s, unit(s, "the-twins", FOOTMAN))
    assert reconciling(s, "lannister")  # 3, 3, 2, 2 still breaks 3, 2, 2, 2
    apply(s, unit(s, "harrenhal", FOOTMAN))
    assert not reconciling(s, "lannister")
    lannister = rs.house("lannister")
    sizes = {a: int(s.units[rs.area(a), lannister].sum())
             for a in ("the-twins", "harrenhal", "lannisport", "riverrun", "stoney-sept")}
    assert sizes == {"the-twins": 3, "harrenhal": 2, "lannisport": 2, "riverrun": 2,
                     "stoney-sept": 1}
    assert s.units[rs.area("the-twins"), lannister, KNIGHT] == 1


def test_reconcile_goes_on_until_the_armies_fit():
    """R7.4, R7.5, R7.2: any unit of an army may go, and the house goes on until its armies fit;
    fewer or smaller armies than allowed are fine. Lannisport's Footman (4, 3, 2 still breaks
    3, 2, 2, 2; its Knight, now alone, is no longer a choice), Riverrun's (4, 3), one at The
    Twins (3, 3), a second there (2, 3 fits)."""
    s = supply_card(**LANNISTER_EXAMPLE)
    for area, u in [("lannisport", FOOTMAN), ("riverrun", FOOTMAN), ("the-twins", FOOTMAN)]:
        apply(s, unit(s, area, u))
        assert reconciling(s, "lannister")
    assert unit(s, "lannisport", KNIGHT) not in s.pending
    apply(s, unit(s, "the-twins", FOOTMAN))
    assert not reconciling(s, "lannister")


def test_supply_level_is_capped_at_6():
    """R7.1, facts §4.3: Tyrell controls 8 barrels (Highgarden 2, power tokens on Blackwater 2,
    Searoad Marches, Three Towers, Prince's Pass, The Stony Shore) and moves to 6, the top."""
    s = supply_card(units={}, power_tokens={a: "tyrell" for a in (
        "blackwater", "searoad-marches", "three-towers", "princes-pass", "the-stony-shore")})
    assert int(s.barrels_controlled()[s.ruleset.house("tyrell")]) == 8
    assert levels(s)["tyrell"] == 6


def test_routed_units_and_ships_count_in_armies():
    """R7.6, R7.9, R18.2: routed units, ships at sea and ships in a port form armies. Greyjoy at
    supply 2 (3, 2, 2) has Pyke 3, Ironman's Bay 2 ships, Port of Pyke 2 ships and 2 routed
    Footmen at Greywater Watch: four armies, one too many; destroying a port ship fixes it."""
    s = supply_card(
        units={"greyjoy": {"pyke": "KFF", "ironmans-bay": "SS", "port-of-pyke": "SS",
                           "greywater-watch": "FF"}},
        routed={"greyjoy": {"greywater-watch": "FF"}}, supply={"greyjoy": 4})
    assert levels(s)["greyjoy"] == 2
    assert reconciling(s, "greyjoy")
    assert {unit(s, "greywater-watch", FOOTMAN), unit(s, "ironmans-bay", SHIP),
            unit(s, "port-of-pyke", SHIP)} <= set(s.pending.options)
    apply(s, unit(s, "port-of-pyke", SHIP))
    assert not reconciling(s, "greyjoy")
    assert s.units[s.ruleset.area("port-of-pyke"), s.ruleset.house("greyjoy"), SHIP] == 1


def test_houses_reconcile_in_turn_order():
    """R7.1, D-04: in turn order (Baratheon before Stark), each house finishes before the next:
    Baratheon (level 2: 3, 2, 2; armies 3, 2, 2, 2 with its two ships), then Stark (level 1:
    3, 2; armies 3, 2, 2)."""
    s = supply_card(
        units={"stark": {"winterfell": "KFF", "white-harbor": "FF", "castle-black": "FF"},
               "baratheon": {"dragonstone": "KFF", "kingswood": "FF", "storms-end": "FF",
                             "shipbreaker-bay": "SS"}})
    assert levels(s)["stark"] == 1 and levels(s)["baratheon"] == 2
    assert reconciling(s, "baratheon")
    apply(s, unit(s, "storms-end", FOOTMAN))
    assert reconciling(s, "stark")
    apply(s, unit(s, "white-harbor", FOOTMAN))
    assert not reconciling(s, "stark")


def test_raised_supply_needs_no_reconcile():
    """R7.1, R7.5: Stark's level rises from 0 to 1 (Winterfell's barrel); nobody breaks a limit,
    so nobody is asked."""
    s = supply_card(supply={"stark": 0})
    assert levels(s)["stark"] == 1
    assert s.pending is None or s.pending.kind == DecisionKind.PLACE_ORDERS


def test_no_check_without_a_supply_adjustment():
    """R7.7: armies are checked only when the supply track is adjusted; with no Supply card the
    over-limit Lannister keeps its units."""
    s = supply_card(cards={"I": ["last-days-of-summer"]}, **LANNISTER_EXAMPLE)
    units = s.units.copy()
    assert levels(s)["lannister"] == 5
    assert np.array_equal(s.units, units)
    assert not reconciling(s, "lannister")


@pytest.mark.parametrize("bad", [("unit", "stoney-sept", FOOTMAN), ("unit", "the-twins", SHIP),
                                 ("unit", "winterfell", FOOTMAN)])
def test_illegal_destroy_leaves_state_unchanged(bad):
    """D-04, R7.4: a lone unit, a unit the house does not have there, or another house's area
    cannot be chosen; the state stays as it was."""
    s = supply_card(**LANNISTER_EXAMPLE)
    before = s.clone()
    with pytest.raises(IllegalActionError):
        apply(s, unit(s, bad[1], bad[2]))
    assert s == before
