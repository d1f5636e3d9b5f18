"""Combat effects that attack apart from the Combat roll, take hits on one's own units, or
withdraw before the roll (facts §6.1: extra attacks get no re-roll, ignore the opponent's card
modifiers, and their casualties are removed at once)."""

from __future__ import annotations

from wotr_env.engine import WD, play
from wotr_env.engine.battle.forces import battle_of
from wotr_env.engine.cards.combat_attacks import durins_bane, moria_distance, near_moria
from wotr_env.engine.decision import choice
from wotr_env.engine.state import FREE_PEOPLES, SHADOW

from .test_battle_setup import events, figures, kind, options, region
from .test_cards_combat import CARDS, DUEL, choose, fight, offered, roll, sound


def extra(s) -> list[tuple]:
    """(side, dice, hits) of each extra attack."""
    return [e[1:] for e in events(s, "extra-attack")]


def test_charge_one_die_per_fp_elite_before_the_roll():
    """facts §6.1 Charge: 2 FP Elites, 2 dice (5, 6): the Shadow loses 2 Regulars before the
    roll and rolls 1 die."""
    s = fight({**DUEL, "south-ithilien": {"gondor": {"regular": 1, "elite": 2}}}, ("charge",),
              rolls={"shadow": [1] * 3, "free_peoples": [5, 6, 1, 1, 1]})
    choose(s, free_peoples="charge")
    assert extra(s) == [(FREE_PEOPLES, (5, 6), 2)]
    assert roll(s, SHADOW) == ((1,), 0)
    assert figures(s, "north-ithilien", "sauron")[0] == 1
    assert not offered(fight(DUEL, ("charge",)), "charge")


def test_sudden_strike_as_many_dice_as_the_leadership():
    """facts §6.1 Sudden Strike: FP Leadership 2, an extra attack of 2 dice."""
    s = fight({**DUEL, "south-ithilien": {"gondor": {"regular": 3, "leader": 2}}},
              ("sudden-strike",), rolls={"shadow": [1] * 3, "free_peoples": [5, 5] + [1] * 5})
    choose(s, free_peoples="sudden-strike")
    assert extra(s) == [(FREE_PEOPLES, (5, 5), 2)]
    assert figures(s, "north-ithilien", "sauron")[0] == 1
    assert not offered(fight(DUEL, ("sudden-strike",)), "sudden-strike")


def test_words_of_power_before_sudden_strike():
    """facts §6.1, §7.2: Words of Power (initiative 1) cancels Gimli's Leadership before
    Sudden Strike (2) counts the FP Leadership: 1 die, not 2."""
    s = fight({"north-ithilien": {"sauron": {"regular": 3, "nazgul": 1}},
               "south-ithilien": {"gondor": {"regular": 5}}}, ("words-of-power", "sudden-strike"),
              characters={"gimli": "south-ithilien", "legolas": "south-ithilien"},
              rolls={"shadow": [1] * 4, "free_peoples": [5] + [1] * 6})
    choose(s, shadow="words-of-power", free_peoples="sudden-strike")
    play(s, ("character", CARDS.character("gimli")))
    assert extra(s) == [(FREE_PEOPLES, (5,), 1)]


def test_durins_bane_three_dice_hitting_on_four_near_moria():
    """facts §6.1 Durin's Bane: the defending Army in Parth Celebrant (2 regions from Moria):
    3 dice on 4+ before the roll: 4, 4, 3 kill two Elven Regulars."""
    s = fight({"dimrill-dale": {"sauron": {"regular": 3}},
               "parth-celebrant": {"elves": {"regular": 3}}}, ("durins-bane",),
              src="dimrill-dale", dst="parth-celebrant",
              rolls={"shadow": [4, 4, 3, 1, 1, 1], "free_peoples": [1]})
    assert moria_distance(s, region(s, "parth-celebrant")) == 2
    choose(s, shadow="durins-bane")
    assert extra(s) == [(SHADOW, (4, 4, 3), 2)]
    assert figures(s, "parth-celebrant", "elves")[0] == 1
    sound(s)


def test_durins_bane_not_three_regions_from_moria():
    """facts §6.1 Durin's Bane: Eastemnet is 3 regions from Moria: not offered."""
    s = fight({"parth-celebrant": {"sauron": {"regular": 3}},
               "eastemnet": {"rohan": {"regular": 3}}}, ("durins-bane",),
              src="parth-celebrant", dst="eastemnet")
    assert moria_distance(s, region(s, "eastemnet")) == 3
    assert not near_moria(s, battle_of(s), SHADOW) and not offered(s, "durins-bane")


def test_durins_bane_is_callable_from_the_table():
    """facts §6.4 #17 (Balrog of Moria plays Durin's Bane as if from hand): the effect is a
    plain function of (state, battle, round, side, part)."""
    from wotr_env.engine.battle.round import round_of
    s = fight({"dimrill-dale": {"sauron": {"regular": 3}},
               "parth-celebrant": {"elves": {"regular": 3}}}, src="dimrill-dale",
              dst="parth-celebrant", rolls={"shadow": [6, 6, 6]})
    durins_bane(s, battle_of(s), round_of(s), SHADOW, 0)
    assert extra(s) == [(SHADOW, (6, 6, 6), 3)]


def test_we_come_to_kill_after_casualties():
    """facts §6.1 We Come to Kill: after casualties, 1 die per Shadow Elite (2) on 5+."""
    s = fight({**DUEL, "north-ithilien": {"sauron": {"regular": 1, "elite": 2}}},
              ("we-come-to-kill",), rolls={"shadow": [1, 1, 1, 5, 5], "free_peoples": [1] * 3})
    choose(s, shadow="we-come-to-kill")
    assert extra(s) == [(SHADOW, (5, 5), 2)]
    assert figures(s, "south-ithilien", "gondor")[0] == 1
    assert not offered(fight(DUEL, ("we-come-to-kill",)), "we-come-to-kill")


def test_great_host_one_hit_with_twice_the_units():
    """facts §6.1 Great Host: 6 Shadow units against 3: 1 automatic hit after casualties;
    5 against 3, none."""
    s = fight({**DUEL, "north-ithilien": {"sauron": {"regular": 6}}}, ("great-host",),
              rolls={"shadow": [1] * 5, "free_peoples": [1] * 3})
    choose(s, shadow="great-host")
    assert figures(s, "south-ithilien", "gondor")[0] == 2
    s = fight({**DUEL, "north-ithilien": {"sauron": {"regular": 5}}}, ("great-host",),
              rolls={"shadow": [1] * 5, "free_peoples": [1] * 3})
    choose(s, shadow="great-host")
    assert figures(s, "south-ithilien", "gondor")[0] == 3


def test_onslaught_own_hits_then_a_die_each():
    """facts §6.1 Onslaught (WD-16): 2 hits taken on the Shadow's own units, then 2 dice on
    4+: both hit the FP."""
    s = fight({**DUEL, "north-ithilien": {"sauron": {"regular": 5}}}, ("onslaught",),
              rolls={"shadow": [1] * 5 + [4, 4], "free_peoples": [1] * 3})
    choose(s, shadow="onslaught")
    assert kind(s) == WD.COMBAT_CARD_CHOICE
    assert options(s) == tuple(("count", n) for n in range(5))
    play(s, ("count", 2))
    assert figures(s, "north-ithilien", "sauron")[0] == 3
    assert extra(s) == [(SHADOW, (4, 4), 2)]
    assert figures(s, "south-ithilien", "gondor")[0] == 1
    sound(s)


def test_onslaught_taking_no_hit_does_nothing():
    """facts §6.1 Onslaught: 0 hits taken, no die rolled."""
    s = fight({**DUEL, "north-ithilien": {"sauron": {"regular": 5}}}, ("onslaught",),
              rolls={"shadow": [1] * 5, "free_peoples": [1] * 3})
    choose(s, shadow="onslaught")
    play(s, ("count", 0))
    assert extra(s) == [] and figures(s, "north-ithilien", "sauron")[0] == 5


def test_relentless_assault_plus_one_per_own_hit():
    """facts §6.1 Relentless Assault (WD-16): 2 hits taken before the roll: 3 dice left, at
    +2 (3, 3 hit)."""
    s = fight({**DUEL, "north-ithilien": {"sauron": {"regular": 5}}}, ("relentless-assault",),
              rolls={"shadow": [3, 3, 1], "free_peoples": [1] * 3})
    choose(s, shadow="relentless-assault")
    assert options(s) == (("count", 0), ("count", 1), ("count", 2))
    play(s, ("count", 2))
    assert roll(s, SHADOW) == ((3, 3, 1), 2)
    assert figures(s, "south-ithilien", "gondor")[0] == 1


def test_scouts_retreat_before_the_roll():
    """facts §6.1 Scouts (WD-16): the FP Army retreats into Osgiliath before any die is rolled;
    the attacker may advance (spec §12.8)."""
    s = fight(DUEL, ("scouts",))
    choose(s, free_peoples="scouts")
    assert kind(s) == WD.COMBAT_CARD_CHOICE and choice("stay") in options(s)
    assert ("region", region(s, "north-ithilien")) not in options(s)
    play(s, ("region", region(s, "osgiliath")))
    assert not events(s, "combat-roll")
    assert figures(s, "osgiliath", "gondor")[0] == 3
    assert kind(s) == WD.ADVANCE_AFTER_BATTLE
    sound(s)


def test_scouts_withdraw_into_the_siege():
    """facts §6.1 Scouts: at Minas Tirith (its own Stronghold) the FP may withdraw into the
    siege instead; the attacker then advances or not (WD-14)."""
    s = fight({"osgiliath": {"sauron": {"regular": 3}},
               "minas-tirith": {"gondor": {"regular": 3}}}, ("scouts",), src="osgiliath",
              dst="minas-tirith")
    play(s, choice("field-battle"))
    choose(s, free_peoples="scouts")
    play(s, choice("into-siege"))
    assert kind(s) == WD.SIEGE_ADVANCE and not events(s, "combat-roll")


def test_scouts_only_for_a_defending_army_in_a_field_battle():
    """facts §6.1 Scouts: the FP attacking: not offered."""
    s = fight(DUEL, ("scouts",), attacker="free_peoples", src="south-ithilien",
              dst="north-ithilien", face="army_muster")
    assert not offered(s, "scouts")
