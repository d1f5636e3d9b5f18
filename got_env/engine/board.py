"""Board geometry and army limits shared by every step: adjacency by purpose, ship transport,
friendly ports, supply checks (R7.2-R7.9, R12.3.2, R14, R18, R19).

All functions take area/house indices and read the state's arrays; nothing here changes state.
"""

from __future__ import annotations

import numpy as np

from .state import FOOTMAN, KNIGHT, LAND, PORT, SEA, SHIP, SIEGE_ENGINE, GameState

LAND_UNITS = (FOOTMAN, KNIGHT, SIEGE_ENGINE)


def neighbours(state: GameState, area: int) -> np.ndarray:
    """Indices of the areas that border ``area`` (real adjacency, R19.2-R19.3)."""
    return np.flatnonzero(state.ruleset.adjacency[area])


def occupant(state: GameState, area: int) -> int:
    """The house with units in ``area``, or -1 (never two houses: an invariant)."""
    counts = state.units[area].sum(axis=1)
    nz = np.flatnonzero(counts)
    return int(nz[0]) if nz.size else -1


def port_owner(state: GameState, port: int) -> int:
    """The house that may use a port: the controller of its land area (R18.1), -1 none."""
    return int(state.control()[state.ruleset.port_land[port]])


def enemy_ships_in(state: GameState, area: int, house: int) -> bool:
    ships = state.units[area, :, SHIP].copy()
    ships[house] = 0
    return bool(ships.any())


def transport_reach(state: GameState, house: int, origin: int) -> set[int]:
    """Land areas reachable from land area ``origin`` through a chain of one or more connected
    sea areas that each hold a ship of ``house`` (R14.1-R14.3, R14.5; ports do not link chains,
    AMBIG-14). Routed ships transport too. ``origin`` itself is not included."""
    rs = state.ruleset
    own_ship_seas = (rs.kind == SEA) & (state.units[:, house, SHIP] > 0)
    frontier = [int(s) for s in np.flatnonzero(rs.adjacency[origin] & own_ship_seas)]
    seen = set(frontier)
    while frontier:
        sea = frontier.pop()
        for nxt in np.flatnonzero(rs.adjacency[sea] & own_ship_seas):
            if int(nxt) not in seen:
                seen.add(int(nxt))
                frontier.append(int(nxt))
    reach: set[int] = set()
    for sea in seen:
        reach.update(int(a) for a in np.flatnonzero(rs.adjacency[sea] & (rs.kind == LAND)))
    reach.discard(origin)
    return reach


def land_destinations(state: GameState, house: int, origin: int) -> set[int]:
    """Land areas a land unit in ``origin`` may move or retreat to: adjacent land areas plus
    transport reach; impassable areas excluded (R12.3.2, R14, R16.7)."""
    rs = state.ruleset
    dests = {int(a) for a in np.flatnonzero(rs.adjacency[origin] & (rs.kind == LAND))}
    dests |= transport_reach(state, house, origin)
    return {a for a in dests if not state.impassable[a]}


def ship_destinations(state: GameState, house: int, origin: int) -> set[int]:
    """Areas a ship in ``origin`` may move or retreat to: adjacent seas, and adjacent ports the
    house owns (R12.3.2, R18.3); never land; impassable ports excluded."""
    rs = state.ruleset
    out = set()
    for a in np.flatnonzero(rs.adjacency[origin]):
        a = int(a)
        if state.impassable[a]:
            continue
        if rs.kind[a] == SEA or (rs.kind[a] == PORT and port_owner(state, a) == house):
            out.add(a)
    return out


# ---------------------------------------------------------------------------------------------
# Supply (R7)


def fits_limits(sizes: list[int] | np.ndarray, limits: tuple[int, ...]) -> bool:
    """Whether these area sizes fit one supply level's army limits (R7.2-R7.6): the armies
    (2+ units) sorted largest first must each fit the limit of the same rank."""
    armies = sorted((int(s) for s in sizes if s >= 2), reverse=True)
    if len(armies) > len(limits):
        return False
    return all(a <= lim for a, lim in zip(armies, limits, strict=False))


def army_sizes(state: GameState, house: int) -> np.ndarray:
    """int[area]: how many units ``house`` has in each area (routed included, R7.6)."""
    return state.units[:, house, :].sum(axis=1)


def supply_ok(state: GameState, house: int, delta: dict[int, int] | None = None,
              level: int | None = None) -> bool:
    """Whether ``house``'s armies, changed by ``delta`` (area -> unit count change), fit its
    supply limits (R7.8: no action may break them)."""
    sizes = army_sizes(state, house).astype(np.int16)
    for a, d in (delta or {}).items():
        sizes[a] += d
    lvl = int(state.supply[house]) if level is None else level
    return fits_limits(sizes, state.ruleset.supply_limits[lvl])


def unused_units(state: GameState, house: int, unit_type: int) -> int:
    """Units of a type still in the house's box (R2.3.1-R2.3.2)."""
    from ..data import UNIT_TYPES

    pool = state.ruleset.unit_pool[UNIT_TYPES[unit_type]]
    return pool - int(state.units[:, house, unit_type].sum())


def destroy_unit(state: GameState, area: int, house: int, unit_type: int,
                 routed: bool | None = None) -> None:
    """Remove one unit to its owner's box (§3 Destroy). Prefers a standing unit unless
    ``routed`` is True; a routed one goes when no standing one is left."""
    if state.units[area, house, unit_type] <= 0:
        raise ValueError(f"no unit of type {unit_type} of house {house} in area {area}")
    standing = state.units[area, house, unit_type] - state.routed[area, house, unit_type]
    take_routed = routed if routed is not None else standing == 0
    state.units[area, house, unit_type] -= 1
    if take_routed and state.routed[area, house, unit_type] > 0:
        state.routed[area, house, unit_type] -= 1
    state.routed[area, house, unit_type] = min(state.routed[area, house, unit_type],
                                               state.units[area, house, unit_type])
    remove_orphan_order(state, area)


def remove_orphan_order(state: GameState, area: int) -> None:
    """An order token in an area with no units goes back to its owner (errata §15.6 cleanup;
    orders exist only where units are)."""
    if state.orders[area] >= 0 and not state.units[area].any():
        state.orders[area] = -1


def gain_power(state: GameState, house: int, n: int) -> int:
    """Take up to ``n`` of the house's own tokens from the Power Pool; returns how many
    (R2.3.3, AMBIG-21: a gain takes only what the Pool still holds of that house's tokens)."""
    got = max(0, min(n, int(state.power_pool()[house])))
    state.power[house] += got
    return got
