"""Stark cards with text: Robb Stark, Roose Bolton, The Blackfish, Catelyn Stark (facts §7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..combat.cards import Ability, register
from ..combat.frame import CombatFrame
from ..combat.stages import DEFENDER, Side
from ..combat.strength import defense_bonus
from ..state import CardPlace, GameState
from .base import EffectStep


@dataclass(slots=True)
class RobbStark(EffectStep):
    """After the winner: Robb won against a defender, so Robb's player picks the loser's retreat
    area among the legal ones with the fewest losses (D-44; every retreat keeps to those, §15.6
    6.3 item 5). A losing attacker's retreat area is fixed: nothing to pick (facts §7; DECISIONS
    Open point 5)."""

    step: ClassVar[str] = "card:robb-stark"

    def effect(self, state: GameState, combat: CombatFrame, side: Side) -> None:
        if combat.winner == side and combat.loser == DEFENDER:
            combat.retreat_chooser = combat.house(side)


@dataclass(slots=True)
class RooseBolton(EffectStep):
    """After the winner: Roose lost, so his discard pile goes back to hand now and Roose himself
    at the cleanup, instead of the discard pile."""

    step: ClassVar[str] = "card:roose-bolton"

    def effect(self, state: GameState, combat: CombatFrame, side: Side) -> None:
        if combat.loser == side:
            for c in state.discards(combat.house(side)):
                state.card_place[c] = CardPlace.HAND
            if combat.card_to_hand is None:
                combat.card_to_hand = []
            combat.card_to_hand.append(side)


def catelyn_stark(state: GameState, combat: CombatFrame, owner: Side, side: Side) -> int:
    """Static: the bonus of Catelyn's own Defense order in the embattled area counts twice."""
    return defense_bonus(state, combat) if side == owner == DEFENDER else 0


register(Ability("robb-stark", after_winner=RobbStark))
register(Ability("roose-bolton", after_winner=RooseBolton))
register(Ability("the-blackfish", no_casualties=True))
register(Ability("catelyn-stark", strength=catelyn_stark))
