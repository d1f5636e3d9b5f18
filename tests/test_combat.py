"""Combat against the rulebook: unit strengths, initial and final strength, house cards, the
Valyrian Steel Blade, the winner, casualties and cleanup (rules spec §15.0, §15.2-§15.6, R13.2.5;
DECISIONS D-32, D-40, D-43)."""

import numpy as np
import pytest
from combat_helpers import (
    build,
    cards_of,
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
    unit_options,
    units_in,
    who,
)

from got_env.encoding import encoder_for
from got_env.engine import CardPlace, apply
from got_env.engine.combat.frame import combat_frame
from got_env.engine.combat.strength import initial_strength
from got_env.engine.decision import DecisionKind
from got_env.engine.invariants import check

# p.20: Tyrell attacks Kingswood from King's Landing with a Footman and a Knight (March +0)
# against 2 Lannister Footmen; Lannister is higher than Tyrell on Fiefdoms (Greyjoy keeps the
# Blade, so it is not offered).
P20_FIEFDOMS = ["greyjoy", "lannister", "tyrell", "martell", "stark", "baratheon"]
P20 = {
    "units": {"tyrell": {"kings-landing": "FK"}, "lannister": {"kingswood": "FF"}},
    "orders": {"kings-landing": "march-0"},
    "tracks": {"fiefdoms": P20_FIEFDOMS},
    "hands": {"tyrell": ["alester-florent", "randyll-tarly"],
              "lannister": ["ser-jaime-lannister", "the-hound"]},
}


def initial(state):
    """Both initial strengths while the house cards are being chosen (§15.2)."""
    assert kind(state) == DecisionKind.HOUSE_CARD
    frame = combat_frame(state)
    return initial_strength(state, frame, "attacker"), initial_strength(state, frame, "defender")


# --- the rulebook's combat example ------------------------------------------------------------


def test_p20_combat_example(ended):
    """p.20 example; §15.2, R15.3.1-R15.3.2, §15.5, §15.6 6.1-6.3: 3 (Footman + Knight, March
    +0) + Alester Florent 1 = 4 against 2 Footmen + Ser Jaime 2 = 4; the tie goes to Lannister,
    higher on Fiefdoms; 1 sword - 1 fortification = 0 casualties; Tyrell's units go back to
    King's Landing and are routed; both cards are discarded (R15.3.6)."""
    s = build(**P20)
    march(s, "kings-landing", "kingswood", "FK")
    assert initial(s) == (3, 2)
    play_cards(s, "alester-florent", "ser-jaime-lannister")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 4}
    assert frame.winner == "defender"
    assert frame.casualties[0][1] == 0
    assert units_in(st, "kings-landing", "tyrell") == "FK"
    assert routed_in(st, "kings-landing", "tyrell") == "FK"
    assert units_in(st, "kingswood", "lannister") == "FF"
    assert routed_in(st, "kingswood", "lannister") == ""
    assert st.card_place[st.ruleset.house_card("alester-florent")] == CardPlace.DISCARD
    assert st.card_place[st.ruleset.house_card("ser-jaime-lannister")] == CardPlace.DISCARD


@pytest.mark.parametrize("fiefdoms,winner", [
    (P20_FIEFDOMS, "defender"),
    (["greyjoy", "tyrell", "lannister", "martell", "stark", "baratheon"], "attacker"),
    (["tyrell", "greyjoy", "martell", "stark", "baratheon", "lannister"], "attacker"),
    (["lannister", "greyjoy", "martell", "stark", "baratheon", "tyrell"], "defender"),
])
def test_tie_goes_to_the_house_higher_on_fiefdoms(ended, fiefdoms, winner):
    """§15.6 6.1: equal final strength (4-4, as on p.20): the combatant nearer position 1 of the
    Fiefdoms track wins, whether attacker or defender. (The Blade holder declines it.)"""
    s = build(**{**P20, "tracks": {"fiefdoms": fiefdoms}})
    march(s, "kings-landing", "kingswood", "FK")
    play_cards(s, "alester-florent", "ser-jaime-lannister", blade=False)
    if winner == "attacker":
        retreat(s, "the-reach")
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 4}
    assert frame.winner == winner


def test_higher_final_strength_wins_whatever_the_fiefdoms_track(ended):
    """§15.5, §15.6 6.1: Randyll Tarly (2) makes Tyrell 5 against Lannister's 4; the higher
    strength wins although Lannister is higher on Fiefdoms."""
    s = build(**P20)
    fight(s, "kings-landing", "kingswood", "FK", "randyll-tarly", "ser-jaime-lannister")
    retreat(s, "the-reach")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 5, "defender": 4}
    assert frame.winner == "attacker"
    assert units_in(st, "kingswood", "tyrell") == "FK"


# --- unit strength and initial strength ---------------------------------------------------------


@pytest.mark.parametrize("target,attackers,expected", [
    ("harrenhal", "K", 2),        # Castle
    ("harrenhal", "KE", 2 + 4),   # Castle: Siege Engine 4
    ("riverrun", "FE", 1 + 4),    # Stronghold: Siege Engine 4
    ("blackwater", "KE", 2),      # no Castle or Stronghold: Siege Engine 0
    ("blackwater", "FFK", 4),
])
def test_attacking_unit_strengths(target, attackers, expected):
    """§15.0: Footman 1, Knight 2; a Siege Engine gives 4 only when attacking into an area with a
    Castle or Stronghold, else 0. A defending Siege Engine gives 0 (Baratheon: Footman + Siege
    Engine = 1)."""
    s = build(units={"stark": {"stoney-sept": "FFKE"}, "baratheon": {target: "FE"}},
              orders={"stoney-sept": "march-0"},
              hands={"stark": ["eddard-stark", "greatjon-umber"],
                     "baratheon": ["brienne-of-tarth", "melisandre"]})
    march(s, "stoney-sept", target, attackers)
    assert initial(s) == (expected, 1)


@pytest.mark.parametrize("march_order,bonus", [
    ("march-minus-1", -1), ("march-0", 0), ("march-special", 1)])
@pytest.mark.parametrize("defense,defense_bonus", [
    (None, 0), ("defense-1a", 1), ("defense-special", 2), ("raid-a", 0),
    ("consolidate-power-a", 0)])
def test_initial_strength_adds_march_and_defense_orders(march_order, bonus, defense,
                                                        defense_bonus):
    """§15.2, R11 order values: the attacker adds his March order's modifier (-1, +0, +1), the
    defender the bonus of a Defense order in the embattled area (+1, +2); other orders there
    add nothing."""
    orders = {"kings-landing": march_order}
    if defense:
        orders["kingswood"] = defense
    s = build(**{**P20, "orders": orders})
    march(s, "kings-landing", "kingswood", "FK")
    assert initial(s) == (3 + bonus, 2 + defense_bonus)


def test_defense_order_outside_the_embattled_area_adds_nothing():
    """§15.2: only a Defense order in the embattled area counts for the defender; one next to
    it (The Reach) adds nothing, even Lannister's own."""
    s = build(**{**P20, "units": {**P20["units"], "lannister": {"kingswood": "FF",
                                                                "the-reach": "F"}},
                 "orders": {"kings-landing": "march-0", "the-reach": "defense-special"}})
    march(s, "kings-landing", "kingswood", "FK")
    assert initial(s) == (3, 2)


# --- house cards --------------------------------------------------------------------------------


def test_house_cards_are_chosen_secretly_attacker_then_defender(ended):
    """R15.3.1, R15.3.5, D-32: both combatants must play a card from hand (no other option);
    each choice is secret, and the attacker's choice is not shown (its card stays in hand)
    while the defender chooses. Both are then revealed together."""
    s = build(**P20)
    rs = s.ruleset
    march(s, "kings-landing", "kingswood", "FK")
    d = s.pending
    assert (d.kind, who(s), d.secret) == (DecisionKind.HOUSE_CARD, "tyrell", True)
    assert set(d.options) == {("card", rs.house_card("alester-florent")),
                              ("card", rs.house_card("randyll-tarly"))}
    apply(s, ("card", rs.house_card("randyll-tarly")))
    d = s.pending
    assert (d.kind, who(s), d.secret) == (DecisionKind.HOUSE_CARD, "lannister", True)
    assert set(d.options) == {("card", rs.house_card("ser-jaime-lannister")),
                              ("card", rs.house_card("the-hound"))}
    assert d.context == {"area": rs.area("kingswood"), "attacker": rs.house("tyrell"),
                         "defender": rs.house("lannister")}
    assert s.card_place[rs.house_card("randyll-tarly")] == CardPlace.HAND
    apply(s, ("card", rs.house_card("the-hound")))
    retreat(s, "the-reach")
    st, frame = last_combat(ended)
    assert frame.cards == {"attacker": rs.house_card("randyll-tarly"),
                              "defender": rs.house_card("the-hound")}


def test_played_cards_are_discarded_and_the_rest_stay_in_hand(ended):
    """R15.3.6: after the combat each played card lies face up in its owner's discard pile; the
    cards not played stay in hand."""
    s = build(**P20)
    fight(s, "kings-landing", "kingswood", "FK", "alester-florent", "ser-jaime-lannister")
    st, _ = last_combat(ended)
    assert cards_of(st, "tyrell", CardPlace.HAND) == ["randyll-tarly"]
    assert "alester-florent" in cards_of(st, "tyrell", CardPlace.DISCARD)
    assert cards_of(st, "lannister", CardPlace.HAND) == ["the-hound"]
    assert "ser-jaime-lannister" in cards_of(st, "lannister", CardPlace.DISCARD)
    assert not cards_of(st, "tyrell", CardPlace.CHOSEN)
    assert not cards_of(st, "lannister", CardPlace.CHOSEN)


def test_playing_the_last_card_takes_the_other_six_back(ended):
    """R15.3.6: a house that has just played its 7th card takes the other six back into its hand
    at the end of the combat; the card just played stays in the discard pile. (A one-card hand
    is played without asking.)"""
    s = build(**{**P20, "hands": {"tyrell": ["alester-florent"],
                                  "lannister": ["ser-jaime-lannister", "the-hound"]}})
    march(s, "kings-landing", "kingswood", "FK")
    play_cards(s, defender="ser-jaime-lannister")
    st, _ = last_combat(ended)
    assert cards_of(st, "tyrell", CardPlace.DISCARD) == ["alester-florent"]
    assert len(cards_of(st, "tyrell", CardPlace.HAND)) == 6
    assert "alester-florent" not in cards_of(st, "tyrell", CardPlace.HAND)
    assert len(cards_of(st, "lannister", CardPlace.DISCARD)) == 6


# --- the Valyrian Steel Blade -------------------------------------------------------------------

# Greyjoy holds the Blade (position 1 on Fiefdoms with 6 players). It attacks Stoney Sept from
# Riverrun; a second March (Greywater Watch -> Seagard) gives a second combat in the same round.
BLADE = {
    "units": {"greyjoy": {"riverrun": "K", "greywater-watch": "K"},
              "lannister": {"stoney-sept": "F"}, "stark": {"seagard": "F"}},
    "orders": {"riverrun": "march-0", "greywater-watch": "march-0"},
    "tracks": {"iron-throne": ["greyjoy", "lannister", "stark", "baratheon", "martell",
                               "tyrell"]},
    "hands": {"greyjoy": ["dagmar-cleftjaw", "euron-crows-eye"],
              "lannister": ["ser-jaime-lannister", "the-hound"],
              "stark": ["greatjon-umber", "ser-rodrick-cassel"]},
}


@pytest.mark.parametrize("use", [True, False])
def test_blade_adds_one_and_is_used_up(ended, use):
    """§15.4, §15.5, D-40: the Blade holder in a combat is asked after the cards are revealed;
    using it adds 1 to his final strength (2 + Dagmar 1 + 1 = 4) and flips it (blade_used)."""
    s = build(**BLADE)
    march(s, "riverrun", "stoney-sept", "K")
    play_cards(s, "dagmar-cleftjaw", "the-hound")
    assert kind(s) == DecisionKind.BLADE_PLUS_ONE and who(s) == "greyjoy"
    apply(s, ("choice", 0) if use else ("choice", 1))
    if kind(s) == DecisionKind.RETREAT_AREA:
        retreat(s, "lannisport")
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3 + use, "defender": 1 + 2}
    assert st.blade_used is use


def test_blade_only_once_per_round(ended):
    """§15.4: once used, the Blade cannot be used again this round: Greyjoy's second combat does
    not offer it."""
    s = build(**BLADE)
    fight(s, "riverrun", "stoney-sept", "K", "dagmar-cleftjaw", "the-hound", blade=True)
    retreat(s, "lannisport")
    assert s.blade_used
    march(s, "greywater-watch", "seagard", "K")
    play_cards(s, "euron-crows-eye", "greatjon-umber")
    assert kind(s) != DecisionKind.BLADE_PLUS_ONE
    if kind(s) == DecisionKind.RETREAT_AREA:
        retreat(s, "the-twins")
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 2 + 4, "defender": 1 + 2}


def test_blade_already_used_this_round_is_not_offered(ended):
    """§15.4: a Blade flipped earlier this round (blade_used) is not offered."""
    s = build(**BLADE, blade_used=True)
    march(s, "riverrun", "stoney-sept", "K")
    play_cards(s, "dagmar-cleftjaw", "the-hound")
    assert kind(s) != DecisionKind.BLADE_PLUS_ONE
    retreat(s, "lannisport")
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 3, "defender": 3}


def test_blade_not_offered_when_its_holder_is_not_in_the_combat(ended):
    """§15.4, D-40: only the attacker or the defender may use the Blade; Greyjoy holds it and
    is not in Tyrell's attack on Lannister."""
    s = build(**P20)
    march(s, "kings-landing", "kingswood", "FK")
    play_cards(s, "alester-florent", "ser-jaime-lannister")
    assert kind(s) != DecisionKind.BLADE_PLUS_ONE
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 4, "defender": 4}
    assert not st.blade_used


@pytest.mark.parametrize("use,winner", [(True, "defender"), (False, "attacker")])
def test_defender_may_use_the_blade(ended, use, winner):
    """§15.4, §15.5, §15.6 6.1: the holder may use the Blade as the defender too. Lannister's
    Knight + Ser Gregor = 5 against Greyjoy's Footman + Knight + Dagmar = 4; the Blade makes it
    5-5 and Greyjoy, first on Fiefdoms, wins the tie."""
    s = build(units={"greyjoy": {"riverrun": "FK"}, "lannister": {"stoney-sept": "K"}},
              orders={"stoney-sept": "march-0"},
              hands={"greyjoy": ["dagmar-cleftjaw", "euron-crows-eye"],
                     "lannister": ["ser-gregor-clegane", "the-hound"]})
    march(s, "stoney-sept", "riverrun", "K")
    play_cards(s, "ser-gregor-clegane", "dagmar-cleftjaw", blade=use)
    if kind(s) == DecisionKind.CASUALTY:  # 3 swords - 1 fortification: both Greyjoy units
        apply(s, ("unit", s.ruleset.area("riverrun"), 0))
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 5, "defender": 4 + use}
    assert frame.winner == winner
    assert st.blade_used is use


# --- casualties -------------------------------------------------------------------------------

# Lannister attacks Blackwater from Stoney Sept with 2 Knights and March★ (5); Tyrell defends
# with Footman, Footman, Knight (4) and supports itself from The Reach with a Knight (2).
CASUALTIES = {
    "units": {"lannister": {"stoney-sept": "KK"},
              "tyrell": {"blackwater": "FFK", "the-reach": "K"}},
    "orders": {"stoney-sept": "march-special", "the-reach": "support-0a"},
    "hands": {"lannister": ["ser-gregor-clegane", "ser-jaime-lannister", "the-hound"],
              "tyrell": ["margaery-tyrell", "randyll-tarly", "ser-garlan-tyrell"]},
}


@pytest.mark.parametrize("attacker_card,defender_card,expected", [
    ("ser-gregor-clegane", "randyll-tarly", 3),    # 3 swords - 0 fortifications
    ("ser-gregor-clegane", "margaery-tyrell", 2),  # 3 - 1
    ("ser-jaime-lannister", "margaery-tyrell", 0),  # 1 - 1
    ("the-hound", "randyll-tarly", 0),             # no swords
])
def test_casualties_are_winner_swords_minus_loser_fortifications(attacker_card, defender_card,
                                                                 expected):
    """§15.6 6.2: casualties = swords on the winner's card - fortifications on the loser's card,
    at least 0; the loser (Tyrell) is asked once per casualty (D-43)."""
    s = build(**CASUALTIES)
    fight(s, "stoney-sept", "blackwater", "KK", attacker_card, defender_card,
          tyrell="nothing")
    frame = combat_frame(s)
    assert frame.winner == "attacker"
    if expected:
        assert kind(s) == DecisionKind.CASUALTY and who(s) == "tyrell"
        assert s.pending.context["left"] == expected
    else:
        assert kind(s) == DecisionKind.RETREAT_AREA


def test_loser_chooses_casualties_among_units_in_the_embattled_area(ended):
    """§15.6 6.2: the loser chooses which units die, only among his units in the embattled area:
    Tyrell's supporting Knight in The Reach is never offered. Each casualty is one unit
    whatever its strength (a Knight is one)."""
    s = build(**CASUALTIES)
    fight(s, "stoney-sept", "blackwater", "KK", "ser-gregor-clegane", "margaery-tyrell",
          tyrell="defender")
    assert combat_frame(s).strength == {"attacker": 8, "defender": 4 + 2 + 1}
    assert kind(s) == DecisionKind.CASUALTY and who(s) == "tyrell"
    assert unit_options(s) == [("blackwater", "F"), ("blackwater", "K")]
    apply(s, ("unit", s.ruleset.area("blackwater"), 1))  # the Knight; a Footman goes next
    retreat(s, "the-reach")
    st, _ = last_combat(ended)
    assert units_in(st, "the-reach", "tyrell") == "FK"
    assert routed_in(st, "the-reach", "tyrell") == "F"
    assert units_in(st, "blackwater", "lannister") == "KK"


def test_routed_units_are_never_chosen_as_casualties():
    """§15.6 6.2-6.3: a routed unit cannot be chosen as a casualty: with a standing Footman and
    a routed Knight only the Footman and the Siege Engine are offered, with 2 casualties to
    take."""
    s = build(**{**CASUALTIES, "units": {"lannister": {"stoney-sept": "KK"},
                                         "tyrell": {"blackwater": "FKE", "the-reach": "K"}},
                 "routed": {"tyrell": {"blackwater": "K"}}})
    fight(s, "stoney-sept", "blackwater", "KK", "ser-gregor-clegane", "margaery-tyrell",
          tyrell="nothing")
    assert combat_frame(s).strength["defender"] == 1 + 1
    assert s.pending.context["left"] == 2
    assert unit_options(s) == [("blackwater", "E"), ("blackwater", "F")]


def test_casualties_beyond_the_standing_units_are_ignored(ended):
    """§15.6 6.2, AMBIG-18: 3 casualties against 1 standing Footman and a routed Knight: the
    Footman dies, the rest is ignored (the routed Knight is not a casualty), and the Knight is
    then destroyed because a routed unit must retreat again (6.3)."""
    s = build(**{**CASUALTIES, "units": {"lannister": {"stoney-sept": "KK"},
                                         "tyrell": {"blackwater": "FK", "the-reach": "K"}},
                 "routed": {"tyrell": {"blackwater": "K"}}})
    fight(s, "stoney-sept", "blackwater", "KK", "ser-gregor-clegane", "randyll-tarly",
          tyrell="nothing")
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert units_in(st, "blackwater", "tyrell") == ""
    assert units_in(st, "the-reach", "tyrell") == "K"
    assert units_in(st, "blackwater", "lannister") == "KK"


def test_losing_attacker_takes_casualties_only_among_attacking_units(ended):
    """§15.6 6.2-6.3: the losing attacker's casualties come from the units that attacked, not
    from those that stayed in the area they marched from; the survivors are routed there."""
    s = build(units={"lannister": {"stoney-sept": "FFK"}, "tyrell": {"blackwater": "K"}},
              orders={"stoney-sept": "march-0", "blackwater": "defense-special"},
              hands={"lannister": ["ser-jaime-lannister", "the-hound"],
                     "tyrell": ["randyll-tarly", "margaery-tyrell"]})
    fight(s, "stoney-sept", "blackwater", "FK", "ser-jaime-lannister", "randyll-tarly")
    assert combat_frame(s).strength == {"attacker": 5, "defender": 6}
    assert kind(s) == DecisionKind.CASUALTY and who(s) == "lannister"
    assert unit_options(s) == [("stoney-sept", "F"), ("stoney-sept", "K")]
    apply(s, ("unit", s.ruleset.area("stoney-sept"), 1))
    st, _ = last_combat(ended)
    assert units_in(st, "stoney-sept", "lannister") == "FF"
    assert routed_in(st, "stoney-sept", "lannister") == "F"


# --- cleanup ----------------------------------------------------------------------------------


def test_winning_attacker_removes_defender_order_and_power_token(ended):
    """§15.6 6.4, R13.2.5, R13.2.1: when the attacker wins, the defender's order and power
    token in the embattled area are removed (the token back to the Power Pool) and the
    attacking units occupy the area."""
    s = build(units={"lannister": {"stoney-sept": "KK"}, "tyrell": {"blackwater": "F"}},
              orders={"stoney-sept": "march-0", "blackwater": "defense-1a"},
              power_tokens={"blackwater": "tyrell"}, power={"tyrell": 4},
              hands={"lannister": ["ser-jaime-lannister", "the-hound"],
                     "tyrell": ["margaery-tyrell", "alester-florent"]})
    rs = s.ruleset
    tyrell, bw = rs.house("tyrell"), rs.area("blackwater")
    pool = int(s.power_pool()[tyrell])
    fight(s, "stoney-sept", "blackwater", "KK", "ser-jaime-lannister", "margaery-tyrell")
    retreat(s, "the-reach")
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert order_in(st, "blackwater") is None
    assert st.power_tokens[bw] == -1
    assert int(st.power_pool()[tyrell]) == pool + 1
    assert int(st.power[tyrell]) == 4
    assert units_in(st, "blackwater", "lannister") == "KK"
    assert routed_in(st, "blackwater", "lannister") == ""
    assert units_in(st, "stoney-sept", "lannister") == ""
    assert int(st.control()[bw]) == rs.house("lannister")


def test_winning_defender_keeps_order_and_power_token(ended):
    """§15.6 6.4: when the defender wins, his order and power token in the area stay; the
    attacker's March order is removed (checked once the March is over: Lannister's second
    March is then asked)."""
    s = build(units={"lannister": {"stoney-sept": "F", "lannisport": "F"},
                     "tyrell": {"blackwater": "K"}},
              orders={"stoney-sept": "march-0", "lannisport": "march-0",
                      "blackwater": "defense-1a"},
              power_tokens={"blackwater": "tyrell"}, power={"tyrell": 4},
              hands={"lannister": ["ser-jaime-lannister", "the-hound"],
                     "tyrell": ["margaery-tyrell", "alester-florent"]})
    fight(s, "stoney-sept", "blackwater", "F", "ser-jaime-lannister", "margaery-tyrell")
    st, frame = last_combat(ended)
    assert frame.winner == "defender"
    assert order_in(st, "blackwater") == "defense-1a"
    assert st.power_tokens[st.ruleset.area("blackwater")] == st.ruleset.house("tyrell")
    assert kind(s) == DecisionKind.MARCH_MOVE and s.pending.context["area"] == \
        s.ruleset.area("lannisport")
    assert order_in(s, "stoney-sept") is None
    assert routed_in(s, "stoney-sept", "lannister") == "F"


def test_defender_wiped_out_by_casualties_leaves_no_order(ended):
    """§15.6 6.2, 6.4 (and the errata: orders in areas without units are removed): all of
    Tyrell's units die as casualties; its Defense order goes and Lannister moves in."""
    s = build(units={"lannister": {"stoney-sept": "KK"}, "tyrell": {"blackwater": "F"}},
              orders={"stoney-sept": "march-0", "blackwater": "defense-1a"},
              hands={"lannister": ["ser-gregor-clegane", "the-hound"],
                     "tyrell": ["randyll-tarly", "alester-florent"]})
    fight(s, "stoney-sept", "blackwater", "KK", "ser-gregor-clegane", "randyll-tarly")
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert units_in(st, "blackwater", "tyrell") == ""
    assert order_in(st, "blackwater") is None
    assert units_in(st, "blackwater", "lannister") == "KK"


def test_declared_support_is_recorded_before_cards(ended):
    """§15.1-§15.3 sequence: support is declared (D-30) and answered (D-31) before the cards
    (D-32); the combat frame keeps which Support order backs which side."""
    s = build(**CASUALTIES)
    march(s, "stoney-sept", "blackwater", "KK")
    assert kind(s) == DecisionKind.DECLARE_SUPPORT
    declare(s, tyrell="defender")
    keep_support(s)
    assert kind(s) == DecisionKind.HOUSE_CARD
    assert combat_frame(s).support_given == {s.ruleset.area("the-reach"): "defender"}


def test_winner_of_a_land_area_captures_its_port(ended):
    """R18.8, D-47: Stark takes Lannisport (its garrison alone loses, R17.4); Lannister's ship
    in Port of Lannisport may be replaced by a Stark ship (Stark chooses how many)."""
    s = build(units={"stark": {"riverrun": "KK"}, "lannister": {"port-of-lannisport": "S"}},
              orders={"riverrun": "march-0"},
              hands={"stark": ["eddard-stark", "greatjon-umber"],
                     "lannister": ["ser-jaime-lannister", "the-hound"]})
    fight(s, "riverrun", "lannisport", "KK", "eddard-stark", "the-hound")
    assert kind(s) == DecisionKind.PORT_CAPTURE and who(s) == "stark"
    assert s.pending.options == (("count", 0), ("count", 1))
    apply(s, ("count", 1))
    st, _ = last_combat(ended)
    assert units_in(st, "port-of-lannisport", "stark") == "S"
    assert units_in(st, "port-of-lannisport", "lannister") == ""
    assert units_in(st, "lannisport", "stark") == "KK"


def test_decision_after_a_won_attack_meets_the_invariants():
    """R7.8, R18.8: at D-47, asked in the cleanup of a won attack, the winner's 2 Knights stand
    in Lannisport only; the position fits Stark's supply (an army of 2)."""
    s = build(units={"stark": {"riverrun": "KK"}, "lannister": {"port-of-lannisport": "S"}},
              orders={"riverrun": "march-0"},
              hands={"stark": ["eddard-stark", "greatjon-umber"],
                     "lannister": ["ser-jaime-lannister", "the-hound"]})
    fight(s, "riverrun", "lannisport", "KK", "eddard-stark", "the-hound")
    assert kind(s) == DecisionKind.PORT_CAPTURE
    assert units_in(s, "lannisport", "stark") == "KK"
    check(s)


def test_r23_3_hands_and_discard_piles_stay_public_while_the_cards_are_chosen():
    """R23.3 (with the errata: discard piles stay open in combat step 3), R15.3.1, §15.3: while
    Tyrell and Lannister choose their cards, Stark sees both hands and both discard piles as
    they lie; the first choice changes nothing Stark sees; once both are chosen the combat is
    resolved (no decision is left in it) and Stark sees each played card in its owner's discard
    pile (R15.3.6)."""
    s = build(**P20)
    march(s, "kings-landing", "kingswood", "FK")
    declare(s)
    keep_support(s)
    assert kind(s) == DecisionKind.HOUSE_CARD
    rs = s.ruleset
    enc = encoder_for(rs)
    stark = rs.house("stark")

    def seen(state) -> dict[str, tuple[list[str], list[str], list[str]]]:
        """Stark's view of each fighter's cards: (in hand, discarded, revealed in this combat)."""
        cards = enc.views(enc.encode(state, stark))["cards"]
        out = {}
        for h in ("tyrell", "lannister"):
            mine = [c.id for c in rs.house_cards if c.house == h]
            row = cards[(rs.house(h) - stark) % rs.num_houses]
            out[h] = tuple([mine[k] for k in np.flatnonzero(row[:, col])] for col in range(3))
        return out

    before = seen(s)
    for h in ("tyrell", "lannister"):
        assert sorted(before[h][0]) == sorted(cards_of(s, h, CardPlace.HAND))
        assert sorted(before[h][1]) == sorted(cards_of(s, h, CardPlace.DISCARD))
        assert (len(before[h][0]), len(before[h][1])) == (2, 5)
        assert before[h][2] == []
    first = who(s)
    apply(s, ("card", rs.house_card(P20["hands"][first][0])))
    assert kind(s) == DecisionKind.HOUSE_CARD and seen(s) == before  # the choice stays hidden
    other = who(s)
    apply(s, ("card", rs.house_card(P20["hands"][other][0])))
    after = seen(s)
    for h in ("tyrell", "lannister"):
        played = P20["hands"][h][0]
        assert played in after[h][1] and played not in after[h][0], h
        assert sorted(after[h][1]) == sorted(cards_of(s, h, CardPlace.DISCARD))
