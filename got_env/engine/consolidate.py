"""Consolidate Power orders (rules spec §12.4, R18.5; D-49).

Gains: a land area gives 1 + its power icons (R12.4.1); a sea area nothing (R12.4.2); a port 1,
or nothing while enemy ships are in its sea area (R12.4.3, R18.5). A special CP in a land area
with a castle or stronghold may muster there instead (R12.4.4, R8.9); never in a port.

1st edition (``rules.special_consolidate_power == "plain"``, 1e spec 1 and 7.3, A.7): the special
CP has no extra effect, no mustering option: it gives 1 + the area's crowns like a normal one (it
only lets a house place a third CP order). A CP order lies only on land in 1e (1e spec 6.1,
``rules.consolidate_power_at_sea``, enforced when orders are placed: engine/planning.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from boardkit.decision import Decision

from .board import enemy_ships_in, gain_power
from .decision import Action, DecisionKind, choice
from .frames import GotFrame
from .mustering import MusteringFrame
from .state import LAND, PORT, GameState


def consolidate_gain(state: GameState, area: int, house: int) -> int:
    rs = state.ruleset
    if rs.kind[area] == LAND:
        return 1 + int(rs.crowns[area])
    if rs.kind[area] == PORT and not enemy_ships_in(state, int(rs.port_sea[area]), house):
        return 1
    return 0


@dataclass(slots=True)
class ConsolidateFrame(GotFrame):
    """One Consolidate Power order: its ``area`` and ``house`` (from the resolve step that
    pushes it); played at once, or after one choice."""

    step: ClassVar[str] = "consolidate"

    area: int
    house: int

    def run(self, state: GameState) -> Decision | None:
        """R12.4: the gain at once, or (a special CP where it may muster) the choice first."""
        area = self.area
        rs = state.ruleset
        token = rs.order_tokens[state.orders[area]]
        if token.special and rs.rules.special_consolidate_power == "muster" \
                and rs.kind[area] == LAND and rs.fort_level[area] > 0:
            return Decision(self.house, DecisionKind.CONSOLIDATE_SPECIAL,
                            (choice("gain-power"), choice("mustering")), context={"area": area})
        self.act(state, choice("gain-power"))
        return None

    def act(self, state: GameState, action: Action) -> None:
        """Remove the order; gain power, or muster in its area (R12.4.4)."""
        area, house = self.area, self.house
        state.orders[area] = -1
        state.stack.pop()
        if action == choice("mustering"):
            state.stack.append(MusteringFrame(houses=[house], areas=[area]))
        else:
            gain_power(state, house, consolidate_gain(state, area, house))
