"""Stark house cards with text: Robb Stark, Roose Bolton, The Blackfish, Catelyn Stark (facts §7;
rules spec R15.3.3-R15.3.4, §15.6; DECISIONS D-43 to D-45). Each card is played with its text
and as a plain card of the same strength and icons, and the two outcomes differ."""

import pytest
from card_helpers import TEXT, area_action, discards, hand, with_text
from combat_helpers import (
    areas,
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

ALL_STARK = ["catelyn-stark", "eddard-stark", "greatjon-umber", "robb-stark", "roose-bolton",
             "ser-rodrick-cassel", "the-blackfish"]


# Stark takes Stoney Sept from Riverrun with 2 Knights. Lannister (supply 0: armies of 2 and 2)
# defends with 2 Footmen and already has an army of 2 in Lannisport and lone Footmen in Blackwater
# and Searoad Marches; Baratheon holds Harrenhal. Every retreat breaks Lannister's supply:
# Lannisport costs 2 units, Blackwater or Searoad Marches 1.
ROBB = {
    "units": {"stark": {"riverrun": "KK"},
              "lannister": {"stoney-sept": "FF", "lannisport": "FF", "blackwater": "F",
                            "searoad-marches": "F"},
              "baratheon": {"harrenhal": "F"}},
    "orders": {"riverrun": "march-0"},
    "supply": {"lannister": 0},
    "hands": {"stark": ["robb-stark", "eddard-stark"],
              "lannister": ["the-hound", "ser-jaime-lannister"]},
}


@pytest.mark.parametrize("text", TEXT)
def test_robb_stark_picks_the_losers_retreat_among_fewest_losses(ended, monkeypatch, text):
    """robb-stark, R15.3.4 (3), §15.6 6.3 item 5, D-44, D-45: Robb (3) wins 4 + 3 = 7 against
    2 + The Hound 2 = 4. With his text Stark, not Lannister, picks the retreat area, and only
    among the areas costing the fewest units (Blackwater, Searoad Marches: 1), never Lannisport
    (2). As a plain card Lannister picks, among the same two (every retreat keeps to the
    fewest losses)."""
    with_text(monkeypatch, "robb-stark", text)
    s = build(**ROBB)
    fight(s, "riverrun", "stoney-sept", "KK", "robb-stark", "the-hound")
    assert kind(s) == DecisionKind.RETREAT_AREA
    if text:
        assert who(s) == "stark"
        assert areas(s, s.pending.options) == ["blackwater", "searoad-marches"]
    else:
        assert who(s) == "lannister"
        assert areas(s, s.pending.options) == ["blackwater", "searoad-marches"]
    apply(s, area_action(s, "blackwater"))  # D-45: a Footman dies (the only kind there)
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 7, "defender": 4}
    assert units_in(st, "blackwater", "lannister") == "FF"
    assert routed_in(st, "blackwater", "lannister") == "F"
    assert units_in(st, "stoney-sept", "stark") == "KK"


def test_robb_stark_has_no_effect_when_the_attacker_lost(ended):
    """robb-stark (facts §7, DECISIONS Open point 5): a losing attacker retreats to the area it
    marched from whatever Robb's player wants: Lannister's Knight goes back to Lannisport."""
    s = build(units={"lannister": {"lannisport": "K"}, "stark": {"stoney-sept": "KF"}},
              orders={"lannisport": "march-0"},
              hands={"lannister": ["the-hound", "ser-jaime-lannister"],
                     "stark": ["robb-stark", "eddard-stark"]})
    fight(s, "lannisport", "stoney-sept", "K", "the-hound", "robb-stark")
    st, frame = last_combat(ended)
    assert frame.winner == "defender"
    assert frame.retreat_chooser is None
    assert routed_in(st, "lannisport", "lannister") == "K"


@pytest.mark.parametrize("text", TEXT)
def test_roose_bolton_takes_the_discard_pile_back_when_he_loses(ended, monkeypatch, text):
    """roose-bolton, R15.3.4 (3), R15.3.6: Stark's Knight + Roose 2 = 4 loses to Lannister's
    Knight + Ser Gregor 3 = 5. With the text the five discarded cards and Roose go back to
    Stark's hand (all seven in hand); as a plain card Roose joins the discard pile and only
    Eddard is left in hand."""
    with_text(monkeypatch, "roose-bolton", text)
    s = build(units={"stark": {"riverrun": "K"}, "lannister": {"stoney-sept": "K"}},
              orders={"riverrun": "march-0"},
              hands={"stark": ["roose-bolton", "eddard-stark"],
                     "lannister": ["ser-gregor-clegane", "the-hound"]})
    fight(s, "riverrun", "stoney-sept", "K", "roose-bolton", "ser-gregor-clegane")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 5}
    assert frame.loser == "attacker"
    if text:
        assert hand(st, "stark") == ALL_STARK
        assert discards(st, "stark") == []
    else:
        assert hand(st, "stark") == ["eddard-stark"]
        assert discards(st, "stark") == sorted(set(ALL_STARK) - {"eddard-stark"})


@pytest.mark.parametrize("text", TEXT)
def test_the_blackfish_takes_no_casualties_from_swords(ended, monkeypatch, text):
    """the-blackfish, §15.6 6.2: Lannister's 2 Knights + Ser Gregor (3 swords) beat Stark's 2
    Footmen + The Blackfish (1). With the text no Stark unit dies: both retreat to Riverrun
    (routed). As a plain card 3 swords - 0 fortifications kill both Footmen."""
    with_text(monkeypatch, "the-blackfish", text)
    s = build(units={"lannister": {"lannisport": "KK"}, "stark": {"stoney-sept": "FF"}},
              orders={"lannisport": "march-0"},
              hands={"lannister": ["ser-gregor-clegane", "the-hound"],
                     "stark": ["the-blackfish", "eddard-stark"]})
    fight(s, "lannisport", "stoney-sept", "KK", "ser-gregor-clegane", "the-blackfish")
    if text:
        retreat(s, "riverrun")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 7, "defender": 3}
    assert frame.casualties[0][1] == (0 if text else 3 - 2)
    assert total_units(st, "stark") == (2 if text else 0)
    if text:
        assert routed_in(st, "riverrun", "stark") == "FF"


@pytest.mark.parametrize("text", TEXT)
def test_catelyn_stark_doubles_the_defense_order(ended, monkeypatch, text):
    """catelyn-stark, §15.2: Stark defends Stoney Sept with 2 Footmen and a Defense +2 order:
    with Catelyn's text 2 + 2 x 2 = 6 beats Lannister's Knight + Ser Gregor 3 = 5; as a plain
    card 2 + 2 = 4 loses."""
    with_text(monkeypatch, "catelyn-stark", text)
    s = build(units={"lannister": {"lannisport": "K"}, "stark": {"stoney-sept": "FF"}},
              orders={"lannisport": "march-0", "stoney-sept": "defense-special"},
              hands={"lannister": ["ser-gregor-clegane", "the-hound"],
                     "stark": ["catelyn-stark", "eddard-stark"]})
    fight(s, "lannisport", "stoney-sept", "K", "ser-gregor-clegane", "catelyn-stark")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 5, "defender": 6 if text else 4}
    assert frame.winner == ("defender" if text else "attacker")
    assert units_in(st, "stoney-sept", "stark" if text else "lannister") == ("FF" if text else "K")


def test_catelyn_stark_as_attacker_doubles_nothing(ended):
    """catelyn-stark: only a Defense order of Catelyn's player in the embattled area doubles;
    attacking, she adds 0 (Stark Knight 2 + 0 against Lannister Footman 1 + The Hound 2)."""
    s = build(units={"stark": {"riverrun": "K"}, "lannister": {"stoney-sept": "F"}},
              orders={"riverrun": "march-0", "stoney-sept": "defense-1a"},
              hands={"stark": ["catelyn-stark", "eddard-stark"],
                     "lannister": ["the-hound", "ser-jaime-lannister"]})
    fight(s, "riverrun", "stoney-sept", "K", "catelyn-stark", "the-hound")
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 2, "defender": 1 + 1 + 2}
