"""Garrisons in combat (rules spec §17, R13.3.4, R15.2; DECISIONS D-32)."""

import pytest
from combat_helpers import (
    areas,
    build,
    declare,
    fight,
    keep_support,
    kind,
    last_combat,
    march,
    play_cards,
    retreat,
    routed_in,
    units_in,
    who,
)

from got_env.engine import CardPlace, choice, scenario
from got_env.engine.combat.frame import combat_frame
from got_env.engine.combat.strength import initial_strength
from got_env.engine.decision import DecisionKind

HANDS = {"stark": ["eddard-stark", "greatjon-umber", "ser-rodrick-cassel"],
         "lannister": ["ser-jaime-lannister", "the-hound"]}


def stark_attacks_lannisport(attackers="KK", lannisport="", **spec):
    """Stark marches from Riverrun (March +0) into Lannisport, which holds Lannister's garrison
    (2) and ``lannisport`` units; returns at the first combat decision."""
    lannister = {"lannisport": lannisport} if lannisport else {}
    units = spec.pop("units", {})
    s = build(units={"stark": {"riverrun": attackers}, "lannister": lannister, **units},
              orders={"riverrun": "march-0", **spec.pop("orders", {})}, hands=HANDS, **spec)
    march(s, "riverrun", "lannisport", attackers)
    return s


def initial(state):
    frame = combat_frame(state)
    return initial_strength(state, frame, "attacker"), initial_strength(state, frame, "defender")


def test_garrison_adds_two_to_the_defender():
    """R17.2, §15.2: the garrison's strength 2 is added to the defender's initial strength:
    Footman + Knight + garrison = 5 against Stark's 2 Knights (4)."""
    s = stark_attacks_lannisport(lannisport="FK")
    assert kind(s) == DecisionKind.HOUSE_CARD
    assert initial(s) == (4, 1 + 2 + 2)


def test_garrison_alone_is_a_combat_with_a_house_card(ended):
    """R17.3, R13.3.4, D-32: entering a home area that holds only its garrison is a combat; the
    home house defends (it is asked for its support and plays a house card): garrison 2 +
    Stoney Sept support 1 + The Hound 2 = 5 against 2 Knights + Greatjon 2 = 6."""
    s = stark_attacks_lannisport(units={"lannister": {"stoney-sept": "F"}},
                                 orders={"stoney-sept": "support-0a"})
    assert kind(s) == DecisionKind.DECLARE_SUPPORT and who(s) == "lannister"
    assert s.pending.options == (choice("support-defender"), choice("nothing"))
    declare(s, lannister="defender")
    keep_support(s)
    assert initial(s) == (4, 2 + 1)
    assert kind(s) == DecisionKind.HOUSE_CARD
    play_cards(s, "greatjon-umber")
    assert kind(s) == DecisionKind.HOUSE_CARD and who(s) == "lannister"
    play_cards(s, defender="the-hound")
    st, frame = last_combat(ended)
    rs = st.ruleset
    assert frame.defender == rs.house("lannister")
    assert frame.strength == {"attacker": 6, "defender": 5}
    assert st.card_place[rs.house_card("the-hound")] == CardPlace.DISCARD
    assert st.garrisons[rs.area("lannisport")] == 0
    assert units_in(st, "lannisport", "stark") == "KK"
    assert int(st.control()[rs.area("lannisport")]) == rs.house("stark")


def test_garrison_stays_when_its_side_wins(ended):
    """R17.4 (only a loss removes it), §15.6 6.3: the garrison (2) + Ser Jaime (2) = 4 beats
    Stark's Knight + Ser Rodrick (3); the garrison stays, the Knight goes back routed."""
    s = stark_attacks_lannisport(attackers="K")
    play_cards(s, "ser-rodrick-cassel", "ser-jaime-lannister")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3, "defender": 4}
    assert frame.winner == "defender"
    assert st.garrisons[st.ruleset.area("lannisport")] == 2
    assert routed_in(st, "riverrun", "stark") == "K"


def test_garrison_removed_when_its_side_loses_whatever_the_icons(ended):
    """R17.4: the garrison's side loses (Footman 1 + garrison 2 + The Hound 2 = 5 against 2
    Knights + Eddard 4 = 8): the garrison is removed from the game although The Hound's 2
    fortifications cancel Eddard's 2 swords (no casualties); the Footman retreats."""
    s = stark_attacks_lannisport(lannisport="F")
    play_cards(s, "eddard-stark", "the-hound")
    assert areas(s, s.pending.options) == ["searoad-marches", "stoney-sept"]
    retreat(s, "stoney-sept")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 8, "defender": 5}
    assert frame.casualties[0][1] == 0
    assert st.garrisons[st.ruleset.area("lannisport")] == 0
    assert units_in(st, "stoney-sept", "lannister") == "F"
    assert units_in(st, "lannisport", "stark") == "KK"


def test_garrison_only_defends_its_own_area():
    """R17.5: a garrison never supports: Lannisport (garrison only) next to Stoney Sept adds
    nothing to Lannister's Footman there, and Lannister is not asked for support."""
    s = build(units={"stark": {"riverrun": "K"}, "lannister": {"stoney-sept": "F"}},
              orders={"riverrun": "march-0"}, hands=HANDS)
    march(s, "riverrun", "stoney-sept", "K")
    assert kind(s) == DecisionKind.HOUSE_CARD
    assert initial(s) == (2, 1)


def test_garrison_gives_nothing_to_an_attack_from_its_area():
    """R17.2, R17.5: the garrison adds to the defender only; Lannister attacking out of
    Lannisport does not get it."""
    s = build(units={"lannister": {"lannisport": "K"}, "stark": {"stoney-sept": "F"}},
              orders={"lannisport": "march-0"}, hands=HANDS)
    march(s, "lannisport", "stoney-sept", "K")
    assert initial(s) == (2, 1)


def test_garrison_alone_cannot_hold_an_order():
    """R17.1: an area holding only a garrison cannot be given an order."""
    with pytest.raises(scenario.ScenarioError, match="an order needs units"):
        build(units={"stark": {"riverrun": "K"}}, orders={"lannisport": "support-0a"})


def test_garrison_is_not_a_unit_for_supply():
    """R17.1, §15.6 6.3 item 5: a garrison does not count for supply: Lannister (supply 0, two
    armies of 2) may retreat its 2 Footmen into Lannisport, which holds only its garrison, but
    not into Blackwater, where 2 more Footmen stand."""
    s = build(units={"stark": {"stoney-sept": "KK"},
                     "lannister": {"searoad-marches": "FF", "blackwater": "FF"}},
              orders={"stoney-sept": "march-0"}, supply={"lannister": 0}, hands=HANDS)
    fight(s, "stoney-sept", "searoad-marches", "KK", "greatjon-umber", "the-hound")
    assert who(s) == "lannister"
    assert areas(s, s.pending.options) == ["lannisport", "the-reach"]
