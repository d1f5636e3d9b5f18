"""The turn's phases (turn/), the Fellowship phase (fellowship.py), diplomacy (politics.py),
drawing (drawing.py) and the Victory Check (victory.py), scenario by scenario.

Every rule that differs between the editions is played in both (``RULESETS``), each test
asserting what that edition's rule gives (facts §8.4). Die rolls are scripted: a Free Peoples d6
reads 1-2 Character, 3 Muster, 4 Army/Muster, 5 Event, 6 Will of the West; a Shadow d6 reads
1 Character, 2 Army, 3 Muster, 4 Army/Muster, 5 Event, 6 Eye (facts §5, ``data/*/dice.yaml``).
"""

from __future__ import annotations

import dataclasses
from collections import deque
from typing import Any

import numpy as np
import pytest

from boardkit.frames import advance
from wotr_env.data import NATIONS
from wotr_env.engine import FREE_PEOPLES, SHADOW, WD, build, is_over, new_state, play
from wotr_env.engine.decision import (
    ARMY,
    ARMY_MUSTER,
    CHARACTER,
    EVENT,
    EYE,
    MUSTER,
    WILL,
    choice,
)
from wotr_env.engine.invariants import check
from wotr_env.engine.state import IN_FELLOWSHIP, OFF_MORDOR, WotrState
from wotr_env.engine.turn.resolution import ring_options

RULESETS = ("2e", "1e")
SKIP = ("action", "skip")
PASS = choice("pass")
ALL_OUT = {c: "out" for c in ("gandalf-the-grey", "strider", "boromir", "legolas", "gimli",
                              "meriadoc", "peregrin")}


def position(ruleset: str = "2e", **spec: Any) -> WotrState:
    state = build({"ruleset": ruleset, **spec})
    assert check(state) == []
    return state


def card(state: WotrState, cid: str) -> int:
    return state.ruleset.cards.card(cid)


def char(state: WotrState, cid: str) -> int:
    return state.ruleset.cards.character(cid)


def region(state: WotrState, rid: str) -> int:
    return state.ruleset.board.region(rid)


def nation(nid: str) -> int:
    return NATIONS.index(nid)


def kind(state: WotrState) -> WD:
    return state.pending.kind


def options(state: WotrState) -> set:
    return set(state.pending.options)


def through_fellowship_phase(state: WotrState) -> WotrState:
    """Answer phase 2 without changing anything: no declaration, no Mordor, the same Guide."""
    while state.pending is not None and kind(state) in (
            WD.DECLARE_FELLOWSHIP, WD.ENTER_MORDOR, WD.CHANGE_GUIDE):
        if kind(state) == WD.CHANGE_GUIDE:
            play(state, ("character", state.guide))
        else:
            play(state, choice("no"))
    return state


def use(state: WotrState, face: int, name: str = "skip") -> None:
    """The side to act uses a die of ``face`` for the die action ``name``; a decision with one
    option is played without asking (boardkit.frames), so the question may not come."""
    side = state.pending.player
    play(state, ("die", face))
    if state.pending is not None and state.pending.kind == WD.DIE_ACTION \
            and state.pending.player == side:
        play(state, ("action", name))
    assert last_die_action(state) == (side, face, name)


def last_die_action(state: WotrState) -> tuple:
    return next(e[2:] for e in reversed(state.log) if e[1] == "die-action")


def empty_deck(state: WotrState, deck: int) -> None:
    """Exhaust a deck: its cards go to its side's face-up discards (cards stay conserved)."""
    state.discards[deck // 2].extend(state.decks[deck])
    state.decks[deck] = []


# -- phase 1: recovery, draws, hand limit -------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_recovery_takes_back_every_die_and_recounts_the_pools(ruleset: str) -> None:
    """Phase 1: used dice, dice in the Hunt Box and Eyes all come back; the pools count the
    die-bonus characters in play (Aragorn +1 FP, Saruman +1 Shadow) (spec §5.1, §6.1, §20 #36-37,
    facts §7.1)."""
    state = position(ruleset, start="turn", turn=3,
                     hunt={"box": {"shadow": 2, "eyes": 1, "fp": 2}},
                     dice={"free_peoples": ["character"], "shadow": ["army", "event"]},
                     characters={"aragorn": "minas-tirith", "saruman": "orthanc"})
    assert (state.turn, state.phase, kind(state)) == (3, 2, WD.DECLARE_FELLOWSHIP)
    assert state.hunt_box.tolist() == [0, 0, 0]
    assert (state.dice == -1).all()
    assert state.fp_dice_returned == 2
    assert state.dice_pool.tolist() == [5, 8]


def test_recovery_readies_the_elven_rings() -> None:
    """Phase 1: an Elven Ring may be used again in the new turn (one per player per turn,
    facts §7.1, spec §6.6)."""
    state = new_state(0, run=False)
    state.ring_used[:] = True
    advance(state, is_over)
    assert state.ring_used.tolist() == [False, False]


def test_each_side_draws_one_card_from_each_deck() -> None:
    """Phase 1: each player draws one card from each of his two decks, the first turn too
    (spec §5.1, §7.2)."""
    state = position(start="turn", hands={"free_peoples": ["fp-char-09-athelas"]},
                     decks={"fp-character": ["fp-char-01-elven-cloaks"],
                            "fp-strategy": ["fp-strat-09-the-red-arrow"],
                            "shadow-character": ["sh-char-05-orc-patrol"],
                            "shadow-strategy": ["sh-strat-06-stormcrow"]})
    assert state.hands[FREE_PEOPLES] == [card(state, "fp-char-09-athelas"),
                                         card(state, "fp-char-01-elven-cloaks"),
                                         card(state, "fp-strat-09-the-red-arrow")]
    assert state.hands[SHADOW] == [card(state, "sh-char-05-orc-patrol"),
                                   card(state, "sh-strat-06-stormcrow")]
    assert [len(d) for d in state.decks] == [22, 23, 23, 23]


def test_an_exhausted_deck_gives_nothing() -> None:
    """Phase 1: an exhausted deck is never reshuffled; with one deck gone a side draws one card,
    with both gone none (spec §7.2, §20 #15)."""
    state = new_state(4, run=False)
    for deck in (0, 1, 3):  # both Free Peoples decks, the Shadow's Strategy deck
        empty_deck(state, deck)
    shadow_top = state.decks[2][-1]
    advance(state, is_over)
    assert state.hands == [[], [shadow_top]]
    assert [len(d) for d in state.decks] == [0, 0, 23, 0]
    assert check(state) == []


def test_hand_limit_discards_face_down_one_card_at_a_time_in_secret() -> None:
    """WD-01: over six cards after the draw, the Free Peoples then the Shadow discard face down
    until they hold six; the choice is secret and the log shows no card (spec §7.2, §20 #14)."""
    fp = ["fp-char-09-athelas", "fp-char-10-there-is-another-way", "fp-strat-01-the-last-battle",
          "fp-strat-02-a-power-too-great", "fp-strat-03-the-power-of-tom-bombadil",
          "fp-strat-04-book-of-mazarbul"]
    sh = ["sh-char-05-orc-patrol", "sh-char-06-isildurs-bane", "sh-strat-01-return-to-valinor",
          "sh-strat-02-the-fighting-uruk-hai", "sh-strat-03-denethors-folly"]
    state = position(start="turn", hands={"free_peoples": fp, "shadow": sh})
    assert (kind(state), state.pending.player, state.pending.secret) == (
        WD.DISCARD, FREE_PEOPLES, True)
    hand = state.hands[FREE_PEOPLES]
    assert options(state) == {("card", c) for c in hand} and len(hand) == 8
    first, second = card(state, fp[0]), card(state, fp[2])
    play(state, ("card", first))
    assert (kind(state), state.pending.player, len(state.hands[FREE_PEOPLES])) == (
        WD.DISCARD, FREE_PEOPLES, 7)
    play(state, ("card", second))
    assert (kind(state), state.pending.player, len(state.hands[SHADOW])) == (
        WD.DISCARD, SHADOW, 7)
    shadow_card = state.hands[SHADOW][0]
    play(state, ("card", shadow_card))
    assert kind(state) == WD.DECLARE_FELLOWSHIP
    assert state.face_down == [[first, second], [shadow_card]]
    assert [len(h) for h in state.hands] == [6, 6]
    discards = [e for e in state.log if e[1] == "discard-face-down"]
    assert discards == [(1, "discard-face-down", 0)] * 2 + [(1, "discard-face-down", 1)]


def test_a_draw_with_an_event_die_over_the_limit_discards_at_once() -> None:
    """WD-33 then WD-01: an Event die draws a card of the chosen deck; a seventh card is
    discarded face down at once (facts §7.1, spec §7.2, §20 #14)."""
    hand = ["fp-char-09-athelas", "fp-char-10-there-is-another-way",
            "fp-strat-01-the-last-battle", "fp-strat-02-a-power-too-great",
            "fp-strat-03-the-power-of-tom-bombadil", "fp-strat-04-book-of-mazarbul"]
    state = position(dice={"free_peoples": ["event"], "shadow": ["army", "muster"]},
                     hands={"free_peoples": hand},
                     decks={"fp-strategy": ["fp-strat-09-the-red-arrow"]})
    play(state, ("die", EVENT), ("action", "draw-event"))
    assert kind(state) == WD.DRAW_CARD
    assert options(state) == {choice("deck-character"), choice("deck-strategy")}
    play(state, choice("deck-strategy"))
    assert (kind(state), state.pending.player) == (WD.DISCARD, FREE_PEOPLES)
    assert card(state, "fp-strat-09-the-red-arrow") in state.hands[FREE_PEOPLES]
    play(state, ("card", card(state, hand[0])))
    assert len(state.hands[FREE_PEOPLES]) == 6
    assert (kind(state), state.pending.player) == (WD.CHOOSE_DIE, SHADOW)


def test_an_event_die_draws_only_from_a_deck_that_is_not_exhausted() -> None:
    """WD-33: with the Character deck exhausted the only deck left is drawn from, without a
    question (spec §7.2, facts §7.1)."""
    state = position(dice={"free_peoples": ["event"], "shadow": ["army", "muster"]})
    empty_deck(state, 0)
    top = state.decks[1][-1]
    use(state, EVENT, "draw-event")
    assert state.hands[FREE_PEOPLES] == [top]
    assert kind(state) == WD.CHOOSE_DIE and state.pending.player == SHADOW


# -- phase 3: Hunt allocation ---------------------------------------------------------------------


def allocation(state: WotrState) -> list[int]:
    through_fellowship_phase(state)
    assert kind(state) == WD.HUNT_ALLOCATION and state.pending.player == SHADOW
    return sorted(n for _, n in state.pending.options)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_hunt_allocation_up_to_the_companions_in_the_fellowship(ruleset: str) -> None:
    """WD-06: the Shadow puts 0 to as many dice as there are Companions in the Fellowship in the
    Hunt Box (spec §6.3, §20 #9, facts §4.4)."""
    assert allocation(position(ruleset, start="turn")) == list(range(8))
    two = {c: "out" for c in ALL_OUT if c not in ("boromir", "legolas")}
    assert allocation(position(ruleset, start="turn", characters=two)) == [0, 1, 2]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_hunt_allocation_of_one_with_only_gollum(ruleset: str) -> None:
    """WD-06: with no Companion left the Shadow may still allocate one die, for Gollum
    (spec §6.3, §20 #9, facts §4.4, §7.11)."""
    assert allocation(position(ruleset, start="turn", characters=ALL_OUT)) == [0, 1]


@pytest.mark.parametrize(("ruleset", "least"), [("2e", 1), ("1e", 0)])
def test_hunt_allocation_minimum_after_free_peoples_dice_were_in_the_box(
        ruleset: str, least: int) -> None:
    """WD-06: in 2e the Shadow must allocate at least one die when the Free Peoples took a die
    back from the Hunt Box at recovery; 1e has no minimum (``rules.hunt_minimum_allocation``,
    facts §4.4, §8.4)."""
    moved = position(ruleset, start="turn", hunt={"box": {"fp": 1}})
    assert allocation(moved) == list(range(least, 8))
    still = position(ruleset, start="turn", hunt={"box": {"shadow": 2, "eyes": 1}})
    assert allocation(still) == list(range(8))


def test_hunt_allocation_minimum_follows_the_property_not_the_edition() -> None:
    """The 2nd edition with ``hunt_minimum_allocation`` off allows 0 (the engine branches on the
    property, facts §8.4)."""
    state = new_state(0, "2e", run=False)
    rs = state.ruleset
    state.ruleset = dataclasses.replace(rs, rules=rs.rules.replace(hunt_minimum_allocation=False))
    state.hunt_box[2] = 1
    advance(state, is_over)
    assert allocation(state)[0] == 0


# -- phase 4: the action roll ---------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_action_roll_sends_eyes_to_the_hunt_box_and_does_not_roll_allocated_dice(
        ruleset: str) -> None:
    """Phase 4: allocated dice are not rolled; the Free Peoples roll all; every Eye goes into the
    Hunt Box (spec §5.4, §6.3, facts §4.4)."""
    state = position(ruleset, start="turn",
                     rolls={"free_peoples": [1, 3, 4, 5], "shadow": [6, 6, 1, 2, 3, 4]})
    allocation(state)
    play(state, ("count", 2))
    assert state.hunt_box.tolist() == [2, 2, 0]
    assert state.chance.rolls[SHADOW] == deque([4])  # five dice rolled of seven
    assert sorted(f for f in state.dice[SHADOW] if f >= 0) == [CHARACTER, ARMY, MUSTER]
    assert sorted(f for f in state.dice[FREE_PEOPLES] if f >= 0) == [
        CHARACTER, MUSTER, ARMY_MUSTER, EVENT]
    assert (state.phase, kind(state), state.pending.player) == (5, WD.CHOOSE_DIE, FREE_PEOPLES)


# -- phase 5: alternation, passing, skipping ------------------------------------------------------


def test_free_peoples_act_first_then_the_sides_alternate() -> None:
    """Phase 5: the Free Peoples act first, then the players alternate, one die each
    (spec §5.5, §6.4)."""
    state = position(start="turn", rolls={"free_peoples": [1, 5, 1, 5], "shadow": [2, 3] * 4})
    allocation(state)
    play(state, ("count", 0))
    seen = []
    for _ in range(4):
        seen.append(state.pending.player)
        use(state, CHARACTER if seen[-1] == FREE_PEOPLES else ARMY)
    assert seen == [FREE_PEOPLES, SHADOW, FREE_PEOPLES, SHADOW]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_passing_only_with_fewer_unused_dice(ruleset: str) -> None:
    """WD-07: a side with fewer unused dice than the other may pass, giving the other an action;
    with equal numbers there is no passing (spec §6.4, §20 #12)."""
    fewer = position(ruleset, dice={"free_peoples": ["event"], "shadow": ["army", "muster"]})
    assert PASS in options(fewer)
    play(fewer, PASS)
    assert (kind(fewer), fewer.pending.player) == (WD.CHOOSE_DIE, SHADOW)
    assert PASS not in options(fewer)  # two dice against one
    assert [int(f) for f in fewer.dice[FREE_PEOPLES] if f >= 0] == [EVENT]  # not spent
    equal = position(ruleset, dice={"free_peoples": ["event", "muster"],
                                    "shadow": ["army", "muster"]})
    assert PASS not in options(equal)


def test_passing_ignores_dice_in_the_hunt_box() -> None:
    """WD-07: the dice compared are the unused dice available for actions, not those in the
    Hunt Box (spec §20 #12)."""
    state = position(dice={"free_peoples": ["event"], "shadow": ["army"]},
                     hunt={"box": {"shadow": 3, "eyes": 2, "fp": 1}})
    assert PASS not in options(state)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_side_without_dice_leaves_the_other_to_act_on(ruleset: str) -> None:
    """Phase 5: when one side has no dice left the other takes all its remaining actions in a
    row (spec §5.5, §6.4, facts §7.1)."""
    state = position(ruleset, turn=2, dice={"shadow": ["army", "character", "event"]})
    assert (kind(state), state.pending.player) == (WD.CHOOSE_DIE, SHADOW)
    use(state, ARMY)
    assert (kind(state), state.pending.player) == (WD.CHOOSE_DIE, SHADOW)
    assert options(state) == {("die", CHARACTER), ("die", EVENT)}


@pytest.mark.parametrize(("ruleset", "skip"), [("2e", True), ("1e", False)])
def test_skip_a_die_only_in_2e_when_an_action_is_legal(ruleset: str, skip: bool) -> None:
    """WD-08: in 2e a die may be discarded unused; in 1e every die must be used for a legal
    action if one exists (``rules.skip_die``; facts §7.1, spec §20 #13)."""
    state = position(ruleset, dice={"free_peoples": ["muster"], "shadow": ["army", "muster"]})
    play(state, ("die", MUSTER))
    if kind(state) == WD.DIE_ACTION:
        assert ("action", "diplomacy") in options(state)
        assert (SKIP in options(state)) is skip
    else:  # diplomacy was the one option and was played without asking
        assert not skip and last_die_action(state) == (FREE_PEOPLES, MUSTER, "diplomacy")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_die_with_no_legal_action_is_discarded(ruleset: str) -> None:
    """WD-08: a die with no legal action is set aside without effect, in both editions (facts
    §7.1, spec §20 #13): an Event die with both decks exhausted and an empty hand."""
    state = position(ruleset, dice={"free_peoples": ["event"], "shadow": ["army", "muster"]})
    empty_deck(state, 0)
    empty_deck(state, 1)
    play(state, ("die", EVENT))
    # asked even so (private: its options may read the hand), "skip" its only answer
    assert state.pending.options == (("action", "skip"),)
    play(state, ("action", "skip"))
    assert state.log[-1] == (1, "die-action", FREE_PEOPLES, EVENT, "skip")
    assert (state.dice[FREE_PEOPLES] == -1).all()
    assert state.pending.player == SHADOW


# -- Elven Rings ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_free_peoples_ring_changes_a_die_and_goes_to_the_shadow(ruleset: str) -> None:
    """WD-07: the Free Peoples change one unused die to any face but Will of the West; the Ring
    goes to the Shadow; the Free Peoples then act (spec §6.6, facts §7.1)."""
    state = position(ruleset, dice={"free_peoples": ["character", "muster"],
                                    "shadow": ["army", "army"]})
    rings = {a for a in options(state) if a[0] == "ring"}
    assert ("ring", CHARACTER, EVENT) in rings
    assert not any(a[2] == WILL for a in rings)
    play(state, ("ring", CHARACTER, EVENT))
    assert sorted(int(f) for f in state.dice[FREE_PEOPLES] if f >= 0) == [MUSTER, EVENT]
    assert state.rings.tolist() == [SHADOW, FREE_PEOPLES, FREE_PEOPLES]
    assert (kind(state), state.pending.player) == (WD.CHOOSE_DIE, FREE_PEOPLES)
    assert not any(a[0] == "ring" for a in options(state))  # one per turn for this side


@pytest.mark.parametrize("ruleset", RULESETS)
def test_shadow_ring_leaves_the_game_and_an_eye_goes_to_the_hunt_box(ruleset: str) -> None:
    """WD-07: a Ring the Shadow uses leaves the game; a die he turns into an Eye goes to the Hunt
    Box at once and he acts with another die (spec §6.6, §20 #11, facts §7.1)."""
    state = position(ruleset, to_act="shadow", rings=["shadow", "free_peoples", "gone"],
                     dice={"free_peoples": ["character", "character"],
                           "shadow": ["army", "muster"]})
    play(state, ("ring", ARMY, EYE))
    assert state.rings.tolist() == [2, FREE_PEOPLES, 2]
    assert state.hunt_box.tolist() == [0, 1, 0]
    assert [int(f) for f in state.dice[SHADOW] if f >= 0] == [MUSTER]
    assert (kind(state), state.pending.player) == (WD.CHOOSE_DIE, SHADOW)
    assert options(state) == {("die", MUSTER), PASS}


@pytest.mark.parametrize(("ruleset", "shadow_may"), [("2e", True), ("1e", False)])
def test_elven_rings_one_per_side_in_2e_one_in_all_in_1e(ruleset: str, shadow_may: bool) -> None:
    """WD-07: in 2e each player may use one Ring per turn; in 1e one Ring in all each turn
    (``rules.elven_rings_per_turn``; spec §6.6, §20 #10, facts §7.1, §8.4)."""
    state = position(ruleset, rings=["free_peoples", "shadow", "free_peoples"],
                     dice={"free_peoples": ["character"], "shadow": ["army", "muster"]})
    play(state, ("ring", CHARACTER, EVENT), PASS)
    assert state.pending.player == SHADOW
    assert any(a[0] == "ring" for a in options(state)) is shadow_may


@pytest.mark.parametrize("ruleset", RULESETS)
def test_shadow_cannot_change_an_eye(ruleset: str) -> None:
    """The Shadow may not turn a die showing an Eye with a Ring: Eyes go into the Hunt Box right
    after the roll, and no Ring option starts from an Eye (facts §7.1,
    ``rules.shadow_ring_changes_eye``)."""
    state = position(ruleset, start="turn", rings=["shadow", "shadow", "shadow"],
                     rolls={"free_peoples": [1, 1, 1, 1], "shadow": [6, 6, 6, 1, 2, 3, 4]})
    allocation(state)
    play(state, ("count", 0))
    assert state.hunt_box[1] == 3
    offered = ring_options(state, SHADOW)
    assert offered and not any(a[1] == EYE for a in offered)


# -- diplomacy ------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_diplomacy_moves_a_nation_but_a_passive_one_stops_above_war(ruleset: str) -> None:
    """WD-31: a Muster die moves one friendly nation one step toward At War; a Passive nation
    stops on the step above At War (facts §7.1, §7.5, spec §15)."""
    state = position(ruleset, dice={"free_peoples": ["muster"], "shadow": ["army"]},
                     politics={"gondor": {"steps": 1, "active": False},
                               "rohan": {"steps": 1, "active": True},
                               "dwarves": {"steps": 2, "active": False},
                               "elves": {"steps": 0, "active": True},
                               "the-north": {"steps": 1, "active": False}})
    use(state, MUSTER, "diplomacy")
    assert kind(state) == WD.DIPLOMACY
    assert options(state) == {("nation", nation("rohan")), ("nation", nation("dwarves"))}
    play(state, ("nation", nation("rohan")))
    assert state.politics[nation("rohan")] == 0
    assert state.politics[nation("gondor")] == 1


def test_no_diplomacy_when_no_nation_can_move() -> None:
    """WD-08: the diplomatic action is offered only if a friendly nation can move (facts §7.5):
    every Shadow nation At War."""
    state = position(to_act="shadow", dice={"shadow": ["muster", "army"],
                                            "free_peoples": ["event"]},
                     politics={n: {"steps": 0} for n in ("isengard", "sauron", "southrons")})
    play(state, ("die", MUSTER))
    if kind(state) == WD.DIE_ACTION:
        assert ("action", "diplomacy") not in options(state)
    else:  # the only option (skip) was played without asking
        assert last_die_action(state) == (SHADOW, MUSTER, "skip")


# -- phase 2: declaration, healing, activation, Mordor, the Guide ----------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_declaring_in_a_free_stronghold_activates_and_heals(ruleset: str) -> None:
    """WD-02: declared in a Free Peoples Stronghold they control, the nation is activated and the
    Ring-bearers heal one Corruption (spec §5.2, §20 #31, facts §7.5, §7.6)."""
    state = position(ruleset, start="turn", fellowship={"region": "minas-tirith",
                                                        "corruption": 3})
    assert not state.active[nation("gondor")]
    play(state, choice("declare"))  # Progress 0: the path ends where it is, no question
    assert state.active[nation("gondor")]
    assert (state.corruption, state.progress) == (2, 0)
    assert state.declared_in == region(state, "minas-tirith")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_declaring_in_a_captured_stronghold_activates_without_healing(ruleset: str) -> None:
    """WD-02: a Stronghold under enemy control still activates its nation, but does not heal
    (facts §7.5, §7.6)."""
    state = position(ruleset, start="turn", control={"minas-tirith": "shadow"},
                     fellowship={"region": "minas-tirith", "corruption": 3})
    play(state, choice("declare"))
    assert state.active[nation("gondor")]
    assert state.corruption == 3


def test_declaring_moves_the_figure_up_to_progress_regions() -> None:
    """WD-03: a declaration moves the figure region by region up to its Progress, then Progress
    goes back to 0, Hidden (facts §7.6)."""
    state = position(start="turn", fellowship={"region": "rivendell", "progress": 2})
    play(state, choice("declare"))
    assert kind(state) == WD.FELLOWSHIP_PATH
    rivendell, ford = region(state, "rivendell"), region(state, "fords-of-bruinen")
    assert ("region", ford) in options(state) and ("done",) in options(state)
    play(state, ("region", ford))
    nxt = next(a for a in state.pending.options if a[0] == "region" and a[1] != rivendell)
    play(state, nxt)  # no step left: the path ends without a question
    assert (state.fellowship_region, state.progress, state.revealed) == (nxt[1], 0, False)
    assert (1, "fellowship-declare", (rivendell, ford, nxt[1])) in state.log


def test_no_declaration_when_revealed() -> None:
    """WD-02: only a Hidden Fellowship may be declared (facts §7.6)."""
    state = position(start="turn", fellowship={"revealed": True})
    assert kind(state) == WD.CHANGE_GUIDE


@pytest.mark.parametrize(("ruleset", "offered"), [("2e", True), ("1e", False)])
def test_mordor_entry_without_declaring(ruleset: str, offered: bool) -> None:
    """WD-04: in 2e being in Minas Morgul or Morannon in the Fellowship phase, Hidden or
    Revealed, lets the Fellowship enter Mordor; in 1e it must be declared there
    (``rules.mordor_entry``; facts §7.9, §8.4)."""
    for fellowship in ({"region": "morannon", "revealed": True},
                       {"region": "minas-morgul", "revealed": False}):
        state = position(ruleset, start="turn", characters={"strider": "out"},
                         fellowship=fellowship)
        if kind(state) == WD.DECLARE_FELLOWSHIP:
            play(state, choice("no"))
        assert (kind(state) == WD.ENTER_MORDOR) is offered


@pytest.mark.parametrize("ruleset", RULESETS)
def test_entering_mordor_after_declaring_there(ruleset: str) -> None:
    """WD-04: declared in Morannon, the Fellowship may enter Mordor in either edition; it goes to
    step 0 and the Hunt Pool takes back the Eye tiles drawn and the special tiles in play
    (facts §7.9)."""
    state = position(ruleset, start="turn", characters={"strider": "out"},
                     fellowship={"region": "morannon"},
                     hunt={"drawn": ["std-eye-1", "std-3-1"],
                           "specials_in_play": ["shelobs-lair"]})
    tiles = state.ruleset.cards.tile
    play(state, choice("declare"))
    assert kind(state) == WD.ENTER_MORDOR
    play(state, choice("yes"))
    assert state.mordor_step == 0
    assert tiles("std-eye-1") in state.hunt_pool and tiles("shelobs-lair") in state.hunt_pool
    assert state.hunt_drawn == [tiles("std-3-1")] and state.specials_in_play == []
    assert len(state.hunt_pool) == 16
    assert kind(state) == WD.HUNT_ALLOCATION


def test_declining_mordor_stays_on_the_map() -> None:
    """WD-04: the Free Peoples may stay out of Mordor (facts §7.9)."""
    state = position(start="turn", characters={"strider": "out"},
                     fellowship={"region": "morannon", "revealed": True})
    play(state, choice("no"))
    assert state.mordor_step == OFF_MORDOR and kind(state) == WD.HUNT_ALLOCATION


def test_guide_change_among_the_highest_level_companions() -> None:
    """WD-05: at the end of the Fellowship phase the Guide may change, always to a highest-Level
    Companion (spec §5.2, §20 #32, facts §7.6)."""
    state = position(start="turn")
    play(state, choice("no"))
    assert kind(state) == WD.CHANGE_GUIDE
    assert options(state) == {("character", char(state, "gandalf-the-grey")),
                              ("character", char(state, "strider"))}
    play(state, ("character", char(state, "strider")))
    assert state.guide == char(state, "strider")
    three = position(start="turn", characters={"gandalf-the-grey": "eliminated",
                                               "strider": "out"})
    play(three, choice("no"))
    assert options(three) == {("character", char(three, c))
                              for c in ("boromir", "legolas", "gimli")}


def test_a_single_highest_level_companion_becomes_guide_without_a_question() -> None:
    """WD-05: with one highest-Level Companion he is the Guide (facts §7.6, §7.11)."""
    state = position(start="turn", characters={"gandalf-the-grey": "eliminated"})
    play(state, choice("no"))
    assert kind(state) == WD.HUNT_ALLOCATION
    assert state.guide == char(state, "strider")


def test_gollum_guides_when_no_companion_is_left() -> None:
    """With no Companion left Gollum joins the Fellowship and becomes the Guide (facts §7.11)."""
    state = position(start="turn", characters=ALL_OUT)
    play(state, choice("no"))
    gollum = char(state, "gollum")
    assert state.guide == gollum and state.char_at[gollum] == IN_FELLOWSHIP


def test_mordor_idle_penalty() -> None:
    """On the Mordor Track, a Fellowship that neither moved nor hid in the turn gains one
    Corruption at the end of Action Resolution (facts §7.9)."""
    state = position(fellowship={"mordor_step": 2, "corruption": 4})
    assert state.corruption == 5
    off = position(fellowship={"corruption": 4})
    assert off.corruption == 4


# -- phase 6: the Victory Check, max_turns --------------------------------------------------------

SHADOW_TEN = {"minas-tirith": "shadow", "dol-amroth": "shadow", "helms-deep": "shadow",
              "erebor": "shadow", "rivendell": "shadow"}
FP_FOUR = {"minas-morgul": "free_peoples", "morannon": "free_peoples"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_shadow_wins_with_ten_points_at_the_victory_check(ruleset: str) -> None:
    """Phase 6: the Shadow controlling Free Peoples Cities and Strongholds worth 10 VP wins; 9
    are not enough (facts §7.4, §7.12, spec §5.6)."""
    won = position(ruleset, control=SHADOW_TEN)
    assert (won.winner, won.ending, won.pending) == (SHADOW, "shadow-points", None)
    nine = {**{k: v for k, v in SHADOW_TEN.items() if k != "rivendell"}, "dale": "shadow"}
    going = position(ruleset, control=nine)
    assert going.winner == -1 and going.turn == 2


@pytest.mark.parametrize("ruleset", RULESETS)
def test_free_peoples_win_with_four_points(ruleset: str) -> None:
    """Phase 6: the Free Peoples controlling Shadow Cities and Strongholds worth 4 VP win; 3 are
    not enough (facts §7.12, §8.4)."""
    won = position(ruleset, control=FP_FOUR)
    assert (won.winner, won.ending) == (FREE_PEOPLES, "free-peoples-points")
    three = position(ruleset, control={"minas-morgul": "free_peoples", "angmar": "free_peoples"})
    assert three.winner == -1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_both_thresholds_give_the_shadow(ruleset: str) -> None:
    """Phase 6: if both military conditions hold, the Shadow wins (facts §7.12, spec §20 #40)."""
    state = position(ruleset, control={**SHADOW_TEN, **FP_FOUR})
    assert (state.winner, state.ending) == (SHADOW, "shadow-points")


def test_points_are_checked_only_at_the_victory_check() -> None:
    """Military victory is checked in phase 6 only, not while dice remain (spec §20 #40)."""
    state = position(control=SHADOW_TEN, dice={"free_peoples": ["event"]})
    assert state.winner == -1 and state.phase == 5
    use(state, EVENT)
    assert (state.winner, state.phase) == (SHADOW, 6)


def test_max_turns_truncates_after_the_last_turn() -> None:
    """``max_turns`` ends the game, with no winner, at the start of the turn after the last
    (issue 27: the rules have no turn limit)."""
    state = position(turn=3, max_turns=3)
    assert (state.truncated, state.winner, state.pending, state.turn) == (True, -1, None, 3)
    assert state.over
    going = position(turn=3, max_turns=4)
    assert not going.truncated and going.turn == 4 and going.pending is not None


def test_new_state_truncates_at_max_turns() -> None:
    """``new_state(max_turns=1)`` plays one turn at most (issue 27)."""
    state = new_state(3, max_turns=1)
    rng = np.random.default_rng(0)
    while not state.over:
        opts = state.pending.options
        play(state, opts[int(rng.integers(len(opts)))])
    assert state.turn == 1 and (state.truncated or state.winner >= 0)
