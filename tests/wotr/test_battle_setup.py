"""Starting a battle: who may attack, with which die, what (WD-11), the rearguard (WD-12)
(spec §12.1, §20 #19; facts §7.1, §7.2, §7.3, §7.5). Also the helpers of the other battle tests.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wotr_env.engine import WD, build, play
from wotr_env.engine.battle.forces import ATTACKER, battle_of, force
from wotr_env.engine.decision import DONE, choice
from wotr_env.engine.invariants import check
from wotr_env.engine.state import SHADOW

NONE = choice("none")
AT_WAR = ("dwarves", "elves", "gondor", "the-north", "rohan", "isengard", "sauron", "southrons")


def battle_state(armies: dict[str, Any], side: str = "shadow", face: str = "army",
                 rolls: dict[str, list[int]] | None = None, **extra: Any):
    """A position in phase 5 where ``side`` holds one die of ``face`` and no Elven Ring
    choice gets in the way; every nation At War unless ``politics`` says otherwise; the game
    stops at the end of the turn (max_turns 1)."""
    politics = {n: {"steps": 0, "active": True} for n in AT_WAR}
    politics.update(extra.pop("politics", {}))
    spec = {"armies": armies, "to_act": side, "dice": {side: [face]}, "politics": politics,
            "rings": ["gone", "gone", "gone"], "rolls": rolls or {}, "max_turns": 1}
    spec.update(extra)
    return build(spec)


def region(state, rid: str) -> int:
    return state.ruleset.board.region(rid)


def nation(state, nid: str) -> int:
    return state.ruleset.board.nation(nid)


def edge(state, a: str, b: str) -> tuple:
    return ("edge", region(state, a), region(state, b))


def start(state, target: tuple | None, action: str = "attack", rear: tuple = ()):
    """Choose the die action, the target (when asked) and the rearguard (``rear``, then DONE,
    when asked); stops at the battle's first decision after them."""
    assert state.pending.kind == WD.DIE_ACTION, state.pending
    play(state, ("action", action))
    if state.pending.kind == WD.ATTACK_TARGET:
        play(state, target)
    if state.pending.kind == WD.REARGUARD:
        play(state, *rear)
        if state.pending.kind == WD.REARGUARD:  # (DONE alone is played without asking)
            play(state, DONE)
    return state


def kind(state) -> WD:
    return state.pending.kind


def options(state) -> tuple:
    return state.pending.options


def last(state, event: str) -> tuple:
    """The last logged event of that name (without the turn number)."""
    return next(e[1:] for e in reversed(state.log) if e[1] == event)


def events(state, event: str) -> list[tuple]:
    return [e[1:] for e in state.log if e[1] == event]


def figures(state, rid: str, nid: str, box: bool = False) -> list[int]:
    grid = state.box if box else state.army
    return [int(x) for x in grid[region(state, rid), nation(state, nid)]]


def sound(state) -> None:
    assert check(state) == []


# -----------------------------------------------------------------------------------------


def die_actions(state) -> set[str]:
    """The die actions offered (none when the only one, skip, was played without asking)."""
    return {a[1] for a in options(state)} if state.pending else set()


def test_attack_needs_a_unit_at_war():
    """spec §12.1, facts §7.2, §7.5: only an Army with units of a nation At War attacks; an
    Army of a nation not At War next to the enemy has no attack, nor one far from any enemy."""
    near = {"osgiliath": {"gondor": {"regular": 2}},
            "north-ithilien": {"sauron": {"regular": 3}}}
    s = battle_state({"nurn": {"sauron": {"regular": 2}}})
    assert "attack" not in die_actions(s)
    s = battle_state(near)
    assert "attack" in die_actions(s)
    s = battle_state(near, politics={"sauron": {"steps": 1}})
    assert "attack" not in die_actions(s)


def test_targets_adjacent_siege_and_sortie():
    """spec §12.1, facts §7.1, §7.3: an adjacent enemy Army (a field battle), the enemy in the
    box of the Stronghold one besieges (a siege battle); from inside the box, the besiegers
    (a sortie)."""
    s = battle_state({"osgiliath": {"sauron": {"regular": 3}},
                      "minas-tirith": {"sauron": {"regular": 2}},
                      "lossarnach": {"gondor": {"regular": 1}}},
                     boxes={"minas-tirith": {"gondor": {"regular": 2}}})
    play(s, ("action", "attack"))
    assert kind(s) == WD.ATTACK_TARGET
    mt, os_, lo = region(s, "minas-tirith"), region(s, "osgiliath"), region(s, "lossarnach")
    assert set(options(s)) == {("edge", os_, lo), ("edge", mt, lo), ("region", mt)}
    play(s, ("region", mt), DONE)
    assert battle_of(s).kind == "siege"
    s = battle_state({"minas-tirith": {"sauron": {"regular": 2}}}, side="free_peoples",
                     face="army_muster", boxes={"minas-tirith": {"gondor": {"regular": 2}}})
    play(s, ("action", "attack"), DONE)  # the only target: played without asking
    assert kind(s) == WD.COMBAT_CARD and battle_of(s).kind == "sortie"


def test_leader_attack_needs_a_leader_character_or_nazgul():
    """facts §7.1, spec §12.1: a Character die attacks only with an Army that has a Leader,
    Nazgûl or Character; an Army die needs none."""
    base = {"osgiliath": {"gondor": {"regular": 2}}}
    s = battle_state({**base, "north-ithilien": {"sauron": {"regular": 3}}}, face="character")
    assert "leader-attack" not in die_actions(s)
    s = battle_state({**base, "north-ithilien": {"sauron": {"regular": 3, "nazgul": 1}}},
                     face="character")
    assert "leader-attack" in die_actions(s)
    s = battle_state({**base, "north-ithilien": {"sauron": {"regular": 3}}}, face="character",
                     characters={"mouth-of-sauron": "north-ithilien"})
    assert "leader-attack" in die_actions(s)
    s = battle_state({**base, "north-ithilien": {"sauron": {"regular": 3}}})
    assert "attack" in die_actions(s)


def test_not_at_war_units_form_the_rearguard():
    """spec §20 #19, facts §7.2, §7.5: units and Leaders of a nation not At War stay in the
    rearguard: they roll no die and take no casualty; Nazgûl count as At War and fight."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 1}},
                      "north-ithilien": {"sauron": {"regular": 1, "nazgul": 1},
                                       "southrons": {"regular": 3}}},
                     politics={"southrons": {"steps": 2}},
                     rolls={"shadow": [2, 3], "free_peoples": [6]})
    start(s, edge(s, "north-ithilien", "osgiliath"))
    f = force(s, battle_of(s), ATTACKER)
    assert f[nation(s, "southrons")].sum() == 0
    assert f[nation(s, "sauron")].tolist() == [1, 0, 0, 1]
    play(s, NONE, NONE)
    assert events(s, "combat-roll")[0] == ("combat-roll", SHADOW, (2,), 0)  # 1 die, not 4
    assert events(s, "leader-reroll")[0] == ("leader-reroll", SHADOW, (3,), 0)  # the Nazgûl
    # the Free Peoples' hit kills the Sauron Regular; the Southrons are untouched
    assert figures(s, "north-ithilien", "southrons") == [3, 0, 0, 0]
    # the force is wiped out: its Nazgûl goes back to the reinforcements
    assert figures(s, "north-ithilien", "sauron") == [0, 0, 0, 0]
    assert s.reserve[nation(s, "sauron"), 3] == 8
    sound(s)


def test_voluntary_rearguard_and_done():
    """spec §12.1, facts §7.2: the attacker may hold units back while one still fights, and
    Leaders or Nazgûl only once a unit is in the rearguard; held-back units roll no die."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 1}},
                      "north-ithilien": {"sauron": {"regular": 2, "nazgul": 1}}},
                     rolls={"shadow": [1, 1], "free_peoples": [1]})
    sauron = nation(s, "sauron")
    play(s, ("action", "attack"))
    assert kind(s) == WD.REARGUARD
    assert set(options(s)) == {("unit", sauron, 0), DONE}  # no Nazgûl before a unit
    play(s, ("unit", sauron, 0))
    assert set(options(s)) == {("unit", sauron, 3), DONE}  # the last unit must fight
    play(s, DONE, NONE, NONE)
    assert events(s, "combat-roll")[0] == ("combat-roll", SHADOW, (1,), 0)
    assert battle_of(s).rear[sauron * 4] == 1
    sound(s)


def test_character_die_keeps_one_leader_in_the_force():
    """facts §7.1: with a Character die the attacking force keeps a Leader, Nazgûl or
    Character; the last one cannot be held back, a second one can."""
    s = battle_state({"osgiliath": {"gondor": {"regular": 1}},
                      "north-ithilien": {"sauron": {"regular": 2, "nazgul": 1}}},
                     face="character")
    sauron = nation(s, "sauron")
    play(s, ("action", "leader-attack"), ("unit", sauron, 0))
    assert ("unit", sauron, 3) not in options(s)
    s = battle_state({"osgiliath": {"gondor": {"regular": 1}},
                      "north-ithilien": {"sauron": {"regular": 2, "nazgul": 2}}},
                     face="character")
    play(s, ("action", "leader-attack"), ("unit", sauron, 0))
    assert ("unit", sauron, 3) in options(s)
    play(s, ("unit", sauron, 3))  # then DONE, the only option left, is played
    assert np.array_equal(force(s, battle_of(s), ATTACKER)[sauron], [1, 0, 0, 1])
