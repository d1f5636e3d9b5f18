"""What the house-card abilities share: step helpers and small questions about the combat."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..board import occupant
from ..cards import combat_frame
from ..combat import other
from ..flow import pop, step
from ..frames import CombatFrame
from ..state import CardPlace, GameState

Effect = Callable[[GameState, dict, str], None]

__all__ = ["card_id", "ctx", "effect_step", "orders_of", "other", "replace_card", "step_name"]


def step_name(card: str) -> str:
    """The name of a card's step (``card:tyrion-lannister``)."""
    return f"card:{card}"


def effect_step(card: str) -> Callable[[Effect], Effect]:
    """Register ``fn(state, combat, side)`` as the step of ``card`` that asks nothing: it runs
    once, with the step already ended (so it may push further steps), and the combat goes on."""

    def register(fn: Effect) -> Effect:
        def run(state: GameState, frame: dict) -> None:
            pop(state)
            fn(state, combat_frame(state), frame["side"])
            return None

        step(step_name(card))(run)
        return fn

    return register


def ctx(combat: CombatFrame, **extra: int) -> dict:
    """Decision context: the embattled area and both combatants, plus ``extra``."""
    return {"area": combat.area, "attacker": combat.attacker,
            "defender": combat.defender, **extra}


def card_id(state: GameState, combat: CombatFrame, side: str) -> str | None:
    card = combat.cards.get(side)
    return state.ruleset.house_cards[card].id if card is not None else None


def replace_card(state: GameState, combat: CombatFrame, side: str, card: int) -> None:
    """``card`` (from the side's hand) is now the side's house card in this combat."""
    combat.cards[side] = card
    state.card_place[card] = CardPlace.CHOSEN


def orders_of(state: GameState, house: int) -> list[int]:
    """Areas holding an order token of ``house`` (the owner is the area's occupant)."""
    return [int(a) for a in np.flatnonzero(state.orders >= 0) if occupant(state, int(a)) == house]
