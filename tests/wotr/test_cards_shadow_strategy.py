"""The Shadow Strategy cards that are not recruiting cards (facts §6.5 #1-#3, #5-#9, #11; #10
and #21 in test_cards_coast_and_east.py; the general card rules at the end of facts §6.5; spec
§7.3, §7.5): each fires as its text says, and one with a condition is not offered, or does
nothing, when it fails."""

from __future__ import annotations

from wotr_env.engine import play
from wotr_env.engine.decision import CHARACTER, DONE, EVENT, MUSTER, WD, WILL
from wotr_env.engine.events import playable
from wotr_env.engine.invariants import check
from wotr_env.engine.state import ELITE, FREE_PEOPLES, LEADER, REGULAR, SHADOW

from .helpers import answer_private, card, char, die, events, n, play_card, position, r

AT_WAR = {"steps": 0, "active": True}
SHADOW_AT_WAR = {"isengard": AT_WAR, "sauron": AT_WAR, "southrons": AT_WAR}
VALINOR = "sh-strat-01-return-to-valinor"
URUK_HAI = "sh-strat-02-the-fighting-uruk-hai"
DENETHOR = "sh-strat-03-denethors-folly"
THREATS = "sh-strat-05-threats-and-promises"
STORMCROW = "sh-strat-06-stormcrow"
GATHER = "sh-strat-07-shadows-gather"
LENGTHENS = "sh-strat-08-the-shadow-lengthens"
MOVING = "sh-strat-09-the-shadow-is-moving"
RAGE = "sh-strat-11-rage-of-the-dunlendings"
FP_CARD = "fp-strat-10-help-unlooked-for"  # a Combat card with no condition (No Quarter)









def skip(state) -> None:
    die(state, state.pending.options[0][1] if state.pending.kind == WD.CHOOSE_DIE else 0)
    play(state, ("action", "skip"))



# -- Return to Valinor (#1) -------------------------------------------------------------------
VALINOR_BOARD = {"control": {"grey-havens": "shadow"},
                 "armies": {"rivendell": {"elves": {"regular": 2}},
                            "lorien": {"elves": {"regular": 2, "elite": 1}},
                            "woodland-realm": {"sauron": {"regular": 2}}},
                 "boxes": {"woodland-realm": {"elves": {"regular": 1}}}}


def test_return_to_valinor_strikes_each_elven_stronghold_not_besieged() -> None:
    """facts §6.5 #1, §8.3 (condition read as written: the Shadow, who plays it, controls an
    Elven Stronghold, the Grey Havens here): Lórien rolls 3 dice (2 sixes), Rivendell 2 (one
    six); the besieged Woodland Realm rolls none; the Free Peoples take the casualties."""
    s = position("shadow", [VALINOR], rolls={"shadow": [6, 6, 1, 6, 2]}, **VALINOR_BOARD)
    play_card(s, VALINOR)
    assert s.pending.kind == WD.EVENT_CASUALTY and s.pending.player == FREE_PEOPLES
    assert s.pending.context["region"] == r("lorien")
    play(s, ("casualty", n("elves"), "regular"), ("casualty", n("elves"), "regular"))
    assert list(s.army[r("lorien"), n("elves"), :2]) == [0, 1]
    assert s.army[r("rivendell"), n("elves"), REGULAR] == 1
    assert s.box[r("woodland-realm"), n("elves"), REGULAR] == 1


def test_return_to_valinor_needs_a_shadow_controlled_elven_stronghold() -> None:
    """facts §6.5 #1 (precondition)."""
    s = position("shadow", [VALINOR], armies=VALINOR_BOARD["armies"])
    assert playable(s, SHADOW, EVENT) == []


# -- The Fighting Uruk-hai (#2) ---------------------------------------------------------------
def uruk_hai(**spec: object):
    s = position("shadow", [URUK_HAI], politics=SHADOW_AT_WAR, hands={"free_peoples": [FP_CARD]},
                 characters={"saruman": "orthanc", **spec.pop("characters", {})},
                 boxes={"helms-deep": {"rohan": {"regular": 2}}},
                 armies={"helms-deep": {"isengard": {"regular": 4}}},
                 rolls={"shadow": [1] * 20, "free_peoples": [1] * 20}, **spec)
    return s


def test_the_fighting_uruk_hai_siege_lasts_three_rounds_no_fp_card_in_round_1() -> None:
    """facts §6.5 #2, §7.3: the besiegers of Helm's Deep attack: in round 1 the Free Peoples
    may play no Combat card (no Companion is in the battle), in round 2 they may; the siege
    battle goes on after round 1 (the attacker is asked to cease or continue)."""
    s = uruk_hai()
    play_card(s, URUK_HAI)
    if s.pending.kind == WD.REARGUARD:
        play(s, DONE)
    assert events(s, "battle")[0][2:] == (SHADOW, r("helms-deep"), r("helms-deep"), "siege")
    play(s, ("choice", "none"))  # the Shadow's Combat card
    assert s.pending.player == FREE_PEOPLES and s.pending.options == (("choice", "none"),)
    play(s, ("choice", "none"))
    assert s.pending.kind == WD.CEASE_OR_CONTINUE
    play(s, ("choice", "continue"), ("choice", "none"))
    assert ("card", card(FP_CARD)) in s.pending.options


def test_the_fighting_uruk_hai_a_companion_in_the_stronghold_frees_the_card() -> None:
    """facts §6.5 #2: with Gimli inside Helm's Deep the Free Peoples may play their card in
    round 1."""
    s = uruk_hai(characters={"gimli": "helms-deep"})
    s.char_in_box[char("gimli")] = True  # (the scenario puts Characters in the field)
    play_card(s, URUK_HAI)
    if s.pending.kind == WD.REARGUARD:
        play(s, DONE)
    play(s, ("choice", "none"))
    assert ("card", card(FP_CARD)) in s.pending.options


def test_the_fighting_uruk_hai_needs_saruman() -> None:
    """facts §6.5 #2 (precondition: Saruman in play)."""
    s = uruk_hai(characters={"saruman": "out"})
    assert playable(s, SHADOW, EVENT) == []


# -- Denethor's Folly (#3) --------------------------------------------------------------------
SIEGE_OF_MT = {"boxes": {"minas-tirith": {"gondor": {"regular": 3, "leader": 1},
                                          "rohan": {"leader": 1}}},
               "armies": {"minas-tirith": {"sauron": {"regular": 5}}}}


def test_denethors_folly_kills_a_leader_and_goes_on_the_table() -> None:
    """facts §6.5 #3: the Shadow picks the Gondor Leader in besieged Minas Tirith."""
    s = position("shadow", [DENETHOR], **SIEGE_OF_MT)
    play_card(s, DENETHOR)
    play(s, ("nation", n("gondor")))
    assert s.box[r("minas-tirith"), n("gondor"), LEADER] == 0
    assert s.casualties[n("gondor"), LEADER] == 1 and s.table == [card(DENETHOR)]


def test_denethors_folly_needs_a_siege_of_minas_tirith() -> None:
    """facts §6.5 #3 (precondition)."""
    s = position("shadow", [DENETHOR], armies={"minas-tirith": {"gondor": {"regular": 2}}})
    assert playable(s, SHADOW, EVENT) == []


def test_denethors_folly_no_fp_combat_card_at_minas_tirith() -> None:
    """facts §6.5 #3: a siege battle at Minas Tirith: the Free Peoples may play no Combat
    card while the card lies on the table."""
    s = position("shadow", [], ["army"], table=[DENETHOR], politics=SHADOW_AT_WAR,
                 hands={"free_peoples": [FP_CARD]}, **SIEGE_OF_MT)
    die(s, 1)
    play(s, ("action", "attack"))
    if s.pending.kind == WD.ATTACK_TARGET:
        play(s, ("region", r("minas-tirith")))
    if s.pending.kind == WD.REARGUARD:
        play(s, DONE)
    play(s, ("choice", "none"))
    assert s.pending.player == FREE_PEOPLES and s.pending.options == (("choice", "none"),)


def test_denethors_folly_is_ended_by_a_will_of_the_west_die_or_any_die_with_gandalf() -> None:
    """facts §6.5 #3, spec §7.5: a Character die cannot end it; a Will of the West die can;
    with Gandalf the White in Minas Tirith a Character die can."""
    s = position("free_peoples", [], ["character", "will_of_the_west"], table=[DENETHOR],
                 **SIEGE_OF_MT)
    play(s, ("die", CHARACTER))
    assert ("action", "discard-table-card") not in s.pending.options
    s = position("free_peoples", [], ["character", "will_of_the_west"], table=[DENETHOR],
                 **SIEGE_OF_MT)
    play(s, ("die", WILL), ("action", "discard-table-card"))
    answer_private(s)
    assert s.table == [] and card(DENETHOR) in s.discards[SHADOW]
    s = position("free_peoples", [], ["character"], table=[DENETHOR],
                 characters={"gandalf-the-grey": "eliminated",
                             "gandalf-the-white": "minas-tirith"}, **SIEGE_OF_MT)
    play(s, ("die", CHARACTER), ("action", "discard-table-card"))
    answer_private(s)
    assert s.table == []


def test_denethors_folly_goes_when_the_siege_ends() -> None:
    """facts §6.5 #3 (it goes when the siege ends), §6 card rules (a table card whose play
    condition stops being true is discarded at once): the besiegers march off."""
    s = position("shadow", [], ["army"], table=[DENETHOR], politics=SHADOW_AT_WAR,
                 **SIEGE_OF_MT)
    play(s, ("die", 1), ("action", "move-armies"), ("edge", r("minas-tirith"), r("osgiliath")),
         ("choice", "all"))
    if s.pending.kind == WD.ARMY_MOVE:
        play(s, DONE)
    assert not s.box[r("minas-tirith")].any()
    assert s.table == [] and card(DENETHOR) in s.discards[SHADOW]


# -- Threats and Promises (#5) ----------------------------------------------------------------
def test_threats_and_promises_no_muster_die_for_a_passive_nation() -> None:
    """facts §6.5 #5: the Free Peoples' Muster die may advance the Elves (Active), not the
    Passive nations; without the card it may."""
    s = position("free_peoples", [], ["muster"], table=[THREATS])
    steps = int(s.politics[n("elves")])
    play(s, ("die", MUSTER), ("action", "diplomacy"))  # (one option left: played at once)
    assert s.politics[n("elves")] == steps - 1 and s.politics[n("gondor")] == 2
    s = position("free_peoples", [], ["muster"])
    play(s, ("die", MUSTER), ("action", "diplomacy"))
    assert ("nation", n("gondor")) in s.pending.options


def test_threats_and_promises_is_discarded_when_an_attack_advances_a_nation() -> None:
    """facts §6.5 #5, issue 27 item 2 (*Threats and Promises* never discarded, a bug found in
    another implementation): the Shadow attacks the North's Army in Bree; the North advances
    (an attack): the card goes at once."""
    s = position("shadow", [], ["army"], table=[THREATS], politics=SHADOW_AT_WAR,
                 armies={"weather-hills": {"sauron": {"regular": 3}},
                         "bree": {"the-north": {"regular": 1}}})
    steps = int(s.politics[n("the-north")])
    play(s, ("die", 1), ("action", "attack"))
    if s.pending.kind == WD.ATTACK_TARGET:
        play(s, ("edge", r("weather-hills"), r("bree")))
    if s.pending.kind == WD.REARGUARD:
        play(s, DONE)
    assert s.politics[n("the-north")] == steps - 1
    assert s.table == [] and card(THREATS) in s.discards[SHADOW]


def test_threats_and_promises_is_discarded_when_a_companions_ability_advances_a_nation() -> None:
    """facts §6.5 #5, §3.1 (Boromir's *High Warden of the White Tower*: in an unconquered
    Gondor City or Stronghold any die advances Gondor): the card goes."""
    s = position("free_peoples", [], ["character"], table=[THREATS],
                 characters={"boromir": "minas-tirith"})
    play(s, ("die", CHARACTER), ("action", "nation-ability"))
    assert s.politics[n("gondor")] == 1
    assert s.table == [] and card(THREATS) in s.discards[SHADOW]


def test_threats_and_promises_stays_when_a_card_advances_a_nation() -> None:
    """facts §6.5 #5: an advance by an Event card (Wisdom of Elrond) is neither an attack nor
    a Companion's ability: the card stays."""
    s = position("free_peoples", ["fp-strat-08-wisdom-of-elrond"], table=[THREATS])
    play_card(s, "fp-strat-08-wisdom-of-elrond")
    play(s, ("nation", n("rohan")))
    assert s.politics[n("rohan")] == 2 and s.table == [card(THREATS)]


# -- Stormcrow (#6) ---------------------------------------------------------------------------
def test_stormcrow_pushes_gondor_back_and_the_free_peoples_lose_a_figure() -> None:
    """facts §6.5 #6: Boromir is in Minas Tirith, Gondor not At War: Gondor goes back one step;
    the Free Peoples eliminate one Gondor Leader or unit of their choice (the Leader here)."""
    s = position("shadow", [STORMCROW], characters={"boromir": "minas-tirith"},
                 politics={"elves": AT_WAR},
                 armies={"minas-tirith": {"gondor": {"regular": 1, "leader": 1}},
                         "osgiliath": {"gondor": {"regular": 2}}})
    play_card(s, STORMCROW)
    assert s.politics[n("gondor")] == 3
    assert s.pending.player == FREE_PEOPLES
    play(s, ("region", r("minas-tirith")), ("figure", LEADER))
    assert s.casualties[n("gondor"), LEADER] == 1
    assert s.army[r("minas-tirith"), n("gondor"), REGULAR] == 1 and check(s) == []


def test_stormcrow_needs_a_nation_not_at_war_holding_the_fellowship_or_a_companion() -> None:
    """facts §6.5 #6 (precondition): the Fellowship in Rivendell with the Elves At War, no
    Companion on the map."""
    s = position("shadow", [STORMCROW], politics={"elves": AT_WAR})
    assert playable(s, SHADOW, MUSTER) == []


# -- Shadows Gather (#7), The Shadow Lengthens (#8), The Shadow is Moving (#9) ---------------
def test_shadows_gather_moves_an_army_to_join_another() -> None:
    """facts §6.5 #7: Dol Guldur's Army goes through the North Anduin Vale (where it may not
    stop: no Shadow Army there) to Dimrill Dale, where another Shadow Army stands."""
    s = position("shadow", [GATHER], armies={"dol-guldur": {"sauron": {"regular": 3}},
                                             "dimrill-dale": {"sauron": {"regular": 1}}})
    play_card(s, GATHER)
    play(s, ("region", r("dol-guldur")), ("choice", "all"))
    assert ("edge", r("dol-guldur"), r("eastern-mirkwood")) not in s.pending.options
    play(s, ("edge", r("dol-guldur"), r("north-anduin-vale")))
    assert DONE not in s.pending.options
    play(s, ("edge", r("north-anduin-vale"), r("dimrill-dale")))
    assert s.army[r("dimrill-dale"), n("sauron"), REGULAR] == 4
    assert s.army[r("dol-guldur"), n("sauron"), REGULAR] == 0


def test_the_shadow_lengthens_moves_two_armies_each_to_another() -> None:
    """facts §6.5 #8: Dol Guldur's Army joins the one in Dimrill Dale (2 regions), then Moria's
    joins them (1 region); the figures moved first may not move again."""
    s = position("shadow", [LENGTHENS], armies={"dol-guldur": {"sauron": {"regular": 3}},
                                                "dimrill-dale": {"sauron": {"regular": 1}},
                                                "moria": {"sauron": {"regular": 2}}})
    play_card(s, LENGTHENS)
    play(s, ("region", r("dol-guldur")), ("choice", "all"),
         ("edge", r("dol-guldur"), r("north-anduin-vale")))
    if s.pending.kind == WD.ARMY_MOVE:  # (Dimrill Dale, the only way on, is taken at once)
        play(s, ("edge", r("north-anduin-vale"), r("dimrill-dale")))
    assert s.army[r("dimrill-dale"), n("sauron"), REGULAR] == 4
    assert s.pending.kind == WD.EVENT_CHOICE and DONE in s.pending.options
    assert ("region", r("dimrill-dale")) in s.pending.options  # the Army there before
    play(s, ("region", r("moria")), ("choice", "all"))
    assert s.army[r("dimrill-dale"), n("sauron"), REGULAR] == 6


def test_the_shadow_is_moving_moves_four_armies_and_needs_all_shadow_at_war() -> None:
    """facts §6.5 #9: four different Armies one region each; not playable unless every Shadow
    nation is At War."""
    armies = {"morannon": {"sauron": {"regular": 1}}, "moria": {"sauron": {"regular": 1}},
              "dol-guldur": {"sauron": {"regular": 1}}, "orthanc": {"isengard": {"regular": 1}}}
    s = position("shadow", [MOVING], armies=armies)
    assert playable(s, SHADOW, EVENT) == []
    s = position("shadow", [MOVING], armies=armies, politics=SHADOW_AT_WAR)
    play_card(s, MOVING)
    for a, b in (("morannon", "dagorlad"), ("moria", "hollin"), ("dol-guldur", "north-anduin-vale"),
                 ("orthanc", "gap-of-rohan")):
        play(s, ("edge", r(a), r(b)))
        if s.pending.kind == WD.SPLIT_ARMY:
            play(s, ("choice", "all"))
    for b in ("dagorlad", "hollin", "north-anduin-vale", "gap-of-rohan"):
        assert s.army[r(b), 5:, REGULAR].sum() == 1
    assert s.pending.kind != WD.ARMY_MOVE


# -- Rage of the Dunlendings (#11) ------------------------------------------------------------
def test_rage_of_the_dunlendings_recruits_next_to_dunland_and_brings_four_units() -> None:
    """facts §6.5 #11: 2 Isengard Regulars in Tharbad, then 4 Isengard units from North and
    South Dunland join them (the fifth may not)."""
    s = position("shadow", [RAGE], politics=SHADOW_AT_WAR,
                 armies={"north-dunland": {"isengard": {"regular": 2, "elite": 1}},
                         "south-dunland": {"isengard": {"regular": 2}}})
    play_card(s, RAGE)
    play(s, ("region", r("tharbad")))
    for src, kind in (("north-dunland", ELITE), ("north-dunland", REGULAR),
                      ("south-dunland", REGULAR), ("south-dunland", REGULAR)):
        play(s, ("region", r(src)))
        if s.pending.kind == WD.EVENT_CHOICE and s.pending.context["step"] == "rage-figure":
            play(s, ("figure", kind))
    assert list(s.army[r("tharbad"), n("isengard"), :2]) == [5, 1]
    assert s.army[r("north-dunland"), n("isengard"), REGULAR] == 1
    assert s.pending.kind != WD.EVENT_CHOICE


def test_rage_of_the_dunlendings_needs_isengard_at_war() -> None:
    """facts §6.5 #11 (precondition)."""
    s = position("shadow", [RAGE], politics={"isengard": {"steps": 1, "active": True}})
    assert playable(s, SHADOW, EVENT) == []

