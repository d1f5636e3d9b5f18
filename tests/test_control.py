"""Control, power tokens on the board, home areas and garrisons met by a March (rules spec §13,
R12.3.4, R12.3.6, R17.3, AMBIG-23; DECISIONS D-28, D-32)."""

from __future__ import annotations

import pytest
from march_helpers import (
    a,
    at_sentinel,
    controller,
    dests,
    done,
    in_combat,
    march,
    move,
    play,
    pool,
    power,
    token,
    units,
)

from got_env.engine import IllegalActionError, apply
from got_env.engine.decision import NO, YES, DecisionKind
from got_env.engine.state import FOOTMAN, KNIGHT, SHIP

KARHOLD_MARCH = {"units": {"stark": {"karhold": "F"}}, "orders": {"karhold": "march-0"}}


@pytest.mark.parametrize("answer", [YES, NO])
def test_r13_1_1_leave_a_power_token_in_an_emptied_area(answer):
    """R13.1.1, R12.3.6, D-28: Stark empties Karhold and is asked whether to leave a power token.
    Yes: one available token goes there and Stark keeps control. No: Karhold is uncontrolled."""
    s = march(KARHOLD_MARCH, "stark", "karhold")
    move(s, FOOTMAN, "winterfell")
    assert s.pending.kind == DecisionKind.LEAVE_POWER_TOKEN
    assert s.pending.options == (YES, NO)
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "stark", answer)
    assert at_sentinel(s)
    if answer == YES:
        assert (token(s, "karhold"), controller(s, "karhold"), power(s, "stark")) == \
            ("stark", "stark", 4)
    else:
        assert (token(s, "karhold"), controller(s, "karhold"), power(s, "stark")) == \
            (None, None, 5)
    assert pool(s, "stark") == 15


def test_r13_1_2_no_power_token_in_a_sea_area():
    """R13.1.2, D-28: ships leaving The Shivering Sea empty it without any question."""
    s = march({"units": {"stark": {"the-shivering-sea": "S"}},
               "orders": {"the-shivering-sea": "march-0"}}, "stark", "the-shivering-sea")
    move(s, SHIP, "the-narrow-sea")
    assert at_sentinel(s)
    assert units(s, "stark", "the-narrow-sea") == [0, 0, 1, 0]
    assert power(s, "stark") == 5


def test_r13_1_3_no_available_power_no_question():
    """R13.1.3: with no available power Stark cannot establish control; Karhold is lost."""
    s = march({**KARHOLD_MARCH, "power": {"stark": 0}}, "stark", "karhold")
    move(s, FOOTMAN, "winterfell")
    assert at_sentinel(s)
    assert controller(s, "karhold") is None
    assert token(s, "karhold") is None


def test_r13_1_5_the_token_is_placed_before_the_combat():
    """R13.1.5, R12.3.4: Stark empties Karhold to attack Castle Black: D-28 comes first, then the
    combat, and the token is already down when the combat begins."""
    s = march({"units": {"stark": {"karhold": "F"}, "greyjoy": {"castle-black": "F"}},
               "orders": {"karhold": "march-0"}}, "stark", "karhold")
    move(s, FOOTMAN, "castle-black")
    assert in_combat(s) is None
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "stark", YES)
    assert in_combat(s) is not None
    assert token(s, "karhold") == "stark"
    assert controller(s, "karhold") == "stark"


def test_r13_1_6_one_token_per_area():
    """R13.1.6, R13.1.7: Stark's own token already lies in Karhold (its units entered later): on
    leaving again no D-28 is asked, no power is spent, and the token keeps control."""
    s = march({**KARHOLD_MARCH, "power_tokens": {"karhold": "stark"}, "power": {"stark": 4}},
              "stark", "karhold")
    move(s, FOOTMAN, "winterfell")
    assert at_sentinel(s)
    assert (token(s, "karhold"), controller(s, "karhold"), power(s, "stark")) == \
        ("stark", "stark", 4)


def test_r13_1_7_own_units_entering_leave_the_token():
    """R13.1.7: Stark units moving into Karhold, where Stark's token lies, leave the token."""
    s = march({"units": {"stark": {"winterfell": "FF"}}, "power_tokens": {"karhold": "stark"},
               "power": {"stark": 4}, "orders": {"winterfell": "march-0"}},
              "stark", "winterfell")
    move(s, FOOTMAN, "karhold")
    done(s)
    assert at_sentinel(s)
    assert token(s, "karhold") == "stark"
    assert units(s, "stark", "karhold") == [1, 0, 0, 0]


def test_r13_2_2_entering_an_area_with_only_an_enemy_power_token():
    """R13.2.1, R13.2.2, AMBIG-23: Stark marching into Karhold, held by a Lannister power token
    only, fights no combat: the token goes back to Lannister's Power Pool, Stark controls
    Karhold, and the March's one attack is still free (Castle Black, Greyjoy) afterwards."""
    s = march({"units": {"stark": {"winterfell": "FF"}, "greyjoy": {"castle-black": "F"}},
               "power_tokens": {"karhold": "lannister"}, "power": {"lannister": 4},
               "orders": {"winterfell": "march-0"}}, "stark", "winterfell")
    assert pool(s, "lannister") == 15
    move(s, FOOTMAN, "karhold")
    assert in_combat(s) is None
    assert token(s, "karhold") is None
    assert pool(s, "lannister") == 16
    assert power(s, "lannister") == 4
    assert controller(s, "karhold") == "stark"
    assert "castle-black" in dests(s, FOOTMAN)


def test_r13_3_1_no_question_in_the_own_home_area():
    """R13.3.1, D-28 (DECISIONS: not asked in one's own home area): Stark leaves Winterfell
    empty; the shield keeps it Stark's, and no power is spent."""
    s = march({"units": {"stark": {"winterfell": "F"}}, "orders": {"winterfell": "march-0"}},
              "stark", "winterfell")
    move(s, FOOTMAN, "karhold")
    assert at_sentinel(s)
    assert controller(s, "winterfell") == "stark"
    assert power(s, "stark") == 5


@pytest.mark.parametrize("answer,owner", [(YES, "lannister"), (NO, "stark")])
def test_r13_3_3_leaving_an_enemy_home_area(answer, owner):
    """R13.3.2, R13.3.3: Lannister holds Winterfell (garrison gone) with units. Leaving it with a
    power token keeps it; leaving it without one gives it back to Stark."""
    s = march({"units": {"lannister": {"winterfell": "F"}}, "garrisons": {},
               "orders": {"winterfell": "march-0"}}, "lannister", "winterfell")
    assert controller(s, "winterfell") == "lannister"
    move(s, FOOTMAN, "karhold")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "lannister", answer)
    assert at_sentinel(s)
    assert controller(s, "winterfell") == owner


def test_r13_3_2_entering_an_enemy_home_area_without_garrison():
    """R13.3.2 (a), R13.3.4: with no garrison and no Stark units, Lannister units simply enter
    Winterfell (no combat) and Lannister controls it; the shield is no defender."""
    s = march({"units": {"lannister": {"karhold": "F"}}, "garrisons": {},
               "orders": {"karhold": "march-0"}}, "lannister", "karhold")
    move(s, FOOTMAN, "winterfell")
    play(s, DecisionKind.LEAVE_POWER_TOKEN, "lannister", NO)
    assert at_sentinel(s)
    assert controller(s, "winterfell") == "lannister"


def test_r17_3_attacking_a_garrison_alone_is_a_combat():
    """R17.3, R13.3.4, D-32: Winterfell holds only Stark's garrison: Lannister marching in starts
    a combat with Stark as defender, and both choose a house card."""
    s = march({"units": {"lannister": {"karhold": "FK"}}, "orders": {"karhold": "march-0"}},
              "lannister", "karhold")
    assert s.garrisons[a(s, "winterfell")] == 2
    move(s, KNIGHT, "winterfell")
    assert dests(s, FOOTMAN) == {"castle-black", "winterfell"}
    done(s)
    combat = in_combat(s)
    assert combat is not None
    assert (combat.attacker, combat.defender, combat.area, combat.units) == \
        (s.ruleset.house("lannister"), s.ruleset.house("stark"), a(s, "winterfell"),
         [0, 1, 0, 0])
    play(s, DecisionKind.HOUSE_CARD, "lannister", s.pending.options[0])
    assert s.pending.kind == DecisionKind.HOUSE_CARD
    assert s.pending.player == s.ruleset.house("stark")


def test_r17_3_own_garrison_is_no_obstacle():
    """R17.3: a house's own garrison never makes its home area an attack: Stark may move into
    Winterfell (garrison 2) and still attack elsewhere."""
    s = march({"units": {"stark": {"karhold": "FF"}, "greyjoy": {"castle-black": "F"}},
               "orders": {"karhold": "march-0"}}, "stark", "karhold")
    move(s, FOOTMAN, "winterfell")
    assert in_combat(s) is None
    assert dests(s, FOOTMAN) == {"castle-black", "winterfell"}


def _karhold_assault(**extra):
    """Stark attacks Karhold (one Lannister Footman) from Winterfell with 2 Knights and Eddard:
    8 against 1 + the Hound (2); Eddard's 2 swords meet the Hound's 2 towers: no casualty."""
    spec = {"units": {"stark": {"winterfell": "KK"}, "lannister": {"karhold": "F"}},
            "orders": {"winterfell": "march-0"},
            "hands": {"stark": ["eddard-stark"], "lannister": ["the-hound"]}, **extra}
    s = march(spec, "stark", "winterfell")
    move(s, KNIGHT, "karhold")
    move(s, KNIGHT, "karhold")  # Winterfell is Stark's home: no D-28; the combat runs
    return s


def test_r13_2_5_attacker_takes_the_area_and_the_defenders_token_goes():
    """R13.2.5, §15.6: Lannister's Footman and its power token hold Karhold; Stark wins, the
    Footman retreats to Castle Black (its only legal area), the token goes back to the Pool and
    Stark's Knights hold Karhold."""
    s = _karhold_assault(power_tokens={"karhold": "lannister"}, power={"lannister": 4})
    assert at_sentinel(s)
    assert token(s, "karhold") is None
    assert pool(s, "lannister") == 16
    assert units(s, "stark", "karhold") == [0, 2, 0, 0]
    assert units(s, "lannister", "castle-black") == [1, 0, 0, 0]
    assert controller(s, "karhold") == "stark"


def test_r13_2_4_retreat_never_into_an_enemy_power_token():
    """R13.2.4 (§15.6): the same combat, but a Stark power token lies in Castle Black. Karhold's
    other land neighbour is Winterfell, the attacker's origin: no legal retreat is left, so the
    Footman is destroyed and the token stays."""
    s = _karhold_assault(power_tokens={"castle-black": "stark"}, power={"stark": 4})
    assert at_sentinel(s)
    assert s.units[:, s.ruleset.house("lannister")].sum() == 0
    assert token(s, "castle-black") == "stark"
    assert units(s, "stark", "karhold") == [0, 2, 0, 0]


def test_ambig_23_two_power_token_areas_in_one_march():
    """AMBIG-23 (reading: a power-token-only area is no attack): one March may enter two areas
    held only by enemy power tokens, and the tokens both go."""
    s = march({"units": {"stark": {"winterfell": "FF"}},
               "power_tokens": {"karhold": "lannister", "castle-black": "greyjoy"},
               "orders": {"winterfell": "march-0"}}, "stark", "winterfell")
    move(s, FOOTMAN, "karhold")
    move(s, FOOTMAN, "castle-black")
    assert at_sentinel(s)
    assert (token(s, "karhold"), token(s, "castle-black")) == (None, None)
    assert (controller(s, "karhold"), controller(s, "castle-black")) == ("stark", "stark")


def test_d_28_not_offered_while_units_remain():
    """R13.1.1, D-28: a March that leaves a unit behind asks nothing; YES is no legal action."""
    s = march({"units": {"stark": {"karhold": "FF"}}, "orders": {"karhold": "march-0"}},
              "stark", "karhold")
    move(s, FOOTMAN, "winterfell")
    with pytest.raises(IllegalActionError):
        apply(s, YES)
    done(s)
    assert at_sentinel(s)
    assert token(s, "karhold") is None and power(s, "stark") == 5
