"""Baratheon house cards with text: Stannis, Renly, Ser Davos, Salladhor Saan, Patchface (facts §7;
rules spec R15.3.3-R15.3.6, §15.0-§15.2; DECISIONS D-42, D-46). Each card is played with its
text and as a plain card of the same strength and icons, and the two outcomes differ."""

import pytest
from card_helpers import TEXT, card_action, discards, hand, with_text
from combat_helpers import (
    build,
    fight,
    kind,
    last_combat,
    retreat,
    routed_in,
    units_in,
    who,
)

from got_env.engine import DONE, apply
from got_env.engine.decision import DecisionKind

ALL_LANNISTER = ["cersei-lannister", "ser-gregor-clegane", "ser-jaime-lannister",
                 "ser-kevan-lannister", "the-hound", "tyrion-lannister", "tywin-lannister"]
REST = ["stark", "martell", "greyjoy", "tyrell"]


def stannis_fight(throne: list[str]):
    """Lannister's 2 Knights + Ser Jaime 2 = 6 attack Baratheon's Footman + Stannis (4)."""
    s = build(units={"lannister": {"lannisport": "KK"}, "baratheon": {"stoney-sept": "F"}},
              orders={"lannisport": "march-0"},
              tracks={"iron-throne": throne + REST},
              hands={"lannister": ["ser-jaime-lannister", "the-hound"],
                     "baratheon": ["stannis-baratheon", "brienne-of-tarth"]})
    fight(s, "lannisport", "stoney-sept", "KK", "ser-jaime-lannister", "stannis-baratheon")
    return s


@pytest.mark.parametrize("text", TEXT)
def test_stannis_baratheon_gains_one_against_a_higher_iron_throne(ended, monkeypatch, text):
    """stannis-baratheon, §15.5, §15.6 6.1: Lannister is above Baratheon on the Iron Throne
    track: with the text Stannis counts 5, 1 + 5 = 6 ties Lannister's 6 and Baratheon wins on
    Fiefdoms (position 5 against 6). As a plain card 1 + 4 = 5 loses and Ser Jaime's sword
    kills the Footman."""
    with_text(monkeypatch, "stannis-baratheon", text)
    stannis_fight(["lannister", "baratheon"])
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 6 if text else 5}
    assert frame.winner == ("defender" if text else "attacker")
    assert units_in(st, "stoney-sept", "baratheon") == ("F" if text else "")


def test_stannis_baratheon_gains_nothing_below_the_iron_throne_holder(ended):
    """stannis-baratheon: Baratheon holds the Iron Throne (position 1): Stannis stays 4."""
    stannis_fight(["baratheon", "lannister"])
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 5}


# Lannister attacks Stoney Sept with a Knight and Ser Jaime (2); Baratheon defends with 2
# Footmen and supports itself from Blackwater (a Footman).
RENLY = {
    "units": {"lannister": {"lannisport": "K"},
              "baratheon": {"stoney-sept": "FF", "blackwater": "F"}},
    "orders": {"lannisport": "march-0", "blackwater": "support-0a"},
    "hands": {"lannister": ["ser-jaime-lannister", "the-hound"],
              "baratheon": ["renly-baratheon", "brienne-of-tarth"]},
}


@pytest.mark.parametrize("text", TEXT)
def test_renly_baratheon_upgrades_a_footman_when_he_wins(ended, monkeypatch, text):
    """renly-baratheon, R15.3.4 (3), D-42: Baratheon 2 + 1 (support) + Renly 3 = 6 beats
    Lannister 2 + 2 = 4. With the text Baratheon may turn one of its Footmen that fought (in
    Stoney Sept or in the supporting Blackwater) into a Knight: Stoney Sept then holds a Footman
    and a Knight. As a plain card it keeps 2 Footmen."""
    with_text(monkeypatch, "renly-baratheon", text)
    s = build(**RENLY)
    fight(s, "lannisport", "stoney-sept", "K", "ser-jaime-lannister", "renly-baratheon",
          baratheon="defender")
    if text:
        assert kind(s) == DecisionKind.RENLY_UPGRADE and who(s) == "baratheon"
        rs = s.ruleset
        assert s.pending.options == (("unit", rs.area("blackwater"), 0),
                                     ("unit", rs.area("stoney-sept"), 0), DONE)
        apply(s, ("unit", s.ruleset.area("stoney-sept"), 0))
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 6}
    assert units_in(st, "stoney-sept", "baratheon") == ("FK" if text else "FF")
    assert units_in(st, "blackwater", "baratheon") == "F"


def test_renly_baratheon_upgrades_an_attacking_footman_that_then_enters(ended):
    """renly-baratheon, D-42: attacking, Baratheon's Footmen wait in Blackwater until the
    cleanup; the one upgraded enters Stoney Sept as a Knight (2 + Renly 3 = 5 against 1 + The
    Hound 2 = 3)."""
    s = build(units={"baratheon": {"blackwater": "FF"}, "lannister": {"stoney-sept": "F"}},
              orders={"blackwater": "march-0"},
              hands={"lannister": ["the-hound", "ser-jaime-lannister"],
                     "baratheon": ["renly-baratheon", "brienne-of-tarth"]})
    fight(s, "blackwater", "stoney-sept", "FF", "renly-baratheon", "the-hound")
    assert kind(s) == DecisionKind.RENLY_UPGRADE
    assert s.pending.options == (("unit", s.ruleset.area("blackwater"), 0), DONE)
    apply(s, ("unit", s.ruleset.area("blackwater"), 0))
    retreat(s, "harrenhal")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 5, "defender": 3}
    assert units_in(st, "stoney-sept", "baratheon") == "FK"
    assert units_in(st, "blackwater", "baratheon") == ""


@pytest.mark.parametrize("stannis", ["discarded", "in-hand"])
@pytest.mark.parametrize("text", TEXT)
def test_ser_davos_seaworth_with_stannis_discarded(ended, monkeypatch, text, stannis):
    """ser-davos-seaworth, §15.5, §15.6 6.1-6.2: Stannis in the discard pile: with the text
    Davos is 3 with a sword: Baratheon's Knight 2 + 3 = 5 beats Stark's 2 Footmen + Greatjon
    2 = 4 and kills a Footman. As a plain card (or with Stannis still in hand) 2 + 2 = 4 ties
    and Stark wins on Fiefdoms (4 against 5); Greatjon's sword kills the Knight."""
    with_text(monkeypatch, "ser-davos-seaworth", text)
    baratheon = ["ser-davos-seaworth", "brienne-of-tarth"]
    if stannis == "in-hand":
        baratheon.append("stannis-baratheon")
    s = build(units={"baratheon": {"blackwater": "K"}, "stark": {"stoney-sept": "FF"}},
              orders={"blackwater": "march-0"},
              hands={"baratheon": baratheon, "stark": ["greatjon-umber", "ser-rodrick-cassel"]})
    fight(s, "blackwater", "stoney-sept", "K", "ser-davos-seaworth", "greatjon-umber")
    bonus = text and stannis == "discarded"
    if bonus:
        retreat(s, "riverrun")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 5 if bonus else 4, "defender": 4}
    if bonus:
        assert units_in(st, "stoney-sept", "baratheon") == "K"
        assert units_in(st, "riverrun", "stark") == "F"
    else:
        assert units_in(st, "stoney-sept", "stark") == "FF"
        assert units_in(st, "blackwater", "baratheon") == ""


@pytest.mark.parametrize("supported", [True, False])
@pytest.mark.parametrize("text", TEXT)
def test_salladhor_saan_zeroes_other_ships_when_supported(ended, monkeypatch, text, supported):
    """salladhor-saan, §15.0, R15.1.2, R15.1.8: Lannister attacks Shipbreaker Bay with 2 Ships +
    Ser Jaime 2; Baratheon defends with a Ship + Salladhor 1, supported by its Ship in the Port
    of Dragonstone. With the text and the support, Lannister's Ships give 0: 2 against 3, and
    Baratheon wins. As a plain card (or unsupported) Lannister's 4 wins and Ser Jaime's sword
    sinks the defending Ship."""
    with_text(monkeypatch, "salladhor-saan", text)
    s = build(units={"lannister": {"blackwater-bay": "SS"},
                     "baratheon": {"shipbreaker-bay": "S", "port-of-dragonstone": "S"}},
              orders={"blackwater-bay": "march-0", "port-of-dragonstone": "support-0a"},
              hands={"lannister": ["ser-jaime-lannister", "the-hound"],
                     "baratheon": ["salladhor-saan", "brienne-of-tarth"]})
    fight(s, "blackwater-bay", "shipbreaker-bay", "SS", "ser-jaime-lannister",
          "salladhor-saan", baratheon="defender" if supported else "nothing")
    st, frame = last_combat(ended)
    zeroed = text and supported
    assert frame.strength == {"attacker": 2 if zeroed else 4,
                                 "defender": 3 if supported else 2}
    assert frame.winner == ("defender" if zeroed else "attacker")
    if zeroed:
        assert routed_in(st, "blackwater-bay", "lannister") == "SS"
        assert units_in(st, "shipbreaker-bay", "baratheon") == "S"
    else:
        assert units_in(st, "shipbreaker-bay", "lannister") == "SS"


def patchface_fight(lannister_hand: list[str]):
    """Baratheon's 2 Knights + Patchface (0) beat Lannister's Footman + The Hound 2."""
    s = build(units={"lannister": {"lannisport": "F"}, "baratheon": {"stoney-sept": "KK"}},
              orders={"lannisport": "march-0"},
              hands={"lannister": lannister_hand,
                     "baratheon": ["patchface", "brienne-of-tarth"]})
    fight(s, "lannisport", "stoney-sept", "F", "the-hound", "patchface")
    return s


@pytest.mark.parametrize("text", TEXT)
def test_patchface_discards_a_card_of_the_opponents_hand(ended, monkeypatch, text):
    """patchface, D-46, R15.3.6: after the combat (The Hound already discarded) Baratheon sees
    Lannister's hand (Ser Gregor, Ser Jaime) and discards Ser Gregor. As a plain card
    Lannister keeps both."""
    with_text(monkeypatch, "patchface", text)
    s = patchface_fight(["the-hound", "ser-jaime-lannister", "ser-gregor-clegane"])
    if text:
        assert kind(s) == DecisionKind.PATCHFACE and who(s) == "baratheon"
        assert s.pending.options == (card_action(s, "ser-gregor-clegane"),
                                     card_action(s, "ser-jaime-lannister"), DONE)
        apply(s, card_action(s, "ser-gregor-clegane"))
    st, frame = last_combat(ended)
    assert frame.winner == "defender"
    assert hand(st, "lannister") == (["ser-jaime-lannister"] if text
                                     else ["ser-gregor-clegane", "ser-jaime-lannister"])
    assert ("ser-gregor-clegane" in discards(st, "lannister")) is text


def test_patchface_emptying_the_hand_refreshes_it_but_the_discarded_card(ended):
    """patchface (facts §7), R15.3.6: Patchface discards Lannister's last card (Ser Jaime): the
    hand is empty, so every other discarded card comes back, The Hound just played included;
    Ser Jaime stays discarded."""
    s = patchface_fight(["the-hound", "ser-jaime-lannister"])
    apply(s, card_action(s, "ser-jaime-lannister"))
    st, _ = last_combat(ended)
    assert discards(st, "lannister") == ["ser-jaime-lannister"]
    assert hand(st, "lannister") == [c for c in ALL_LANNISTER if c != "ser-jaime-lannister"]
