"""The end of a round and of a battle: cease or continue (WD-18), the defender's retreat (WD-19),
the advance after battle (WD-21, with WD-10 for a part of the force) (spec §12.7-§12.8;
facts §7.2, §7.3).

The attacker ceasing ends the battle where it stands. If he continues, the defender may retreat
his whole Army (Level-0 Characters stay behind) into one adjacent region free for him; a
besieged Army cannot retreat. When the defending force is gone (destroyed or retreated) and the
attacker's has a unit left, the attacker may advance all or part of his force, never the
rearguard, into the region: entering it captures an enemy Settlement there (``regions.enter``).
Relievers whose attack frees a besieged Stronghold advance next to the freed garrison, within
the stacking limit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardkit.frames import Frame

from ..armies import Overstack
from ..decision import DONE, WD, Action, Decision, choice
from ..regions import enter, free, lone_leaders
from ..state import FREE_PEOPLES, LEADER, WotrState, log
from .forces import (
    ATTACKER,
    DEFENDER,
    FIELD,
    N_KINDS,
    N_NATIONS,
    NO_REAR,
    SIEGE,
    SORTIE,
    army_at,
    battle_of,
    characters_at,
    force,
    force_characters,
    force_units,
    move_figures,
    units_in,
)
from .siege import (
    UNITS_PER_REGION,
    advance_force,
    attacker_options,
    besieged_side,
    movable_characters,
    settle_siege,
)


@dataclass
class CeaseOrContinue(Frame):
    """WD-18: at the end of a round the attacker ceases or continues (spec §12.7)."""

    def run(self, state: WotrState) -> Decision:
        battle = battle_of(state)
        return Decision(battle.side, WD.CEASE_OR_CONTINUE,
                        attacker_options(state, (choice("cease"), choice("continue"))),
                        context={"battle": (battle.src, battle.dst), "round": battle.round})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        battle = battle_of(state)
        if action == choice("cease"):
            battle.ended, battle.outcome = True, "cease"
            log(state, "cease", battle.side, battle.dst)
        elif battle.kind != SIEGE:  # a besieged Army never retreats
            state.stack.append(Retreat())


def retreat_regions(state: WotrState) -> list[int]:
    """Adjacent regions free for the defender: no enemy Army, no enemy Settlement (§12.7)."""
    battle = battle_of(state)
    defender = 1 - battle.side
    return [int(r) for r in state.ruleset.board.neighbours[battle.dst]
            if free(state, int(r), defender)]


@dataclass
class Retreat(Frame):
    """WD-19: the defender stays, or retreats his whole Army into an adjacent free region."""

    def run(self, state: WotrState) -> Decision:
        battle = battle_of(state)
        options = (choice("stay"), *(("region", r) for r in retreat_regions(state)))
        return Decision(1 - battle.side, WD.RETREAT, options,
                        context={"battle": (battle.src, battle.dst), "round": battle.round})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        if action != choice("stay"):
            retreat_to(state, action[1])


def retreat_to(state: WotrState, to: int) -> None:
    """The defender's whole Army retreats into ``to`` and the battle ends (also *Scouts*)."""
    battle = battle_of(state)
    defender = 1 - battle.side
    chars = movable_characters(state, characters_at(state, battle.dst, defender))
    move_figures(state, army_at(state, battle.dst, defender), chars, battle.dst, to)
    battle.ended, battle.outcome = True, "retreat"
    log(state, "retreat", defender, battle.dst, to)
    enter(state, to, defender)
    state.stack.append(Overstack(defender, to))


def finish(state: WotrState) -> None:
    """The battle is over: sieges settle, and a victorious attacker may advance (§12.8)."""
    battle = battle_of(state)
    attackers = force_units(state, battle, ATTACKER)
    defenders = force_units(state, battle, DEFENDER)
    if battle.kind != FIELD:
        settle_siege(state, battle.dst, battle.side if battle.kind == SORTIE else 1 - battle.side)
    elif besieged_side(state, battle.dst) == battle.side:  # relievers against besiegers
        settle_siege(state, battle.dst, battle.side)
    won = battle.kind == FIELD and battle.outcome != "into-siege" and attackers > 0 and (
        defenders == 0 or battle.outcome == "retreat")
    log(state, "battle-ends", battle.side, battle.dst, battle.outcome or
        ("won" if won else "decided" if defenders == 0 or attackers == 0 else "over"))
    for region in (battle.src, battle.dst):
        lone_leaders(state, region)
    if won:
        state.stack.append(AdvanceAfterBattle())


def room(state: WotrState) -> int:
    """Units the attacker may still bring into the battle's region (stacking, spec §8)."""
    battle = battle_of(state)
    return UNITS_PER_REGION - units_in(state, battle.dst, battle.side)


@dataclass
class AdvanceAfterBattle(Frame):
    """WD-21: stay, advance the whole force, or choose a part of it (spec §12.8)."""

    def run(self, state: WotrState) -> Decision:
        battle = battle_of(state)
        figures = force(state, battle, ATTACKER)
        chars = movable_characters(state, force_characters(state, battle, ATTACKER))
        options = [choice("stay")]
        if room(state) >= figures[:, :2].sum():
            options.append(choice("all"))
        if room(state) >= 1 and figures.sum() + len(chars) > 1:
            options.append(choice("part"))
        return Decision(battle.side, WD.ADVANCE_AFTER_BATTLE,
                        attacker_options(state, tuple(options)),
                        context={"battle": (battle.src, battle.dst)})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        battle = battle_of(state)
        if action == choice("all"):
            advance_force(state, force(state, battle, ATTACKER),
                          movable_characters(state, force_characters(state, battle, ATTACKER)))
        elif action == choice("part"):
            state.stack.append(SplitAdvance())
        else:
            log(state, "hold", battle.side, battle.src)


@dataclass
class SplitAdvance(Frame):
    """WD-10: the figures of the force that advance, one at a time, then DONE (at least one
    unit; no Free Peoples Leader left alone behind)."""

    chosen: tuple[int, ...] = NO_REAR
    chars: tuple[int, ...] = ()

    def picked(self) -> np.ndarray:
        return np.array(self.chosen, np.int16).reshape(N_NATIONS, N_KINDS)

    def run(self, state: WotrState) -> Decision:
        battle = battle_of(state)
        left = force(state, battle, ATTACKER) - self.picked()
        units = int(self.picked()[:, :2].sum())
        options: list[Action] = []
        for n, k in zip(*np.nonzero(left > 0), strict=True):
            if k >= 2 or units < room(state):
                options.append(("unit", int(n), int(k)))
        options += [("character", c) for c in movable_characters(
            state, force_characters(state, battle, ATTACKER)) if c not in self.chars]
        behind = army_at(state, battle.src, battle.side) - self.picked()
        lone = battle.side == FREE_PEOPLES and behind[:, :2].sum() == 0 \
            and left[:, LEADER].sum() > 0  # (forced rearguard Leaders: see attack.Rearguard)
        if units >= 1 and not lone:
            options.append(DONE)
        return Decision(battle.side, WD.SPLIT_ARMY, tuple(options),
                        context={"battle": (battle.src, battle.dst)})

    def act(self, state: WotrState, action: Action) -> None:
        if action == DONE:
            state.stack.pop()
            advance_force(state, self.picked(), list(self.chars))
        elif action[0] == "character":
            self.chars = (*self.chars, action[1])
        else:
            chosen = list(self.chosen)
            chosen[action[1] * N_KINDS + action[2]] += 1
            self.chosen = tuple(chosen)


__all__ = ["AdvanceAfterBattle", "CeaseOrContinue", "Retreat", "SplitAdvance", "finish",
           "retreat_regions", "retreat_to", "room"]
