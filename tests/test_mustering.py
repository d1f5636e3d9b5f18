"""Mustering (R8.1-R8.8, R18.2, R18.7, R2.3.1, R7.8; DECISIONS D-05)."""

import pytest

from got_env.engine import DONE, DecisionKind, IllegalActionError, apply, new_game, scenario
from got_env.engine.game import RoundFrame, advance
from got_env.engine.mustering import MusteringFrame
from got_env.engine.state import FOOTMAN, KNIGHT, SHIP, SIEGE_ENGINE

CARDS = {"I": ["mustering"], "II": ["last-days-of-summer"], "III": ["web-of-lies"]}
TURN_ORDER = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"]


def mustering_card(first=None, **spec):
    """6 players, Westeros phase of round 2 (the last round), deck I: Mustering; ``first`` is
    moved to the top of the Iron Throne track so that it musters first."""
    order = [first] + [h for h in TURN_ORDER if h != first] if first else TURN_ORDER
    return scenario.build({"round": 2, "options": {"max_rounds": 2}, "start": "westeros",
                           "westeros_top": CARDS, "tracks": {"iron-throne": order}, **spec})


def area(state, a):
    return ("area", state.ruleset.area(a))


def muster(state, unit_type, dest):
    return ("muster", unit_type, state.ruleset.area(dest))


def units_at(state, house, a):
    """The house's units in area ``a`` as letters, e.g. "KF"."""
    row = state.units[state.ruleset.area(a), state.ruleset.house(house)]
    return "K" * row[KNIGHT] + "F" * row[FOOTMAN] + "S" * row[SHIP] + "E" * row[SIEGE_ENGINE]


def mustering(state, house):
    d = state.pending
    return d is not None and d.kind == DecisionKind.MUSTER \
        and d.player == state.ruleset.house(house)


MARTELL_EXAMPLE = {"units": {"martell": {"sunspear": "K"}, "tyrell": {"east-summer-sea": "S"}}}


def test_rulebook_example_martell_musters_footman_and_ship_in_port():
    """§18 example, R8.2, R8.3, R8.7, R18.7, R8.8: Martell musters with Sunspear's 2 points a
    Footman (1) and a Ship (1) in Sunspear's port, allowed although East Summer Sea holds Tyrell
    ships; Sea of Dorne would also do, East Summer Sea would not. Land units go only into
    Sunspear itself."""
    s = mustering_card("martell", **MARTELL_EXAMPLE)
    assert mustering(s, "martell")
    assert s.pending.options == (area(s, "sunspear"), DONE)
    apply(s, area(s, "sunspear"))
    assert s.pending.options == (
        muster(s, FOOTMAN, "sunspear"), muster(s, KNIGHT, "sunspear"),
        muster(s, SIEGE_ENGINE, "sunspear"), muster(s, SHIP, "port-of-sunspear"),
        muster(s, SHIP, "sea-of-dorne"), DONE)
    apply(s, muster(s, FOOTMAN, "sunspear"))
    assert s.pending.context == {"area": s.ruleset.area("sunspear"), "points": 1}
    assert muster(s, KNIGHT, "sunspear") not in s.pending  # 2 points, 1 left (R8.3)
    apply(s, muster(s, SHIP, "port-of-sunspear"))
    assert units_at(s, "martell", "sunspear") == "KF"
    assert units_at(s, "martell", "port-of-sunspear") == "S"
    assert mustering(s, "baratheon")  # Martell's points are spent: the next house


def test_illegal_muster_leaves_state_unchanged():
    """R8.7, D-05: a ship into a sea holding enemy ships, or a land unit at sea, is refused and
    the state is unchanged."""
    s = mustering_card("martell", **MARTELL_EXAMPLE)
    apply(s, area(s, "sunspear"))
    before = s.clone()
    for bad in (muster(s, SHIP, "east-summer-sea"), muster(s, FOOTMAN, "sea-of-dorne"),
                area(s, "sunspear"), ("upgrade", KNIGHT)):
        with pytest.raises(IllegalActionError):
            apply(s, bad)
        assert s == before


def test_castle_gives_one_point_and_points_are_not_pooled():
    """R8.2, R8.3, R8.4: White Harbor (castle) has 1 point: no Knight or Siege Engine, but a
    Footman there may be upgraded (army size unchanged). Winterfell's 2 points stay its own."""
    s = mustering_card("stark", units={"stark": {"winterfell": "K", "white-harbor": "F"}})
    assert s.pending.options == (area(s, "white-harbor"), area(s, "winterfell"), DONE)
    apply(s, area(s, "white-harbor"))
    options = set(s.pending.options)
    assert muster(s, KNIGHT, "white-harbor") not in options
    assert muster(s, SIEGE_ENGINE, "white-harbor") not in options
    assert {("upgrade", KNIGHT), ("upgrade", SIEGE_ENGINE)} <= options
    apply(s, ("upgrade", KNIGHT))
    assert units_at(s, "stark", "white-harbor") == "K"
    assert s.pending.options == (area(s, "winterfell"), DONE)
    apply(s, area(s, "winterfell"))
    assert s.pending.context["points"] == 2
    assert muster(s, KNIGHT, "winterfell") in s.pending


def test_unspent_points_are_lost():
    """R8.6: leaving Winterfell with 1 point unspent loses it; the area is not offered again."""
    s = mustering_card("stark", units={"stark": {"winterfell": "K", "white-harbor": "F"}})
    apply(s, area(s, "winterfell"))
    apply(s, muster(s, FOOTMAN, "winterfell"))
    apply(s, DONE)
    assert s.pending.options == (area(s, "white-harbor"), DONE)
    apply(s, DONE)
    assert mustering(s, "baratheon")
    assert units_at(s, "stark", "winterfell") == "KF"


def test_supply_limits_what_can_be_mustered():
    """R8.5, R7.8, R8.4, R8.7, R7.9: Stark at supply 0 (armies 2, 2) with Winterfell 2, White
    Harbor 2 and one ship in Bay of Ice: no unit may join Winterfell and no second ship may
    join Bay of Ice (a third army); a lone ship in the port or The Shivering Sea, and upgrades,
    are fine."""
    s = mustering_card("stark", supply={"stark": 0}, units={
        "stark": {"winterfell": "KF", "white-harbor": "FF", "bay-of-ice": "S"}})
    apply(s, area(s, "winterfell"))
    assert s.pending.options == (
        muster(s, SHIP, "port-of-winterfell"), muster(s, SHIP, "the-shivering-sea"),
        ("upgrade", KNIGHT), ("upgrade", SIEGE_ENGINE), DONE)
    apply(s, ("upgrade", KNIGHT))
    assert units_at(s, "stark", "winterfell") == "KK"


def test_ship_destinations_port_full_enemy_sea_and_inland_castle():
    """R18.2, R8.7, R8.1: Port of Winterfell already holds 3 ships (supply 6 would allow a 4th)
    and Bay of Ice a Greyjoy ship, so Winterfell's ships can only go to The Shivering Sea;
    Harrenhal (held by a power token) musters, but has neither port nor sea: only a Footman."""
    s = mustering_card("stark", power_tokens={"harrenhal": "stark"}, supply={"stark": 6}, units={
        "stark": {"winterfell": "K", "port-of-winterfell": "SSS"},
        "greyjoy": {"bay-of-ice": "S"}})
    assert s.pending.options == (area(s, "harrenhal"), area(s, "winterfell"), DONE)
    apply(s, area(s, "winterfell"))
    ships = [o for o in s.pending.options if o[:2] == ("muster", SHIP)]
    assert ships == [muster(s, SHIP, "the-shivering-sea")]
    apply(s, DONE)
    apply(s, area(s, "harrenhal"))
    assert s.pending.options == (muster(s, FOOTMAN, "harrenhal"), DONE)


def test_only_unused_units_can_be_mustered():
    """R2.3.1, R8.4: with all 5 Knights and both Siege Engines on the board, Stark can neither
    muster nor upgrade to them."""
    s = mustering_card("stark", supply={"stark": 6}, units={
        "stark": {"winterfell": "F", "white-harbor": "KKEE", "karhold": "KK", "castle-black": "K"}})
    apply(s, area(s, "winterfell"))
    assert s.pending.options == (
        muster(s, FOOTMAN, "winterfell"), muster(s, SHIP, "port-of-winterfell"),
        muster(s, SHIP, "bay-of-ice"), muster(s, SHIP, "the-shivering-sea"), DONE)


def test_houses_muster_in_turn_order():
    """R8.1: in turn order, each house finishes before the next starts (starting position: every
    house has a home stronghold to muster in)."""
    s = mustering_card()
    asked = []
    while s.pending is not None and s.pending.kind == DecisionKind.MUSTER:
        asked.append(s.ruleset.houses[s.pending.player].id)
        apply(s, DONE)
    assert asked == TURN_ORDER


def test_one_given_area_skips_the_area_pick():
    """R8.9, D-05 (for CP★ and The Horde Descends): with one area given, the house musters there
    at once; when its points are spent the step ends."""
    s = new_game(6, seed=0, options={"max_rounds": 1})
    rs = s.ruleset
    stark, winterfell = rs.house("stark"), rs.area("winterfell")
    s.stack.append(RoundFrame(at=3))  # ends the game once the mustering is over
    s.stack.append(MusteringFrame(houses=[stark], areas=[winterfell]))
    advance(s)
    assert mustering(s, "stark")
    assert s.pending.context == {"area": winterfell, "points": 2}
    assert not any(o[0] == "area" for o in s.pending.options)
    apply(s, muster(s, KNIGHT, "winterfell"))
    assert units_at(s, "stark", "winterfell") == "KKF"
    assert s.pending is None and s.outcome is not None
