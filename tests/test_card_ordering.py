"""The order of house-card abilities when two meet (rules spec R15.3.3-R15.3.4, R15.3.7, §15.4,
R21.1-R21.2; facts §7 timing words; DECISIONS D-33 to D-38, D-40): cancel effects first, then
the others in Iron Throne order, each fully resolved before the next; static cards of both sides
combine."""

import pytest
from card_helpers import card_action, hand, track
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

from got_env.engine import NO, YES, apply
from got_env.engine.decision import DecisionKind

IT_DEFAULT = ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"]


def mace_against_tyrion(throne: list[str]):
    """Lannister attacks Blackwater with 2 Footmen and Tyrion; Tyrell defends with a Knight and
    Mace (hand: Mace, Alester Florent)."""
    s = build(units={"lannister": {"stoney-sept": "FF"}, "tyrell": {"blackwater": "K"}},
              orders={"stoney-sept": "march-0"}, tracks={"iron-throne": throne},
              hands={"lannister": ["tyrion-lannister", "the-hound"],
                     "tyrell": ["mace-tyrell", "alester-florent"]})
    fight(s, "stoney-sept", "blackwater", "FF", "tyrion-lannister", "mace-tyrell")
    return s


@pytest.mark.parametrize("throne", [IT_DEFAULT, ["tyrell"] + IT_DEFAULT[:-1]])
def test_tyrion_cancels_mace_before_it_resolves(ended, throne):
    """R15.3.4 (1), tyrion-lannister, mace-tyrell, D-33, D-34: Tyrion's cancel is asked first,
    even with Tyrell above Lannister on the Iron Throne, and both attacking Footmen are still
    there. Cancelled, Mace goes back to Tyrell's hand and never destroys a Footman; Alester
    Florent is played instead: Lannister 2 + 1 = 3 against Tyrell 2 + 1 = 3, Tyrell wins the
    tie on Fiefdoms and both Footmen go back routed."""
    s = mace_against_tyrion(throne)
    assert kind(s) == DecisionKind.TYRION_CANCEL and who(s) == "lannister"
    assert s.units[s.ruleset.area("stoney-sept"), s.ruleset.house("lannister"), 0] == 2
    apply(s, YES)
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3, "defender": 3}
    assert routed_in(st, "stoney-sept", "lannister") == "FF"
    assert hand(st, "tyrell") == ["mace-tyrell"]


def test_mace_resolves_after_tyrion_declines(ended):
    """R15.3.4 (1)-(2): Tyrion declines (D-33 no); then Mace destroys an attacking Footman:
    Lannister 1 + 1 = 2 against 2 + 4 = 6."""
    s = mace_against_tyrion(IT_DEFAULT)
    apply(s, NO)
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 2, "defender": 6}
    assert units_in(st, "stoney-sept", "lannister") == "F"


def test_tyrion_cancels_doran_before_the_track_moves(ended):
    """R15.3.4 (1), doran-martell, R21.1: Tyrion cancels Doran: no track decision is asked and
    every track is unchanged; Martell plays Areo Hotah (3, 1 fortification) instead."""
    s = build(units={"lannister": {"kings-landing": "K"}, "martell": {"kingswood": "F"}},
              orders={"kings-landing": "march-0"},
              hands={"lannister": ["tyrion-lannister", "the-hound"],
                     "martell": ["doran-martell", "areo-hotah"]})
    before = {t: track(s, t) for t in ("iron-throne", "fiefdoms", "kings-court")}
    fight(s, "kings-landing", "kingswood", "K", "tyrion-lannister", "doran-martell")
    assert kind(s) == DecisionKind.TYRION_CANCEL
    apply(s, YES)
    assert kind(s) != DecisionKind.DORAN_TRACK
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3, "defender": 4}
    assert {t: track(st, t) for t in before} == before


@pytest.mark.parametrize("martell_first", [True, False])
def test_two_reveal_abilities_resolve_in_iron_throne_order(ended, martell_first):
    """R15.3.4 (2), doran-martell, mace-tyrell: Martell attacks The Boneway with 2 Footmen and
    Doran against Tyrell's Knight and Mace. Higher on the Iron Throne, Martell's Doran is asked
    while both Footmen still stand; lower, Mace has already destroyed one when Doran is asked.
    Either way the result is 1 + 0 against 2 + 4, and Tyrell ends last on the Iron Throne."""
    rest = ["baratheon", "lannister", "stark", "greyjoy"]
    throne = (["martell", "tyrell"] if martell_first else ["tyrell", "martell"]) + rest
    s = build(units={"martell": {"yronwood": "FF"}, "tyrell": {"the-boneway": "K"}},
              orders={"yronwood": "march-0"}, tracks={"iron-throne": throne},
              hands={"martell": ["doran-martell", "areo-hotah"],
                     "tyrell": ["mace-tyrell", "randyll-tarly"]})
    fight(s, "yronwood", "the-boneway", "FF", "doran-martell", "mace-tyrell")
    assert kind(s) == DecisionKind.DORAN_TRACK
    footmen = int(s.units[s.ruleset.area("yronwood"), s.ruleset.house("martell"), 0])
    assert footmen == (2 if martell_first else 1)
    apply(s, ("track", 0))
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 1, "defender": 6}
    assert track(st, "iron-throne")[-1] == "tyrell"


@pytest.mark.parametrize("greyjoy_first", [True, False])
def test_aeron_and_queen_of_thorns_in_iron_throne_order(ended, greyjoy_first):
    """R15.3.4 (2), aeron-damphair, queen-of-thorns, D-35, D-38: both act at the reveal. With
    Greyjoy above Tyrell, Aeron's swap is asked while Greyjoy's Raid in Blackwater is still on
    the board; with Tyrell above, the Queen has already removed it (her only target, taken
    without asking)."""
    rest = ["baratheon", "lannister", "stark", "martell"]
    throne = (["greyjoy", "tyrell"] if greyjoy_first else ["tyrell", "greyjoy"]) + rest
    s = build(units={"greyjoy": {"searoad-marches": "K", "blackwater": "F"},
                     "tyrell": {"the-reach": "K"}},
              orders={"searoad-marches": "march-0", "blackwater": "raid-a"},
              tracks={"iron-throne": throne}, power={"greyjoy": 2}, blade_used=True,
              hands={"greyjoy": ["aeron-damphair", "euron-crows-eye"],
                     "tyrell": ["queen-of-thorns", "randyll-tarly"]})
    fight(s, "searoad-marches", "the-reach", "K", "aeron-damphair", "queen-of-thorns")
    assert kind(s) == DecisionKind.AERON_SWAP
    assert order_in(s, "blackwater") == ("raid-a" if greyjoy_first else None)
    apply(s, card_action(s, "euron-crows-eye"))
    st, frame = last_combat(ended)
    assert order_in(st, "blackwater") is None
    assert frame.strength == {"attacker": 2 + 4, "defender": 2 + 0}
    assert units_in(st, "the-reach", "greyjoy") == "K"  # Euron's sword killed the Knight


def test_a_card_taken_by_aerons_swap_is_not_cancelled(ended):
    """R15.3.4 (1), tyrion-lannister, aeron-damphair: Tyrion's cancel resolves first, once;
    declined, Aeron's swap brings in Euron, and Tyrion is not asked again: Euron plays
    (Greyjoy 2 + 4 = 6 against Lannister 1 + 1 = 2)."""
    s = build(units={"greyjoy": {"seagard": "K"}, "lannister": {"riverrun": "F"}},
              orders={"seagard": "march-0"}, power={"greyjoy": 2}, blade_used=True,
              hands={"greyjoy": ["aeron-damphair", "euron-crows-eye"],
                     "lannister": ["tyrion-lannister", "the-hound"]})
    fight(s, "seagard", "riverrun", "K", "aeron-damphair", "tyrion-lannister")
    assert kind(s) == DecisionKind.TYRION_CANCEL
    apply(s, NO)
    assert kind(s) == DecisionKind.AERON_SWAP
    apply(s, card_action(s, "euron-crows-eye"))
    assert kind(s) != DecisionKind.TYRION_CANCEL
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 2}
    assert card_action(s, "euron-crows-eye") == ("card", frame.cards["attacker"])


def test_balon_zeroes_stannis_printed_strength_but_not_his_bonus(ended):
    """balon-greyjoy, stannis-baratheon (facts §7): Balon makes Stannis's printed 4 count 0; his
    +1 against a higher Iron Throne position stays: Baratheon 2 + 0 + 1 = 3 against Greyjoy 1 +
    2 = 3, and Greyjoy wins the tie on Fiefdoms."""
    s = build(units={"baratheon": {"blackwater": "K"}, "greyjoy": {"searoad-marches": "F"}},
              orders={"blackwater": "march-0"}, blade_used=True,
              tracks={"iron-throne": ["greyjoy", "baratheon", "lannister", "stark", "martell",
                                      "tyrell"]},
              hands={"baratheon": ["stannis-baratheon", "brienne-of-tarth"],
                     "greyjoy": ["balon-greyjoy", "dagmar-cleftjaw"]})
    fight(s, "blackwater", "searoad-marches", "K", "stannis-baratheon", "balon-greyjoy")
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3, "defender": 3}
    assert frame.winner == "defender"


def test_salladhor_zero_beats_victarion_double(ended):
    """salladhor-saan, victarion-greyjoy, §15.0, R15.3.4 (2): Salladhor's side is supported and
    Greyjoy sits above Baratheon, so Salladhor resolves last and Greyjoy's attacking Ships give
    0: Greyjoy 0 + Victarion 3 = 3 against Baratheon's Ship 1 + supporting Ship 1 + Salladhor 1
    = 3 (Greyjoy wins the tie on Fiefdoms; without Salladhor's text it would have 2 x 2 + 3 = 7).
    The other Iron Throne order: tests/test_audit_rules.py."""
    s = build(units={"greyjoy": {"ironmans-bay": "SS"},
                     "baratheon": {"the-golden-sound": "S", "sunset-sea": "S"}},
              orders={"ironmans-bay": "march-0", "sunset-sea": "support-0a"}, blade_used=True,
              tracks={"iron-throne": ["greyjoy", "baratheon", "lannister", "stark", "martell",
                                      "tyrell"]},
              hands={"greyjoy": ["victarion-greyjoy", "dagmar-cleftjaw"],
                     "baratheon": ["salladhor-saan", "brienne-of-tarth"]})
    fight(s, "ironmans-bay", "the-golden-sound", "SS", "victarion-greyjoy", "salladhor-saan",
          baratheon="defender")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3, "defender": 3}
    assert frame.winner == "attacker"
    assert routed_in(st, "sunset-sea", "baratheon") == "S"  # its only retreat


def test_blackfish_is_immune_to_mace(ended):
    """the-blackfish, mace-tyrell, D-37: Mace destroys no Footman of a Blackfish player, and the
    winner's card causes no casualties: Stark's 2 Footmen (2 + 1 = 3 against 2 + 4 = 6) both
    retreat."""
    s = build(units={"tyrell": {"the-reach": "K"}, "stark": {"blackwater": "FF"}},
              orders={"the-reach": "march-0"},
              hands={"tyrell": ["mace-tyrell", "randyll-tarly"],
                     "stark": ["the-blackfish", "eddard-stark"]})
    fight(s, "the-reach", "blackwater", "K", "mace-tyrell", "the-blackfish")
    retreat(s, "harrenhal")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 3}
    assert routed_in(st, "harrenhal", "stark") == "FF"


@pytest.mark.parametrize("chosen,blade_offered", [(1, False), (0, True)])
def test_doran_on_fiefdoms_passes_the_blade_before_it_is_offered(ended, chosen, blade_offered):
    """doran-martell, R21.2, §15.4, D-40: Doran sends Greyjoy to the bottom of Fiefdoms; the
    (unused) Blade passes at once to Tyrell, now first, who is not in the combat: Greyjoy is
    not offered it. On the Iron Throne track Greyjoy keeps the Blade and is asked."""
    s = build(units={"greyjoy": {"east-summer-sea": "S"}, "martell": {"sea-of-dorne": "SS"}},
              orders={"east-summer-sea": "march-0"},
              hands={"greyjoy": ["dagmar-cleftjaw", "euron-crows-eye"],
                     "martell": ["doran-martell", "areo-hotah"]})
    fight(s, "east-summer-sea", "sea-of-dorne", "S", "dagmar-cleftjaw", "doran-martell")
    apply(s, ("track", chosen))
    assert (kind(s) == DecisionKind.BLADE_PLUS_ONE) is blade_offered
    if blade_offered:
        assert who(s) == "greyjoy"
        apply(s, NO)
    st, _ = last_combat(ended)
    assert st.holder(1) == st.ruleset.house("tyrell" if chosen == 1 else "greyjoy")

