"""Stark cards with text: Robb Stark, Roose Bolton, The Blackfish, Catelyn Stark (facts §7)."""

from __future__ import annotations

from ..cards import Ability, register
from ..combat import defense_bonus
from ..frames import CombatFrame
from ..state import CardPlace, GameState
from .base import effect_step, step_name


@effect_step("robb-stark")
def robb_stark(state: GameState, combat: CombatFrame, side: str) -> None:
    """After the winner: Robb won against a defender, so Robb's player picks the loser's retreat
    area among the legal ones with the fewest losses (D-44; every retreat keeps to those, §15.6
    6.3 item 5). A losing attacker's retreat area is fixed: nothing to pick (facts §7; DECISIONS
    Open point 5)."""
    if combat.winner == side and combat.loser == "defender":
        combat.retreat_chooser = combat[side]


@effect_step("roose-bolton")
def roose_bolton(state: GameState, combat: CombatFrame, side: str) -> None:
    """After the winner: Roose lost, so his discard pile goes back to hand now and Roose himself
    at the cleanup, instead of the discard pile."""
    if combat.loser == side:
        for c in state.discards(combat[side]):
            state.card_place[c] = CardPlace.HAND
        combat.setdefault("card_to_hand", []).append(side)


def catelyn_stark(state: GameState, combat: CombatFrame, owner: str, side: str) -> int:
    """Static: the bonus of Catelyn's own Defense order in the embattled area counts twice."""
    return defense_bonus(state, combat) if side == owner == "defender" else 0


register(Ability("robb-stark", after_winner=step_name("robb-stark")))
register(Ability("roose-bolton", after_winner=step_name("roose-bolton")))
register(Ability("the-blackfish", no_casualties=True))
register(Ability("catelyn-stark", strength=catelyn_stark))
