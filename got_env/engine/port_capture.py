"""Ports changing hands (R18.8, AMBIG-15, D-47): when the land area of a port passes to another
house, the ``port_capture`` step asks it how many of the old owner's ships to replace with its
own. Called after a combat's cleanup and retreat (got_env.engine.combat) and after a March
(got_env.engine.marches).
"""

from __future__ import annotations

import numpy as np

from .board import supply_ok, tables, unused_units
from .decision import Action, Decision, DecisionKind
from .flow import on_action, pop, push, step
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
            push(state, "port_capture", port=port, house=new, old=old)


@step("port_capture")
def run_port_capture(state: GameState, frame: dict) -> Decision | None:
    port, h, old = frame["port"], frame["house"], frame["old"]
    ships = int(state.units[port, old, SHIP])
    n = 0
    while n < min(ships, unused_units(state, h, SHIP)) and \
            supply_ok(state, h, {port: n + 1}):
        n += 1
    return Decision(h, DecisionKind.PORT_CAPTURE, tuple(("count", k) for k in range(n + 1)),
                    {"port": port, "ships": ships})


@on_action("port_capture")
def act_port_capture(state: GameState, frame: dict, action: Action) -> None:
    port, h, old = frame["port"], frame["house"], frame["old"]
    state.units[port, old, SHIP] = 0
    state.routed[port, old, SHIP] = 0
    state.units[port, h, SHIP] = action[1]
    state.orders[port] = -1  # the old owner's order goes back to him
    pop(state)
