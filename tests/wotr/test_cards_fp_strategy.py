"""The Free Peoples Strategy cards that are not recruiting cards (facts §6.3 #1-#7, #10-#12;
#13 in test_cards_coast_and_east.py; the general card rules at the end of facts §6.5; spec
§7.3, §7.5): each fires as its text says, and one with a condition is not offered, or does
nothing, when it fails."""

from __future__ import annotations

from wotr_env.engine import build, play
from wotr_env.engine.decision import ARMY_MUSTER, CHARACTER, DONE, EVENT, WD, WILL
from wotr_env.engine.events import playable
from wotr_env.engine.invariants import check
from wotr_env.engine.state import ELITE, FREE_PEOPLES, LEADER, REGULAR, SHADOW

from .helpers import answer_private, card, char, die, events, n, play_card, position, r

AT_WAR = {"steps": 0, "active": True}
LAST_BATTLE = "fp-strat-01-the-last-battle"
POWER_TOO_GREAT = "fp-strat-02-a-power-too-great"
TOM_BOMBADIL = "fp-strat-03-the-power-of-tom-bombadil"
MAZARBUL = "fp-strat-04-book-of-mazarbul"
SPIRIT = "fp-strat-05-the-spirit-of-mordor"
RANGERS = "fp-strat-06-faramirs-rangers"
FEAR_FIRE_FOES = "fp-strat-07-fear-fire-foes"
HELP = "fp-strat-10-help-unlooked-for"
WOSES = "fp-strat-11-paths-of-the-woses"
DAY_AND_NIGHT = "fp-strat-12-through-a-day-and-a-night"









def skip(state) -> None:
    """The side to act skips one die."""
    if state.pending.kind == WD.CHOOSE_DIE:
        play(state, state.pending.options[0])
    play(state, ("action", "skip"))



# -- The Last Battle (#1) ---------------------------------------------------------------------
ARAGORN_ABROAD = {"characters": {"strider": "out", "aragorn": "osgiliath"},
                  "armies": {"osgiliath": {"gondor": {"regular": 2}}}}


def test_the_last_battle_needs_aragorn_with_an_army_outside_the_free_peoples_nations() -> None:
    """facts §6.3 #1: Aragorn with a Gondor Army in Osgiliath (no nation's region): playable,
    and it goes on the table; in Minas Tirith (Gondor's), or alone, it is not."""
    s = position("free_peoples", [LAST_BATTLE], **ARAGORN_ABROAD)
    assert card(LAST_BATTLE) in playable(s, FREE_PEOPLES, EVENT)
    play_card(s, LAST_BATTLE)
    assert s.table == [card(LAST_BATTLE)]
    s = position("free_peoples", [LAST_BATTLE], characters={"strider": "out",
                                                            "aragorn": "minas-tirith"},
                 armies={"minas-tirith": {"gondor": {"regular": 2}}})
    assert playable(s, FREE_PEOPLES, EVENT) == []
    s = position("free_peoples", [LAST_BATTLE], characters={"strider": "out",
                                                            "aragorn": "osgiliath"})
    assert playable(s, FREE_PEOPLES, EVENT) == []


def move_fellowship(s) -> None:
    play(s, ("die", CHARACTER), ("action", "move-fellowship"))


def test_the_last_battle_keeps_the_moving_die_out_of_the_hunt_box() -> None:
    """facts §6.3 #1, §7.6: with the card in play the Character die that moved the Fellowship
    is not put in the Hunt Box; without it, it is."""
    for table, in_box in (([LAST_BATTLE], 0), ([], 1)):
        s = position("free_peoples", [], ["character"], table=table, hunt={"box": {"shadow": 1}},
                     rolls={"shadow": [2]}, **ARAGORN_ABROAD)
        move_fellowship(s)
        assert events(s, "hunt-roll") and s.hunt_box[2] == in_box


def test_the_last_battle_is_discarded_when_the_fellowship_is_revealed() -> None:
    """facts §6.3 #1 (discard: revealed), §7.8: a Hunt reveals the Fellowship; the card goes at
    once, so the die that moved it does go into the Hunt Box."""
    s = position("free_peoples", [], ["character"], table=[LAST_BATTLE],
                 hunt={"box": {"shadow": 1}}, rolls={"shadow": [6]}, tiles=["std-1r-1"],
                 **ARAGORN_ABROAD)
    move_fellowship(s)
    play(s, ("choice", "none"))  # the Hunt's 1 damage as Corruption
    play(s, s.pending.options[0])  # the reveal path
    assert s.revealed and card(LAST_BATTLE) in s.discards[FREE_PEOPLES] and s.table == []
    assert s.hunt_box[2] == 1


def test_the_last_battle_is_discarded_when_the_fellowship_is_declared() -> None:
    """facts §6.3 #1 (discard: declared), §7.6."""
    s = build({"start": "turn", "table": [LAST_BATTLE], "fellowship": {"progress": 1},
               **ARAGORN_ABROAD})
    assert s.pending.kind == WD.DECLARE_FELLOWSHIP
    play(s, ("choice", "declare"), DONE)
    assert card(LAST_BATTLE) in s.discards[FREE_PEOPLES] and s.table == []


def test_the_last_battle_goes_when_aragorn_enters_a_free_peoples_nation() -> None:
    """facts §6 card rules (a table card whose play condition stops being true is discarded at
    once), §6.3 #1: Aragorn's Army moves from Osgiliath into Minas Tirith."""
    s = position("free_peoples", [], ["army_muster"], table=[LAST_BATTLE],
                 politics={"gondor": AT_WAR}, **ARAGORN_ABROAD)
    play(s, ("die", ARMY_MUSTER), ("action", "move-armies"),
         ("edge", r("osgiliath"), r("minas-tirith")), ("choice", "all"))
    assert s.char_at[char("aragorn")] == r("minas-tirith")
    assert s.table == [] and card(LAST_BATTLE) in s.discards[FREE_PEOPLES]


# -- A Power too Great (#2), The Power of Tom Bombadil (#3) -----------------------------------
def test_a_power_too_great_advances_the_elves_and_closes_three_regions_to_the_shadow() -> None:
    """facts §6.3 #2: the Elves advance one step; then a Shadow Army next to Lórien may not
    move into it, nor attack the Elves there."""
    s = position("free_peoples", [POWER_TOO_GREAT], politics={"sauron": AT_WAR},
                 armies={"dimrill-dale": {"sauron": {"regular": 3}}})
    steps = int(s.politics[n("elves")])
    play_card(s, POWER_TOO_GREAT)
    assert s.politics[n("elves")] == steps - 1 and s.table == [card(POWER_TOO_GREAT)]
    skip(s)  # the Shadow's die
    s2 = position("shadow", [], ["army"], table=[POWER_TOO_GREAT], politics={"sauron": AT_WAR},
                  armies={"dimrill-dale": {"sauron": {"regular": 3}}})
    play(s2, ("die", 1), ("action", "move-armies"))
    assert ("edge", r("dimrill-dale"), r("parth-celebrant")) in s2.pending.options
    assert ("edge", r("dimrill-dale"), r("lorien")) not in s2.pending.options
    s3 = position("shadow", [], ["army"], table=[POWER_TOO_GREAT], politics={"sauron": AT_WAR},
                  armies={"dimrill-dale": {"sauron": {"regular": 3}},
                          "lorien": {"elves": {"regular": 1}}})
    play(s3, ("die", 1))
    assert ("action", "attack") not in s3.pending.options


def test_without_the_card_the_shadow_may_enter_lorien() -> None:
    """facts §7.4 (control): the same position with no card: Lórien is open."""
    s = position("shadow", [], ["army"], politics={"sauron": AT_WAR},
                 armies={"dimrill-dale": {"sauron": {"regular": 3}}})
    play(s, ("die", 1), ("action", "move-armies"))
    assert ("edge", r("dimrill-dale"), r("lorien")) in s.pending.options


SHADOW_COST = ["sh-strat-07-shadows-gather", "sh-char-08-candles-of-corpses"]  # Army, Character


def test_the_shadow_ends_tom_bombadil_with_a_die_an_army_card_and_a_character_card() -> None:
    """facts §6.3 #3, spec §7.5 (discarding a table card with a die is an action): the North
    advances; the Shadow later spends a die and discards one Army-icon card and one Character
    card; then Buckland is open to his Army in Bree."""
    s = position("free_peoples", [TOM_BOMBADIL])
    steps = int(s.politics[n("the-north")])
    play_card(s, TOM_BOMBADIL)
    assert s.politics[n("the-north")] == steps - 1 and s.table == [card(TOM_BOMBADIL)]
    s = position("shadow", SHADOW_COST, ["army", "army"], table=[TOM_BOMBADIL],
                 politics={"sauron": AT_WAR}, armies={"bree": {"sauron": {"regular": 2}}})
    die(s, 1)
    play(s, ("action", "discard-table-card"))
    answer_private(s)
    assert s.table == [] and card(TOM_BOMBADIL) in s.discards[FREE_PEOPLES]
    assert s.hands[SHADOW] == [] and sorted(s.discards[SHADOW]) == sorted(map(card, SHADOW_COST))
    skip(s)  # the Free Peoples' die
    die(s, 1)
    play(s, ("action", "move-armies"))
    assert ("edge", r("bree"), r("buckland")) in s.pending.options


def test_the_shadow_cannot_end_it_without_both_cards() -> None:
    """facts §6.3 #2: with no Character card in hand the die cannot end the card."""
    s = position("shadow", ["sh-strat-07-shadows-gather"], ["army"], table=[POWER_TOO_GREAT])
    play(s, ("die", 1))
    assert ("action", "discard-table-card") not in s.pending.options


# -- Book of Mazarbul (#4), Fear! Fire! Foes! (#7) --------------------------------------------
def test_book_of_mazarbul_puts_the_dwarves_at_war_when_a_companion_reaches_erebor() -> None:
    """facts §6.3 #4: Gimli moves from Dale into Erebor: the Dwarves are activated and put
    straight At War."""
    s = position("free_peoples", [MAZARBUL], characters={"gimli": "dale"})
    assert not s.active[n("dwarves")] and s.politics[n("dwarves")] == 3
    play_card(s, MAZARBUL)
    play(s, ("character", char("gimli")), ("region", r("erebor")))
    assert s.char_at[char("gimli")] == r("erebor")
    assert s.active[n("dwarves")] and s.politics[n("dwarves")] == 0
    assert check(s) == []


def test_book_of_mazarbul_does_nothing_to_the_dwarves_without_a_companion_there() -> None:
    """facts §6.3 #4, issue 27 item 2 (*Book of Mazarbul*'s condition, a bug found in another
    implementation that put the Dwarves At War unconditionally): Gimli moves to the Iron
    Hills instead; the Dwarves stay Passive, three steps from war."""
    s = position("free_peoples", [MAZARBUL], characters={"gimli": "dale"})
    play_card(s, MAZARBUL)
    play(s, ("character", char("gimli")), ("region", r("iron-hills")))
    assert not s.active[n("dwarves")] and s.politics[n("dwarves")] == 3


def test_fear_fire_foes_with_a_companion_already_in_bree() -> None:
    """facts §6.3 #7: nobody needs to move (DONE); Strider is in Bree: the North goes to war."""
    s = position("free_peoples", [FEAR_FIRE_FOES], characters={"strider": "bree"})
    play_card(s, FEAR_FIRE_FOES)
    play(s, DONE)
    assert s.active[n("the-north")] and s.politics[n("the-north")] == 0


# -- The Spirit of Mordor (#5), Faramir's Rangers (#6) ----------------------------------------
def test_the_spirit_of_mordor_hits_an_army_of_two_shadow_nations() -> None:
    """facts §6.3 #5: only the Dagorlad Army (Sauron and Southron units) may be picked; 5 dice,
    each 5+ a hit (3 here); the Shadow takes the casualties."""
    s = position("free_peoples", [SPIRIT], rolls={"free_peoples": [5, 6, 1, 2, 5]},
                 armies={"dagorlad": {"sauron": {"regular": 2}, "southrons": {"regular": 2}},
                         "morannon": {"sauron": {"regular": 4}}})
    play_card(s, SPIRIT)
    while s.pending.kind == WD.EVENT_CASUALTY:
        assert s.pending.player == SHADOW
        play(s, s.pending.options[0])
    assert s.army[r("dagorlad"), 5:, :2].sum() == 1 and s.army[r("morannon"), 6, REGULAR] == 4


def test_the_spirit_of_mordor_has_no_target_among_single_nation_armies() -> None:
    """facts §6.3 #5: no Army of two Shadow nations: the card is played for nothing (facts §6
    card rules), no die is rolled."""
    s = position("free_peoples", [SPIRIT], armies={"morannon": {"sauron": {"regular": 4}}})
    play_card(s, SPIRIT)
    assert not events(s, "card-roll") and s.army[r("morannon"), 6, REGULAR] == 4


def test_faramirs_rangers_hit_then_recruit_in_osgiliath() -> None:
    """facts §6.3 #6: 3 dice at the Army in North Ithilien (2 hits), then, an FP Army being in
    Osgiliath, one Gondor unit and one Gondor Leader join it there."""
    s = position("free_peoples", [RANGERS], rolls={"free_peoples": [5, 5, 1]},
                 armies={"north-ithilien": {"sauron": {"regular": 3}},
                         "osgiliath": {"gondor": {"regular": 1}}})
    play_card(s, RANGERS)
    assert s.army[r("north-ithilien"), 6, REGULAR] == 1
    play(s, ("figure", ELITE))
    assert list(s.army[r("osgiliath"), n("gondor"), :3]) == [1, 1, 1]


def test_faramirs_rangers_recruit_nobody_without_an_army_in_osgiliath() -> None:
    """facts §6.3 #6: the hits land; no Free Peoples Army in Osgiliath: no recruit."""
    s = position("free_peoples", [RANGERS], rolls={"free_peoples": [6, 1, 1]},
                 armies={"south-ithilien": {"sauron": {"regular": 2}}})
    play_card(s, RANGERS)
    assert s.army[r("south-ithilien"), 6, REGULAR] == 1
    assert not s.army[r("osgiliath")].any() and not events(s, "recruit")


# -- Help Unlooked For (#10) ------------------------------------------------------------------
def siege_of_minas_tirith(inside: int, besiegers: int, **spec: object):
    return position("free_peoples", [HELP], politics={"gondor": AT_WAR},
                    boxes={"minas-tirith": {"gondor": {"regular": inside}}},
                    armies={"minas-tirith": {"sauron": {"regular": besiegers}},
                            "lossarnach": {"gondor": {"regular": 2}}}, **spec)


def shadow_dice(s) -> int:
    return len(next(e for e in s.log if e[1] == "combat-roll" and e[2] == SHADOW)[3])


def test_help_unlooked_for_the_shadow_rolls_one_die_fewer_per_unit_inside() -> None:
    """facts §6.3 #10, §7.3 (relieving a siege): the Gondor Army in Lossarnach attacks the
    besiegers of Minas Tirith; 5 besiegers roll 5 - 3 (units inside) = 2 dice."""
    s = siege_of_minas_tirith(3, 5)
    play_card(s, HELP)
    assert s.pending.kind == WD.REARGUARD
    play(s, DONE, ("choice", "none"), ("choice", "none"))
    assert events(s, "battle")[0][3:5] == (r("lossarnach"), r("minas-tirith"))
    assert shadow_dice(s) == 2


def test_help_unlooked_for_leaves_the_shadow_one_die_at_least() -> None:
    """facts §6.3 #10 (min 1): 3 besiegers, 5 units inside: 1 die."""
    s = siege_of_minas_tirith(5, 3)
    play_card(s, HELP)
    play(s, DONE, ("choice", "none"), ("choice", "none"))
    assert shadow_dice(s) == 1


def test_help_unlooked_for_has_no_target_without_a_siege_next_door() -> None:
    """facts §6.3 #10: no Shadow Army besieges a Stronghold next to a Free Peoples Army: the
    card is played for nothing, no battle."""
    s = position("free_peoples", [HELP], politics={"gondor": AT_WAR},
                 armies={"osgiliath": {"sauron": {"regular": 3}},
                         "lossarnach": {"gondor": {"regular": 2}}})
    play_card(s, HELP)
    assert not events(s, "battle")


# -- Paths of the Woses (#11) -----------------------------------------------------------------
ROHAN_AT_WAR = {"rohan": AT_WAR}


def test_paths_of_the_woses_moves_a_rohan_army_straight_to_minas_tirith() -> None:
    """facts §6.3 #11: the Army of Edoras (Rohan At War) goes to Minas Tirith in one move."""
    s = position("free_peoples", [WOSES], politics=ROHAN_AT_WAR,
                 armies={"edoras": {"rohan": {"regular": 2, "leader": 1}}})
    play_card(s, WOSES)
    play(s, ("choice", "all"))
    assert list(s.army[r("minas-tirith"), n("rohan"), :3]) == [2, 0, 1]
    assert not s.army[r("edoras")].any()


def test_paths_of_the_woses_stops_next_to_a_besieged_minas_tirith() -> None:
    """facts §6.3 #11: the Shadow besieges Minas Tirith: the Army goes to a free region next
    to it instead (Lossarnach, Drúadan Forest, Osgiliath)."""
    s = position("free_peoples", [WOSES], politics=ROHAN_AT_WAR,
                 boxes={"minas-tirith": {"gondor": {"regular": 2}}},
                 armies={"minas-tirith": {"sauron": {"regular": 3}},
                         "edoras": {"rohan": {"regular": 2}}})
    play_card(s, WOSES)
    play(s, ("choice", "all"))
    # a jump, not a border crossing: the step names the region (the action space's EDGE
    # segment holds borders only, and Edoras borders none of these)
    assert set(s.pending.options) == {("region", r(x)) for x in
                                      ("lossarnach", "druadan-forest", "osgiliath")}
    play(s, ("region", r("lossarnach")))
    assert s.army[r("lossarnach"), n("rohan"), REGULAR] == 2


def test_paths_of_the_woses_takes_an_army_out_of_a_besieged_helms_deep() -> None:
    """facts §6.3 #11 ("a besieged Stronghold counts"), §7.3, §7.4: the garrison leaves the box
    for Minas Tirith; the Stronghold, left without defenders, falls to the besiegers."""
    s = position("free_peoples", [WOSES], politics=ROHAN_AT_WAR,
                 boxes={"helms-deep": {"rohan": {"regular": 2}}},
                 armies={"helms-deep": {"isengard": {"regular": 3}}})
    play_card(s, WOSES)
    play(s, ("choice", "all"))
    assert s.army[r("minas-tirith"), n("rohan"), REGULAR] == 2
    assert not s.box[r("helms-deep")].any() and s.control[r("helms-deep")] == SHADOW
    assert check(s) == []


def test_paths_of_the_woses_leaves_behind_a_unit_of_a_nation_not_at_war() -> None:
    """facts §6.3 #11, §7.5 (a nation not At War keeps within its borders; the card does not
    override it), rulebook p.28 via facts §6 (an Army may split before a card moves it): a
    North Regular in Edoras may not enter Minas Tirith, so only the Rohan part goes."""
    s = position("free_peoples", [WOSES], politics=ROHAN_AT_WAR,
                 armies={"edoras": {"rohan": {"regular": 2}, "the-north": {"regular": 1}}})
    play_card(s, WOSES)
    assert s.pending.kind == WD.SPLIT_ARMY and ("choice", "all") not in s.pending.options
    play(s, ("unit", n("the-north"), REGULAR), DONE)
    assert s.army[r("minas-tirith"), n("rohan"), REGULAR] == 2
    assert s.army[r("edoras"), n("the-north"), REGULAR] == 1
    assert not s.army[r("minas-tirith"), n("the-north")].any()


def test_paths_of_the_woses_needs_rohan_at_war() -> None:
    """facts §6.3 #11 (precondition: Rohan At War)."""
    s = position("free_peoples", [WOSES], armies={"edoras": {"rohan": {"regular": 2}}})
    assert playable(s, FREE_PEOPLES, EVENT) == []


# -- Through a Day and a Night (#12) ----------------------------------------------------------
def test_through_a_day_and_a_night_moves_a_companions_army_two_regions() -> None:
    """facts §6.3 #12: Strider's Army goes Osgiliath - North Ithilien - Dagorlad (regions of no
    nation, free for army movement), picking up nobody on the way."""
    s = position("free_peoples", [DAY_AND_NIGHT], characters={"strider": "osgiliath"},
                 armies={"osgiliath": {"gondor": {"regular": 2}},
                         "north-ithilien": {"gondor": {"regular": 1}}})
    play_card(s, DAY_AND_NIGHT)
    play(s, ("choice", "all"), ("edge", r("osgiliath"), r("north-ithilien")))
    assert DONE in s.pending.options  # it may stop after one region
    play(s, ("edge", r("north-ithilien"), r("dagorlad")))
    assert s.army[r("dagorlad"), n("gondor"), REGULAR] == 2
    assert s.army[r("north-ithilien"), n("gondor"), REGULAR] == 1
    assert s.char_at[char("strider")] == r("dagorlad")


def test_through_a_day_and_a_night_keeps_the_companion_with_the_moving_part() -> None:
    """facts §6.3 #12 ("that Army": our reading, the part that moves keeps a Companion): the
    split offers to leave a unit behind, not Strider, the only Companion."""
    s = position("free_peoples", [DAY_AND_NIGHT], characters={"strider": "osgiliath"},
                 armies={"osgiliath": {"gondor": {"regular": 2, "elite": 1}}})
    play_card(s, DAY_AND_NIGHT)
    play(s, ("choice", "part"))
    assert s.pending.kind == WD.SPLIT_ARMY
    assert ("unit", n("gondor"), REGULAR) in s.pending.options
    assert ("character", char("strider")) not in s.pending.options


def test_through_a_day_and_a_night_needs_a_companion_with_an_army() -> None:
    """facts §6.3 #12 (precondition): Strider alone in Bree, an Army without a Companion."""
    s = position("free_peoples", [DAY_AND_NIGHT], characters={"strider": "bree"},
                 armies={"osgiliath": {"gondor": {"regular": 2}}})
    assert playable(s, FREE_PEOPLES, EVENT) == []


def test_a_will_of_the_west_die_plays_an_army_card() -> None:
    """spec §7.3: the Paths of the Woses (an Army-icon card) with a Will of the West die."""
    s = position("free_peoples", [WOSES], ["will_of_the_west"], politics=ROHAN_AT_WAR,
                 armies={"edoras": {"rohan": {"regular": 1, "leader": 1}}})
    play_card(s, WOSES, WILL)  # (the Army moves whole: its Leader cannot stay alone)
    assert s.army[r("minas-tirith"), n("rohan"), LEADER] == 1
