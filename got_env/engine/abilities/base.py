"""What the house-card abilities share: the frame of an ability step and small questions about
the combat.

Each card whose text needs a step has a frame class of its own, named for the card and holding
its ``step`` name (``card:<card id>``, what the digest hashes): a :class:`CardStep` with ``run``
and ``act`` when it asks a question, an :class:`EffectStep` with ``effect`` when it asks nothing.
The combat pushes it with the ``side`` of the card (got_env.engine.combat.ability_steps), and the
step finds the combat as the innermost one on the stack
(:func:`~got_env.engine.combat.frame.combat_frame`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..board import occupant
from ..combat.frame import CombatFrame, combat_frame
from ..combat.stages import Side
from ..frames import GotFrame
from ..state import CardPlace, GameState

__all__ = ["CardStep", "EffectStep", "card_id", "ctx", "orders_of", "replace_card"]


@dataclass(slots=True)
class CardStep(GotFrame):
    """An ability step: the ``side`` whose card it is, from the combat that pushes it. Every
    card's step is a subclass with its own ``step`` name."""

    side: Side


@dataclass(slots=True)
class EffectStep(CardStep):
    """An ability step that asks nothing: it ends itself, then plays :meth:`effect` on the
    combat (which may push further steps), and the combat goes on."""

    def run(self, state: GameState) -> None:
        state.stack.pop()
        self.effect(state, combat_frame(state), self.side)
        return None

    def effect(self, state: GameState, combat: CombatFrame, side: Side) -> None:
        """What the card does (its side's combat, once the step has ended)."""
        raise NotImplementedError(f"{type(self).__name__}.effect")


def ctx(combat: CombatFrame, **extra: int) -> dict:
    """Decision context: the embattled area and both combatants, plus ``extra``."""
    return {"area": combat.area, "attacker": combat.attacker,
            "defender": combat.defender, **extra}


def card_id(state: GameState, combat: CombatFrame, side: Side) -> str | None:
    card = combat.cards.get(side)
    return state.ruleset.house_cards[card].id if card is not None else None


def replace_card(state: GameState, combat: CombatFrame, side: Side, card: int) -> None:
    """``card`` (from the side's hand) is now the side's house card in this combat."""
    combat.cards[side] = card
    state.card_place[card] = CardPlace.CHOSEN


def orders_of(state: GameState, house: int) -> list[int]:
    """Areas holding an order token of ``house`` (the owner is the area's occupant)."""
    return [int(a) for a in np.flatnonzero(state.orders >= 0) if occupant(state, int(a)) == house]
