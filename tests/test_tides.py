"""Tides of Battle (rules spec §24, facts §10 and §12 D7, R17.6; D-39, D-40).

Positions: Lannister marches 2 Knights from Riverrun into Seagard, held by 2 Stark Footmen.
Both play plain cards; the Tides deck of the combat is stacked (its frame holds the shuffled
deck until the draw) so that the attacker draws the first card and the defender the second.
"""

from __future__ import annotations

from collections import Counter

from combat_helpers import (
    build,
    kind,
    last_combat,
    march,
    play_cards,
    units_in,
)

from got_env.encoding import ObservationEncoder
from got_env.engine import NO, YES, DecisionKind, apply
from got_env.engine.combat.frame import CombatFrame, combat_frame


def position(tides: bool = True, blade_holder: str | None = None, **extra):
    fiefdoms = ["baratheon", "greyjoy", "tyrell", "martell", "stark", "lannister"]
    if blade_holder:
        fiefdoms.remove(blade_holder)
        fiefdoms.insert(0, blade_holder)
    spec = dict(
        options={"tides_of_battle": tides},
        units={"lannister": {"riverrun": "KK"}, "stark": {"seagard": "FF"}},
        orders={"riverrun": "march-0"},
        hands={"lannister": ["ser-jaime-lannister", "the-hound"],
               "stark": ["greatjon-umber", "ser-rodrick-cassel"]},
        tracks={"fiefdoms": fiefdoms},
    )
    spec.update(extra)
    return build(**spec)


def stack(state, *card_ids: str) -> None:
    """Put these Tides cards on top of the combat's deck, in order."""
    rs = state.ruleset
    frame = combat_frame(state)
    deck = frame.tides_deck
    for pos, cid in enumerate(card_ids):
        idx = next(c.index for c in rs.tides_cards if c.id == cid)
        j = deck.index(idx, pos)
        deck[pos], deck[j] = deck[j], deck[pos]


def finish(state) -> None:
    """Answer the rest of the combat (casualties, retreat) with the first option."""
    while state.pending is not None and any(type(f) is CombatFrame for f in state.stack):
        apply(state, state.pending.options[0])


def to_cards(state) -> None:
    march(state, "riverrun", "seagard", "KK")
    assert kind(state) == DecisionKind.HOUSE_CARD


def test_deck_is_the_full_24_reshuffled_for_every_combat():
    """Facts §10 (FAQ v1.0): all 24 cards are shuffled into a new deck right before the house
    cards of every combat, with the game's generator."""
    s = position()
    to_cards(s)
    rs = s.ruleset
    assert Counter(rs.tides_cards[i].id for i in combat_frame(s).tides_deck) == {
        "zero": 8, "sword": 4, "fortification": 4, "two": 4, "three": 2, "skull": 2}
    decks = set()
    for seed in range(4):
        p = position(seed=seed)
        to_cards(p)
        decks.add(tuple(combat_frame(p).tides_deck))
    assert len(decks) > 1


def test_no_tides_without_the_option(ended):
    """§24: the variant is optional; without it no Tides card is drawn."""
    s = position(tides=False)
    to_cards(s)
    assert combat_frame(s).tides_deck is None
    play_cards(s, "ser-jaime-lannister", "greatjon-umber")
    finish(s)
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 4}


def test_strength_is_added(ended):
    """§24 step 3: each side adds its Tides card's strength: 4 + Jaime 2 + three 3 = 9 against
    2 + Greatjon 2 + two 2 = 6."""
    s = position()
    to_cards(s)
    stack(s, "three", "two")
    play_cards(s, "ser-jaime-lannister", "greatjon-umber")
    finish(s)
    _, frame = last_combat(ended)
    assert frame.strength == {"attacker": 9, "defender": 6}


def test_icons_add_to_the_house_card(ended):
    """§24 step 4: a Tides sword counts as printed on the house card: Jaime's 1 sword + the Tides
    sword = 2 casualties against Greatjon (no fortification): both Stark Footmen die."""
    s = position()
    to_cards(s)
    stack(s, "sword", "zero")
    play_cards(s, "ser-jaime-lannister", "greatjon-umber")
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert frame.casualties[0] == ["defender", 0]  # both Footmen died: 2 casualties taken
    assert units_in(st, "seagard", "stark") == ""


def test_fortification_cancels_a_sword(ended):
    """§24 step 4: the defender's Tides fortification reduces the winner's swords: Jaime 1 sword
    - fortification 1 = no casualty; the 2 Footmen retreat."""
    s = position(units={"lannister": {"riverrun": "KK"}, "stark": {"seagard": "FF"}})
    to_cards(s)
    stack(s, "zero", "fortification")
    play_cards(s, "ser-jaime-lannister", "greatjon-umber")
    assert kind(s) == DecisionKind.RETREAT_AREA
    apply(s, s.pending.options[0])
    st, frame = last_combat(ended)
    assert frame.strength == {"attacker": 6, "defender": 5}
    assert sum(int(x) for x in st.units[:, st.ruleset.house("stark")].ravel()) == 2


def test_skull_costs_the_winner_a_unit(ended):
    """§24 step 5: a skull on the loser's card makes the winner take one casualty, whoever won;
    fortifications do not prevent it. Lannister wins (4 + Jaime 2 + zero vs 2 + Greatjon 2 +
    skull 0) and loses one Knight; Stark loses 1 unit to Jaime's sword."""
    s = position()
    to_cards(s)
    stack(s, "zero", "skull")
    play_cards(s, "ser-jaime-lannister", "greatjon-umber")
    finish(s)  # one-option casualties (all Footmen, all Knights) are played without asking
    st, frame = last_combat(ended)
    assert frame.winner == "attacker"
    assert units_in(st, "seagard", "lannister") == "K"
    assert sum(int(x) for x in st.units[:, st.ruleset.house("stark")].ravel()) == 1


def test_winner_skull_adds_to_the_losers_casualties(ended):
    """§24 step 5: the winner's skull is one more casualty for the loser: Jaime's 1 sword + the
    skull kill both Stark Footmen."""
    s = position()
    to_cards(s)
    stack(s, "skull", "zero")
    play_cards(s, "ser-jaime-lannister", "greatjon-umber")
    finish(s)
    st, _ = last_combat(ended)
    assert units_in(st, "seagard", "lannister") == "KK"
    assert units_in(st, "seagard", "stark") == ""


def test_garrison_is_immune_to_skulls(ended):
    """R17.6: a garrison never takes a skull casualty: Stark attacks Lannisport held by the
    garrison alone and loses; Lannister's skull has no unit of the garrison to take, and the
    garrison stays."""
    s = build(options={"tides_of_battle": True},
              units={"stark": {"riverrun": "F"}},
              orders={"riverrun": "march-0"},
              hands={"lannister": ["ser-jaime-lannister", "the-hound"],
                     "stark": ["greatjon-umber", "ser-rodrick-cassel"]})
    march(s, "riverrun", "lannisport", "F")
    stack(s, "skull", "skull")
    play_cards(s, "greatjon-umber", "ser-jaime-lannister")
    st, frame = last_combat(ended)
    assert frame.winner == "defender"
    assert st.garrisons[st.ruleset.area("lannisport")] == 2


def test_blackfish_is_immune_to_skulls(ended):
    """facts §7 The Blackfish: no casualties from Tides skulls either. Stark defends with The
    Blackfish and loses; Lannister's skull takes nothing; the Footmen retreat."""
    s = position(hands={"lannister": ["ser-jaime-lannister", "the-hound"],
                        "stark": ["the-blackfish", "ser-rodrick-cassel"]})
    to_cards(s)
    stack(s, "skull", "zero")
    play_cards(s, "ser-jaime-lannister", "the-blackfish")
    assert kind(s) == DecisionKind.RETREAT_AREA
    apply(s, s.pending.options[0])
    st, frame = last_combat(ended)
    assert frame.casualties[0] == ["defender", 0]  # 1 sword + 1 skull, all prevented
    assert sum(int(x) for x in st.units[:, st.ruleset.house("stark")].ravel()) == 2


def test_blade_redraw_then_no_plus_one(ended):
    """§24 step 2, facts §12 D7 (D-39): the Blade holder may discard his Tides card and draw the
    next; he must keep it; the Blade is then used, so D-40 is not offered."""
    s = position(blade_holder="lannister")
    to_cards(s)
    stack(s, "zero", "zero", "three")
    play_cards(s, "ser-jaime-lannister", "greatjon-umber")
    assert kind(s) == DecisionKind.BLADE_REDRAW
    assert s.pending.player == s.ruleset.house("lannister")
    apply(s, YES)
    assert kind(s) != DecisionKind.BLADE_PLUS_ONE
    finish(s)
    st, frame = last_combat(ended)
    assert st.blade_used
    assert frame.strength["attacker"] == 4 + 2 + 3


def test_blade_plus_one_after_the_reveal_when_not_redrawn(ended):
    """Facts §12 D7: without the redraw, the +1 is offered after the Tides cards are revealed."""
    s = position(blade_holder="lannister")
    to_cards(s)
    stack(s, "two", "zero")
    play_cards(s, "ser-jaime-lannister", "greatjon-umber")
    apply(s, NO)
    assert kind(s) == DecisionKind.BLADE_PLUS_ONE
    assert combat_frame(s).tides_revealed
    apply(s, YES)
    finish(s)
    _, frame = last_combat(ended)
    assert frame.strength["attacker"] == 4 + 2 + 2 + 1


def test_own_tides_card_hidden_from_the_opponent_until_the_reveal():
    """§24 steps 1-3: each sees his own card; the opponent's only at the reveal."""
    s = position(blade_holder="lannister")
    to_cards(s)
    stack(s, "three", "two")
    play_cards(s, "ser-jaime-lannister", "greatjon-umber")
    assert kind(s) == DecisionKind.BLADE_REDRAW
    enc = ObservationEncoder(s.ruleset)
    lan, stark = s.ruleset.house("lannister"), s.ruleset.house("stark")
    mine = enc.views(enc.encode(s, lan))["combat_tides"]
    theirs = enc.views(enc.encode(s, stark))["combat_tides"]
    assert mine[0].sum() == 1 and mine[1].sum() == 0
    assert theirs[0].sum() == 0 and theirs[1].sum() == 1
