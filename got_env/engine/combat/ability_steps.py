"""When the revealed house cards' abilities act in a combat (R15.3.4): the steps their
:class:`~.cards.Ability` records name are pushed at the reveal (cancel effects first), after
the winner is decided, after the retreat and after the cleanup, one at a time,
each timing in Iron Throne order of the cards' owners; ``abilities_done`` (an ordered set of
``(timing, side, card)``) remembers which were pushed in this part of the combat. A cancelled
ability (:func:`~got_env.engine.combat.strength.side_ability`) has no step. An ability's step is
a frame class of its own (got_env.engine.abilities), pushed with the side of its card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import GameState
from . import tides
from .stages import CombatStage
from .strength import side_ability

if TYPE_CHECKING:  # (frame.py, which runs this module's handlers, declares the frame)
    from .frame import CombatFrame


def _reveal(state: GameState, frame: CombatFrame) -> None:
    following = CombatStage.TIDES_DRAW if tides.in_use(state, frame) else CombatStage.BLADE
    return _next_ability(state, frame, ("cancel", "reveal"), next_stage=following)


def _after_winner(state: GameState, frame: CombatFrame) -> None:
    return _next_ability(state, frame, ("after_winner",), next_stage=CombatStage.CASUALTIES)


def _after_combat(state: GameState, frame: CombatFrame) -> None:
    return _next_ability(state, frame, ("after_combat",), next_stage=CombatStage.END)


def _next_ability(state: GameState, frame: CombatFrame, timings: tuple[str, ...],
                  next_stage: CombatStage) -> None:
    """Push the next ability step of the given timings: cancel effects first, then the others,
    each in Iron Throne order (R15.3.4); with none left, go on to ``next_stage``."""
    if not _push_next_ability(state, frame, timings):
        frame.stage = next_stage
    return None


def _push_next_ability(state: GameState, frame: CombatFrame, timings: tuple[str, ...]) -> bool:
    """Push the next not yet pushed ability step of the given timings; False if none is left.
    A cancelled ability (:func:`side_ability`) has no step."""
    order = state.turn_order()
    done = frame.abilities_done
    for timing in timings:
        for h in order:
            side = frame.side_of(h)
            card = frame.cards.get(side) if side else None
            if card is None:
                continue
            ability = side_ability(state, frame, side)
            step = getattr(ability, timing, None) if ability else None
            key = (timing, side, card)
            if step is not None and key not in done:
                done[key] = None
                state.stack.append(step(side=side))
                return True
    return False
