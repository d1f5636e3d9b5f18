"""Ports (rules spec §18, AMBIG-15; DECISIONS D-27, D-28, D-47, Open point 6): who may enter a
port, how many ships it holds, and capture when its land area changes hands."""

from __future__ import annotations

import pytest
from march_helpers import (
    at_sentinel,
    controller,
    dests,
    done,
    in_combat,
    march,
    move,
    moves,
    play,
    token,
    units,
)

from got_env.engine.decision import NO, YES, DecisionKind
from got_env.engine.state import FOOTMAN, KNIGHT, SHIP

# Stark takes Lannisport in a combat it cannot lose: 2 Knights + Eddard (4) = 8 against one
# Footman + the garrison + Ser Jaime = 5. Greyjoy holds the Blade and stays out of it.
LANNISPORT_ASSAULT = {
    "units": {"stark": {"riverrun": "KK"},
              "lannister": {"lannisport": "F", "port-of-lannisport": "SS"}},
    "orders": {"riverrun": "march-0"},
    "hands": {"stark": ["eddard-stark"], "lannister": ["ser-jaime-lannister"]},
}


def _take_lannisport(spec=LANNISPORT_ASSAULT):
    s = march(spec, "stark", "riverrun")
    move(s, KNIGHT, "lannisport")
    move(s, KNIGHT, "lannisport")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "stark", NO)
    return s


def test_r18_3_ships_enter_only_a_friendly_port():
    """R18.1, R18.3: Lannister ships in The Golden Sound may enter the port of Lannisport while
    Lannister controls Lannisport (by its shield), not once Stark units hold it."""
    spec = {"units": {"lannister": {"the-golden-sound": "S"}},
            "orders": {"the-golden-sound": "march-0"}}
    s = march(spec, "lannister", "the-golden-sound")
    assert dests(s, SHIP) == {"ironmans-bay", "sunset-sea", "port-of-lannisport"}
    spec["units"]["stark"] = {"lannisport": "F"}
    s = march(spec, "lannister", "the-golden-sound")
    assert dests(s, SHIP) == {"ironmans-bay", "sunset-sea"}


def test_r18_1_a_port_of_an_uncontrolled_land_area_is_nobodys():
    """R18.1: only the controller of the land area may use its port: nobody controls White Harbor,
    so Stark ships in The Narrow Sea may not enter its port."""
    s = march({"units": {"stark": {"the-narrow-sea": "S"}},
               "orders": {"the-narrow-sea": "march-0"}}, "stark", "the-narrow-sea")
    assert controller(s, "white-harbor") is None
    assert dests(s, SHIP) == {"shipbreaker-bay", "the-shivering-sea"}


def test_r18_2_a_port_holds_at_most_three_ships():
    """R18.2: with 2 Stark ships in the port of Winterfell, one more may enter, not two."""
    s = march({"units": {"stark": {"bay-of-ice": "SS", "port-of-winterfell": "S"}},
               "supply": {"stark": 4}, "orders": {"bay-of-ice": "march-0"}},
              "stark", "bay-of-ice")
    assert dests(s, SHIP) == {"sunset-sea", "port-of-winterfell"}
    move(s, SHIP, "port-of-winterfell")
    assert dests(s, SHIP) == {"sunset-sea", "port-of-winterfell"}
    move(s, SHIP, "port-of-winterfell")
    assert at_sentinel(s)
    assert units(s, "stark", "port-of-winterfell") == [0, 0, 3, 0]
    s = march({"units": {"stark": {"bay-of-ice": "SS", "port-of-winterfell": "SS"}},
               "supply": {"stark": 4}, "orders": {"bay-of-ice": "march-0"}},
              "stark", "bay-of-ice")
    move(s, SHIP, "port-of-winterfell")
    assert dests(s, SHIP) == {"sunset-sea"}


def test_r18_3_ships_leave_a_port_only_into_its_sea():
    """R18.3, R12.3.2: ships in the port of Lannisport move only to The Golden Sound, never onto
    Lannisport; combat there is a normal sea combat (the one attack)."""
    s = march({"units": {"lannister": {"port-of-lannisport": "SS"},
                         "greyjoy": {"the-golden-sound": "S"}},
               "orders": {"port-of-lannisport": "march-0"}}, "lannister", "port-of-lannisport")
    assert moves(s) == {("S", "the-golden-sound")}
    move(s, SHIP, "the-golden-sound")
    move(s, SHIP, "the-golden-sound")
    combat = in_combat(s)
    assert combat is not None
    assert (combat.defender, combat.area, combat.units) == \
        (s.ruleset.house("greyjoy"), s.ruleset.area("the-golden-sound"), [0, 0, 2, 0])


def test_r18_3_a_port_is_never_attacked():
    """R18.3 (reading in marches.py): ports cannot be attacked. Greyjoy ships in the port of
    White Harbor, whose land Stark holds: Stark ships in The Narrow Sea are not offered the port
    (it belongs to Stark, but enemy ships stand in it)."""
    s = march({"units": {"stark": {"the-narrow-sea": "S", "white-harbor": "F"},
                         "greyjoy": {"port-of-white-harbor": "S"}},
               "orders": {"the-narrow-sea": "march-0"}}, "stark", "the-narrow-sea")
    assert dests(s, SHIP) == {"shipbreaker-bay", "the-shivering-sea"}


@pytest.mark.parametrize("n", [0, 1, 2])
def test_r18_8_capturing_a_port_after_a_won_combat(n):
    """R18.8, D-47: Stark takes Lannisport by combat; it may replace the 2 Lannister ships in
    the port by 0, 1 or 2 of its own. Lannister's ships are all removed."""
    s = _take_lannisport()
    d = s.pending
    assert d.kind == DecisionKind.PORT_CAPTURE and d.player == s.ruleset.house("stark")
    assert d.options == (("count", 0), ("count", 1), ("count", 2))
    play(s, DecisionKind.PORT_CAPTURE, "stark", ("count", n))
    assert at_sentinel(s)  # D-47 is asked once
    assert units(s, "stark", "port-of-lannisport") == [0, 0, n, 0]
    assert units(s, "lannister", "port-of-lannisport") == [0, 0, 0, 0]
    assert units(s, "stark", "lannisport") == [0, 2, 0, 0]
    assert controller(s, "lannisport") == "stark"


def test_r18_8_capture_limited_by_unused_ships():
    """R18.8, R2.3.1, D-47: Stark has 5 of its 6 ships on the board: it may put at most 1 in the
    captured port."""
    spec = {**LANNISPORT_ASSAULT,
            "units": {**LANNISPORT_ASSAULT["units"],
                      "stark": {"riverrun": "KK", "bay-of-ice": "S", "the-shivering-sea": "S",
                                "sunset-sea": "S", "the-narrow-sea": "S",
                                "port-of-winterfell": "S"}}}
    s = _take_lannisport(spec)
    assert s.pending.kind == DecisionKind.PORT_CAPTURE
    assert s.pending.options == (("count", 0), ("count", 1))


def test_r18_8_capture_limited_by_supply():
    """R18.8, R7.8, D-47: at supply 0 (two armies of 2) with two armies already, Stark may put
    only 1 ship in the captured port (2 would be a third army)."""
    spec = {**LANNISPORT_ASSAULT, "supply": {"stark": 0},
            "units": {**LANNISPORT_ASSAULT["units"],
                      "stark": {"riverrun": "KK", "winterfell": "FF"}}}
    s = _take_lannisport(spec)
    assert s.pending.kind == DecisionKind.PORT_CAPTURE
    assert s.pending.options == (("count", 0), ("count", 1))


def test_ambig_15_capture_when_a_march_takes_the_land_without_combat():
    """AMBIG-15, Open point 6 (reading: R18.8 applies whenever another house gains control):
    Stark marches into White Harbor, held only by a Greyjoy power token; the token goes, and
    Stark may replace Greyjoy's 2 ships in the port."""
    s = march({"units": {"stark": {"winterfell": "FF"},
                         "greyjoy": {"port-of-white-harbor": "SS"}},
               "power_tokens": {"white-harbor": "greyjoy"},
               "orders": {"winterfell": "march-0"}}, "stark", "winterfell")
    move(s, FOOTMAN, "white-harbor")
    done(s)
    assert token(s, "white-harbor") is None
    play(s, DecisionKind.PORT_CAPTURE, "stark", ("count", 1))
    assert at_sentinel(s)
    assert units(s, "stark", "port-of-white-harbor") == [0, 0, 1, 0]
    assert units(s, "greyjoy", "port-of-white-harbor") == [0, 0, 0, 0]


def test_ambig_15_ships_stay_when_nobody_controls_the_land():
    """AMBIG-15 (reading: if the land area becomes uncontrolled the ships stay): Stark leaves
    White Harbor without a power token; its ship in the port stays there."""
    s = march({"units": {"stark": {"white-harbor": "F", "port-of-white-harbor": "S"}},
               "orders": {"white-harbor": "march-0"}}, "stark", "white-harbor")
    move(s, FOOTMAN, "winterfell")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "stark", NO)
    assert at_sentinel(s)
    assert controller(s, "white-harbor") is None
    assert units(s, "stark", "port-of-white-harbor") == [0, 0, 1, 0]


@pytest.mark.parametrize("leave_token", [True, False])
def test_ambig_15_leaving_an_enemy_home_area_decides_before_the_port(leave_token):
    """AMBIG-15, R13.1.1, R13.3.3, R12.3.4 (reading in marches.py: ports are settled after D-28):
    Stark holds Lannisport with a ship in its port and marches out. With a power token Stark keeps
    Lannisport and its ship; without one, Lannisport goes back to Lannister, which may capture
    the ship."""
    s = march({"units": {"stark": {"lannisport": "F", "port-of-lannisport": "S"}},
               "garrisons": {}, "orders": {"lannisport": "march-0"}}, "stark", "lannisport")
    move(s, FOOTMAN, "stoney-sept")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "stark", YES if leave_token else NO)
    if leave_token:
        assert at_sentinel(s)
        assert controller(s, "lannisport") == "stark"
        assert units(s, "stark", "port-of-lannisport") == [0, 0, 1, 0]
    else:
        play(s, DecisionKind.PORT_CAPTURE, "lannister", ("count", 1))
        assert at_sentinel(s)
        assert controller(s, "lannisport") == "lannister"
        assert units(s, "lannister", "port-of-lannisport") == [0, 0, 1, 0]
        assert units(s, "stark", "port-of-lannisport") == [0, 0, 0, 0]



