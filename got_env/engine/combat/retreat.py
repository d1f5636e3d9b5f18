"""A combat's retreat and routing (§15.6 6.3, R13.2.4, R18.2; AMBIG-12, AMBIG-13, AMBIG-15,
D-44, D-45): the loser's siege engines and routed units are destroyed, the survivors retreat
routed (a losing attacker's stay where they marched from), then destroy units while the retreat
breaks supply; a port whose land area the retreat gave to the defender is captured afterwards.
The readings are recorded in got_env.engine.combat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardkit.decision import Decision

from ..board import (
    destroy_unit,
    land_destinations,
    move_unit,
    occupant,
    remove_orphan_order,
    ship_destinations,
    supply_ok,
)
from ..decision import Action, DecisionKind
from ..port_capture import capture_ports_after_control_change
from ..state import LAND, PORT, SIEGE_ENGINE, GameState
from .stages import ATTACKER, CombatStage
from .strength import _ctx

if TYPE_CHECKING:  # (frame.py, which runs this module's handlers, declares the frame)
    from .frame import CombatFrame

PORT_CAPACITY = 3  # R18.2


def retreat_areas(state: GameState, frame: CombatFrame) -> list[int]:
    """Legal retreat areas of the losing defender's units now in the embattled area (§15.6 6.3,
    R13.2.4, R18.2, AMBIG-13); supply is checked by the caller (item 5)."""
    area, h = frame.area, frame.defender
    rs = state.ruleset
    ships = rs.kind[area] != LAND
    candidates = ship_destinations(state, h, area) if ships else land_destinations(state, h, area)
    moving = int(state.units[area, h].sum())
    ctrl = state.control()
    out = []
    for a in sorted(candidates):
        if a == frame.origin or state.neutral_forces[a] > 0:
            continue
        occ = occupant(state, a)
        if occ not in (-1, h):
            continue
        if rs.kind[a] == PORT and int(state.units[a, h].sum()) + moving > PORT_CAPACITY:
            continue  # R18.2: at most 3 ships in a port
        if occ == -1 and ctrl[a] not in (-1, h):
            continue  # enemy power token or enemy home shield
        if rs.home_of[a] >= 0 and rs.home_of[a] != h and state.garrisons[a] > 0:
            continue  # an enemy garrison: entering would be an attack
        out.append(a)
    return out


def _retreat(state: GameState, frame: CombatFrame) -> Decision | None:
    """§15.6 6.3: the loser's survivors retreat; siege engines and routed units are destroyed."""
    loser = frame.loser
    h = frame.house(loser)
    if loser == ATTACKER:
        units = np.array(frame.units)
        if units[SIEGE_ENGINE]:
            for _ in range(units[SIEGE_ENGINE]):
                destroy_unit(state, frame.origin, h, SIEGE_ENGINE, routed=False)
            frame.units[SIEGE_ENGINE] = 0
        frame.retreat_to = frame.origin
        frame.stage = CombatStage.RETREAT_MOVE
        _move_retreat(state, frame)
        return None
    area = frame.area
    for u in range(4):  # routed units and siege engines cannot retreat
        n = int(state.routed[area, h, u]) if u != SIEGE_ENGINE else int(state.units[area, h, u])
        for _ in range(n):
            destroy_unit(state, area, h, u, routed=u != SIEGE_ENGINE or None)
    if not state.units[area, h].any():
        frame.stage = CombatStage.CLEANUP
        return None
    options = retreat_areas(state, frame)
    moving = int(state.units[area, h].sum())
    losses = {a: retreat_losses(state, h, area, a, moving) for a in options}
    # item 5: an area that breaks supply only if none fits, and then one with the fewest losses
    options = [a for a in options if losses[a] == min(losses.values())]
    if not options:  # no legal retreat: all are destroyed
        for u in range(4):
            for _ in range(int(state.units[area, h, u])):
                destroy_unit(state, area, h, u)
        frame.stage = CombatStage.CLEANUP
        return None
    chooser = h if frame.retreat_chooser is None else frame.retreat_chooser
    return Decision(chooser, DecisionKind.RETREAT_AREA, tuple(("area", a) for a in options),
                    context=_ctx(frame))


def _act_retreat(state: GameState, frame: CombatFrame, action: Action) -> None:
    frame.retreat_to = action[1]
    frame.stage = CombatStage.RETREAT_MOVE
    _move_retreat(state, frame)


def retreat_losses(state: GameState, house: int, area: int, dest: int, moving: int) -> int:
    """How many of the ``moving`` units retreating from ``area`` to ``dest`` must be destroyed
    for the house to fit its supply limits there (§15.6 6.3 item 5, AMBIG-12)."""
    for k in range(moving + 1):
        if supply_ok(state, house, {area: -moving, dest: moving - k}):
            return k
    return moving


def _move_retreat(state: GameState, frame: CombatFrame) -> None:
    """Put the retreating units in their area, routed; supply losses come next (AMBIG-12)."""
    loser = frame.loser
    h = frame.house(loser)
    dest = frame.retreat_to
    if loser == ATTACKER:
        units = np.array(frame.units)  # already standing in the origin area
        state.routed[dest, h] += units.astype(np.int8)
        frame.units = [0, 0, 0, 0]
        frame.retreated = units.tolist()
    else:
        area = frame.area
        frame.control_before_retreat = state.control().tolist()
        moving = state.units[area, h].copy()
        for u in range(4):
            if moving[u]:
                move_unit(state, area, dest, h, u, n=int(moving[u]))
        state.routed[dest, h] += moving
        frame.retreated = moving.tolist()
    remove_orphan_order(state, frame.area)
    frame.stage = CombatStage.RETREAT_LOSSES


def _retreat_losses(state: GameState, frame: CombatFrame) -> Decision | None:
    """D-45: while the retreat breaks supply, the retreating house destroys retreated units.
    Then a port whose land area the retreat gave to the defender is captured (R18.8, AMBIG-15)."""
    h = frame.house(frame.loser)
    dest = frame.retreat_to
    if supply_ok(state, h) or not any(frame.retreated):
        frame.stage = CombatStage.CLEANUP
        before, frame.control_before_retreat = frame.control_before_retreat, None
        if before is not None:
            capture_ports_after_control_change(state, np.array(before))
        return None
    return Decision(h, DecisionKind.RETREAT_SUPPLY_LOSS,
                    tuple(("unit", dest, u) for u in range(4) if frame.retreated[u] > 0),
                    context=_ctx(frame))


def _act_retreat_loss(state: GameState, frame: CombatFrame, action: Action) -> None:
    _, area, u = action
    destroy_unit(state, area, frame.house(frame.loser), u, routed=True)
    frame.retreated[u] -= 1
