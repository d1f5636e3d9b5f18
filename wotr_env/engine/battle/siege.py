"""Strongholds in battle: the retreat into a siege (WD-13, WD-14), extending a siege battle
(WD-20), units over a limit (WD-36), and a Stronghold falling (spec §13.2, §18.A, §20 #26-#27;
facts §7.3, §7.4).

Before every round of a field battle in a region with the defender's own Stronghold, not
besieged, the defender chooses a field battle or the retreat into the siege. After a retreat
the attacker advances (his force moves in, the defenders go into the box, at most 5 units: the
defender removes the excess to the reinforcements first, and the siege begins) or not (no siege:
the defenders stay in the field, facts §7.3 [JC reading]); either way the battle is over.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from boardkit.frames import Frame

from ..armies import Overstack
from ..decision import WD, Action, Decision, choice
from ..regions import (
    NATIONS_OF,
    STRONGHOLD,
    capture,
    downgrade,
    enter,
    lone_leaders,
    release_box,
    remove_figures,
)
from ..state import ELITE, LEADER, NAZGUL, WotrState, log
from .casualties import DOWNGRADE, can_downgrade
from .forces import (
    ATTACKER,
    FIELD,
    N_NATIONS,
    BattleFields,
    army_at,
    battle_of,
    characters_at,
    eliminate_character,
    force,
    force_characters,
    move_figures,
    units_in,
)
from .round import Round

UNITS_PER_REGION, UNITS_PER_BOX = 10, 5
# ``ban(state, battle, option)``: a card's battle strikes an option of the attacker's after a
# round (WD-18), a retreat into the siege (WD-14) or a won battle (WD-21): *Corsairs of Umbar*
# may not cease, and its landed Army holds the region (:mod:`..cards.shadow_strategy_corsairs`).
ATTACKER_BANS: list[Callable[[WotrState, BattleFields, Action], bool]] = []


def attacker_options(state: WotrState, options: tuple[Action, ...]) -> tuple[Action, ...]:
    """``options`` less those a card's battle bans (all of them if it would ban every one)."""
    battle = battle_of(state)
    kept = tuple(o for o in options if not any(ban(state, battle, o) for ban in ATTACKER_BANS))
    return kept or options


def movable_characters(state: WotrState, chars: list[int]) -> list[int]:
    """Characters of Level 0 never go with a moving Army (facts §7.2: they stay behind on a
    retreat; spec §20 #35: Saruman never leaves Orthanc)."""
    level = state.ruleset.cards.character_level
    return [c for c in chars if level[c] > 0]


def stronghold_choice_applies(state: WotrState) -> bool:
    """A field battle against an Army in its own side's Stronghold, not besieged (spec §13.2)."""
    battle = battle_of(state)
    defender = 1 - battle.side
    dst = battle.dst
    return (battle.kind == FIELD and int(state.ruleset.board.settlement[dst]) == STRONGHOLD
            and int(state.control[dst]) == defender and not state.box[dst].any())


@dataclass
class StrongholdChoice(Frame):
    """WD-13: before the round, the defender fights in the field or retreats into the siege."""

    def run(self, state: WotrState) -> Decision:
        battle = battle_of(state)
        return Decision(1 - battle.side, WD.STRONGHOLD_CHOICE,
                        (choice("field-battle"), choice("into-siege")),
                        context={"battle": (battle.src, battle.dst), "round": battle.round})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        if action == choice("field-battle"):
            state.stack.append(Round())
            return
        withdraw_into_siege(state)


def withdraw_into_siege(state: WotrState) -> None:
    """The defender retreats into the siege; the battle ends (also *Scouts*)."""
    battle = battle_of(state)
    log(state, "into-siege", 1 - battle.side, battle.dst)
    battle.ended, battle.outcome = True, "into-siege"
    state.stack.append(SiegeAdvance())


@dataclass
class SiegeAdvance(Frame):
    """WD-14: the attacker advances (the siege begins) or not (no siege) (facts §7.3)."""

    def run(self, state: WotrState) -> Decision:
        battle = battle_of(state)
        return Decision(battle.side, WD.SIEGE_ADVANCE,
                        attacker_options(state, (choice("advance"), choice("stay"))),
                        context={"battle": (battle.src, battle.dst)})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        battle = battle_of(state)
        if action == choice("stay"):
            log(state, "no-siege", battle.side, battle.dst)
            return
        state.stack.append(BeginSiege())
        state.stack.append(Overstack(1 - battle.side, battle.dst, False, UNITS_PER_BOX))


@dataclass
class BeginSiege(Frame):
    """The defenders go into the box, the attacking force moves in (spec §13.2)."""

    def run(self, state: WotrState) -> None:
        state.stack.pop()
        battle = battle_of(state)
        defender, dst = 1 - battle.side, battle.dst
        move_figures(state, army_at(state, dst, defender), characters_at(state, dst, defender),
                     dst, dst, dst_box=True)
        advance_force(state, force(state, battle, ATTACKER),
                      movable_characters(state, force_characters(state, battle, ATTACKER)))
        log(state, "siege-begins", dst, battle.side)
        return None


def advance_force(state: WotrState, figures: np.ndarray, chars: list[int]) -> None:
    """The attacker moves ``figures`` and ``chars`` from his region into the battle's."""
    battle = battle_of(state)
    was_besieged = besieged_side(state, battle.src)
    move_figures(state, figures, chars, battle.src, battle.dst)
    log(state, "advance", battle.side, battle.src, battle.dst, int(figures[:, :2].sum()))
    lone_leaders(state, battle.src)
    if was_besieged == 1 - battle.side:  # the besiegers left the siege behind them
        settle_siege(state, battle.src, was_besieged)
    enter(state, battle.dst, battle.side)


@dataclass
class ExtendSiege(Frame):
    """WD-20: after the siege battle's last round, the attacker may downgrade one of his
    participating Elites to fight one more round, as often as he has Elites (facts §7.3)."""

    def run(self, state: WotrState) -> Decision:
        battle = battle_of(state)
        figures = force(state, battle, ATTACKER)
        options = [("casualty", n, DOWNGRADE) for n in range(N_NATIONS)
                   if figures[n, ELITE] > 0 and can_downgrade(state, n)]
        return Decision(battle.side, WD.EXTEND_SIEGE, (*options, choice("stop")),
                        context={"battle": (battle.src, battle.dst), "round": battle.round})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        battle = battle_of(state)
        if action == choice("stop"):
            battle.ended, battle.outcome = True, "siege-goes-on"
            return
        downgrade(state, battle.src, action[1])
        log(state, "siege-extended", battle.side, action[1])
        battle.rounds_left = 1


def stronghold_falls(state: WotrState, region: int, besieger: int) -> None:
    """Every unit in the box is gone and the besiegers hold the region: what is left in the box
    (Leaders, Nazgûl, Characters) is eliminated and the Stronghold is captured (facts §7.4)."""
    besieged = 1 - besieger
    for n in range(N_NATIONS)[NATIONS_OF[besieged]]:
        for kind in (LEADER, NAZGUL):
            if state.box[region, n, kind]:
                remove_figures(state, region, n, kind, int(state.box[region, n, kind]), True)
    for c in characters_at(state, region, besieged, box=True):
        eliminate_character(state, c)
    capture(state, region, besieger)


def settle_siege(state: WotrState, region: int, besieged: int) -> None:
    """After a battle at a Stronghold ``besieged`` holds (or held) against a siege: the siege
    ends if the besiegers have no unit left, and the survivors come out; else, if the box has
    no unit left, the Stronghold falls to the besiegers (facts §7.3, §7.4)."""
    if units_in(state, region, 1 - besieged) == 0:
        release_box(state, region)
    elif units_in(state, region, besieged, box=True) == 0:
        stronghold_falls(state, region, 1 - besieged)


def besieged_side(state: WotrState, region: int) -> int | None:
    """The side inside the region's Stronghold box, if anyone is."""
    for side in (0, 1):
        if army_at(state, region, side, True).any() or characters_at(state, region, side, True):
            return side
    return None


__all__ = ["ATTACKER_BANS", "BeginSiege", "ExtendSiege", "SiegeAdvance", "StrongholdChoice",
           "UNITS_PER_BOX", "UNITS_PER_REGION", "advance_force", "attacker_options",
           "movable_characters", "besieged_side", "settle_siege", "stronghold_choice_applies",
           "stronghold_falls", "withdraw_into_siege"]
