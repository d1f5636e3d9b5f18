"""What the house-card abilities share: step helpers, the steps' typed frames and small
questions about the combat."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..board import occupant
from ..cards import combat_frame
from ..combat import other
from ..flow import pop, step
from ..frames import FRAME_CLASSES, CombatFrame, Convert, Frame, Side, frame_class
from ..state import CardPlace, GameState

Effect = Callable[[GameState, dict, str], None]

__all__ = ["CardFrame", "card_frame_class", "card_id", "ctx", "effect_step", "orders_of",
           "other", "replace_card", "step_name"]


@dataclass(slots=True, eq=False)
class CardFrame(Frame):
    """The locals of a house card's ability step: the ``side`` whose card it is, from the combat
    that pushes it (got_env.engine.combat_abilities). Every card step has its own subclass
    (:func:`card_frame_class`: a frame class is registered under one step name); a card whose
    step keeps more (Tyrion) declares its subclass itself."""

    TYPED: ClassVar[dict[str, Convert]] = {"side": Side}

    side: Side


def card_frame_class(card: str) -> type[CardFrame]:
    """The frame class of ``card``'s step, made and registered the first time it is asked for
    (unless the card's module declared one before naming its step). It is kept in this module's
    namespace under its own name, so that a pickled state finds it again."""
    name = f"card:{card}"
    cls = FRAME_CLASSES.get(name)
    if cls is None:
        title = "CardFrame_" + "".join(c if c.isalnum() else "_" for c in card)
        cls = type(title, (CardFrame,), {"step": name, "__module__": __name__,
                                          "__qualname__": title})
        cls = globals()[title] = frame_class(cls)
    return cls  # type: ignore[return-value]


def step_name(card: str) -> str:
    """The name of a card's step (``card:tyrion-lannister``), its frame class made
    (:func:`card_frame_class`): the ability modules name their steps with this."""
    return card_frame_class(card).step


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
