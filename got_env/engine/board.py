"""Board geometry and army limits shared by every step: adjacency by purpose, ship transport,
friendly ports, supply checks (R7.2-R7.9, R12.3.2, R14, R18, R19).

All functions take area/house indices and read the state's arrays; nothing here changes state.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._compiled import engine_kernels
from ..data import UNIT_TYPES, Ruleset
from .state import FOOTMAN, KNIGHT, LAND, PORT, SEA, SHIP, SIEGE_ENGINE, GameState

#: The typed twins of the supply checks' loops (``_kernels.pyx``), or None: the code below.
_KERNELS = engine_kernels()

LAND_UNITS = (FOOTMAN, KNIGHT, SIEGE_ENGINE)


class BoardTables(NamedTuple):
    """Plain-Python views of a ruleset's fixed geometry, in ascending area order (as
    ``np.flatnonzero`` gives them). The move, retreat and muster checks run thousands of times a
    game on a handful of areas each, where indexing tuples is several times cheaper than numpy
    calls on small arrays."""

    kind: tuple[int, ...]  # per area: LAND, SEA or PORT
    neighbours: tuple[tuple[int, ...], ...]  # per area: bordering areas
    land_neighbours: tuple[tuple[int, ...], ...]  # per area: bordering land areas
    sea_neighbours: tuple[tuple[int, ...], ...]  # per area: bordering sea areas
    port_land: tuple[int, ...]  # per area: for a port, its land area, else -1
    ports: tuple[tuple[int, int], ...]  # (port, its land area) for every port, ascending
    unit_pool: tuple[int, ...]  # per unit type: how many each house owns (R2.3.1)


def tables(ruleset: Ruleset) -> BoardTables:
    """The ruleset's :class:`BoardTables`, built once (``Ruleset.derived``)."""
    return ruleset.derived("board_tables", _build_tables)


def _build_tables(ruleset: Ruleset) -> BoardTables:
    kind = tuple(int(k) for k in ruleset.kind)
    neighbours = tuple(tuple(int(a) for a in np.flatnonzero(row)) for row in ruleset.adjacency)
    return BoardTables(
        kind=kind,
        neighbours=neighbours,
        land_neighbours=tuple(tuple(a for a in ns if kind[a] == LAND) for ns in neighbours),
        sea_neighbours=tuple(tuple(a for a in ns if kind[a] == SEA) for ns in neighbours),
        port_land=tuple(int(a) for a in ruleset.port_land),
        ports=tuple((p, int(a)) for p, a in enumerate(ruleset.port_land) if a >= 0),
        unit_pool=tuple(ruleset.unit_pool[t] for t in UNIT_TYPES),
    )


def neighbours(state: GameState, area: int) -> np.ndarray:
    """Indices of the areas that border ``area`` (real adjacency, R19.2-R19.3)."""
    return np.flatnonzero(state.ruleset.adjacency[area])


def occupant(state: GameState, area: int) -> int:
    """The house with units in ``area``, or -1 (never two houses: an invariant)."""
    return state.occupants()[area]


def port_owner(state: GameState, port: int) -> int:
    """The house that may use a port: the controller of its land area (R18.1), -1 none."""
    return int(state.control()[state.ruleset.port_land[port]])


def enemy_ships_in(state: GameState, area: int, house: int) -> bool:
    """Whether another house than ``house`` has ships in ``area``."""
    ships = state.units[area, :, SHIP].tolist()
    return sum(ships) - (ships[house] if 0 <= house < len(ships) else 0) > 0  # counts >= 0


def transport_reach(state: GameState, house: int, origin: int) -> set[int]:
    """Land areas reachable from land area ``origin`` through a chain of one or more connected
    sea areas that each hold a ship of ``house`` (R14.1-R14.3, R14.5; ports do not link chains,
    AMBIG-14). Routed ships transport too. ``origin`` itself is not included."""
    t = tables(state.ruleset)
    ships = state.units[:, house, SHIP].tolist()
    frontier = [s for s in t.sea_neighbours[origin] if ships[s]]
    seen = set(frontier)
    while frontier:
        for nxt in t.sea_neighbours[frontier.pop()]:
            if ships[nxt] and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    reach: set[int] = set()
    for sea in seen:
        reach.update(t.land_neighbours[sea])
    reach.discard(origin)
    return reach


def land_destinations(state: GameState, house: int, origin: int) -> set[int]:
    """Land areas a land unit in ``origin`` may move or retreat to: adjacent land areas plus
    transport reach; impassable areas excluded (R12.3.2, R14, R16.7)."""
    dests = set(tables(state.ruleset).land_neighbours[origin])
    dests |= transport_reach(state, house, origin)
    impassable = state.impassable
    return {a for a in dests if not impassable[a]}


def ship_destinations(state: GameState, house: int, origin: int) -> set[int]:
    """Areas a ship in ``origin`` may move or retreat to: adjacent seas, and adjacent ports the
    house owns (R12.3.2, R18.3); never land; impassable ports excluded."""
    t = tables(state.ruleset)
    impassable = state.impassable
    out = set()
    control = None
    for a in t.neighbours[origin]:
        if impassable[a]:
            continue
        if t.kind[a] == SEA:
            out.add(a)
        elif t.kind[a] == PORT:
            if control is None:
                control = state.control()
            if control[t.port_land[a]] == house:  # the port's owner (R18.1, port_owner)
                out.add(a)
    return out


# ---------------------------------------------------------------------------------------------
# Supply (R7)


def fits_limits(sizes: list[int] | np.ndarray, limits: tuple[int, ...]) -> bool:
    """Whether these area sizes fit one supply level's army limits (R7.2-R7.6): the armies
    (2+ units) sorted largest first must each fit the limit of the same rank."""
    if isinstance(sizes, np.ndarray):
        sizes = sizes.tolist()
    if _KERNELS is not None:
        return _KERNELS.fits_limits(sizes, limits)
    return _fits_limits(sizes, limits)


def _fits_limits(sizes: list[int], limits: tuple[int, ...]) -> bool:
    """:func:`fits_limits` in Python (the reference of ``_kernels.fits_limits``)."""
    ranked = sorted(sizes, reverse=True)  # sorting in C beats filtering in Python first
    n = len(limits)
    if len(ranked) > n and ranked[n] >= 2:
        return False  # more armies than the level allows
    for size, limit in zip(ranked, limits, strict=False):
        if size < 2:
            break  # the armies are all checked
        if size > limit:
            return False
    return True


def army_sizes(state: GameState, house: int) -> np.ndarray:
    """int[area]: how many units ``house`` has in each area (routed included, R7.6)."""
    return state.units[:, house, :].sum(axis=1)


def army_size_list(state: GameState, house: int) -> list[int]:
    """:func:`army_sizes` as a plain list (cheaper to copy, change and scan in the supply
    checks, which each look at every area); a new list each call, from a copy kept in
    :meth:`GameState.units_cache` until the units change."""
    cache = state.units_cache()
    sizes = cache.get(("army_sizes", house))
    if sizes is None:
        sizes = cache[("army_sizes", house)] = _army_size_list_of(state.units, house)
    return sizes.copy()


def _army_size_list_of(units: np.ndarray, house: int) -> list[int]:
    """Per area, the house's units (all types): the typed kernel's sum, else numpy's (the
    reference)."""
    if _KERNELS is not None:
        sizes = _KERNELS.army_sizes(units, house)
        if sizes is not None:
            return sizes
    return units[:, house, :].sum(axis=1).tolist()


def supply_ok(state: GameState, house: int, delta: dict[int, int] | None = None,
              level: int | None = None, sizes: list[int] | None = None) -> bool:
    """Whether ``house``'s armies, changed by ``delta`` (area -> unit count change), fit its
    supply limits (R7.8: no action may break them). ``sizes``: the house's
    :func:`army_size_list` when the caller already has it (it is not changed)."""
    sizes = army_size_list(state, house) if sizes is None else sizes.copy()
    if delta:
        for a, d in delta.items():
            sizes[a] += d
    lvl = int(state.supply[house]) if level is None else level
    return fits_limits(sizes, state.ruleset.supply_limits[lvl])


def unused_units(state: GameState, house: int, unit_type: int) -> int:
    """Units of a type still in the house's box (R2.3.1-R2.3.2)."""
    pool = tables(state.ruleset).unit_pool[unit_type]
    return pool - int(state.units[:, house, unit_type].sum())


def units_in_box(state: GameState, house: int) -> list[int]:
    """Per unit type, :func:`unused_units` of every type at once (a new list each call, from
    a copy kept in :meth:`GameState.units_cache` until the units change)."""
    cache = state.units_cache()
    box = cache.get(("units_in_box", house))
    if box is None:
        used = _used_units_of(state.units, house)
        box = cache[("units_in_box", house)] = [
            pool - n for pool, n in zip(tables(state.ruleset).unit_pool, used, strict=True)]
    return box.copy()


def _used_units_of(units: np.ndarray, house: int) -> list[int]:
    """Per unit type, the house's units on the board: the typed kernel's sum, else numpy's
    (the reference)."""
    if _KERNELS is not None:
        used = _KERNELS.used_units(units, house)
        if used is not None:
            return used
    return units[:, house, :].sum(axis=0).tolist()


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


def move_unit(state: GameState, src: int, dst: int, house: int, unit_type: int,
              n: int = 1, routed: int = 0) -> None:
    """Move units of one house between areas (no combat): enemy power tokens in ``dst`` go back to
    the Pool (R13.2.2). Ports are not captured here: the caller does it once its moves are over
    (the March after D-28, the combat in its cleanup:
    port_capture.capture_ports_after_control_change), so that one change of control asks D-47
    once."""
    state.units[src, house, unit_type] -= n
    state.routed[src, house, unit_type] -= routed
    state.units[dst, house, unit_type] += n
    state.routed[dst, house, unit_type] += routed
    if state.power_tokens[dst] >= 0 and state.power_tokens[dst] != house:
        state.power_tokens[dst] = -1


def remove_orphan_order(state: GameState, area: int) -> None:
    """An order token in an area with no units goes back to its owner (errata §15.6 cleanup;
    orders exist only where units are)."""
    if state.orders[area] >= 0 and not state.units[area].any():
        state.orders[area] = -1


def gain_power(state: GameState, house: int, n: int) -> int:
    """Take up to ``n`` of the house's own tokens from the Power Pool; returns how many
    (R2.3.3, AMBIG-21: a gain takes only what the Pool still holds of that house's tokens)."""
    got = max(0, min(n, state.power_pool_of(house)))
    state.power[house] += got
    return got
