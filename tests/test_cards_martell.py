"""Martell house cards with text: Arianne Martell, Nymeria Sand, Doran Martell (facts §7; rules
spec R15.3.3-R15.3.4, §15.6, §21; DECISIONS D-36). Each card is played with its text and as a
plain card of the same strength and icons, and the two outcomes differ."""

import pytest
from card_helpers import TEXT, track, with_text
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

from got_env.engine import apply
from got_env.engine.decision import DecisionKind

FIEFDOMS = ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"]


@pytest.mark.parametrize("text", TEXT)
def test_arianne_martell_keeps_the_winner_out(ended, monkeypatch, text):
    """arianne-martell, R15.3.4 (3), §15.6 6.3-6.4: Tyrell's 2 Knights + Alester 1 = 5 beat
    Martell's Footman + Arianne 1 = 2 in The Boneway. Martell's Footman still retreats and its
    power token there is still removed, but with the text Tyrell's Knights do not enter: they
    stay in The Reach, standing. As a plain card they take The Boneway."""
    with_text(monkeypatch, "arianne-martell", text)
    s = build(units={"tyrell": {"the-reach": "KK"}, "martell": {"the-boneway": "F"}},
              orders={"the-reach": "march-0"}, power_tokens={"the-boneway": "martell"},
              hands={"tyrell": ["alester-florent", "randyll-tarly"],
                     "martell": ["arianne-martell", "areo-hotah"]})
    fight(s, "the-reach", "the-boneway", "KK", "alester-florent", "arianne-martell")
    retreat(s, "yronwood")
    st, frame = last_combat(ended)
    rs = st.ruleset
    assert frame.strength == {"attacker": 5, "defender": 2}
    assert frame.winner == "attacker"
    assert routed_in(st, "yronwood", "martell") == "F"
    assert st.power_tokens[rs.area("the-boneway")] == -1
    if text:
        assert units_in(st, "the-reach", "tyrell") == "KK"
        assert routed_in(st, "the-reach", "tyrell") == ""
        assert units_in(st, "the-boneway", "tyrell") == ""
        assert int(st.control()[rs.area("the-boneway")]) == -1
    else:
        assert units_in(st, "the-boneway", "tyrell") == "KK"
        assert units_in(st, "the-reach", "tyrell") == ""


def test_arianne_martell_attacking_is_plain(ended):
    """arianne-martell: only when her player defends: attacking and losing, her Knight goes
    back to Yronwood routed as usual, and the winner stays where it is."""
    s = build(units={"martell": {"yronwood": "K"}, "tyrell": {"the-boneway": "KK"}},
              orders={"yronwood": "march-0"},
              hands={"tyrell": ["alester-florent", "randyll-tarly"],
                     "martell": ["arianne-martell", "areo-hotah"]})
    fight(s, "yronwood", "the-boneway", "K", "arianne-martell", "alester-florent")
    st, frame = last_combat(ended)
    assert frame.winner == "defender"
    assert frame.attackers_stay is None
    assert routed_in(st, "yronwood", "martell") == "K"


@pytest.mark.parametrize("text", TEXT)
def test_nymeria_sand_attacking_has_a_sword(ended, monkeypatch, text):
    """nymeria-sand, §15.6 6.2: attacking, Martell's 2 Knights + Nymeria 1 = 5 beat Tyrell's
    Footman + Randyll 2 = 3. With the text Nymeria has a sword and the Footman dies; as a plain
    card it retreats."""
    with_text(monkeypatch, "nymeria-sand", text)
    s = build(units={"martell": {"yronwood": "KK"}, "tyrell": {"the-boneway": "F"}},
              orders={"yronwood": "march-0"},
              hands={"martell": ["nymeria-sand", "areo-hotah"],
                     "tyrell": ["randyll-tarly", "alester-florent"]})
    fight(s, "yronwood", "the-boneway", "KK", "nymeria-sand", "randyll-tarly")
    if not text:
        retreat(s, "the-reach")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 5, "defender": 3}
    assert total_units(st, "tyrell") == (0 if text else 1)


@pytest.mark.parametrize("text", TEXT)
def test_nymeria_sand_defending_has_a_fortification(ended, monkeypatch, text):
    """nymeria-sand, §15.6 6.2: defending, Martell's 2 Footmen + Nymeria 1 = 3 lose to Tyrell's
    2 Knights + Ser Garlan 2 = 6 (2 swords). With the text her fortification leaves 1 casualty
    and the other Footman retreats; as a plain card both Footmen die."""
    with_text(monkeypatch, "nymeria-sand", text)
    s = build(units={"tyrell": {"the-reach": "KK"}, "martell": {"the-boneway": "FF"}},
              orders={"the-reach": "march-0"},
              hands={"martell": ["nymeria-sand", "areo-hotah"],
                     "tyrell": ["ser-garlan-tyrell", "alester-florent"]})
    fight(s, "the-reach", "the-boneway", "KK", "ser-garlan-tyrell", "nymeria-sand")
    if text:
        retreat(s, "yronwood")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 3}
    assert total_units(st, "martell") == (1 if text else 0)


@pytest.mark.parametrize("text", TEXT)
def test_doran_martell_sends_the_opponent_to_the_bottom_of_a_track(ended, monkeypatch, text):
    """doran-martell, R15.3.3, R21.1-R21.2, D-36: Greyjoy's Ship + Dagmar 1 = 2 attack the Sea
    of Dorne against Martell's 2 Ships + Doran 0 = 2. With the text Martell sends Greyjoy to the
    bottom of the Fiefdoms track before the winner is decided: Martell then wins the tie, and
    the others move up one place. As a plain card Greyjoy (Fiefdoms 1) wins the tie and
    Dagmar's sword sinks a Ship; the other has no retreat and is destroyed."""
    with_text(monkeypatch, "doran-martell", text)
    s = build(units={"greyjoy": {"east-summer-sea": "S"}, "martell": {"sea-of-dorne": "SS"}},
              orders={"east-summer-sea": "march-0"}, blade_used=True,
              hands={"greyjoy": ["dagmar-cleftjaw", "euron-crows-eye"],
                     "martell": ["doran-martell", "areo-hotah"]})
    fight(s, "east-summer-sea", "sea-of-dorne", "S", "dagmar-cleftjaw", "doran-martell")
    if text:
        assert kind(s) == DecisionKind.DORAN_TRACK and who(s) == "martell"
        assert s.pending.options == (("track", 0), ("track", 1), ("track", 2))
        apply(s, ("track", 1))
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 2, "defender": 2}
    if text:
        assert frame.winner == "defender"
        assert track(st, "fiefdoms") == FIEFDOMS[1:] + ["greyjoy"]
        assert routed_in(st, "east-summer-sea", "greyjoy") == "S"
        assert units_in(st, "sea-of-dorne", "martell") == "SS"
    else:
        assert frame.winner == "attacker"
        assert track(st, "fiefdoms") == FIEFDOMS
        assert total_units(st, "martell") == 0



def test_arianne_martell_attackers_kept_home_shed_units_over_supply(ended):
    """arianne-martell, R7.8, R12.3.9, AMBIG-12, D-45: Tyrell (supply 1: armies of 3 and 2)
    marches from The Reach (Footman, 2 Knights): a Knight joins the Footman in Dornish Marches,
    the other Knight attacks The Boneway, the Footman stays; the March's result fits (armies of
    2 in Dornish Marches and Highgarden). Kept out by Arianne, the attacking Knight stays in
    The Reach: three armies of 2 break supply, so Tyrell destroys it (the only unit that came
    back)."""
    s = build(units={"tyrell": {"the-reach": "FKK", "dornish-marches": "F", "highgarden": "FF"},
                     "martell": {"the-boneway": "F"}},
              orders={"the-reach": "march-0"}, supply={"tyrell": 1},
              hands={"tyrell": ["alester-florent", "randyll-tarly"],
                     "martell": ["arianne-martell", "areo-hotah"]})
    assert kind(s) == DecisionKind.MARCH_MOVE  # its only March: resolved without asking
    apply(s, ("move", 1, s.ruleset.area("dornish-marches")))
    fight(s, "the-reach", "the-boneway", "K", "alester-florent", "arianne-martell")
    retreat(s, "yronwood")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3, "defender": 2}
    assert frame.winner == "attacker"
    assert units_in(st, "the-reach", "tyrell") == "F"
    assert units_in(st, "dornish-marches", "tyrell") == "FK"
    assert units_in(st, "highgarden", "tyrell") == "FF"
    assert units_in(st, "the-boneway", "tyrell") == ""
