"""Lannister house cards with text: Tywin, Ser Kevan, Tyrion, Cersei (facts §7; rules spec
R15.3.3-R15.3.6, §15.2; DECISIONS D-33, D-34, D-41). Each card is played with its text and as
a plain card of the same strength and icons, and the two outcomes differ."""

import pytest
from card_helpers import TEXT, area_action, card_action, discards, hand, with_text
from combat_helpers import (
    build,
    declare,
    fight,
    keep_support,
    kind,
    last_combat,
    march,
    order_in,
    play_cards,
    retreat,
    routed_in,
    units_in,
    who,
)

from got_env.engine import DONE, NO, YES, apply
from got_env.engine.decision import DecisionKind


@pytest.mark.parametrize("text", TEXT)
def test_tywin_lannister_gains_two_power_when_he_wins(ended, monkeypatch, text):
    """tywin-lannister, R15.3.4 (3), R2.3.3: Lannister's Knight + Tywin 4 = 6 beats Stark's
    Footman + Ser Rodrick 1 = 2. With the text Lannister's available power goes from 5 to 7
    (2 tokens out of the Power Pool); as a plain card it stays 5."""
    with_text(monkeypatch, "tywin-lannister", text)
    s = build(units={"stark": {"riverrun": "F"}, "lannister": {"stoney-sept": "K"}},
              orders={"riverrun": "march-0"}, power={"lannister": 5},
              hands={"stark": ["ser-rodrick-cassel", "eddard-stark"],
                     "lannister": ["tywin-lannister", "the-hound"]})
    pool = int(s.power_pool()[s.ruleset.house("lannister")])
    fight(s, "riverrun", "stoney-sept", "F", "ser-rodrick-cassel", "tywin-lannister")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 2, "defender": 6}
    lannister = st.ruleset.house("lannister")
    assert int(st.power[lannister]) == (7 if text else 5)
    assert int(st.power_pool()[lannister]) == (pool - 2 if text else pool)


def test_tywin_lannister_gains_nothing_when_he_loses(ended):
    """tywin-lannister: only "if you win": Tywin (4) with a Footman loses to Stark's Knight +
    Eddard 4 = 6 (1 + 4 = 5); power stays 5."""
    s = build(units={"stark": {"riverrun": "K"}, "lannister": {"stoney-sept": "F"}},
              orders={"riverrun": "march-0"}, power={"lannister": 5},
              hands={"stark": ["eddard-stark", "ser-rodrick-cassel"],
                     "lannister": ["tywin-lannister", "the-hound"]})
    fight(s, "riverrun", "stoney-sept", "K", "eddard-stark", "tywin-lannister")
    if kind(s) == DecisionKind.RETREAT_AREA:
        retreat(s, "lannisport")
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert int(st.power[st.ruleset.house("lannister")]) == 5


# Lannister attacks Stoney Sept with 2 Footmen (March +0), supported by its own Footman in
# Searoad Marches and by a Baratheon Footman in Blackwater; Stark defends with a Knight.
KEVAN = {
    "units": {"lannister": {"lannisport": "FF", "searoad-marches": "F"},
              "baratheon": {"blackwater": "F"}, "stark": {"stoney-sept": "K"}},
    "orders": {"lannisport": "march-0", "searoad-marches": "support-0a",
               "blackwater": "support-0a"},
    "hands": {"lannister": ["ser-kevan-lannister", "the-hound"],
              "stark": ["eddard-stark", "greatjon-umber"]},
}


@pytest.mark.parametrize("text", TEXT)
def test_ser_kevan_lannister_doubles_his_footmen_when_attacking(ended, monkeypatch, text):
    """ser-kevan-lannister, §15.2, R15.1.2: with the text every Lannister Footman adding strength
    to the attack counts 2: 2 x 2 (attacking) + 2 (own support) + 1 (Baratheon's Footman, not
    doubled) + Kevan 1 = 8 beats Stark's Knight + Eddard 4 = 6. As a plain card 2 + 1 + 1 + 1 =
    5 loses, and Eddard's 2 swords kill both attacking Footmen."""
    with_text(monkeypatch, "ser-kevan-lannister", text)
    s = build(**KEVAN)
    fight(s, "lannisport", "stoney-sept", "FF", "ser-kevan-lannister", "eddard-stark",
          baratheon="attacker", lannister="attacker")
    if text:
        retreat(s, "riverrun")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 8 if text else 5, "defender": 6}
    assert units_in(st, "stoney-sept", "lannister") == ("FF" if text else "")
    assert units_in(st, "lannisport", "lannister") == ""


def test_ser_kevan_lannister_doubles_nothing_when_defending(ended):
    """ser-kevan-lannister: only when his player attacks: defending Stoney Sept with 2 Footmen,
    Lannister has 2 + Kevan 1 = 3 against Stark's Knight + Eddard 4 = 6."""
    s = build(units={"stark": {"riverrun": "K"}, "lannister": {"stoney-sept": "FF"}},
              orders={"riverrun": "march-0"},
              hands={"stark": ["eddard-stark", "greatjon-umber"],
                     "lannister": ["ser-kevan-lannister", "the-hound"]})
    fight(s, "riverrun", "stoney-sept", "K", "eddard-stark", "ser-kevan-lannister")
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 3}


# Stark attacks Stoney Sept with a Knight and Eddard (4, 2 swords); Lannister defends with a
# Footman and a Knight and Tyrion (1).
TYRION = {
    "units": {"stark": {"riverrun": "K"}, "lannister": {"stoney-sept": "FK"}},
    "orders": {"riverrun": "march-0"},
    "hands": {"stark": ["eddard-stark", "ser-rodrick-cassel"],
              "lannister": ["tyrion-lannister", "the-hound"]},
}


@pytest.mark.parametrize("text", TEXT)
def test_tyrion_lannister_cancels_the_opponents_card(ended, monkeypatch, text):
    """tyrion-lannister, R15.3.4 (1), D-33, D-34: with the text Lannister cancels Eddard: it goes
    back to Stark's hand and Stark's only other card, Ser Rodrick (1, 2 fortifications), is
    played instead: 2 + 1 = 3 loses to 3 + Tyrion 1 = 4. As a plain card Eddard stays: 2 + 4 =
    6 wins, its 2 swords kill both Lannister units, and it is discarded."""
    with_text(monkeypatch, "tyrion-lannister", text)
    s = build(**TYRION)
    march(s, "riverrun", "stoney-sept", "K")
    play_cards(s, "eddard-stark", "tyrion-lannister")
    if text:
        assert kind(s) == DecisionKind.TYRION_CANCEL and who(s) == "lannister"
        assert s.pending.options == (YES, NO)
        apply(s, YES)  # D-34 has one option (Ser Rodrick): played without asking
    else:
        while kind(s) == DecisionKind.CASUALTY:
            apply(s, s.pending.options[0])
    st, frame = last_combat(ended)
    if text:
        assert frame.strength == {"attacker": 3, "defender": 4}
        assert hand(st, "stark") == ["eddard-stark"]
        assert discards(st, "stark") == ["catelyn-stark", "greatjon-umber", "robb-stark",
                                         "roose-bolton", "ser-rodrick-cassel", "the-blackfish"]
        assert routed_in(st, "riverrun", "stark") == "K"
    else:
        assert frame.strength == {"attacker": 6, "defender": 4}
        assert hand(st, "stark") == ["ser-rodrick-cassel"]
        assert units_in(st, "stoney-sept", "stark") == "K"
        assert units_in(st, "stoney-sept", "lannister") == ""


def test_tyrion_lannister_replacement_is_chosen_from_the_rest_of_the_hand(ended):
    """tyrion-lannister, D-34: the opponent picks a different card (never the cancelled one)
    among the others in hand; Greatjon (2, 1 sword): 2 + 2 = 4 against 4, Stark wins the tie
    on Fiefdoms (position 4 against 6)."""
    s = build(**{**TYRION, "hands": {"stark": ["eddard-stark", "ser-rodrick-cassel",
                                               "greatjon-umber"],
                                     "lannister": ["tyrion-lannister", "the-hound"]}})
    rs = s.ruleset
    fight(s, "riverrun", "stoney-sept", "K", "eddard-stark", "tyrion-lannister")
    apply(s, YES)
    assert kind(s) == DecisionKind.REPLACEMENT_CARD and who(s) == "stark"
    assert s.pending.options == tuple(("card", rs.house_card(c))
                                      for c in ("greatjon-umber", "ser-rodrick-cassel"))
    apply(s, card_action(s, "greatjon-umber"))
    assert kind(s) == DecisionKind.CASUALTY  # 1 sword: Lannister picks Footman or Knight
    apply(s, s.pending.options[0])
    retreat(s, "lannisport")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 4}
    assert frame.winner == "attacker"
    assert "eddard-stark" in hand(st, "stark") and "greatjon-umber" in discards(st, "stark")


def test_tyrion_lannister_opponent_without_other_card_fights_with_none(ended):
    """tyrion-lannister, D-34 "none if empty": Eddard is Stark's only card; cancelled, Stark
    fights with no card (0, no icons): 2 against 4. Eddard is back in hand, nothing is
    discarded."""
    s = build(**{**TYRION, "hands": {"stark": ["eddard-stark"],
                                     "lannister": ["tyrion-lannister", "the-hound"]}})
    fight(s, "riverrun", "stoney-sept", "K", "eddard-stark", "tyrion-lannister")
    apply(s, YES)
    st, frame = last_combat(ended)
    assert frame.cards["attacker"] is None
    assert frame.strength == {"attacker": 2, "defender": 4}
    assert hand(st, "stark") == ["eddard-stark"]
    assert len(discards(st, "stark")) == 6


def test_tyrion_lannister_may_decline(ended):
    """tyrion-lannister, D-33 "no": nothing changes; Eddard plays (6 against 4)."""
    s = build(**TYRION)
    fight(s, "riverrun", "stoney-sept", "K", "eddard-stark", "tyrion-lannister")
    apply(s, NO)
    while kind(s) == DecisionKind.CASUALTY:
        apply(s, s.pending.options[0])
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 4}


# Stark attacks Stoney Sept with a Footman; Lannister wins with 2 Knights and Cersei. Stark has
# orders in Winterfell and The Twins as well.
CERSEI = {
    "units": {"stark": {"riverrun": "F", "winterfell": "F", "the-twins": "F"},
              "lannister": {"stoney-sept": "KK"}},
    "orders": {"riverrun": "march-0", "winterfell": "consolidate-power-a",
               "the-twins": "raid-a"},
    "hands": {"stark": ["ser-rodrick-cassel", "eddard-stark"],
              "lannister": ["cersei-lannister", "the-hound"]},
}


@pytest.mark.parametrize("text", TEXT)
def test_cersei_lannister_removes_one_order_of_the_loser(ended, monkeypatch, text):
    """cersei-lannister, R15.3.4 (3), D-41: Lannister 4 + Cersei 0 beats Stark 1 + Ser Rodrick
    1. With the text Lannister may remove any one Stark order (not the March that attacked):
    it removes the Consolidate Power order in Winterfell. As a plain card both orders stay."""
    with_text(monkeypatch, "cersei-lannister", text)
    s = build(**CERSEI)
    fight(s, "riverrun", "stoney-sept", "F", "ser-rodrick-cassel", "cersei-lannister")
    if text:
        assert kind(s) == DecisionKind.CERSEI_ORDER and who(s) == "lannister"
        assert s.pending.options == (area_action(s, "the-twins"), area_action(s, "winterfell"),
                                     DONE)
        apply(s, area_action(s, "winterfell"))
    st, frame = last_combat(ended)
    assert frame.winner == "defender"
    assert order_in(st, "winterfell") == (None if text else "consolidate-power-a")
    assert order_in(st, "the-twins") == "raid-a"


def test_cersei_lannister_may_remove_nothing(ended):
    """cersei-lannister, D-41 "none": Stark's orders stay."""
    s = build(**CERSEI)
    fight(s, "riverrun", "stoney-sept", "F", "ser-rodrick-cassel", "cersei-lannister")
    apply(s, DONE)
    st, _ = last_combat(ended)
    assert order_in(st, "winterfell") == "consolidate-power-a"
    assert order_in(st, "the-twins") == "raid-a"


def test_support_helpers_are_answered_before_kevan(ended):
    """R15.1.6: the support declarations of the Kevan position come in turn order (Baratheon,
    then Lannister) before the cards; Lannister keeps Baratheon's support (D-31)."""
    s = build(**KEVAN)
    march(s, "lannisport", "stoney-sept", "FF")
    assert declare(s, baratheon="attacker", lannister="attacker") == ["baratheon", "lannister"]
    assert keep_support(s) == [("lannister", "baratheon")]
