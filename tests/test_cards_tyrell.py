"""Tyrell house cards with text: Mace Tyrell, Ser Loras Tyrell, Queen of Thorns (facts §7; rules
spec R15.3.3, R15.3.7, §12.3, R15.1.9; DECISIONS D-26, D-37, D-38). Each card is played with its
text and as a plain card of the same strength and icons, and the two outcomes differ."""

import pytest
from card_helpers import TEXT, area_action, with_text
from combat_helpers import (
    build,
    fight,
    kind,
    last_combat,
    order_in,
    retreat,
    routed_in,
    units_in,
    who,
)

from got_env.engine import apply
from got_env.engine.decision import DecisionKind


@pytest.mark.parametrize("text", TEXT)
def test_mace_tyrell_destroys_an_attacking_footman(ended, monkeypatch, text):
    """mace-tyrell, R15.3.3, R15.3.7, D-37: Lannister attacks Blackwater with 2 Footmen and a
    Knight + Ser Gregor 3 = 7 against Tyrell's Knight + Mace 4 = 6. With the text Mace
    destroys an attacking Footman at once (it waited in Stoney Sept): 3 + 3 = 6 ties and Tyrell
    wins on Fiefdoms (2 against 6); the Footman and Knight left go back routed. As a plain card
    Lannister wins 7 to 6 and Ser Gregor's swords kill the Knight."""
    with_text(monkeypatch, "mace-tyrell", text)
    s = build(units={"lannister": {"stoney-sept": "FFK"}, "tyrell": {"blackwater": "K"}},
              orders={"stoney-sept": "march-0"},
              hands={"lannister": ["ser-gregor-clegane", "the-hound"],
                     "tyrell": ["mace-tyrell", "randyll-tarly"]})
    fight(s, "stoney-sept", "blackwater", "FFK", "ser-gregor-clegane", "mace-tyrell")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6 if text else 7, "defender": 6}
    if text:
        assert units_in(st, "stoney-sept", "lannister") == "FK"
        assert routed_in(st, "stoney-sept", "lannister") == "FK"
        assert units_in(st, "blackwater", "tyrell") == "K"
    else:
        assert units_in(st, "blackwater", "lannister") == "FFK"
        assert units_in(st, "blackwater", "tyrell") == ""


def test_mace_tyrell_destroys_a_defending_footman(ended):
    """mace-tyrell, D-37: attacking, Mace destroys one of the defender's Footmen in the
    embattled area (never its supporting Footman in Harrenhal): Lannister defends with 1 Footman
    + 1 (support) + The Hound 2 = 4 against Tyrell's Knight + Mace 4 = 6."""
    s = build(units={"tyrell": {"the-reach": "K"},
                     "lannister": {"blackwater": "FF", "harrenhal": "F"}},
              orders={"the-reach": "march-0", "harrenhal": "support-0a"},
              hands={"lannister": ["the-hound", "ser-jaime-lannister"],
                     "tyrell": ["mace-tyrell", "randyll-tarly"]})
    fight(s, "the-reach", "blackwater", "K", "mace-tyrell", "the-hound", lannister="defender")
    retreat(s, "stoney-sept")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 4}
    assert units_in(st, "stoney-sept", "lannister") == "F"
    assert units_in(st, "harrenhal", "lannister") == "F"


@pytest.mark.parametrize("text", TEXT)
def test_ser_loras_tyrell_march_order_moves_to_the_conquered_area(ended, monkeypatch, text):
    """ser-loras-tyrell, §12.3, D-26: Tyrell takes Blackwater from The Reach (2 Knights + Loras 3
    = 7 against 1 + Ser Jaime 2). With the text the March token is not removed: it lies in
    Blackwater and Tyrell resolves it again at once (its only March left). As a plain card the
    token is gone and the March step is over."""
    with_text(monkeypatch, "ser-loras-tyrell", text)
    s = build(units={"tyrell": {"the-reach": "KK"}, "lannister": {"blackwater": "F"}},
              orders={"the-reach": "march-0"},
              hands={"lannister": ["ser-jaime-lannister", "the-hound"],
                     "tyrell": ["ser-loras-tyrell", "randyll-tarly"]})
    fight(s, "the-reach", "blackwater", "KK", "ser-loras-tyrell", "ser-jaime-lannister")
    retreat(s, "stoney-sept")
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert units_in(st, "blackwater", "tyrell") == "KK"
    assert order_in(st, "blackwater") == ("march-0" if text else None)
    assert order_in(st, "the-reach") is None
    if text:
        assert kind(s) == DecisionKind.MARCH_MOVE and who(s) == "tyrell"
        assert s.pending.context["area"] == s.ruleset.area("blackwater")
    else:
        assert kind(s) != DecisionKind.MARCH_MOVE


def test_ser_loras_tyrell_losing_keeps_nothing(ended):
    """ser-loras-tyrell: only if his player attacked and won: losing, the March is removed."""
    s = build(units={"tyrell": {"the-reach": "K"}, "lannister": {"blackwater": "KK"}},
              orders={"the-reach": "march-0"},
              hands={"lannister": ["the-hound", "ser-jaime-lannister"],
                     "tyrell": ["ser-loras-tyrell", "randyll-tarly"]})
    fight(s, "the-reach", "blackwater", "K", "ser-loras-tyrell", "the-hound")
    st, frame = last_combat(ended)
    assert frame.winner == "defender"
    assert order_in(s, "the-reach") is None and order_in(s, "blackwater") is None


# Lannister attacks Blackwater from Stoney Sept with a Knight, supported from Harrenhal (a
# Footman); it also has a Raid in King's Landing. Tyrell defends with a Footman, a Knight and a
# Defense +1 order.
QUEEN = {
    "units": {"lannister": {"stoney-sept": "K", "harrenhal": "F", "kings-landing": "F"},
              "tyrell": {"blackwater": "FK"}},
    "orders": {"stoney-sept": "march-0", "harrenhal": "support-0a", "kings-landing": "raid-a",
               "blackwater": "defense-1a"},
    "hands": {"lannister": ["ser-jaime-lannister", "the-hound"],
              "tyrell": ["queen-of-thorns", "randyll-tarly"]},
}


@pytest.mark.parametrize("text", TEXT)
def test_queen_of_thorns_removes_an_adjacent_order(ended, monkeypatch, text):
    """queen-of-thorns, R15.3.3, D-38: Lannister 2 + 1 (support) + Ser Jaime 2 = 5 against
    Tyrell 3 + 1 (Defense) + 0 = 4. With the text Tyrell removes one Lannister order next to
    Blackwater (Harrenhal or King's Landing; never the attacking March in Stoney Sept): the
    Support in Harrenhal, which then gives nothing: 4 - 4, Tyrell wins on Fiefdoms. As a plain
    card Lannister wins and the orders stay."""
    with_text(monkeypatch, "queen-of-thorns", text)
    s = build(**QUEEN)
    fight(s, "stoney-sept", "blackwater", "K", "ser-jaime-lannister", "queen-of-thorns",
          lannister="attacker")
    if text:
        assert kind(s) == DecisionKind.QUEEN_OF_THORNS_ORDER and who(s) == "tyrell"
        assert s.pending.options == (area_action(s, "harrenhal"),
                                     area_action(s, "kings-landing"))
        apply(s, area_action(s, "harrenhal"))
    else:
        apply(s, ("unit", s.ruleset.area("blackwater"), 0))  # Ser Jaime's sword: a Footman
        retreat(s, "the-reach")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4 if text else 5, "defender": 4}
    assert frame.winner == ("defender" if text else "attacker")
    assert order_in(st, "harrenhal") == (None if text else "support-0a")
    assert order_in(st, "kings-landing") == "raid-a"
