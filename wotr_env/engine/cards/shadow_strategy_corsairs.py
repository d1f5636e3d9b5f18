"""*Corsairs of Umbar* (facts §6.5 #10): Southrons & Easterlings At War; one Shadow Army moves
from Umbar to a Gondor coastal region; if it merges, the stacking limit is checked at once; if a
Free Peoples Army is there a battle starts, which the Shadow may not cease unless that Army was
already besieged.

Gondor's coast is ``board.coastal`` within Gondor: no source gives it, the map data holds a
reading of facts §8.2 (docs/wotr-rules-readings.md R-D8, R-D9). The move is a
:class:`~.moves.CardMove` of one step straight to the chosen region (the Army may split first:
rulebook p.28, facts §6). A Free Peoples Army in the field there is attacked by the Army as it
lands: the battle engine fights it as an attack from Umbar (the rearguard, the part that stays
in Umbar, is the split), and :data:`~wotr_env.engine.battle.siege.ATTACKER_BANS` keeps the
landed force from ceasing and makes it hold the region afterwards (it advances whole after
winning, or into the siege when the defenders withdraw into Dol Amroth). A Free Peoples Army
besieged there is not in the way: the Army lands beside the besiegers, then attacks the
Stronghold (a siege battle, ended by the Shadow as any other).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardkit.frames import Frame

from ..armies import closed
from ..battle.attack import can_attack_from
from ..battle.forces import FIELD
from ..battle.sequence import Battle
from ..battle.siege import ATTACKER_BANS
from ..decision import Action, choice
from ..events import event
from ..regions import units
from ..state import FREE_PEOPLES, SHADOW, WotrState
from .card_battles import battle_card, start_card_battle
from .common import Choose, choice_step, nation, region
from .conditions import at_war
from .moves import MOVE_RULES, CardMove, MoveRule

CORSAIRS = "sh-strat-10-corsairs-of-umbar"


def gondor_coast(state: WotrState) -> list[int]:
    """Gondor's coastal regions (``board.coastal``: a reading of facts §8.2)."""
    board, gondor = state.ruleset.board, nation(state, "gondor")
    return [int(r) for r in np.flatnonzero(board.coastal & (board.region_nation == gondor))]


def army_in_umbar(state: WotrState, side: int) -> list[int]:
    umbar = region(state, "umbar")
    return [umbar] if units(state, umbar, SHADOW) else []


@dataclass
class Landing(CardMove):
    """The Army in Umbar (or the part split off) sails straight to ``dst`` (one card step)."""

    dst: int = -1


def _landing_region(state: WotrState, frame: CardMove, here: int) -> list[int]:
    return [frame.dst] if isinstance(frame, Landing) else []


MOVE_RULES[CORSAIRS] = MoveRule(steps=1, sources=army_in_umbar,
                                ends=lambda state, frame, r: True, nexts=_landing_region)


def corsairs_landings(state: WotrState) -> list[int]:
    """The Gondor coastal regions the Army in Umbar may sail to, none a card closes: one free
    for it that some part of it may enter (a move: it may merge, or join the besiegers of a
    Free Peoples Army), or one with a Free Peoples Army in the field, which it can attack."""
    umbar = region(state, "umbar")
    out = []
    for r in gondor_coast(state):
        if closed(state, SHADOW, r):
            continue
        if units(state, r, FREE_PEOPLES):
            ok = can_attack_from(state, umbar, SHADOW, False, False)
        else:
            ok = Landing(SHADOW, CORSAIRS, dst=r).source_ok(state, umbar)
        if ok:
            out.append(r)
    return out


@event(CORSAIRS, at_war("southrons"))
def corsairs_of_umbar(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "corsairs-of-umbar"))


@choice_step("corsairs-of-umbar",
             lambda state, frame: tuple(("region", r) for r in corsairs_landings(state)))
def _corsairs_landing(state: WotrState, frame: Choose, action: Action) -> None:
    """A Free Peoples Army in the field there: the Army lands and fights at once, as an attack
    from Umbar whose rearguard stays in Umbar; else it moves (the stacking limit checked at
    once), then attacks a Free Peoples Army besieged there."""
    dst = action[1]
    if units(state, dst, FREE_PEOPLES):
        start_card_battle(state, SHADOW, ("edge", region(state, "umbar"), dst), CORSAIRS)
        return
    state.stack.append(AssaultAfterLanding(dst))
    state.stack.append(Landing(SHADOW, CORSAIRS, dst=dst))


@dataclass
class AssaultAfterLanding(Frame):
    """After the landing: a Free Peoples Army besieged in ``dst`` is attacked (a siege battle,
    which the Shadow may end as any other)."""

    dst: int

    def run(self, state: WotrState) -> None:
        state.stack.pop()
        if units(state, self.dst, FREE_PEOPLES, box=True) \
                and can_attack_from(state, self.dst, SHADOW, False, False):
            start_card_battle(state, SHADOW, ("region", self.dst), CORSAIRS)
        return None


def _landed_army_holds(state: WotrState, battle: Battle, option: Action) -> bool:
    """The Corsairs' field battle: no cease, and the landed force (never the rearguard left in
    Umbar) holds the region: it advances whole after winning, or into the siege."""
    return battle.kind == FIELD and battle_card(state) == CORSAIRS \
        and option in (choice("cease"), choice("stay"), choice("part"))


ATTACKER_BANS.append(_landed_army_holds)


__all__ = ["CORSAIRS", "AssaultAfterLanding", "Landing", "army_in_umbar", "corsairs_landings",
           "gondor_coast"]
