"""Combat effects that change the hits after the dice (facts §6.1): Confusion, Mûmakil, No
Quarter, Nameless Wood, Shield-wall, Heroic Death."""

from __future__ import annotations

from wotr_env.engine import WD, play
from wotr_env.engine.decision import choice
from wotr_env.engine.state import ELIMINATED, FREE_PEOPLES, SHADOW

from .test_battle_setup import events, figures, kind, options
from .test_cards_combat import CARDS, DUEL, choose, fight, offered, reroll, roll, settle, sound

ROHAN = {"parth-celebrant": {"sauron": {"regular": 3}},
         "eastemnet": {"rohan": {"regular": 3}}}


def test_confusion_natural_ones_hit_the_shadow_and_are_not_rerolled():
    """facts §6.1 Confusion: two natural 1s of the Shadow roll are 2 hits on the Shadow Army,
    and those dice are not re-rolled (the Nazgûl has no miss left to re-roll)."""
    s = fight({**DUEL, "north-ithilien": {"sauron": {"regular": 3, "nazgul": 1}}},
              ("confusion",), rolls={"shadow": [1, 1, 5, 6], "free_peoples": [2, 2, 2]})
    choose(s, free_peoples="confusion")
    assert roll(s, SHADOW) == ((1, 1, 5), 1) and reroll(s, SHADOW) is None
    assert figures(s, "north-ithilien", "sauron")[0] == 1
    assert figures(s, "south-ithilien", "gondor")[0] == 2
    sound(s)


def test_confusion_without_a_natural_one_does_nothing():
    """facts §6.1 Confusion: no natural 1, no hit; the Shadow re-rolls its misses as usual."""
    s = fight({**DUEL, "north-ithilien": {"sauron": {"regular": 3, "nazgul": 1}}},
              ("confusion",), rolls={"shadow": [2, 2, 2, 2], "free_peoples": [2, 2, 2]})
    choose(s, free_peoples="confusion")
    assert reroll(s, SHADOW) == ((2,), 0)
    assert figures(s, "north-ithilien", "sauron")[0] == 3


MUMAKIL = {"north-ithilien": {"southrons": {"regular": 2, "elite": 1}},
           "south-ithilien": {"gondor": {"regular": 4}}}


def test_mumakil_plus_one_then_an_extra_hit_when_ahead():
    """facts §6.1 Mûmakil: +1 to the roll (initiative 3: 4, 4, 1 hit twice), then, ahead on
    hits (2 to 0), one hit more (initiative 5): the FP loses 3."""
    s = fight(MUMAKIL, ("mumakil",), rolls={"shadow": [4, 4, 1], "free_peoples": [1] * 4})
    choose(s, shadow="mumakil")
    assert roll(s, SHADOW) == ((4, 4, 1), 2)
    assert figures(s, "south-ithilien", "gondor")[0] == 1


def test_mumakil_no_extra_hit_when_not_ahead():
    """facts §6.1 Mûmakil: 1 hit against 1: no extra hit (the FP loses 1)."""
    s = fight(MUMAKIL, ("mumakil",), rolls={"shadow": [4, 1, 1], "free_peoples": [5, 1, 1, 1]})
    choose(s, shadow="mumakil")
    settle(s)
    assert figures(s, "south-ithilien", "gondor")[0] == 3
    assert not offered(fight(DUEL, ("mumakil",)), "mumakil")


def test_mumakil_counts_the_opponents_card_attack():
    """facts §6.1 Mûmakil ("counting his pre-combat card attacks"): the FP's Charge hit once
    before the roll, so the Shadow's 1 roll hit is not ahead: no extra hit."""
    s = fight({**MUMAKIL, "south-ithilien": {"gondor": {"regular": 3, "elite": 1}}},
              ("mumakil", "charge"), rolls={"shadow": [4, 1, 1], "free_peoples": [6, 1, 1, 1, 1]})
    choose(s, shadow="mumakil", free_peoples="charge")
    settle(s)
    assert events(s, "extra-attack")[0][3] == 1
    assert sum(figures(s, "south-ithilien", "gondor")[:2]) == 3  # 1 hit taken, not 2


def test_no_quarter_one_more_hit_after_a_hit():
    """facts §6.1 No Quarter: the roll scored 1, so 2 hits; with none, none."""
    s = fight(DUEL, ("no-quarter",), rolls={"shadow": [1] * 3, "free_peoples": [5, 1, 1]})
    choose(s, free_peoples="no-quarter")
    assert figures(s, "north-ithilien", "sauron")[0] == 1
    s = fight(DUEL, ("no-quarter",), rolls={"shadow": [1] * 3, "free_peoples": [1, 1, 1]})
    choose(s, free_peoples="no-quarter")
    assert figures(s, "north-ithilien", "sauron")[0] == 3


def test_nameless_wood_two_more_hits_in_rohan():
    """facts §6.1 Nameless Wood: in a Rohan region, 1 roll hit becomes 3: the Shadow's three
    Regulars die; outside Rohan, Fangorn and Orthanc it is not offered."""
    s = fight(ROHAN, ("nameless-wood",), src="parth-celebrant", dst="eastemnet",
              rolls={"shadow": [1] * 3, "free_peoples": [5, 1, 1]})
    choose(s, free_peoples="nameless-wood")
    assert figures(s, "parth-celebrant", "sauron")[0] == 0
    s = fight(ROHAN, ("nameless-wood",), src="parth-celebrant", dst="eastemnet",
              rolls={"shadow": [1] * 3, "free_peoples": [1, 1, 1]})
    choose(s, free_peoples="nameless-wood")
    assert figures(s, "parth-celebrant", "sauron")[0] == 3
    assert not offered(fight(DUEL, ("nameless-wood",)), "nameless-wood")


def test_shield_wall_cancels_one_of_two_hits():
    """facts §6.1 Shield-wall: the Shadow scored 2: the FP loses 1; with 1 scored, 1."""
    s = fight(DUEL, ("shield-wall",), rolls={"shadow": [5, 5, 1], "free_peoples": [1] * 3})
    choose(s, free_peoples="shield-wall")
    assert figures(s, "south-ithilien", "gondor")[0] == 2
    s = fight(DUEL, ("shield-wall",), rolls={"shadow": [5, 1, 1], "free_peoples": [1] * 3})
    choose(s, free_peoples="shield-wall")
    assert figures(s, "south-ithilien", "gondor")[0] == 2


HEROES = {"north-ithilien": {"sauron": {"regular": 3}},
          "south-ithilien": {"gondor": {"regular": 5, "leader": 1}}}


def test_heroic_death_a_companion_cancels_hits_up_to_his_level():
    """facts §6.1 Heroic Death (WD-16): Gimli (Level 2) dies and cancels both Shadow hits."""
    s = fight(HEROES, ("heroic-death",), characters={"gimli": "south-ithilien"},
              rolls={"shadow": [5, 5, 1], "free_peoples": [1] * 7})
    choose(s, free_peoples="heroic-death")
    assert kind(s) == WD.COMBAT_CARD_CHOICE
    gimli = CARDS.character("gimli")
    assert set(options(s)) == {("unit", 2, 2), ("character", gimli), choice("none")}
    play(s, ("character", gimli))
    assert s.char_at[gimli] == ELIMINATED
    assert figures(s, "south-ithilien", "gondor")[:3] == [5, 0, 1]
    sound(s)


def test_heroic_death_a_leader_cancels_one_hit():
    """facts §6.1 Heroic Death: the Gondor Leader dies for 1 of the 2 hits."""
    s = fight(HEROES, ("heroic-death",), rolls={"shadow": [5, 5, 1], "free_peoples": [1] * 6})
    choose(s, free_peoples="heroic-death")
    play(s, ("unit", 2, 2))
    assert figures(s, "south-ithilien", "gondor")[:3] == [4, 0, 0]
    assert s.casualties[2, 2] == 1


def test_heroic_death_no_hit_no_choice():
    """facts §6.1 Heroic Death: the Shadow scored nothing: no sacrifice asked; without an FP
    Leader or Companion it is not offered."""
    s = fight(HEROES, ("heroic-death",), rolls={"shadow": [1] * 3, "free_peoples": [1] * 6})
    choose(s, free_peoples="heroic-death")
    assert kind(s) == WD.CEASE_OR_CONTINUE and reroll(s, FREE_PEOPLES) == ((1,), 0)
    assert not offered(fight(DUEL, ("heroic-death",)), "heroic-death")
