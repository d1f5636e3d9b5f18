"""Combat effects that give up or cancel Leadership, or cancel the other card (facts §6.1;
spec §7.6: a figure whose Leadership is given up counts as no Leader for the round)."""

from __future__ import annotations

from wotr_env.engine import WD, play
from wotr_env.engine.state import FREE_PEOPLES, SHADOW

from .test_battle_setup import events, figures, kind, options
from .test_cards_combat import CARDS, DUEL, choose, fight, offered, reroll, roll, sound

NAZGUL_2 = {"north-ithilien": {"sauron": {"regular": 3, "nazgul": 2}},
            "south-ithilien": {"gondor": {"regular": 3}}}
FIVE_AND = {"north-ithilien": {"sauron": {"regular": 3, "nazgul": 1}},
            "south-ithilien": {"gondor": {"regular": 5}}}


def char(cid: str) -> int:
    return CARDS.character(cid)


def test_cruel_as_death_gives_up_two_nazgul_for_plus_one():
    """facts §6.1 Cruel as Death: 2 Nazgûl Leadership given up (no Shadow re-roll left), +1
    to the Combat roll: 4, 4, 1 hit twice."""
    s = fight(NAZGUL_2, ("cruel-as-death",),
              rolls={"shadow": [4, 4, 1, 6, 6], "free_peoples": [1, 1, 1]})
    choose(s, shadow="cruel-as-death")
    assert roll(s, SHADOW) == ((4, 4, 1), 2) and reroll(s, SHADOW) is None
    sound(s)


def test_cruel_as_death_needs_two_nazgul_leadership():
    """facts §6.1 Cruel as Death: one Nazgûl is not enough."""
    s = fight({**NAZGUL_2, "north-ithilien": {"sauron": {"regular": 3, "nazgul": 1}}},
              ("cruel-as-death",))
    assert not offered(s, "cruel-as-death")


def test_they_are_terrible_one_nazgul_for_plus_one_on_the_reroll():
    """facts §6.1 They Are Terrible: 1 Nazgûl Leadership given up (1 re-roll left of 2), +1
    to the re-roll: a 4 hits."""
    s = fight(NAZGUL_2, ("they-are-terrible",),
              rolls={"shadow": [1, 1, 1, 4, 6], "free_peoples": [1, 1, 1]})
    choose(s, shadow="they-are-terrible")
    assert reroll(s, SHADOW) == ((4,), 1)
    assert not offered(fight(DUEL, ("they-are-terrible",)), "they-are-terrible")


def test_foul_stench_cancels_the_fp_reroll():
    """facts §6.1 Foul Stench: Nazgûl Leadership 2 ≥ FP Leadership 1: no FP re-roll. With FP
    Leadership 3 the FP re-rolls."""
    s = fight({**NAZGUL_2, "south-ithilien": {"gondor": {"regular": 3, "leader": 1}}},
              ("foul-stench",), rolls={"shadow": [1] * 5, "free_peoples": [1] * 4})
    choose(s, shadow="foul-stench")
    assert reroll(s, FREE_PEOPLES) is None and events(s, "reroll-cancelled")
    s = fight({**NAZGUL_2, "south-ithilien": {"gondor": {"regular": 3, "leader": 3}}},
              ("foul-stench",), rolls={"shadow": [1] * 5, "free_peoples": [1] * 6})
    choose(s, shadow="foul-stench")
    assert reroll(s, FREE_PEOPLES) == ((1, 1, 1), 0)
    assert not offered(fight(DUEL, ("foul-stench",)), "foul-stench")


def test_dread_and_despair_the_shadow_chooses_how_much_leadership():
    """facts §6.1 Dread and Despair (WD-16): 2 Nazgûl Leadership given up, the FP rolls 2
    dice fewer (5 to 3) and the Shadow has no re-roll left."""
    s = fight({**NAZGUL_2, "south-ithilien": {"gondor": {"regular": 5}}}, ("dread-and-despair",),
              rolls={"shadow": [1] * 5, "free_peoples": [1] * 5})
    choose(s, shadow="dread-and-despair")
    assert kind(s) == WD.COMBAT_CARD_CHOICE and s.pending.player == SHADOW
    assert options(s) == (("count", 1), ("count", 2))
    play(s, ("count", 2))
    assert roll(s, FREE_PEOPLES) == ((1, 1, 1), 0) and reroll(s, SHADOW) is None
    assert not offered(fight(DUEL, ("dread-and-despair",)), "dread-and-despair")


def test_swarm_of_bats_cancels_the_fp_card():
    """facts §6.1 Swarm of Bats (initiative 0): the FP's Valour is cancelled (4, 4, 3 hit
    nothing)."""
    s = fight({**DUEL, "south-ithilien": {"gondor": {"regular": 2, "elite": 1}}},
              ("swarm-of-bats", "valour"), rolls={"shadow": [1] * 3, "free_peoples": [4, 4, 3]})
    choose(s, shadow="swarm-of-bats", free_peoples="valour")
    assert events(s, "combat-card-cancelled") == [
        ("combat-card-cancelled", FREE_PEOPLES, CARDS.card("fp-strat-22-dain-ironfoots-guard"))]
    assert roll(s, FREE_PEOPLES) == ((4, 4, 3), 0)


def test_swarm_of_bats_with_no_fp_card_helps_the_reroll():
    """facts §6.1 Swarm of Bats: the FP played no card: +1 to the Shadow's re-roll."""
    s = fight({**DUEL, "north-ithilien": {"sauron": {"regular": 3, "nazgul": 1}}},
              ("swarm-of-bats",), rolls={"shadow": [1, 1, 1, 4], "free_peoples": [1] * 3})
    choose(s, shadow="swarm-of-bats")
    assert reroll(s, SHADOW) == ((4,), 1)


def test_daring_defiance_cancels_the_shadow_card_for_the_companions_leadership():
    """facts §6.1 Daring Defiance: Desperate Battle is cancelled (the FP 4s miss), and Gimli's
    Leadership is given up (no FP re-roll)."""
    armies = {**FIVE_AND, "north-ithilien": {"sauron": {"regular": 3}}}
    s = fight(armies, ("daring-defiance", "desperate-battle"), characters={
        "gimli": "south-ithilien"}, rolls={"shadow": [4] * 3, "free_peoples": [4] * 6})
    choose(s, shadow="desperate-battle", free_peoples="daring-defiance")
    assert roll(s, FREE_PEOPLES) == ((4,) * 5, 0) and roll(s, SHADOW) == ((4,) * 3, 0)
    assert reroll(s, FREE_PEOPLES) is None


def test_daring_defiance_with_no_shadow_card_gives_nothing_up():
    """facts §6.1 Daring Defiance; readings: with no card to cancel, no Leadership is given
    up (Gimli's re-roll stays)."""
    s = fight(FIVE_AND, ("daring-defiance",), characters={"gimli": "south-ithilien"},
              rolls={"shadow": [1] * 4, "free_peoples": [1] * 6})
    choose(s, free_peoples="daring-defiance")
    assert not events(s, "combat-card-cancelled")
    assert reroll(s, FREE_PEOPLES) == ((1,), 0)
    assert not offered(fight(FIVE_AND, ("daring-defiance",)), "daring-defiance")


def test_initiative_zero_tie_goes_to_the_defender():
    """facts §7.2, §6.1: Swarm of Bats and Daring Defiance both at 0: the defender's (FP)
    Daring Defiance acts first and cancels Swarm of Bats, which never acts."""
    s = fight(FIVE_AND, ("swarm-of-bats", "daring-defiance"),
              characters={"gimli": "south-ithilien"},
              rolls={"shadow": [1] * 4, "free_peoples": [1] * 6})
    choose(s, shadow="swarm-of-bats", free_peoples="daring-defiance")
    assert [e[1] for e in events(s, "combat-card-cancelled")] == [SHADOW]


def test_words_of_power_silences_a_companion():
    """facts §6.1 Words of Power (WD-16): the Shadow picks Gimli; his Leadership is cancelled,
    so the FP re-rolls 1 die (Legolas) instead of 2."""
    s = fight(FIVE_AND, ("words-of-power",),
              characters={"gimli": "south-ithilien", "legolas": "south-ithilien"},
              rolls={"shadow": [1] * 4, "free_peoples": [1] * 7})
    choose(s, shadow="words-of-power")
    assert kind(s) == WD.COMBAT_CARD_CHOICE
    assert set(options(s)) == {("character", char("gimli")), ("character", char("legolas"))}
    play(s, ("character", char("gimli")))
    assert reroll(s, FREE_PEOPLES) == ((1,), 0)
    assert not offered(fight({**FIVE_AND, "north-ithilien": {"sauron": {"regular": 3}}},
                             ("words-of-power",)), "words-of-power")


def test_words_of_power_without_a_companion_does_nothing():
    """facts §6.1 Words of Power; facts §6 card rules: no Companion to choose, no effect."""
    s = fight({**FIVE_AND, "south-ithilien": {"gondor": {"regular": 5, "leader": 1}}},
              ("words-of-power",), rolls={"shadow": [1] * 4, "free_peoples": [1] * 6})
    choose(s, shadow="words-of-power")
    assert kind(s) == WD.CEASE_OR_CONTINUE and reroll(s, FREE_PEOPLES) == ((1,), 0)


def test_anduril_strider_turns_a_miss_into_a_hit():
    """facts §6.1 Andúril: Strider's Leadership given up (no re-roll left), one miss is a
    hit: the Shadow loses a Regular."""
    s = fight(FIVE_AND | {"north-ithilien": {"sauron": {"regular": 3}}}, ("anduril",),
              characters={"strider": "south-ithilien"}, fellowship={"guide": "gandalf-the-grey"},
              rolls={"shadow": [1] * 3, "free_peoples": [1] * 6})
    choose(s, free_peoples="anduril")
    assert reroll(s, FREE_PEOPLES) is None
    assert figures(s, "north-ithilien", "sauron")[0] == 2
    sound(s)


def test_anduril_aragorn_turns_two_misses():
    """facts §6.1 Andúril: Aragorn's Leadership (2) given up for two misses turned."""
    s = fight(FIVE_AND | {"north-ithilien": {"sauron": {"regular": 3}}}, ("anduril",),
              characters={"aragorn": "south-ithilien", "strider": "out"},
              rolls={"shadow": [1] * 3, "free_peoples": [1] * 7})
    choose(s, free_peoples="anduril")
    assert reroll(s, FREE_PEOPLES) is None
    assert figures(s, "north-ithilien", "sauron")[0] == 1
    assert not offered(fight(FIVE_AND, ("anduril",)), "anduril")


def test_mighty_attack_a_companion_turns_one_miss():
    """facts §6.1 Mighty Attack (WD-16): Gimli's Leadership for one hit; Legolas still
    re-rolls one die."""
    s = fight(FIVE_AND | {"north-ithilien": {"sauron": {"regular": 3}}}, ("mighty-attack",),
              characters={"gimli": "south-ithilien", "legolas": "south-ithilien"},
              rolls={"shadow": [1] * 3, "free_peoples": [1] * 7})
    choose(s, free_peoples="mighty-attack")
    assert kind(s) == WD.COMBAT_CARD_CHOICE and s.pending.player == FREE_PEOPLES
    play(s, ("character", char("gimli")))
    assert reroll(s, FREE_PEOPLES) == ((1,), 0)
    assert figures(s, "north-ithilien", "sauron")[0] == 2


def test_mighty_attack_without_a_miss_gives_nothing_up():
    """facts §6.1 Mighty Attack: every die hit: no choice, no Leadership given up."""
    s = fight({"north-ithilien": {"sauron": {"regular": 6}},
               "south-ithilien": {"gondor": {"regular": 5}}}, ("mighty-attack",),
              characters={"gimli": "south-ithilien"},
              rolls={"shadow": [1] * 5, "free_peoples": [5] * 5})
    choose(s, free_peoples="mighty-attack")
    assert not events(s, "companion-silenced") and kind(s) == WD.CEASE_OR_CONTINUE
    assert roll(s, FREE_PEOPLES)[1] == 5
    assert not offered(fight(FIVE_AND, ("mighty-attack",)), "mighty-attack")


def test_words_of_power_cancels_captain_of_the_west():
    """facts §6.1 Words of Power ("his Leadership and abilities are cancelled"), §3.1 Captain
    of the West: 3 units with Gimli and Legolas roll 5 dice; Gimli silenced, 4."""
    s = fight({"north-ithilien": {"sauron": {"regular": 3, "nazgul": 1}},
               "south-ithilien": {"gondor": {"regular": 3}}}, ("words-of-power",),
              characters={"gimli": "south-ithilien", "legolas": "south-ithilien"},
              rolls={"shadow": [1] * 4, "free_peoples": [1] * 5})
    choose(s, shadow="words-of-power")
    play(s, ("character", char("gimli")))
    assert len(roll(s, FREE_PEOPLES)[0]) == 4


def test_the_white_rider_leaves_no_nazgul_leadership_for_the_cards():
    """facts §3.2 The White Rider, §6.1: once Gandalf the White gives up his Leadership, the
    Nazgûl's counts for nothing: They Are Terrible (Nazgûl Leadership ≥ 1) is not offered."""
    armies = {"north-ithilien": {"sauron": {"regular": 3, "nazgul": 2}},
              "south-ithilien": {"gondor": {"regular": 3}}}
    s = fight(armies, ("they-are-terrible",), characters={
        "gandalf-the-white": "south-ithilien", "gandalf-the-grey": "out"},
        fellowship={"guide": "strider"})
    assert kind(s) == WD.COMBAT_CARD_CHOICE
    play(s, ("choice", "yes"))
    assert not offered(s, "they-are-terrible")
    s = fight(armies, ("they-are-terrible",), characters={
        "gandalf-the-white": "south-ithilien", "gandalf-the-grey": "out"},
        fellowship={"guide": "strider"})
    play(s, ("choice", "no"))
    assert offered(s, "they-are-terrible")
