"""Support and unit strength (rules spec §15.0-§15.1, R16.2, R18.4).

Who may support a combat in ``area``: a Support order in an area really adjacent to it (R15.1.11,
no transport), whose units can reach it: land units support land combats only (R15.1.7); ships
in a sea area support adjacent land or sea combats; ships in a port support only a combat in its
sea area (R15.1.8, R18.4).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .board import occupant
from .state import LAND, PORT, SEA, SIEGE_ENGINE, GameState

BASE_STRENGTH = np.array([1, 2, 1, 0], dtype=np.int16)  # footman, knight, ship, siege engine

# int[unit type] printed values -> int[unit type] values after the house cards' texts
Values = Callable[[np.ndarray], np.ndarray]


def unit_strength(state: GameState, area: int, house: int, counts: np.ndarray,
                  routed: np.ndarray | None, attacking_into: int | None,
                  values: Values | None = None) -> int:
    """Combat strength of ``counts`` units (§15.0): routed units give 0; a Siege Engine gives 4
    when attacking, or supporting the attack, into an area with a castle or stronghold.
    ``values`` turns those values per unit type into the ones the house cards set (Kevan,
    Victarion, Salladhor; :func:`got_env.engine.combat.unit_values`)."""
    standing = counts - (routed if routed is not None else 0)
    base = BASE_STRENGTH.copy()
    if attacking_into is not None and state.ruleset.fort_level[attacking_into] > 0:
        base[SIEGE_ENGINE] = 4
    if values is not None:
        base = values(base)
    return int((standing * base).sum())


def can_support(state: GameState, support_area: int, embattled: int) -> bool:
    """Whether the units of ``support_area`` may support a combat in ``embattled``."""
    rs = state.ruleset
    if not rs.adjacency[support_area, embattled]:
        return False
    kind, target = rs.kind[support_area], rs.kind[embattled]
    if kind == PORT:
        return bool(target == SEA)
    if kind == LAND:
        return bool(target == LAND)
    return bool(target in (LAND, SEA))  # ships in a sea area


def support_orders(state: GameState, embattled: int) -> dict[int, list[int]]:
    """house -> areas with its Support orders that can support a combat in ``embattled``."""
    rs = state.ruleset
    out: dict[int, list[int]] = {}
    for a in np.flatnonzero(state.orders >= 0):
        a = int(a)
        if rs.order_tokens[state.orders[a]].type != "support":
            continue
        if can_support(state, a, embattled):
            out.setdefault(occupant(state, a), []).append(a)
    return out


def support_strength(state: GameState, support_area: int, embattled: int,
                     for_attacker: bool, values: Values | None = None) -> int:
    """R15.1.2: all units of the area (Siege Engines only for the attacker into a castle or
    stronghold), plus the Support order's bonus (+1 for the special Support). ``values``: as in
    :func:`unit_strength`."""
    house = occupant(state, support_area)
    units = unit_strength(state, support_area, house, state.units[support_area, house],
                          state.routed[support_area, house],
                          embattled if for_attacker else None, values)
    return units + int(state.ruleset.order_tokens[state.orders[support_area]].bonus or 0)

