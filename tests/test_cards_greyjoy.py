"""Greyjoy house cards with text: Victarion, Balon, Theon, Asha, Aeron Damphair (facts §7; rules
spec R15.3.3-R15.3.6, §15.0-§15.2, §15.6; DECISIONS D-35). Each card is played with its text
and as a plain card of the same strength and icons, and the two outcomes differ. Greyjoy holds
the Valyrian Steel Blade; it is already used in these positions."""

import pytest
from card_helpers import TEXT, card_action, discards, hand, with_text
from combat_helpers import (
    build,
    fight,
    kind,
    last_combat,
    retreat,
    routed_in,
    total_units,
    units_in,
    who,
)

from got_env.engine import DONE, apply
from got_env.engine.decision import DecisionKind


@pytest.mark.parametrize("text", TEXT)
def test_victarion_greyjoy_doubles_his_ships_when_attacking(ended, monkeypatch, text):
    """victarion-greyjoy, §15.0, R15.1.2, R15.1.8: Greyjoy attacks The Golden Sound with 2 Ships,
    supported by its Ship in Sunset Sea, against Lannister's 2 Ships supported by a Ship with a
    Support★ in the Port of Lannisport + Ser Gregor 3 = 7. With the text Greyjoy's Ships count
    2: 4 + 2 + Victarion 3 = 9 wins and Lannister retreats into its port; as a plain card
    2 + 1 + 3 = 6 loses and Ser Gregor's swords sink both attacking Ships."""
    with_text(monkeypatch, "victarion-greyjoy", text)
    s = build(units={"greyjoy": {"ironmans-bay": "SS", "sunset-sea": "S"},
                     "lannister": {"the-golden-sound": "SS", "port-of-lannisport": "S"}},
              orders={"ironmans-bay": "march-0", "sunset-sea": "support-0a",
                      "port-of-lannisport": "support-special"},
              blade_used=True,
              hands={"greyjoy": ["victarion-greyjoy", "dagmar-cleftjaw"],
                     "lannister": ["ser-gregor-clegane", "the-hound"]})
    fight(s, "ironmans-bay", "the-golden-sound", "SS", "victarion-greyjoy",
          "ser-gregor-clegane", lannister="defender", greyjoy="attacker")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 9 if text else 6, "defender": 7}
    if text:
        assert units_in(st, "the-golden-sound", "greyjoy") == "SS"
        assert routed_in(st, "port-of-lannisport", "lannister") == "SS"
        assert units_in(st, "port-of-lannisport", "lannister") == "SSS"
    else:
        assert units_in(st, "the-golden-sound", "lannister") == "SS"
        assert units_in(st, "ironmans-bay", "greyjoy") == ""


@pytest.mark.parametrize("text", TEXT)
def test_balon_greyjoy_makes_the_opponents_printed_strength_zero(ended, monkeypatch, text):
    """balon-greyjoy, §15.5: Lannister attacks Searoad Marches with a Knight and Ser Gregor (3)
    against Greyjoy's Footman + Balon 2. With the text Ser Gregor counts 0: 2 against 3, and
    Greyjoy wins. As a plain card 5 against 3: Lannister wins and its 3 swords kill the
    Footman."""
    with_text(monkeypatch, "balon-greyjoy", text)
    s = build(units={"lannister": {"lannisport": "K"}, "greyjoy": {"searoad-marches": "F"}},
              orders={"lannisport": "march-0"}, blade_used=True,
              hands={"lannister": ["ser-gregor-clegane", "the-hound"],
                     "greyjoy": ["balon-greyjoy", "dagmar-cleftjaw"]})
    fight(s, "lannisport", "searoad-marches", "K", "ser-gregor-clegane", "balon-greyjoy")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 2 if text else 5, "defender": 3}
    assert units_in(st, "searoad-marches", "greyjoy") == ("F" if text else "")
    assert units_in(st, "searoad-marches", "lannister") == ("" if text else "K")


@pytest.mark.parametrize("text", TEXT)
def test_theon_greyjoy_defending_a_castle(ended, monkeypatch, text):
    """theon-greyjoy, §15.5, §15.6 6.1-6.2: Greyjoy defends Seagard (a Stronghold) with a
    Footman against Lannister's Knight + Ser Jaime 2 = 4. With the text Theon is 3 with a
    sword: 4 against 4, Greyjoy wins on Fiefdoms (position 1) and kills the Knight. As a plain
    card 3 loses and Ser Jaime's sword kills the Footman."""
    with_text(monkeypatch, "theon-greyjoy", text)
    s = build(units={"lannister": {"riverrun": "K"}, "greyjoy": {"seagard": "F"}},
              orders={"riverrun": "march-0"}, blade_used=True,
              hands={"lannister": ["ser-jaime-lannister", "the-hound"],
                     "greyjoy": ["theon-greyjoy", "dagmar-cleftjaw"]})
    fight(s, "riverrun", "seagard", "K", "ser-jaime-lannister", "theon-greyjoy")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 4 if text else 3}
    assert frame.winner == ("defender" if text else "attacker")
    assert total_units(st, "lannister") == (0 if text else 1)
    assert total_units(st, "greyjoy") == (1 if text else 0)


def test_theon_greyjoy_outside_a_castle_is_plain(ended):
    """theon-greyjoy: Greywater Watch has no Castle or Stronghold: Theon stays 2, no sword
    (Lannister 4 beats Greyjoy 1 + 2)."""
    s = build(units={"lannister": {"seagard": "K"}, "greyjoy": {"greywater-watch": "F"}},
              orders={"seagard": "march-0"}, blade_used=True,
              hands={"lannister": ["ser-jaime-lannister", "the-hound"],
                     "greyjoy": ["theon-greyjoy", "dagmar-cleftjaw"]})
    fight(s, "seagard", "greywater-watch", "K", "ser-jaime-lannister", "theon-greyjoy")
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 3}


@pytest.mark.parametrize("supported", [False, True])
@pytest.mark.parametrize("text", TEXT)
def test_asha_greyjoy_without_support(ended, monkeypatch, text, supported):
    """asha-greyjoy, §15.6 6.2, R15.1.3: Greyjoy's 2 Knights + Asha 1 = 5 beat Lannister's 2
    Footmen in Riverrun + Ser Jaime 2 = 4. Without any support, Asha's text gives 2 swords and
    a fortification: both Footmen die. As a plain card, or with Greyjoy's own Ship supporting
    from Ironman's Bay, she has no icons and the Footmen retreat."""
    with_text(monkeypatch, "asha-greyjoy", text)
    s = build(units={"greyjoy": {"seagard": "KK", "ironmans-bay": "S"},
                     "lannister": {"riverrun": "FF"}},
              orders={"seagard": "march-0", "ironmans-bay": "support-0a"}, blade_used=True,
              hands={"greyjoy": ["asha-greyjoy", "dagmar-cleftjaw"],
                     "lannister": ["ser-jaime-lannister", "the-hound"]})
    fight(s, "seagard", "riverrun", "KK", "asha-greyjoy", "ser-jaime-lannister",
          greyjoy="attacker" if supported else "nothing")
    icons = text and not supported
    if not icons:
        retreat(s, "stoney-sept")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6 if supported else 5, "defender": 4}
    assert frame.casualties[0][1] == 0
    assert total_units(st, "lannister") == (0 if icons else 2)
    assert units_in(st, "riverrun", "greyjoy") == "KK"


@pytest.mark.parametrize("text", TEXT)
def test_aeron_damphair_swaps_himself_for_another_card(ended, monkeypatch, text):
    """aeron-damphair, R15.3.3, D-35: Greyjoy's Knight + Aeron 0 = 2 would lose to Lannister's
    Footman + Ser Jaime 2 = 3. With the text Greyjoy pays 2 of its 3 power, discards Aeron and
    plays Euron (4, 1 sword) instead: 6 wins and kills the Footman. As a plain card Greyjoy
    loses and its Knight dies; its power stays 3."""
    with_text(monkeypatch, "aeron-damphair", text)
    s = build(units={"greyjoy": {"seagard": "K"}, "lannister": {"riverrun": "F"}},
              orders={"seagard": "march-0"}, power={"greyjoy": 3}, blade_used=True,
              hands={"greyjoy": ["aeron-damphair", "euron-crows-eye", "dagmar-cleftjaw"],
                     "lannister": ["ser-jaime-lannister", "the-hound"]})
    fight(s, "seagard", "riverrun", "K", "aeron-damphair", "ser-jaime-lannister")
    if text:
        assert kind(s) == DecisionKind.AERON_SWAP and who(s) == "greyjoy"
        assert s.pending.options == (card_action(s, "euron-crows-eye"),
                                     card_action(s, "dagmar-cleftjaw"), DONE)
        apply(s, card_action(s, "euron-crows-eye"))
    st, frame = last_combat(ended)
    greyjoy = st.ruleset.house("greyjoy")
    assert frame.strength == {"attacker": 6 if text else 2, "defender": 3}
    assert int(st.power[greyjoy]) == (1 if text else 3)
    assert hand(st, "greyjoy") == (["dagmar-cleftjaw"] if text
                                   else ["dagmar-cleftjaw", "euron-crows-eye"])
    assert {"aeron-damphair"} <= set(discards(st, "greyjoy"))
    assert ("euron-crows-eye" in discards(st, "greyjoy")) is text
    assert units_in(st, "riverrun", "greyjoy") == ("K" if text else "")


def test_aeron_damphair_needs_two_power(ended):
    """aeron-damphair, D-35: with 1 available power the swap is not offered; Aeron plays (0)."""
    s = build(units={"greyjoy": {"seagard": "K"}, "lannister": {"riverrun": "F"}},
              orders={"seagard": "march-0"}, power={"greyjoy": 1}, blade_used=True,
              hands={"greyjoy": ["aeron-damphair", "euron-crows-eye"],
                     "lannister": ["ser-jaime-lannister", "the-hound"]})
    fight(s, "seagard", "riverrun", "K", "aeron-damphair", "ser-jaime-lannister")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 2, "defender": 3}
    assert int(st.power[st.ruleset.house("greyjoy")]) == 1
