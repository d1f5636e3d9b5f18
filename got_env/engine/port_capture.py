"""Ports changing hands (R18.8, AMBIG-15, D-47): when the land area of a port passes to another
house, the port capture step (:class:`PortCaptureFrame`) asks it how many of the old owner's
ships to replace with its own. Called after a combat's cleanup and retreat
(got_env.engine.combat) and after a March (got_env.engine.marches).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from boardkit.decision import Decision

from .board import supply_ok, tables, unused_units
from .decision import Action, DecisionKind
from .frames import GotFrame
from .state import SHIP, GameState


def capture_ports_after_control_change(state: GameState, before: np.ndarray | list[int]) -> None:
    """When the land area of a port passes to another house, that house may replace the old
    owner's ships in the port with its own (D-47); ships not replaced are removed. If nobody
    controls the land area, the ships stay (AMBIG-15). ``before``: control per area then."""
    after = state.control_list()
    occupants = state.occupants()
    for port, land in tables(state.ruleset).ports:
        new = after[land]
        if new < 0 or new == before[land]:
            continue
        old = occupants[port]
        if old >= 0 and old != new:
            state.stack.append(PortCaptureFrame(port=port, house=new, old=old))


@dataclass(slots=True)
class PortCaptureFrame(GotFrame):
    """One port capture (D-47), all from whoever pushes it: the ``port``, the ``house`` now
    holding its land area, the ``old`` owner of the ships there."""

    step: ClassVar[str] = "port_capture"

    port: int
    house: int
    old: int

    def run(self, state: GameState) -> Decision:
        """How many of the old owner's ships the house replaces with its own (as many as its
        unused ships and its supply allow)."""
        port, h = self.port, self.house
        ships = int(state.units[port, self.old, SHIP])
        n = 0
        while n < min(ships, unused_units(state, h, SHIP)) and \
                supply_ok(state, h, {port: n + 1}):
            n += 1
        return Decision(h, DecisionKind.PORT_CAPTURE, tuple(("count", k) for k in range(n + 1)),
                        context={"port": port, "ships": ships})

    def act(self, state: GameState, action: Action) -> None:
        port, h, old = self.port, self.house, self.old
        state.units[port, old, SHIP] = 0
        state.routed[port, old, SHIP] = 0
        state.units[port, h, SHIP] = action[1]
        state.orders[port] = -1  # the old owner's order goes back to him
        state.stack.pop()
