"""The three cards that need the coast or the east edge of the map: *Círdan's Ships* (facts §6.3
#13), *Corsairs of Umbar* (facts §6.5 #10) and *Hordes from the East* (facts §6.5 #21).

No source gives those regions (facts §8.2, §8.5 #4); the map data holds a reading of facts §8.2
(``board.coastal``: the regions both public lists call coastal; ``board.east_edge``: the S&E
candidates the sheet names), and these tests play the cards on it. The general card rules (facts
§6 "card rules", spec §7.3, §7.5): an unmet precondition forbids the play, a card that can do
nothing is still played, recruits come from the reinforcements into a region free for the side
(or its own besieged Stronghold's box), never over the stacking limit.
"""

from __future__ import annotations

import numpy as np

from wotr_env.engine import play
from wotr_env.engine.decision import DONE, EVENT, WD, choice
from wotr_env.engine.events import playable
from wotr_env.engine.invariants import check
from wotr_env.engine.state import ELITE, FREE_PEOPLES, REGULAR, SHADOW

from .helpers import BOARD, card, events, n, play_card, position, r

AT_WAR = {"steps": 0, "active": True}
CIRDAN = "fp-strat-13-cirdans-ships"
CORSAIRS = "sh-strat-10-corsairs-of-umbar"
HORDES = "sh-strat-21-hordes-from-the-east"


def regions_offered(state) -> set[str]:
    assert state.pending.kind == WD.EVENT_CHOICE
    return {BOARD.regions[a[1]].id for a in state.pending.options}


def discarded(state, side: int, cid: str) -> bool:
    return card(cid) in state.discards[side] and card(cid) not in state.hands[side]


# -- Círdan's Ships (facts §6.3 #13) ----------------------------------------------------------
CIRDAN_BOARD = {"armies": {"dol-amroth": {"gondor": {"regular": 1}},
                           "rivendell": {"elves": {"regular": 2}},
                           "minas-tirith": {"gondor": {"regular": 1}}},
                "boxes": {"grey-havens": {"elves": {"regular": 1}}},
                "politics": {"elves": AT_WAR}}


def test_cirdans_ships_recruits_two_elven_units_in_a_coastal_region_with_an_fp_army() -> None:
    """facts §6.3 #13, §8.2 (the coast read from the map data): the coastal regions holding a
    Free Peoples Army are offered (Dol Amroth; the Grey Havens, besieged, into its box, spec
    §7.5), not Rivendell or Minas Tirith (inland); in Dol Amroth an Elite and a Regular of the
    Elves' reinforcements join the Gondor Army."""
    spec = {**CIRDAN_BOARD, "armies": {**CIRDAN_BOARD["armies"],
                                       "grey-havens": {"sauron": {"regular": 3}}}}
    s = position("free_peoples", [CIRDAN], **spec)
    reserve = s.reserve.copy()
    play_card(s, CIRDAN)
    assert regions_offered(s) == {"dol-amroth", "grey-havens"}
    play(s, ("region", r("dol-amroth")))
    assert s.pending.options == (("figure", REGULAR), ("figure", ELITE))
    play(s, ("figure", ELITE), ("figure", REGULAR))
    assert s.army[r("dol-amroth"), n("elves")].tolist() == [1, 1, 0, 0]
    assert s.army[r("dol-amroth"), n("gondor")].tolist() == [1, 0, 0, 0]
    diff = reserve - s.reserve
    assert diff[n("elves")].tolist() == [1, 1, 0, 0] and diff.sum() == 2
    assert discarded(s, FREE_PEOPLES, CIRDAN) and check(s) == []


def test_cirdans_ships_reinforces_a_besieged_coastal_stronghold_in_its_box() -> None:
    """facts §6.3 #13, spec §7.5 (a card may reinforce a besieged Stronghold): the Elves
    besieged in the Grey Havens get their two Regulars inside the box, none in the field."""
    spec = {**CIRDAN_BOARD, "armies": {"grey-havens": {"sauron": {"regular": 3}}}}
    s = position("free_peoples", [CIRDAN], **spec)
    play_card(s, CIRDAN)  # (the one region is chosen without asking)
    play(s, ("figure", REGULAR), ("figure", REGULAR))
    assert s.box[r("grey-havens"), n("elves")].tolist() == [3, 0, 0, 0]
    assert s.army[r("grey-havens"), n("elves")].sum() == 0


def test_cirdans_ships_needs_the_elves_at_war() -> None:
    """facts §6.3 #13 (precondition Elves At War; spec §7.3: an unmet precondition forbids the
    play): the Elves one step short, the card is not offered."""
    s = position("free_peoples", [CIRDAN], armies=CIRDAN_BOARD["armies"],
                 politics={"elves": {"steps": 1, "active": True}})
    assert card(CIRDAN) not in playable(s, FREE_PEOPLES, EVENT)


def test_cirdans_ships_without_a_coastal_fp_army_is_played_for_nothing() -> None:
    """facts §6.3 #13, §6 card rules, spec §7.3 (an effect that cannot be carried out is
    still played): Elves At War, Free Peoples Armies only inland; the card goes to the discard
    pile, no region is asked, nothing leaves the reinforcements."""
    s = position("free_peoples", [CIRDAN], politics={"elves": AT_WAR},
                 armies={"rivendell": {"elves": {"regular": 2}},
                         "lossarnach": {"gondor": {"regular": 1}}})  # (coastal for JC only)
    assert card(CIRDAN) in playable(s, FREE_PEOPLES, EVENT)
    reserve = s.reserve.copy()
    play_card(s, CIRDAN)
    assert s.pending.kind != WD.EVENT_CHOICE
    assert (s.reserve == reserve).all() and discarded(s, FREE_PEOPLES, CIRDAN)


# -- Hordes from the East (facts §6.5 #21) ----------------------------------------------------
def test_hordes_from_the_east_recruits_five_regulars_on_the_east_edge() -> None:
    """facts §6.5 #21, §8.2 (the east edge read from the map data): of the S&E regions on the
    east edge, North Rhûn (a Free Peoples Army there) and South Rhûn (its Town held by the Free
    Peoples) are not free; Near Harad and Umbar are S&E regions off the edge. In Khand five S&E
    Regulars come from the reinforcements."""
    s = position("shadow", [HORDES], politics={"southrons": AT_WAR},
                 armies={"north-rhun": {"the-north": {"regular": 1}}},
                 control={"south-rhun": "free_peoples"})
    reserve = s.reserve.copy()
    play_card(s, HORDES)
    assert regions_offered(s) == {"east-rhun", "khand", "far-harad"}
    play(s, ("region", r("khand")))
    assert s.army[r("khand"), n("southrons")].tolist() == [5, 0, 0, 0]
    diff = reserve - s.reserve
    assert diff[n("southrons"), REGULAR] == 5 and diff.sum() == 5
    assert discarded(s, SHADOW, HORDES) and check(s) == []


def test_hordes_from_the_east_never_stacks_over_ten() -> None:
    """facts §6.5 #21, spec §7.5 (the stacking limit still applies), §7.3 (a card does what it
    can): Far Harad holds 8 S&E units; only 2 of the 5 Regulars are placed."""
    s = position("shadow", [HORDES], politics={"southrons": AT_WAR},
                 armies={"far-harad": {"southrons": {"regular": 6, "elite": 2}}})
    reserve = s.reserve.copy()
    play_card(s, HORDES)
    play(s, ("region", r("far-harad")))
    assert s.army[r("far-harad"), n("southrons")].tolist() == [8, 2, 0, 0]
    assert (reserve - s.reserve).sum() == 2


def test_hordes_from_the_east_needs_the_southrons_at_war() -> None:
    """facts §6.5 #21 (precondition; spec §7.3)."""
    s = position("shadow", [HORDES], politics={"southrons": {"steps": 1, "active": True}})
    assert card(HORDES) not in playable(s, SHADOW, EVENT)


def test_hordes_from_the_east_with_no_free_edge_region_is_played_for_nothing() -> None:
    """facts §6.5 #21, §6 card rules: every east-edge S&E region holds a Free Peoples Army;
    the card is played, nothing is recruited."""
    edge = ("north-rhun", "east-rhun", "south-rhun", "khand", "far-harad")
    s = position("shadow", [HORDES], politics={"southrons": AT_WAR},
                 armies={rid: {"the-north": {"regular": 1}} for rid in edge})
    reserve = s.reserve.copy()
    play_card(s, HORDES)
    assert s.pending.kind != WD.EVENT_CHOICE
    assert (s.reserve == reserve).all() and discarded(s, SHADOW, HORDES)


# -- Corsairs of Umbar (facts §6.5 #10) -------------------------------------------------------
UMBAR_FLEET = {"umbar": {"southrons": {"regular": 4, "elite": 1}}}


def corsairs(armies: dict, **spec: object):
    s = position("shadow", [CORSAIRS], politics={"southrons": AT_WAR, **spec.pop("politics", {})},
                 armies={**UMBAR_FLEET, **armies}, **spec)
    play_card(s, CORSAIRS)
    return s


def test_corsairs_of_umbar_sails_to_a_gondor_coastal_region() -> None:
    """facts §6.5 #10, §8.2 (Gondor's coast: Anfalas, Dol Amroth, Pelargir), facts §7.5: the
    Army in Umbar goes straight to Anfalas (no region between), whole; entering a Gondor
    region activates Gondor. Lamedon, Lossarnach (coastal in one list only) are not offered."""
    s = corsairs({})
    assert regions_offered(s) == {"anfalas", "dol-amroth", "pelargir"}
    assert not s.active[n("gondor")]
    play(s, ("region", r("anfalas")))
    assert s.pending.kind == WD.SPLIT_ARMY
    play(s, choice("all"))
    assert s.army[r("anfalas"), n("southrons")].tolist() == [4, 1, 0, 0]
    assert s.army[r("umbar")].sum() == 0
    assert s.active[n("gondor")] and events(s, "battle") == []
    assert discarded(s, SHADOW, CORSAIRS) and check(s) == []


def test_corsairs_of_umbar_may_split_first() -> None:
    """facts §6.5 #10, §6 (a card moves an Army, or a part split off first: rulebook p.28):
    one Regular stays in Umbar, the rest lands in Pelargir."""
    s = corsairs({})
    play(s, ("region", r("pelargir")), choice("part"), ("unit", n("southrons"), REGULAR), DONE)
    assert s.army[r("pelargir"), n("southrons")].tolist() == [3, 1, 0, 0]
    assert s.army[r("umbar"), n("southrons")].tolist() == [1, 0, 0, 0]


def test_corsairs_of_umbar_merging_checks_the_stacking_limit_at_once() -> None:
    """facts §6.5 #10 ("if it merges, check the stacking limit at once"), spec §20 #8: 7 S&E
    Regulars already in Pelargir, 5 units land: the Shadow sends 2 units back to the
    reinforcements before anything else."""
    s = corsairs({"pelargir": {"southrons": {"regular": 7}}}, control={"pelargir": "shadow"})
    reserve = s.reserve[n("southrons")].copy()
    play(s, ("region", r("pelargir")), choice("all"))
    assert s.pending.kind == WD.OVERSTACK and s.pending.player == SHADOW
    assert s.pending.context["region"] == r("pelargir")
    play(s, ("unit", n("southrons"), REGULAR), ("unit", n("southrons"), REGULAR))
    assert s.army[r("pelargir"), n("southrons")].tolist() == [9, 1, 0, 0]
    assert (s.reserve[n("southrons")] - reserve).tolist() == [2, 0, 0, 0]
    assert check(s) == []


def combat_round(s, shadow_choice=("choice", "none")) -> None:
    """Both sides decline a Combat card (the dice are scripted)."""
    while s.pending.kind == WD.COMBAT_CARD:
        play(s, shadow_choice if s.pending.player == SHADOW else ("choice", "none"))


def test_corsairs_of_umbar_lands_on_an_fp_army_and_may_not_cease() -> None:
    """facts §6.5 #10 (a battle starts at once; the Shadow may not cease it), §7.5 (an attack:
    Gondor is activated and steps toward war): 2 Gondor Regulars in Pelargir. The rearguard
    (one Regular held back) stays in Umbar; after a round with no hit the Shadow is not asked
    to cease (the Free Peoples are asked whether to retreat); in round 2 both Gondor Regulars
    fall; the landed force holds Pelargir (the advance is not a choice) and captures it."""
    rolls = {"shadow": [1] * 4 + [6, 6, 1, 1], "free_peoples": [1] * 4}
    s = corsairs({"pelargir": {"gondor": {"regular": 2}}}, rolls=rolls)
    assert "pelargir" in regions_offered(s)
    play(s, ("region", r("pelargir")))
    assert s.pending.kind == WD.REARGUARD
    play(s, ("unit", n("southrons"), REGULAR), DONE)
    assert events(s, "battle")[0][2:] == (SHADOW, r("umbar"), r("pelargir"), "field")
    assert s.active[n("gondor")] and s.politics[n("gondor")] == 1
    combat_round(s)
    assert s.pending.kind == WD.RETREAT and s.pending.player == FREE_PEOPLES
    assert events(s, "cease") == []
    play(s, choice("stay"))
    combat_round(s)
    while s.pending.kind == WD.CASUALTY:
        play(s, s.pending.options[0])
    assert events(s, "battle-ends")[0][-1] == "won"
    assert s.army[r("pelargir"), n("southrons")].tolist() == [3, 1, 0, 0]
    assert s.army[r("pelargir"), n("gondor")].sum() == 0
    assert s.army[r("umbar"), n("southrons")].tolist() == [1, 0, 0, 0]
    assert s.control[r("pelargir")] == SHADOW and check(s) == []


def test_corsairs_of_umbar_a_retreating_fp_army_leaves_the_region_to_the_landed_army() -> None:
    """facts §6.5 #10, §7.2: the Free Peoples retreat after round 1; the whole landed force is
    in Pelargir (it does not stay behind in Umbar)."""
    s = corsairs({"pelargir": {"gondor": {"regular": 2}}},
                 rolls={"shadow": [1] * 5, "free_peoples": [1] * 2})
    play(s, ("region", r("pelargir")), DONE)
    combat_round(s)
    play(s, ("region", r("lamedon")))
    assert s.army[r("lamedon"), n("gondor")].tolist() == [2, 0, 0, 0]
    assert s.army[r("pelargir"), n("southrons")].tolist() == [4, 1, 0, 0]
    assert s.army[r("umbar")].sum() == 0 and check(s) == []


def test_corsairs_of_umbar_at_dol_amroth_the_defenders_may_withdraw_into_the_siege() -> None:
    """facts §6.5 #10, §7.3: at Dol Amroth (a Gondor Stronghold) the defenders withdraw into
    the siege before round 1; the landed Army begins the siege (it cannot stay at sea)."""
    s = corsairs({"dol-amroth": {"gondor": {"regular": 2}}})
    play(s, ("region", r("dol-amroth")), DONE)
    assert s.pending.kind == WD.STRONGHOLD_CHOICE
    play(s, choice("into-siege"))
    assert s.box[r("dol-amroth"), n("gondor")].tolist() == [2, 0, 0, 0]
    assert s.army[r("dol-amroth"), n("southrons")].tolist() == [4, 1, 0, 0]
    assert s.army[r("umbar")].sum() == 0 and check(s) == []


def test_corsairs_of_umbar_against_a_besieged_fp_army_the_shadow_may_end_the_battle() -> None:
    """facts §6.5 #10 ("unless that FP Army was already besieged"), §7.3: Dol Amroth's
    garrison is besieged by 3 Sauron Regulars; the Corsairs land beside them (the region is
    free for them), then attack the Stronghold: a siege battle, which the Shadow may stop after
    its round (WD-20 offers "stop")."""
    s = corsairs({"dol-amroth": {"sauron": {"regular": 3}}},
                 boxes={"dol-amroth": {"gondor": {"regular": 2}}},
                 politics={"sauron": AT_WAR},
                 rolls={"shadow": [1] * 5, "free_peoples": [1] * 2})
    play(s, ("region", r("dol-amroth")), choice("all"))
    assert s.army[r("dol-amroth"), n("southrons")].tolist() == [4, 1, 0, 0]
    assert s.army[r("umbar")].sum() == 0
    if s.pending.kind == WD.REARGUARD:
        play(s, DONE)
    assert events(s, "battle")[0][2:] == (SHADOW, r("dol-amroth"), r("dol-amroth"), "siege")
    combat_round(s)
    assert s.pending.kind == WD.EXTEND_SIEGE and choice("stop") in s.pending.options
    play(s, choice("stop"))
    assert s.box[r("dol-amroth"), n("gondor")].tolist() == [2, 0, 0, 0]
    assert check(s) == []


def test_corsairs_of_umbar_needs_the_southrons_at_war() -> None:
    """facts §6.5 #10 (precondition; spec §7.3)."""
    s = position("shadow", [CORSAIRS], armies=UMBAR_FLEET,
                 politics={"southrons": {"steps": 1, "active": True}})
    assert card(CORSAIRS) not in playable(s, SHADOW, EVENT)


def test_corsairs_of_umbar_with_no_army_in_umbar_is_played_for_nothing() -> None:
    """facts §6.5 #10, §6 card rules: no Shadow Army in Umbar; the card is played, nothing
    moves and no region is asked."""
    s = position("shadow", [CORSAIRS], politics={"southrons": AT_WAR},
                 armies={"near-harad": {"southrons": {"regular": 3}}})
    army = s.army.copy()
    play_card(s, CORSAIRS)
    assert s.pending.kind != WD.EVENT_CHOICE
    assert np.array_equal(s.army, army) and discarded(s, SHADOW, CORSAIRS)
