"""Martell cards with text: Arianne Martell, Nymeria Sand, Doran Martell (facts §7; D-36)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from boardkit.decision import Decision

from ..combat.cards import Ability, register
from ..combat.frame import CombatFrame, combat_frame
from ..combat.stages import ATTACKER, DEFENDER, Side, other
from ..decision import Action, DecisionKind
from ..state import GameState
from ..tracks import move_to_bottom
from .base import CardStep, EffectStep, ctx


@dataclass(slots=True)
class ArianneMartell(EffectStep):
    """After the winner: Arianne defended and lost, so the attacking units do not enter the
    embattled area; they stay, standing, in the area they marched from."""

    step: ClassVar[str] = "card:arianne-martell"

    def effect(self, state: GameState, combat: CombatFrame, side: Side) -> None:
        if side == DEFENDER and combat.loser == side:
            combat.attackers_stay = True


def nymeria_swords(state: GameState, combat: CombatFrame, owner: Side, side: Side) -> int:
    """Static: one sword when her player attacks ..."""
    return 1 if side == owner == ATTACKER else 0


def nymeria_fortifications(state: GameState, combat: CombatFrame, owner: Side,
                           side: Side) -> int:
    """... one fortification when he defends."""
    return 1 if side == owner == DEFENDER else 0


@dataclass(slots=True)
class DoranMartell(CardStep):
    """At the reveal: Doran's player picks an influence track (D-36); the opponent goes to its
    last position, the houses below him move up, a dominance token follows position 1
    (R21.1-R21.2)."""

    step: ClassVar[str] = "card:doran-martell"

    def run(self, state: GameState) -> Decision:
        combat = combat_frame(state)
        tracks = tuple(("track", t) for t in range(state.tracks.shape[0]))
        return Decision(combat.house(self.side), DecisionKind.DORAN_TRACK, tracks,
                        context=ctx(combat))

    def act(self, state: GameState, action: Action) -> None:
        combat = combat_frame(state)
        state.stack.pop()
        move_to_bottom(state, action[1], combat.house(other(self.side)))


register(Ability("arianne-martell", after_winner=ArianneMartell))
register(Ability("nymeria-sand", swords=nymeria_swords, fortifications=nymeria_fortifications))
register(Ability("doran-martell", reveal=DoranMartell))
