"""Army movement and stacking (engine/armies.py, engine/regions.py), scenario by scenario.

Each test builds a position, plays the move through ``play`` and asserts what the rules give:
who may move where (spec §10, facts §7.1, §7.4, §7.5), what moves with whom (spec §10.2), no
figure twice (spec §10.3, §20 #4), sieges (facts §7.3), the stacking limit (spec §8, §20 #7-8).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wotr_env.data import NATIONS
from wotr_env.engine import SHADOW, WD, build, play
from wotr_env.engine.decision import ARMY, ARMY_MUSTER, CHARACTER, DONE, WILL, choice
from wotr_env.engine.invariants import check
from wotr_env.engine.state import ELITE, LEADER, NAZGUL, REGULAR, WotrState

ALL, PART = choice("all"), choice("part")
GONDOR, ROHAN, NORTH, ISENGARD, SAURON, SOUTHRONS = (NATIONS.index(n) for n in (
    "gondor", "rohan", "the-north", "isengard", "sauron", "southrons"))
AT_WAR = {"steps": 0, "active": True}


def position(**spec: Any) -> WotrState:
    """A phase-5 position; each side keeps a die so that play stops after the action (the Free
    Peoples' die has no plain Army face: Army/Muster, facts §5)."""
    base: dict[str, Any] = {"rings": ["gone"] * 3,
                            "dice": {"free_peoples": ["army_muster"], "shadow": ["event"]}}
    state = build({**base, **spec})
    assert check(state) == []
    return state


def begin(state: WotrState, face: int, name: str) -> WotrState:
    """Choose the die of ``face`` (unless it was the only option) and the die action."""
    if state.pending.kind == WD.CHOOSE_DIE:
        play(state, ("die", face))
    assert state.pending.kind == WD.DIE_ACTION
    return play(state, ("action", name))


def r(state: WotrState, rid: str) -> int:
    return state.ruleset.board.region(rid)


def c(state: WotrState, cid: str) -> int:
    return state.ruleset.cards.character(cid)


def edge(state: WotrState, a: str, b: str) -> tuple:
    return ("edge", r(state, a), r(state, b))


def move(state: WotrState, a: str, b: str) -> WotrState:
    """Move everything that may go from ``a`` to ``b`` ("all" is played at once when nothing
    could stay behind)."""
    play(state, edge(state, a, b))
    if state.pending.kind == WD.SPLIT_ARMY:
        play(state, ALL)
    return state


def actions(state: WotrState) -> set:
    return {o[1] for o in state.pending.options}


def test_army_die_moves_a_whole_army_into_an_adjacent_free_region() -> None:
    """facts §7.1 (Army: up to two Armies one region each), spec §10.1, WD-09/WD-10: the whole
    Army, its Leader with it, goes to Osgiliath; DONE ends the action with one move made."""
    state = position(politics={"gondor": AT_WAR},
                     armies={"minas-tirith": {"gondor": {"regular": 3, "elite": 1, "leader": 1}}})
    begin(state, ARMY_MUSTER, "move-armies")
    assert state.pending.kind == WD.ARMY_MOVE
    assert set(state.pending.options) == {edge(state, "minas-tirith", x) for x in
                                          ("osgiliath", "lossarnach", "druadan-forest")}
    play(state, edge(state, "minas-tirith", "osgiliath"))
    assert state.pending.kind == WD.SPLIT_ARMY
    assert set(state.pending.options) == {ALL, PART}
    play(state, ALL)
    osg, mt = r(state, "osgiliath"), r(state, "minas-tirith")
    assert state.army[osg, GONDOR].tolist() == [3, 1, 1, 0]
    assert not state.army[mt].any()
    assert state.pending.player == SHADOW  # no Army left to move: DONE, alone, was played


def test_army_die_moves_two_different_armies() -> None:
    """facts §7.1, spec §20 #5: an Army die moves two different Armies (no Leader needed)."""
    state = position(politics={"gondor": AT_WAR},
                     armies={"minas-tirith": {"gondor": {"regular": 2}},
                             "pelargir": {"gondor": {"regular": 1}}})
    begin(state, ARMY_MUSTER, "move-armies")
    move(state, "minas-tirith", "druadan-forest")
    assert DONE in state.pending.options  # the second move is optional
    move(state, "pelargir", "lamedon")
    assert state.army[r(state, "druadan-forest"), GONDOR, REGULAR] == 2
    assert state.army[r(state, "lamedon"), GONDOR, REGULAR] == 1
    assert state.pending.player == SHADOW  # two moves made: the action is over


def test_no_figure_moves_twice_in_one_action() -> None:
    """spec §10.3, §20 #4: an Army moved into a friendly Army's region does not move on with
    it; the Army that was there may still move, alone; an Army that just arrived in an empty
    region has no second move."""
    state = position(politics={"gondor": AT_WAR},
                     armies={"lossarnach": {"gondor": {"regular": 2}},
                             "minas-tirith": {"gondor": {"regular": 3}}})
    begin(state, ARMY_MUSTER, "move-armies")
    play(state, edge(state, "lossarnach", "minas-tirith"), ALL)
    sources = {o[1] for o in state.pending.options if o[0] == "edge"}
    assert sources == {r(state, "minas-tirith")}
    play(state, edge(state, "minas-tirith", "osgiliath"), ALL)
    assert state.army[r(state, "osgiliath"), GONDOR, REGULAR] == 3  # the three that were there
    assert state.army[r(state, "minas-tirith"), GONDOR, REGULAR] == 2  # the two that arrived

    state = position(politics={"gondor": AT_WAR}, armies={"lossarnach": {"gondor": {"regular": 2}}})
    begin(state, ARMY_MUSTER, "move-armies")
    play(state, edge(state, "lossarnach", "pelargir"), ALL)
    assert state.pending.player == SHADOW  # nothing unmoved is left: DONE was the only option


def test_destination_must_be_free_of_enemy_units() -> None:
    """facts §7.4 ("free for army movement"), spec §20 #6: enemy units in the field block a
    move; lone Nazgûl or Minions do not."""
    state = position(politics={"gondor": AT_WAR},
                     armies={"minas-tirith": {"gondor": {"regular": 2}},
                             "osgiliath": {"sauron": {"regular": 1}},
                             "lossarnach": {"sauron": {"nazgul": 1}}},
                     characters={"witch-king": "druadan-forest"})
    begin(state, ARMY_MUSTER, "move-armies")
    assert edge(state, "minas-tirith", "osgiliath") not in state.pending.options
    assert edge(state, "minas-tirith", "lossarnach") in state.pending.options
    assert edge(state, "minas-tirith", "druadan-forest") in state.pending.options


def test_nation_not_at_war_stays_inside_its_borders() -> None:
    """facts §7.5, spec §10.3, §20 #20: units of a nation not At War may not enter another
    nation's region; they may enter their own nation's and regions of no nation."""
    state = position(politics={"rohan": {"steps": 1, "active": True}},
                     armies={"folde": {"rohan": {"regular": 2}},
                             "westemnet": {"rohan": {"regular": 1}}})
    begin(state, ARMY_MUSTER, "move-armies")
    opts = set(state.pending.options)
    assert edge(state, "folde", "druadan-forest") not in opts  # Gondor's
    assert edge(state, "folde", "edoras") in opts
    assert edge(state, "westemnet", "fangorn") in opts  # no nation
    state = position(politics={"rohan": AT_WAR}, armies={"folde": {"rohan": {"regular": 2}}})
    begin(state, ARMY_MUSTER, "move-armies")
    assert edge(state, "folde", "druadan-forest") in state.pending.options


def test_units_not_at_war_in_another_nation_stay_behind() -> None:
    """facts §7.5, §7.2: a North unit that retreated into Rohan may not move on inside Rohan,
    even with an Army At War; "all" takes only the figures that may go."""
    state = position(politics={"rohan": AT_WAR},
                     armies={"edoras": {"rohan": {"regular": 2}, "the-north": {"regular": 1}}})
    begin(state, ARMY_MUSTER, "move-armies")
    play(state, edge(state, "edoras", "folde"), ALL)
    assert state.army[r(state, "folde"), ROHAN, REGULAR] == 2
    assert state.army[r(state, "folde"), NORTH, REGULAR] == 0
    assert state.army[r(state, "edoras"), NORTH, REGULAR] == 1


def test_leader_not_at_war_left_without_units_is_eliminated() -> None:
    """spec §3.2, §20 #23, facts §7.5: a North Leader who may not follow the Rohan units out
    of a Rohan region is left alone and eliminated for good."""
    state = position(politics={"rohan": AT_WAR},
                     armies={"edoras": {"rohan": {"regular": 1}, "the-north": {"leader": 1}}})
    begin(state, ARMY_MUSTER, "move-armies")
    move(state, "edoras", "folde")
    assert state.army[r(state, "edoras")].sum() == 0
    assert state.casualties[NORTH, LEADER] == 1
    assert check(state) == []


def test_entering_an_undefended_enemy_settlement_captures_it() -> None:
    """facts §7.4 (capture by entering), §7.5 (an enemy Army entering activates; a capture
    advances one step): Southrons enter empty Pelargir."""
    state = position(to_act="shadow", politics={"southrons": AT_WAR},
                     dice={"shadow": ["army"], "free_peoples": ["event"]},
                     armies={"west-harondor": {"southrons": {"regular": 2}}})
    gondor_steps = int(state.politics[GONDOR])
    begin(state, ARMY, "move-armies")
    play(state, edge(state, "west-harondor", "pelargir"), ALL)
    pel = r(state, "pelargir")
    assert state.control[pel] == SHADOW
    assert state.active[GONDOR]
    assert state.politics[GONDOR] == gondor_steps - 1


def test_retaking_a_settlement_moves_no_political_step() -> None:
    """facts §7.4 (the owner recaptures by the same means), §7.5 (a step when one of a nation's
    Settlements is captured, by its enemy): Gondor retaking Pelargir gains no step."""
    state = position(politics={"gondor": {"steps": 2, "active": True}},
                     control={"pelargir": "shadow"},
                     armies={"lossarnach": {"gondor": {"regular": 1}}})
    begin(state, ARMY_MUSTER, "move-armies")
    move(state, "lossarnach", "pelargir")  # Gondor's units, not At War, stay inside Gondor
    assert state.control[r(state, "pelargir")] == 0
    assert state.politics[GONDOR] == 2
    assert state.log[-1][1] == "capture"


def test_shadow_army_entering_a_free_peoples_region_activates_the_nation() -> None:
    """facts §7.5: an enemy Army entering one of a Passive nation's regions activates it; with
    no capture and no attack the nation moves no step."""
    state = position(to_act="shadow", politics={"sauron": AT_WAR},
                     dice={"shadow": ["army"], "free_peoples": ["event"]},
                     armies={"osgiliath": {"sauron": {"regular": 1}}})
    steps = int(state.politics[GONDOR])
    assert not state.active[GONDOR]
    begin(state, ARMY, "move-armies")
    play(state, edge(state, "osgiliath", "druadan-forest"))
    assert state.active[GONDOR]
    assert state.politics[GONDOR] == steps


def test_shadow_army_entering_a_region_of_no_nation_activates_nothing() -> None:
    """facts §7.5: only a Free Peoples nation's region activates it (Osgiliath is of none)."""
    state = position(to_act="shadow", politics={"sauron": AT_WAR},
                     dice={"shadow": ["army"], "free_peoples": ["event"]},
                     armies={"south-ithilien": {"sauron": {"regular": 1}}})
    active = state.active.copy()
    begin(state, ARMY, "move-armies")
    play(state, edge(state, "south-ithilien", "osgiliath"))
    assert np.array_equal(state.active, active)
    assert state.army[r(state, "osgiliath"), SAURON, REGULAR] == 1


def test_besieged_army_cannot_move_and_besiegers_leaving_lift_the_siege() -> None:
    """facts §7.3: the besieged may not move out; the besieger may move away, and with no
    units left in the region the siege ends: the defenders come out of the box."""
    spec = {"politics": {"gondor": AT_WAR, "sauron": AT_WAR},
            "boxes": {"minas-tirith": {"gondor": {"regular": 3}}},
            "armies": {"minas-tirith": {"sauron": {"regular": 4}}},
            "characters": {"boromir": "minas-tirith"}}
    state = position(**spec)
    assert "move-armies" not in actions(state)
    state = position(to_act="shadow", dice={"shadow": ["army"], "free_peoples": ["event"]},
                     **spec)
    state.char_in_box[c(state, "boromir")] = True
    begin(state, ARMY, "move-armies")
    play(state, edge(state, "minas-tirith", "osgiliath"), ALL)
    mt = r(state, "minas-tirith")
    assert not state.box.any()
    assert state.army[mt, GONDOR, REGULAR] == 3
    assert not state.char_in_box[c(state, "boromir")]
    assert "siege-ends" in [e[1] for e in state.log]


def test_siege_goes_on_while_a_besieging_unit_stays() -> None:
    """facts §7.3: the siege ends only when no besieging unit is left; a friendly Stronghold
    the enemy besieges is not free for a Free Peoples Army to enter (spec §10.3)."""
    spec = {"politics": {"gondor": AT_WAR, "sauron": AT_WAR},
            "boxes": {"minas-tirith": {"gondor": {"regular": 3}}},
            "armies": {"minas-tirith": {"sauron": {"regular": 2}},
                       "lossarnach": {"gondor": {"regular": 1}}}}
    state = position(**spec)
    begin(state, ARMY_MUSTER, "move-armies")
    assert edge(state, "lossarnach", "minas-tirith") not in state.pending.options
    state = position(to_act="shadow", dice={"shadow": ["army"], "free_peoples": ["event"]},
                     **spec)
    begin(state, ARMY, "move-armies")
    play(state, edge(state, "minas-tirith", "osgiliath"), PART)  # one Regular stays
    mt = r(state, "minas-tirith")
    assert state.box[mt, GONDOR, REGULAR] == 3
    assert state.army[mt, SAURON, REGULAR] == 1


def test_arrivals_sent_back_over_the_limit_stay_unmoved() -> None:
    """spec §10.3 (no figure twice), §8 (WD-36): two Elites join nine Regulars, one Elite goes
    back; the second move takes the nine Regulars that were there, never the Elite."""
    state = position(politics={"gondor": AT_WAR},
                     armies={"minas-tirith": {"gondor": {"regular": 9}},
                             "lossarnach": {"gondor": {"elite": 2}}})
    begin(state, ARMY_MUSTER, "move-armies")
    move(state, "lossarnach", "minas-tirith")
    play(state, ("unit", GONDOR, ELITE))
    mt = r(state, "minas-tirith")
    assert state.army[mt, GONDOR].tolist() == [9, 1, 0, 0]
    move(state, "minas-tirith", "osgiliath")
    assert state.army[r(state, "osgiliath"), GONDOR].tolist() == [9, 0, 0, 0]
    assert state.army[mt, GONDOR].tolist() == [0, 1, 0, 0]


def test_reinforcing_a_siege_is_a_move() -> None:
    """facts §7.3 (reinforcing a siege), spec §10.3 (an enemy Stronghold one's side besieges is
    free): more besiegers move in; the Stronghold stays the defender's."""
    state = position(to_act="shadow", dice={"shadow": ["army"], "free_peoples": ["event"]},
                     politics={"sauron": AT_WAR},
                     boxes={"minas-tirith": {"gondor": {"regular": 2}}},
                     armies={"minas-tirith": {"sauron": {"regular": 2}},
                             "osgiliath": {"sauron": {"regular": 3}}})
    begin(state, ARMY, "move-armies")
    play(state, edge(state, "osgiliath", "minas-tirith"), ALL)
    mt = r(state, "minas-tirith")
    assert state.army[mt, SAURON, REGULAR] == 5
    assert state.box[mt, GONDOR, REGULAR] == 2
    assert state.control[mt] == 0


def test_leader_move_needs_a_leader_or_character() -> None:
    """facts §7.1 (Character die: one Army with a Leader or Character), spec §20 #5: without
    one the action is not offered; with one it moves one Army only."""
    state = position(politics={"gondor": AT_WAR}, dice={"free_peoples": ["character"],
                                                        "shadow": ["event"]},
                     armies={"minas-tirith": {"gondor": {"regular": 2}}})
    assert "leader-move" not in actions(state)
    state = position(politics={"gondor": AT_WAR}, dice={"free_peoples": ["character"],
                                                        "shadow": ["event"]},
                     armies={"minas-tirith": {"gondor": {"regular": 2}},
                             "pelargir": {"gondor": {"regular": 2, "leader": 1}}})
    begin(state, CHARACTER, "leader-move")
    assert {o[1] for o in state.pending.options} == {r(state, "pelargir")}
    play(state, edge(state, "pelargir", "lamedon"), ALL)
    assert state.army[r(state, "lamedon"), GONDOR].tolist() == [2, 0, 1, 0]
    assert state.pending.player == SHADOW  # one Army only


def test_leader_move_split_keeps_a_leader_in_the_moving_part() -> None:
    """spec §10.2: with a Character die the part that leaves must hold a Leader or Character;
    the one Leader may not stay, units may."""
    state = position(politics={"gondor": AT_WAR}, dice={"free_peoples": ["character"],
                                                        "shadow": ["event"]},
                     armies={"pelargir": {"gondor": {"regular": 2, "elite": 1, "leader": 1}}})
    begin(state, CHARACTER, "leader-move")
    play(state, edge(state, "pelargir", "lamedon"), PART)
    assert set(state.pending.options) == {("unit", GONDOR, REGULAR), ("unit", GONDOR, ELITE)}
    play(state, ("unit", GONDOR, ELITE))
    assert set(state.pending.options) == {DONE, ("unit", GONDOR, REGULAR)}  # not the Leader
    play(state, DONE)
    assert state.army[r(state, "lamedon"), GONDOR].tolist() == [2, 0, 1, 0]
    assert state.army[r(state, "pelargir"), GONDOR].tolist() == [0, 1, 0, 0]


def test_free_peoples_leader_stays_only_with_a_unit() -> None:
    """spec §10.2, §3.2: an Army moving out whole takes its Leaders; a Leader may stay only
    where a unit stays."""
    state = position(politics={"gondor": AT_WAR}, characters={"boromir": "pelargir"},
                     armies={"pelargir": {"gondor": {"regular": 2, "leader": 1}}})
    begin(state, ARMY_MUSTER, "move-armies")
    play(state, edge(state, "pelargir", "lamedon"), PART)
    assert set(state.pending.options) == {("unit", GONDOR, REGULAR),
                                          ("character", c(state, "boromir"))}
    play(state, ("unit", GONDOR, REGULAR))
    assert ("unit", GONDOR, LEADER) in state.pending.options
    play(state, ("unit", GONDOR, LEADER), DONE)
    assert state.army[r(state, "pelargir"), GONDOR].tolist() == [1, 0, 1, 0]
    assert state.army[r(state, "lamedon"), GONDOR].tolist() == [1, 0, 0, 0]
    assert state.char_at[c(state, "boromir")] == r(state, "lamedon")


def test_characters_move_with_their_army_or_stay() -> None:
    """spec §10.2, §3.4: Characters go with the Army they are with, or stay alone."""
    state = position(politics={"gondor": AT_WAR}, characters={"boromir": "pelargir",
                                                              "legolas": "pelargir"},
                     armies={"pelargir": {"gondor": {"regular": 2}}})
    begin(state, ARMY_MUSTER, "move-armies")
    play(state, edge(state, "pelargir", "lamedon"), PART, ("character", c(state, "legolas")),
         DONE)
    assert state.char_at[c(state, "boromir")] == r(state, "lamedon")
    assert state.char_at[c(state, "legolas")] == r(state, "pelargir")
    assert state.army[r(state, "lamedon"), GONDOR, REGULAR] == 2


def test_level_zero_saruman_never_leaves_orthanc() -> None:
    """facts §7.7, §3.4, spec §20 #35: Saruman stays in Orthanc when its Army moves out; the
    Mouth of Sauron, with an Army, moves one region with it (spec §20 #34)."""
    state = position(to_act="shadow", dice={"shadow": ["army"], "free_peoples": ["event"]},
                     politics={"isengard": AT_WAR, "sauron": AT_WAR},
                     characters={"saruman": "orthanc", "mouth-of-sauron": "barad-dur"},
                     armies={"orthanc": {"isengard": {"regular": 2}},
                             "barad-dur": {"sauron": {"regular": 1}}})
    begin(state, ARMY, "move-armies")
    play(state, edge(state, "orthanc", "gap-of-rohan"), ALL,
         edge(state, "barad-dur", "gorgoroth"), ALL)
    assert state.char_at[c(state, "saruman")] == r(state, "orthanc")
    assert state.char_at[c(state, "mouth-of-sauron")] == r(state, "gorgoroth")
    assert state.army[r(state, "gap-of-rohan"), ISENGARD, REGULAR] == 2


def test_isengard_elites_lead_while_saruman_is_in_play() -> None:
    """facts §3.4 (*Servants of the White Hand*: an Isengard Elite counts as a Leader for
    movement): a Character die moves an Army of Isengard Elites only with Saruman in play."""
    spec = {"to_act": "shadow", "dice": {"shadow": ["character"], "free_peoples": ["event"]},
            "politics": {"isengard": AT_WAR},
            "armies": {"north-dunland": {"isengard": {"elite": 1, "regular": 2}}}}
    assert "leader-move" not in actions(position(**spec))
    state = position(characters={"saruman": "orthanc"}, **spec)
    begin(state, CHARACTER, "leader-move")
    play(state, edge(state, "north-dunland", "south-dunland"), PART)
    # one Regular stays (the only figure that may: played at once); the Elite must go
    assert set(state.pending.options) == {DONE, ("unit", ISENGARD, REGULAR)}
    play(state, DONE)
    assert state.army[r(state, "south-dunland"), ISENGARD].tolist() == [1, 1, 0, 0]


def test_nazgul_lead_a_shadow_army_and_may_stay_behind() -> None:
    """spec §3.3 (Nazgûl are the Shadow's Leaders and may stand alone), facts §7.1: a Nazgûl
    lets a Character die move the Army; with an Army die it may stay behind alone."""
    spec = {"to_act": "shadow", "politics": {"sauron": AT_WAR},
            "armies": {"gorgoroth": {"sauron": {"regular": 3, "nazgul": 1}}}}
    state = position(dice={"shadow": ["character"], "free_peoples": ["event"]}, **spec)
    begin(state, CHARACTER, "leader-move")
    play(state, edge(state, "gorgoroth", "nurn"), PART)  # a Regular stays (the only option)
    assert set(state.pending.options) == {DONE, ("unit", SAURON, REGULAR)}
    state = position(dice={"shadow": ["army"], "free_peoples": ["event"]}, **spec)
    begin(state, ARMY, "move-armies")
    play(state, edge(state, "gorgoroth", "nurn"), PART)
    assert set(state.pending.options) == {("unit", SAURON, REGULAR), ("unit", SAURON, NAZGUL)}
    play(state, ("unit", SAURON, NAZGUL), DONE)
    assert state.army[r(state, "gorgoroth"), SAURON].tolist() == [0, 0, 0, 1]
    assert state.army[r(state, "nurn"), SAURON].tolist() == [3, 0, 0, 0]


def test_units_over_ten_go_back_to_the_reinforcements() -> None:
    """spec §8, §20 #7-8, WD-36: after a move a region holds at most ten units; the owner
    chooses the excess, which returns to the reinforcements (not the casualties); Leaders do
    not count."""
    state = position(politics={"gondor": AT_WAR},
                     armies={"minas-tirith": {"gondor": {"regular": 8, "leader": 2}},
                             "lossarnach": {"gondor": {"regular": 3, "elite": 1}}})
    reserve = state.reserve[GONDOR].copy()
    begin(state, ARMY_MUSTER, "move-armies")
    play(state, edge(state, "lossarnach", "minas-tirith"), ALL)
    assert state.pending.kind == WD.OVERSTACK
    assert set(state.pending.options) == {("unit", GONDOR, REGULAR), ("unit", GONDOR, ELITE)}
    assert check(state) == []  # the excess is being removed
    play(state, ("unit", GONDOR, REGULAR), ("unit", GONDOR, ELITE))
    mt = r(state, "minas-tirith")
    assert state.army[mt, GONDOR].tolist() == [10, 0, 2, 0]
    assert (state.reserve[GONDOR] - reserve).tolist() == [1, 1, 0, 0]
    assert not state.casualties.any()
    assert state.pending.kind == WD.ARMY_MOVE  # then the second move or DONE


def test_will_of_the_west_moves_armies() -> None:
    """facts §7.1: a Will of the West die may be used as any other face, here an Army die."""
    state = position(politics={"gondor": AT_WAR}, dice={"free_peoples": ["will_of_the_west"],
                                                        "shadow": ["event"]},
                     armies={"pelargir": {"gondor": {"regular": 1}}})
    begin(state, WILL, "move-armies")
    play(state, edge(state, "pelargir", "lamedon"))
    assert state.army[r(state, "lamedon"), GONDOR, REGULAR] == 1


def test_move_armies_not_offered_without_a_possible_move() -> None:
    """facts §7.1, §7.5, spec §20 #13: a Rohan Army not At War in Edoras, both Rohan neighbours
    held by the enemy: the die offers no move; with one neighbour free it does."""
    spec = {"politics": {"rohan": {"steps": 2}},
            "armies": {"edoras": {"rohan": {"regular": 1}},
                       "folde": {"sauron": {"regular": 1}}}}
    state = position(**spec)
    assert "move-armies" in actions(state)
    spec["armies"]["westemnet"] = {"isengard": {"regular": 1}}
    state = position(**spec)
    assert "move-armies" not in actions(state)
