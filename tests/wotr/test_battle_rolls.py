"""The Combat roll and the Leader re-roll, with scripted dice (spec §12.2-§12.5, §13.1,
§20 #28-#29 #38; facts §7.2, §7.3). Issue 27's known bugs: the leader re-roll allowance, no
Stronghold 6+ in a field battle."""

from __future__ import annotations

from wotr_env.engine import WD, play
from wotr_env.engine.battle.round import hits_of
from wotr_env.engine.decision import choice
from wotr_env.engine.state import FREE_PEOPLES, SHADOW

from .test_battle_setup import NONE, battle_state, edge, events, kind, sound, start

CONTINUE, STAY = choice("continue"), choice("stay")


def rolls(state, side: int) -> list[tuple]:
    """(dice, hits) of each Combat roll of the side."""
    return [(e[2], e[3]) for e in events(state, "combat-roll") if e[1] == side]


def rerolls(state, side: int) -> list[tuple]:
    return [(e[2], e[3]) for e in events(state, "leader-reroll") if e[1] == side]


def test_natural_six_hits_and_natural_one_misses_whatever_the_modifier():
    """spec §12.5: a hit is 5+ after modifiers; a natural 6 always hits, a natural 1 always
    misses."""
    assert hits_of([1, 2, 3, 4, 5, 6], 5, 0) == 2
    assert hits_of([1, 2, 3, 4, 5, 6], 5, 1) == 3  # +1: a 4 hits
    assert hits_of([1], 5, 5) == 0  # a natural 1 misses even at +5
    assert hits_of([6], 5, -3) == 1  # a natural 6 hits even at -3
    assert hits_of([5, 5, 6], 6, 0) == 1  # hitting on 6 only


def test_combat_strength_is_units_at_most_five_dice():
    """spec §12.2: one die per unit, at most 5: 8 units roll 5 dice; Leaders add no die."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 1}},
                      "north-ithilien": {"sauron": {"regular": 8}},
                      "dead-marshes": {"sauron": {"regular": 3}}},
                     rolls={"shadow": [1, 1, 1, 1, 1], "free_peoples": [1]})
    start(s, edge(s, "north-ithilien", "osgiliath"))
    play(s, NONE, NONE)
    assert rolls(s, SHADOW) == [((1, 1, 1, 1, 1), 0)]
    assert rolls(s, FREE_PEOPLES) == [((1,), 0)]
    assert rerolls(s, SHADOW) == []  # no Leadership, no re-roll


def test_leader_reroll_is_at_most_the_misses():
    """spec §12.4 step 3, its example: 5 units and 3 Leaders roll 1, 3, 5, 5, 6 (3 hits); only
    the 2 misses are re-rolled, not 3; one re-rolled die hits: 4 hits (known bug of issue 27:
    the allowance is min(Leadership, misses))."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 5, "leader": 3}},
                      "north-ithilien": {"sauron": {"regular": 6}}}, side="free_peoples",
                     face="army_muster",
                     rolls={"free_peoples": [1, 3, 5, 5, 6, 5, 2], "shadow": [1, 1, 1, 1, 1]})
    start(s, edge(s, "osgiliath", "north-ithilien"))
    play(s, NONE, NONE)
    assert rolls(s, FREE_PEOPLES) == [((1, 3, 5, 5, 6), 3)]
    assert rerolls(s, FREE_PEOPLES) == [((5, 2), 1)]
    assert len([e for e in events(s, "casualty") if e[1] == SHADOW]) == 4  # all forced


def test_leader_reroll_is_at_most_the_leadership_and_five():
    """spec §12.3-§12.4, §20 #38: 4 misses and Leadership 1 re-roll 1 die; Leadership 8
    (6 Leaders and Aragorn's 2) with 5 misses re-rolls 5, never more than 5 dice."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 5, "leader": 1}},
                      "north-ithilien": {"sauron": {"regular": 6}}}, side="free_peoples",
                     face="army_muster",
                     rolls={"free_peoples": [1, 2, 3, 4, 6, 4], "shadow": [1] * 5})
    start(s, edge(s, "osgiliath", "north-ithilien"))
    play(s, NONE, NONE)
    assert rerolls(s, FREE_PEOPLES) == [((4,), 0)]
    s = battle_state({"osgiliath": {"gondor": {"regular": 5, "leader": 3},
                                    "rohan": {"leader": 3}},
                      "north-ithilien": {"sauron": {"regular": 6}}}, side="free_peoples",
                     face="army_muster", characters={"aragorn": "osgiliath"},
                     rolls={"free_peoples": [1] * 5 + [6] * 5, "shadow": [1] * 5})
    start(s, edge(s, "osgiliath", "north-ithilien"))
    play(s, NONE, NONE)
    assert rerolls(s, FREE_PEOPLES) == [((6, 6, 6, 6, 6), 5)]


def test_nazgul_and_minion_leadership():
    """spec §20 #38, facts §3.4: each Nazgûl leads 1, the Witch-king his card's 2: 2 Nazgûl
    and the Witch-king re-roll 4 of 5 misses."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 5}},
                      "north-ithilien": {"sauron": {"regular": 5, "nazgul": 2}}},
                     characters={"witch-king": "north-ithilien"},
                     rolls={"shadow": [2] * 5 + [3] * 4, "free_peoples": [1] * 5})
    start(s, edge(s, "north-ithilien", "osgiliath"))
    play(s, NONE, NONE)
    assert rerolls(s, SHADOW) == [((3, 3, 3, 3), 0)]


def test_city_attacker_hits_on_six_in_the_first_round_only():
    """spec §13.1, §20 #28, facts §7.3: against an Army in a City the attacker hits only on 6
    in the first round, re-roll included; from the second round on, on 5+."""
    s = battle_state({"dale": {"the-north": {"regular": 5}},
                      "northern-rhovanion": {"sauron": {"regular": 2, "nazgul": 1}}},
                     rolls={"shadow": [5, 5, 5, 5, 5], "free_peoples": [1] * 10})
    start(s, edge(s, "northern-rhovanion", "dale"))
    play(s, NONE, NONE)
    assert rolls(s, SHADOW) == [((5, 5), 0)] and rerolls(s, SHADOW) == [((5,), 0)]
    play(s, CONTINUE)
    if kind(s) == WD.RETREAT:
        play(s, STAY)
    play(s, NONE, NONE)
    assert rolls(s, SHADOW)[1] == ((5, 5), 2)
    sound(s)


def test_fortification_counts_as_a_city_and_a_town_does_not():
    """spec §13.1, facts §7.3: a Fortification (Osgiliath) gives the first-round 6+; a Town
    (Bree) gives nothing."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 3}},
                      "north-ithilien": {"sauron": {"regular": 2}}},
                     rolls={"shadow": [5, 6], "free_peoples": [1] * 3})
    start(s, edge(s, "north-ithilien", "osgiliath"))
    play(s, NONE, NONE)
    assert rolls(s, SHADOW) == [((5, 6), 1)]
    s = battle_state({"bree": {"the-north": {"regular": 3}},
                      "weather-hills": {"sauron": {"regular": 2}}},
                     rolls={"shadow": [5, 6], "free_peoples": [1] * 3})
    start(s, edge(s, "weather-hills", "bree"))
    play(s, NONE, NONE)
    assert rolls(s, SHADOW) == [((5, 6), 2)]


def test_no_stronghold_bonus_in_a_field_battle():
    """facts §7.3, spec §20 #29 (known bug of issue 27): a Stronghold's defenders who fight a
    field battle give the attacker no 6+, not even in the first round."""
    s = battle_state({"minas-tirith": {"gondor": {"regular": 3}},
                      "osgiliath": {"sauron": {"regular": 2}}},
                     rolls={"shadow": [5, 5], "free_peoples": [1] * 3})
    start(s, edge(s, "osgiliath", "minas-tirith"))
    assert kind(s) == WD.STRONGHOLD_CHOICE
    play(s, choice("field-battle"), NONE, NONE)
    assert rolls(s, SHADOW) == [((5, 5), 2)]


def test_defender_always_hits_on_five():
    """spec §12.4, §13.1: the City's penalty is the attacker's; the defender hits on 5+."""
    s = battle_state({"dale": {"the-north": {"regular": 2}},
                      "northern-rhovanion": {"sauron": {"regular": 3}}},
                     rolls={"shadow": [1, 1, 1], "free_peoples": [5, 6]})
    start(s, edge(s, "northern-rhovanion", "dale"))
    play(s, NONE, NONE)
    assert rolls(s, FREE_PEOPLES) == [((5, 6), 2)]
