"""Consolidate Power orders (rules spec §11, §12.4, R8.9, R18.5, AMBIG-21; DECISIONS D-48,
D-49).

Scenarios start at the Consolidate Power step of round 1 with ``max_rounds`` 1, so the game ends
right after the Action phase and nothing else changes the power counts read at the end.
"""

import pytest
from engine_helpers import area, at, build, kind, option_areas, orders, power, who

from got_env.engine import DONE, DecisionKind, Phase, apply, choice
from got_env.engine.state import FOOTMAN, KNIGHT, SHIP


def cp(units, orders_, **spec):
    return build(start="consolidate", options={"max_rounds": 1}, units=units, orders=orders_,
                 **spec)


def ended(state):
    return state.pending is None and state.phase == Phase.ENDED


@pytest.mark.parametrize("where,house_id,gain", [
    ("dragonstone", "baratheon", 2),  # the rulebook example: one power icon
    ("kings-landing", "baratheon", 3),  # two power icons
    ("stoney-sept", "lannister", 2),
    ("blackwater", "lannister", 1),  # no power icon
    ("lannisport", "lannister", 1),
])
def test_r12_4_1_land_cp_gains_one_plus_power_icons(where, house_id, gain):
    """R12.4.1: remove the CP and gain 1 power plus 1 per power icon of the area (Dragonstone:
    2, the rulebook's example)."""
    s = cp({house_id: {where: "F"}}, {where: "consolidate-power-a"}, neutral_forces={},
           power={house_id: 4})
    assert ended(s)
    assert power(s)[house_id] == 4 + gain
    assert orders(s) == {}


def test_r12_4_2_sea_cp_gains_nothing():
    """R12.4.2: a CP in a sea area does nothing; it is removed."""
    s = cp({"greyjoy": {"ironmans-bay": "S"}}, {"ironmans-bay": "consolidate-power-special"})
    assert ended(s)
    assert power(s)["greyjoy"] == 5


@pytest.mark.parametrize("in_sea,gain", [
    (None, 1),
    ("greyjoy", 1),  # own ships do not block
    ("lannister", 0),  # enemy ships in the port's sea area
])
def test_r12_4_3_port_cp(in_sea, gain):
    """R12.4.3, R18.5: a CP in a port gains 1, or nothing while enemy ships are in the port's
    sea area."""
    units = {"greyjoy": {"port-of-pyke": "S", "pyke": "F"}}
    if in_sea:
        units.setdefault(in_sea, {})["ironmans-bay"] = "S"
    sea_order = {"ironmans-bay": "defense-1a"} if in_sea else {}
    s = cp(units, {"port-of-pyke": "consolidate-power-a", "pyke": "defense-1a", **sea_order})
    assert ended(s)
    assert power(s)["greyjoy"] == 5 + gain


def test_r18_5_special_cp_in_port_gains_power_and_cannot_muster():
    """R12.4.4, R18.5, R8.9: a CP★ in a port cannot muster; it gains 1 like a normal CP."""
    s = cp({"greyjoy": {"port-of-pyke": "S"}}, {"port-of-pyke": "consolidate-power-special"})
    assert ended(s)
    assert power(s)["greyjoy"] == 6


def test_r12_4_4_special_cp_in_castle_area_offers_muster():
    """R12.4.4, D-49: a CP★ in a land area with a castle or stronghold: gain power or muster."""
    s = cp({"baratheon": {"dragonstone": "F"}}, {"dragonstone": "consolidate-power-special"})
    assert (kind(s), who(s)) == (DecisionKind.CONSOLIDATE_SPECIAL, "baratheon")
    assert s.pending.options == (choice("gain-power"), choice("mustering"))
    apply(s, choice("gain-power"))
    assert ended(s)
    assert power(s)["baratheon"] == 7


def test_r8_9_special_cp_musters_in_its_own_area_only():
    """R12.4.4, R8.9, R8.2, D-49 -> D-05: mustering with a CP★ uses only that area's points
    (Lannisport, a stronghold: 2), never another castle of the house; no power is gained."""
    s = cp({"lannister": {"lannisport": "F", "riverrun": "F"}},
           {"lannisport": "consolidate-power-special", "riverrun": "defense-1a"})
    apply(s, choice("mustering"))
    assert (kind(s), who(s)) == (DecisionKind.MUSTER, "lannister")
    assert s.pending.context == {"area": area(s, "lannisport"), "points": 2}
    dests = {o[2] for o in s.pending.options if o[0] == "muster"}
    assert dests == {area(s, "lannisport"), area(s, "port-of-lannisport"),
                     area(s, "the-golden-sound")}
    assert "lannisport" not in orders(s)  # the CP★ is spent once it resolves
    apply(s, ("muster", KNIGHT, area(s, "lannisport")))
    assert ended(s)
    assert power(s)["lannister"] == 5
    assert s.units[area(s, "lannisport"), s.ruleset.house("lannister")].tolist() == [1, 1, 0, 0]
    assert s.units[area(s, "riverrun"), s.ruleset.house("lannister")].tolist() == [1, 0, 0, 0]


def test_r8_9_special_cp_muster_in_a_castle_has_one_point():
    """R8.2, R8.9: a castle gives 1 mustering point (a Footman, a Ship or an upgrade)."""
    s = cp({"lannister": {"harrenhal": "F"}}, {"harrenhal": "consolidate-power-special"})
    apply(s, choice("mustering"))
    assert s.pending.context == {"area": area(s, "harrenhal"), "points": 1}
    assert ("muster", KNIGHT, area(s, "harrenhal")) not in s.pending.options
    assert ("muster", FOOTMAN, area(s, "harrenhal")) in s.pending.options
    assert ("upgrade", KNIGHT) in s.pending.options
    apply(s, DONE)
    assert ended(s)
    assert power(s)["lannister"] == 5


def test_r12_4_4_special_cp_without_castle_only_gains():
    """R12.4.4, R8.9: without a castle or stronghold a CP★ just gains power (no D-49)."""
    s = cp({"lannister": {"stoney-sept": "F"}}, {"stoney-sept": "consolidate-power-special"})
    assert ended(s)
    assert power(s)["lannister"] == 7


def test_r12_4_5_power_tokens_on_the_board_are_not_icons():
    """R12.4.5, R13.2.3: a power token lying in the area adds nothing to the gain."""
    s = cp({"lannister": {"stoney-sept": "F"}}, {"stoney-sept": "consolidate-power-a"},
           power_tokens={"stoney-sept": "lannister"}, power={"lannister": 5})
    assert ended(s)
    assert power(s)["lannister"] == 7


def test_r2_3_3_cp_gain_limited_by_the_pool():
    """R2.3.3 (AMBIG-21): with 19 tokens available and 1 on the board, the Pool holds none of
    the house's tokens: King's Landing's CP gains nothing. With 18 available, it gains 1."""
    s = cp({"baratheon": {"kings-landing": "F"}}, {"kings-landing": "consolidate-power-a"},
           power={"baratheon": 19}, power_tokens={"kingswood": "baratheon"}, neutral_forces={})
    assert power(s)["baratheon"] == 19
    s = cp({"baratheon": {"kings-landing": "F"}}, {"kings-landing": "consolidate-power-a"},
           power={"baratheon": 18}, power_tokens={"kingswood": "baratheon"}, neutral_forces={})
    assert power(s)["baratheon"] == 19


def test_d48_cp_resolution_order():
    """R12.1.1, D-48: in turn order one CP each, round after round; a house with two CPs picks
    which resolves first (Baratheon, Iron Throne 1, then Lannister, then Baratheon again)."""
    s = cp({"baratheon": {"dragonstone": "F", "kingswood": "F"},
            "lannister": {"lannisport": "F"}},
           {"dragonstone": "consolidate-power-special", "kingswood": "consolidate-power-a",
            "lannisport": "consolidate-power-a"})
    assert (kind(s), who(s)) == (DecisionKind.CONSOLIDATE_TO_RESOLVE, "baratheon")
    assert option_areas(s) == ["dragonstone", "kingswood"]
    apply(s, at(s, "kingswood"))
    # Lannister's single CP resolved without a question; Baratheon's CP★ is next.
    assert (power(s)["baratheon"], power(s)["lannister"]) == (7, 6)
    assert (kind(s), who(s)) == (DecisionKind.CONSOLIDATE_SPECIAL, "baratheon")
    apply(s, choice("gain-power"))
    assert power(s)["baratheon"] == 9
    assert ended(s)


def test_r12_4_4_muster_ship_into_port_with_enemy_ships_in_its_sea():
    """R12.4.4, R18.7, R8.7: a CP★ muster may place a ship in the area's port even while enemy
    ships hold the port's sea area, but not in that sea area."""
    s = cp({"lannister": {"lannisport": "F"}, "greyjoy": {"the-golden-sound": "S"}},
           {"lannisport": "consolidate-power-special", "the-golden-sound": "defense-1a"})
    apply(s, choice("mustering"))
    ships = {o[2] for o in s.pending.options if o[0] == "muster" and o[1] == SHIP}
    assert ships == {area(s, "port-of-lannisport")}
