"""Supply: adjusting the supply track and reconciling armies (R7.1-R7.9; DECISIONS D-04).

Steps:
* ``supply`` (Supply card, A Throne of Blades): every house's level becomes the barrels in the
  land areas it controls, at most 6 (R7.1, facts §4.3); then ``reconcile`` for all houses.
* ``reconcile`` (frame ``houses``, in turn order): each house whose armies break its limits
  destroys one unit at a time of its choice, among its units in areas where it has 2 or more
  (only armies can break limits, R7.4-R7.6, R7.9), until they fit. A house finishes before the
  next one starts (the facts' "in turn order"). Also pushed by Rattleshirt's Raiders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from boardkit.decision import Decision

from ..data import UNIT_TYPES
from .board import army_sizes, destroy_unit, supply_ok
from .decision import Action, DecisionKind
from .frames import GotFrame
from .state import GameState


def adjust_supply(state: GameState) -> None:
    """R7.1: each house in play moves its supply token to its barrel count (max 6)."""
    top = len(state.ruleset.supply_limits) - 1
    levels = np.minimum(state.barrels_controlled(), top)
    state.supply[:] = np.where(state.in_play, levels, 0)


@dataclass(slots=True)
class SupplyFrame(GotFrame):
    """The supply step (no locals): it runs once and hands over to the reconcile step."""

    step: ClassVar[str] = "supply"

    def run(self, state: GameState) -> None:
        """R7.1 then R7.4: adjust every house's supply, then reconcile in turn order."""
        adjust_supply(state)
        state.stack.pop()
        state.stack.append(ReconcileFrame(houses=state.turn_order()))
        return None


def reconcile_options(state: GameState, house: int) -> tuple[Action, ...]:
    """D-04: ("unit", area, unit_type) for each type the house has in an area holding 2+ of its
    units (R7.4, R7.6: routed units count too, R7.9: seas and ports too)."""
    armies = np.flatnonzero(army_sizes(state, house) >= 2)
    return tuple(("unit", int(a), u) for a in armies for u in range(len(UNIT_TYPES))
                 if state.units[a, house, u] > 0)


@dataclass(slots=True)
class ReconcileFrame(GotFrame):
    """The reconcile step: the ``houses`` still to check, in turn order (the first destroys
    units until it fits, then is dropped)."""

    step: ClassVar[str] = "reconcile"

    houses: list[int]

    def run(self, state: GameState) -> Decision | None:
        """R7.4: the first house in ``houses`` still over its limits destroys a unit."""
        houses = self.houses
        while houses and supply_ok(state, houses[0]):
            houses.pop(0)
        if not houses:
            state.stack.pop()
            return None
        h = houses[0]
        level = int(state.supply[h])
        return Decision(player=h, kind=DecisionKind.RECONCILE_ARMIES,
                        options=reconcile_options(state, h),
                        context={"supply": level,
                                 "limits": list(state.ruleset.supply_limits[level])})

    def act(self, state: GameState, action: Action) -> None:
        """Destroy the chosen unit (§3 Destroy: back to its owner's pool, R2.3.2)."""
        _, area, unit_type = action
        destroy_unit(state, area, self.houses[0], unit_type)
