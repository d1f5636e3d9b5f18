"""The Characters' abilities of facts §3.1-§3.4 written in ``abilities_battle`` and
``abilities_dice``: Captain of the West, The White Rider, Servants of the White Hand in combat,
Sorcerer, the Witch-king's Nazgûl Leadership; Boromir's, Legolas's and Gimli's nation steps, The
Voice of Saruman, Messenger of the Dark Tower. Each fires where its card says and not elsewhere.
"""

from __future__ import annotations

import pytest

from wotr_env.engine import WD, build, play
from wotr_env.engine import abilities_dice as dice_abilities
from wotr_env.engine.abilities_battle import nazgul_leadership
from wotr_env.engine.battle.forces import battle_of
from wotr_env.engine.decision import ARMY_MUSTER, CHARACTER, DONE, EVENT, MUSTER, WILL, choice
from wotr_env.engine.dice import usable
from wotr_env.engine.state import ELITE, FREE_PEOPLES, REGULAR, SHADOW

from .test_battle_setup import NONE, battle_state, edge, events, figures, kind, options, region
from .test_battle_setup import start as start_battle

YES, NO = choice("yes"), choice("no")
ISENGARD, GONDOR, ELVES, DWARVES = 5, 2, 1, 0
FRONT = "osgiliath"  # the Free Peoples defend here, the Shadow attacks from North Ithilien


def choose_die(state, face: int) -> None:
    """Choose the die where it is asked (a lone option is played without asking)."""
    if state.pending.kind == WD.CHOOSE_DIE:
        play(state, ("die", face))


def dice_rolled(state, side: int) -> list[int]:
    """The number of dice of each Combat roll of ``side``."""
    return [len(e[2]) for e in events(state, "combat-roll") if e[1] == side]


def rerolled(state, side: int) -> list[int]:
    return [len(e[2]) for e in events(state, "leader-reroll") if e[1] == side]


def shadow_attacks(fp: dict, shadow: dict, characters: dict | None = None, **extra):
    """The Shadow attacks the Free Peoples Army in Osgiliath from North Ithilien with an Army
    die; every die misses (1s: a natural 1 misses whatever the modifiers)."""
    s = battle_state({FRONT: fp, "north-ithilien": shadow}, characters=characters or {},
                     rolls={"free_peoples": [1] * 12, "shadow": [1] * 12}, **extra)
    start_battle(s, edge(s, "north-ithilien", FRONT))
    return s


# ---------------------------------------------------------------------------------------------
# Captain of the West


@pytest.mark.parametrize("units,characters,dice", [
    (2, {}, 2),
    (2, {"boromir": FRONT}, 3),
    (1, {"legolas": FRONT, "gimli": FRONT}, 3),
    (2, {"aragorn": FRONT}, 3),
    (2, {"gandalf-the-grey": FRONT, "strider": FRONT}, 4),
    (3, {"boromir": FRONT, "legolas": FRONT, "gimli": FRONT}, 5),
    (5, {"boromir": FRONT}, 5),
    (2, {"gandalf-the-white": FRONT}, 2),
    (2, {"meriadoc": FRONT}, 2),
])
def test_captain_of_the_west_adds_a_combat_die(units: int, characters: dict, dice: int):
    """facts §3.1, §3.2, spec §12.2: each Captain of the West (Gandalf the Grey, Strider,
    Boromir, Legolas, Gimli, Aragorn) in the battle adds 1 to the Free Peoples' Combat
    Strength, however many units, the 5-dice cap still holding; Gandalf the White and the
    Hobbits have no such ability."""
    s = shadow_attacks({"gondor": {"regular": units}}, {"sauron": {"regular": 3}}, characters)
    play(s, NONE, NONE)
    assert dice_rolled(s, FREE_PEOPLES) == [dice]
    assert dice_rolled(s, SHADOW) == [3]  # the Shadow's strength is untouched


def test_a_captain_in_the_rearguard_adds_nothing():
    """facts §3.1, §7.2: a Character held back in the rearguard is not in the battle, so his
    Captain of the West does not count; fighting, he does."""
    army = {FRONT: {"gondor": {"regular": 3}}, "north-ithilien": {"sauron": {"regular": 3}}}
    for held, dice in ((True, 2), (False, 3)):
        s = battle_state(army, side="free_peoples", face="army_muster",
                         characters={"boromir": FRONT},
                         rolls={"free_peoples": [1] * 10, "shadow": [1] * 10})
        boromir = s.ruleset.cards.character("boromir")
        rear = (("unit", GONDOR, REGULAR), ("character", boromir)) if held \
            else (("unit", GONDOR, REGULAR),)
        start_battle(s, edge(s, FRONT, "north-ithilien"), rear=rear)
        play(s, NONE, NONE)
        assert dice_rolled(s, FREE_PEOPLES) == [dice]


# ---------------------------------------------------------------------------------------------
# The White Rider, and the Witch-king's Leadership as a Nazgûl's


NAZGUL_ARMY = {"sauron": {"regular": 5, "nazgul": 2}}
WHITE_AND_WITCH = {"gandalf-the-white": FRONT, "witch-king": "north-ithilien"}


def test_the_white_rider_cancels_every_nazgul_leadership_and_his_own():
    """facts §3.2 (The White Rider), §3.4, spec §20 #38: at the battle's start Gandalf the
    White gives up his Leadership; the two Nazgûl's and the Witch-king's 2 count for nothing
    in the Leader re-roll nor as Nazgûl Leadership for card texts, and he re-rolls nothing."""
    s = shadow_attacks({"gondor": {"regular": 5}}, NAZGUL_ARMY, WHITE_AND_WITCH)
    assert kind(s) == WD.COMBAT_CARD_CHOICE and s.pending.player == FREE_PEOPLES
    assert s.pending.context == {"ability": "the-white-rider"}
    play(s, YES)
    assert nazgul_leadership(s, battle_of(s)) == 0
    play(s, NONE, NONE)
    assert dice_rolled(s, SHADOW) == [5] and rerolled(s, SHADOW) == []
    assert rerolled(s, FREE_PEOPLES) == []
    assert ("white-rider",) in events(s, "white-rider")


def test_without_the_white_rider_the_nazgul_lead():
    """facts §3.4, spec §20 #38: declined, the Nazgûl lead 1 each and the Witch-king 2 (4
    re-rolls, and 4 Nazgûl Leadership for card texts: he counts as a Nazgûl); Gandalf the
    White re-rolls 1."""
    s = shadow_attacks({"gondor": {"regular": 5}}, NAZGUL_ARMY, WHITE_AND_WITCH)
    play(s, NO)
    assert nazgul_leadership(s, battle_of(s)) == 4
    assert nazgul_leadership(s, battle_of(s), FREE_PEOPLES) == 0
    play(s, NONE, NONE)
    assert rerolled(s, SHADOW) == [4] and rerolled(s, FREE_PEOPLES) == [1]


def test_the_white_rider_is_not_offered_without_nazgul_leadership():
    """facts §3.2: with no Nazgûl (nor the Witch-king) against him there is nothing to cancel,
    and the battle goes straight to its Combat cards."""
    s = shadow_attacks({"gondor": {"regular": 5}}, {"sauron": {"regular": 5}},
                       {"gandalf-the-white": FRONT, "witch-king": "minas-morgul"})
    assert kind(s) == WD.COMBAT_CARD and s.pending.player == SHADOW


# ---------------------------------------------------------------------------------------------
# Servants of the White Hand


def isengard_attack(saruman: str, face: str = "army", elites: int = 2):
    army = {"fords-of-isen": {"isengard": {"regular": 1, "elite": elites}},
            "westemnet": {"rohan": {"regular": 3}}}
    return battle_state(army, face=face, characters={"saruman": saruman},
                        rolls={"free_peoples": [1] * 10, "shadow": [1] * 10})


@pytest.mark.parametrize("saruman,rerolls", [("orthanc", [2]), ("out", []),
                                             ("eliminated", [])])
def test_isengard_elites_lead_in_combat_while_saruman_is_in_play(saruman: str, rerolls: list):
    """facts §3.4 (Servants of the White Hand), spec §12.3: with Saruman in play each Isengard
    Elite is also a Leader in battle: two Elites re-roll two misses; not before he enters, nor
    once he is eliminated."""
    s = isengard_attack(saruman)
    start_battle(s, edge(s, "fords-of-isen", "westemnet"))
    play(s, NONE, NONE)
    assert rerolled(s, SHADOW) == rerolls


def test_an_isengard_elite_leads_a_character_die_attack():
    """facts §3.4, §7.1: a Character die attacks with an Army that holds a Leader: with Saruman
    in play an Isengard Elite is one; the rearguard may not hold back the only such Elite."""
    s = isengard_attack("out", face="character")
    assert "leader-attack" not in usable(s, SHADOW, CHARACTER)
    s = isengard_attack("orthanc", face="character", elites=1)
    assert "leader-attack" in usable(s, SHADOW, CHARACTER)
    play(s, ("action", "leader-attack"))
    assert kind(s) == WD.REARGUARD
    assert ("unit", ISENGARD, REGULAR) in options(s)
    assert ("unit", ISENGARD, ELITE) not in options(s)
    s = isengard_attack("orthanc", face="character", elites=2)
    play(s, ("action", "leader-attack"))
    assert ("unit", ISENGARD, ELITE) in options(s)


# ---------------------------------------------------------------------------------------------
# Sorcerer


CARD = "sh-strat-22-monsters-roused"  # Desperate Battle: no condition; 1s never hit
TOP = "sh-strat-24-pits-of-mordor"  # Desperate Battle too


def sorcerer_battle(witch_king: str):
    s = shadow_attacks({"gondor": {"regular": 3}}, {"sauron": {"regular": 3}},
                       {"witch-king": witch_king}, hands={"shadow": [CARD]},
                       decks={"shadow-strategy": [TOP]})
    card = s.ruleset.cards.card
    play(s, ("card", card(CARD)), NONE)
    return s, card


def test_sorcerer_draws_after_a_first_round_combat_card():
    """facts §3.4 (Sorcerer), WD-37: the Witch-king in the battle, the Shadow plays a Combat
    card in the first round: once the round is over he may draw a card of its type (here a
    Strategy card); a card in the second round draws nothing."""
    s, card = sorcerer_battle("north-ithilien")
    assert kind(s) == WD.EXTRA_DRAW and s.pending.player == SHADOW
    assert s.pending.context == {"deck": 3, "ability": "sorcerer"}
    assert dice_rolled(s, SHADOW) == [3]  # the round was fought first
    play(s, YES)
    assert s.hands[SHADOW] == [card(TOP)]
    assert kind(s) == WD.CEASE_OR_CONTINUE
    play(s, choice("continue"))
    if kind(s) == WD.RETREAT:
        play(s, choice("stay"))
    play(s, ("card", card(TOP)), NONE)
    assert kind(s) == WD.CEASE_OR_CONTINUE  # round 2: no draw
    assert card(TOP) in s.discards[SHADOW]


def test_no_sorcerer_without_the_witch_king_in_the_battle():
    """facts §3.4: the Witch-king elsewhere on the map: the card draws nothing."""
    s, card = sorcerer_battle("minas-morgul")
    assert kind(s) == WD.CEASE_OR_CONTINUE and s.hands[SHADOW] == []


def test_sorcerer_may_decline_the_draw():
    """WD-37: the draw is optional."""
    s, card = sorcerer_battle("north-ithilien")
    play(s, NO)
    assert s.hands[SHADOW] == [] and s.decks[3][-1] == card(TOP)


# ---------------------------------------------------------------------------------------------
# Boromir, Legolas, Gimli: any die advances their nation


def companions_at(characters: dict, fp_die: str = "army_muster", **extra):
    spec = {"characters": characters, "dice": {"free_peoples": [fp_die], "shadow": ["event"]},
            "rings": ["gone", "gone", "gone"]}
    spec["politics"] = {"gondor": {"steps": 2, "active": True},
                        "elves": {"steps": 2, "active": True},
                        "dwarves": {"steps": 2, "active": True}, **extra.pop("politics", {})}
    return build({**spec, **extra})


@pytest.mark.parametrize("who,where,nation,face", [
    ("boromir", "minas-tirith", GONDOR, ARMY_MUSTER), ("boromir", "pelargir", GONDOR, EVENT),
    ("legolas", "lorien", ELVES, MUSTER), ("legolas", "woodland-realm", ELVES, CHARACTER),
    ("gimli", "erebor", DWARVES, WILL)])
def test_a_companion_advances_his_nation_with_any_die(who: str, where: str, nation: int,
                                                     face: int):
    """facts §3.1 (High Warden of the White Tower, Prince of Mirkwood, Dwarf of Erebor):
    Boromir in an unconquered Gondor City or Stronghold, Legolas in an unconquered Elven
    Stronghold, Gimli in unconquered Erebor: any Action die advances that nation one step."""
    names = {ARMY_MUSTER: "army_muster", EVENT: "event", MUSTER: "muster", CHARACTER: "character",
             WILL: "will_of_the_west"}
    s = companions_at({who: where}, names[face])
    assert "nation-ability" in usable(s, FREE_PEOPLES, face)
    choose_die(s, face)
    play(s, ("action", "nation-ability"))
    assert int(s.politics[nation]) == 1
    assert events(s, "nation-ability") == [("nation-ability", nation)]


@pytest.mark.parametrize("who,where,extra", [
    ("boromir", "minas-tirith", {"control": {"minas-tirith": "shadow"}}),  # conquered
    ("boromir", "osgiliath", {}),  # a Fortification, not a City
    ("boromir", "lossarnach", {}),  # a Gondor Town
    ("legolas", "rivendell", {"control": {"rivendell": "shadow"}}),
    ("legolas", "dale", {}),  # a Northern City
    ("gimli", "iron-hills", {}),  # a Dwarven Town, not Erebor
    ("gimli", "erebor", {"control": {"erebor": "shadow"}}),
    ("boromir", "fellowship", {}),  # in the Fellowship his ability does not work
    ("boromir", "minas-tirith", {"politics": {"gondor": {"steps": 0, "active": True}}}),
    ("legolas", "lorien", {"politics": {"elves": {"steps": 1, "active": False}}}),
])
def test_no_nation_step_where_the_condition_fails(who: str, where: str, extra: dict):
    """facts §3.1, §7.5: not in a conquered Settlement, nor the wrong kind of one, nor from the
    Fellowship; not for a nation At War, nor to take a Passive nation to war."""
    s = companions_at({who: where}, **extra)
    assert "nation-ability" not in usable(s, FREE_PEOPLES, ARMY_MUSTER)


def test_two_companions_ask_which_nation():
    """WD-38: Boromir in Minas Tirith and Legolas in Lórien: the die advances the one chosen."""
    s = companions_at({"boromir": "minas-tirith", "legolas": "lorien"})
    choose_die(s, ARMY_MUSTER)
    play(s, ("action", "nation-ability"))
    assert kind(s) == WD.CHARACTER_ABILITY
    assert set(options(s)) == {("nation", GONDOR), ("nation", ELVES)}
    play(s, ("nation", ELVES))
    assert int(s.politics[ELVES]) == 1 and int(s.politics[GONDOR]) == 2


def test_a_companions_step_calls_the_advance_hooks(monkeypatch):
    """facts §6.5 #5: a card discarded when a nation advances through a Companion's ability
    (*Threats and Promises*) hears of the step."""
    heard = []
    monkeypatch.setattr(dice_abilities, "ADVANCE_HOOKS", [lambda st, n: heard.append(n)])
    s = companions_at({"gimli": "erebor"})
    choose_die(s, ARMY_MUSTER)
    play(s, ("action", "nation-ability"))
    assert heard == [DWARVES]


# ---------------------------------------------------------------------------------------------
# The Voice of Saruman


def saruman_position(armies: dict | None = None, **extra):
    spec = {"characters": {"saruman": "orthanc"}, "armies": armies or {},
            "politics": {"isengard": {"steps": 0, "active": True}},
            "dice": {"shadow": ["muster"], "free_peoples": ["event"]}, "to_act": "shadow",
            "rings": ["gone", "gone", "gone"]}
    return build({**spec, **extra})


def voice(state) -> None:
    play(state, ("action", "voice-of-saruman"))


def test_the_voice_recruits_a_regular_in_every_isengard_settlement():
    """facts §3.4 (The Voice of Saruman): a Muster die recruits one Isengard Regular in each
    Isengard Settlement: Orthanc, North Dunland, South Dunland."""
    s = saruman_position()
    voice(s)  # no Regulars in Orthanc to swap: the recruit is the only mode
    for rid in ("orthanc", "north-dunland", "south-dunland"):
        assert figures(s, rid, "isengard") == [1, 0, 0, 0]
    assert int(s.reserve[ISENGARD, REGULAR]) == 12 - 3


def test_the_voice_skips_a_settlement_the_shadow_cannot_recruit_in():
    """facts §3.4, §7.4: a Settlement captured by the Free Peoples gets no Regular."""
    s = saruman_position(control={"south-dunland": "free_peoples"})
    voice(s)
    assert figures(s, "south-dunland", "isengard") == [0, 0, 0, 0]
    assert figures(s, "north-dunland", "isengard") == [1, 0, 0, 0]


def test_the_voice_with_few_regulars_left_lets_the_shadow_choose():
    """facts §3.4, WD-29: two Regulars left for three Settlements: the Shadow places them."""
    s = saruman_position({"gap-of-rohan": {"isengard": {"regular": 10}}})
    voice(s)
    assert kind(s) == WD.MUSTER_PLACEMENT
    play(s, ("region", region(s, "south-dunland")), ("region", region(s, "orthanc")))
    assert figures(s, "south-dunland", "isengard")[REGULAR] == 1
    assert figures(s, "orthanc", "isengard")[REGULAR] == 1
    assert figures(s, "north-dunland", "isengard")[REGULAR] == 0
    assert int(s.reserve[ISENGARD, REGULAR]) == 0


def test_the_voice_swaps_two_regulars_in_orthanc_for_two_elites():
    """facts §3.4: or two Isengard Regulars in Orthanc become two Elites (figures conserved:
    the Regulars go back to the reinforcements)."""
    s = saruman_position({"orthanc": {"isengard": {"regular": 3}}})
    voice(s)
    assert kind(s) == WD.CHARACTER_ABILITY
    assert set(options(s)) == {choice("voice-recruit"), choice("voice-elites")}
    play(s, choice("voice-elites"))
    assert figures(s, "orthanc", "isengard") == [1, 2, 0, 0]
    assert int(s.reserve[ISENGARD, ELITE]) == 6 - 2
    assert int(s.reserve[ISENGARD, REGULAR]) == 12 - 1


@pytest.mark.parametrize("extra", [
    {"characters": {}},  # Saruman not in play
    {"characters": {"saruman": "eliminated"}},
    {"boxes": {"orthanc": {"isengard": {"regular": 2}}},
     "armies": {"orthanc": {"rohan": {"regular": 2}}}},  # Orthanc besieged
    {"control": {"orthanc": "free_peoples"}},
])
def test_no_voice_without_saruman_or_with_orthanc_lost_or_besieged(extra: dict):
    """facts §3.4: only while Saruman is in play and the Shadow holds Orthanc, not besieged."""
    s = saruman_position(**extra)
    assert "voice-of-saruman" not in usable(s, SHADOW, MUSTER)


def test_no_swap_with_one_regular_in_orthanc():
    """facts §3.4: the swap takes two Regulars: with one, only the recruit is offered."""
    s = saruman_position({"orthanc": {"isengard": {"regular": 1}}})
    assert dice_abilities.voice_modes(s) == ["voice-recruit"]


# ---------------------------------------------------------------------------------------------
# Messenger of the Dark Tower


def mouth_position(mouth: str = "barad-dur", **extra):
    spec = {"characters": {"mouth-of-sauron": mouth},
            "armies": {"gorgoroth": {"sauron": {"regular": 2}}},
            "dice": {"shadow": ["muster", "muster"], "free_peoples": ["event", "event"]},
            "to_act": "shadow", "rings": ["gone", "gone", "gone"]}
    return build({**spec, **extra})


def test_the_messenger_uses_a_muster_die_as_an_army_die_once_a_turn():
    """facts §3.4 (Messenger of the Dark Tower): a Muster die moves Armies as an Army die
    would; the second Muster die of the turn cannot."""
    s = mouth_position()
    choose_die(s, MUSTER)
    assert ("action", "messenger") in options(s)
    play(s, ("action", "messenger"))  # moving Armies: the only Army action, not asked
    assert kind(s) == WD.ARMY_MOVE
    gorgoroth, morannon = region(s, "gorgoroth"), region(s, "morannon")
    play(s, ("edge", gorgoroth, morannon), choice("all"))
    if kind(s) == WD.ARMY_MOVE:  # a second Army may move: none does
        play(s, DONE)
    assert figures(s, "morannon", "sauron")[REGULAR] == 2
    assert events(s, "messenger") == [("messenger", "move-armies")]
    choose_die(s, EVENT)
    play(s, ("action", "skip"))  # the Free Peoples' turn
    assert "messenger" not in usable(s, SHADOW, MUSTER)
    s.turn += 1  # the next turn (the ability is once per turn)
    assert "messenger" in usable(s, SHADOW, MUSTER)


@pytest.mark.parametrize("mouth,armies", [
    ("out", {"gorgoroth": {"sauron": {"regular": 2}}}),  # not in play
    ("eliminated", {"gorgoroth": {"sauron": {"regular": 2}}}),
    ("barad-dur", {}),  # no Army to move or attack with
])
def test_no_messenger_without_the_mouth_or_an_army_action(mouth: str, armies: dict):
    """facts §3.4: the Mouth of Sauron must be in play, and an Army die must have a use."""
    s = mouth_position(mouth, armies=armies)
    assert "messenger" not in usable(s, SHADOW, MUSTER)
