"""Mustering (R8.1-R8.8, R18.2, R18.7, R2.3.1; DECISIONS D-05).

Step ``mustering`` (frame ``houses``: who musters, in this order; ``areas``: None for every
castle/stronghold area each house controls, or a list of area indices). Pushed by the Mustering
card and A Throne of Blades (all houses, turn order), Consolidate Power ★ and The Horde Descends
(one house, one area: the area pick is skipped).

Each house finishes before the next starts (R8.1). It picks an area with points left
(``("area", a)``) or stops (``("done",)``); in that area it spends the area's points (stronghold
2, castle 1, never pooled, R8.2) one unit at a time: ``("muster", unit_type, dest)`` or
``("upgrade", unit_type)`` (R8.3-R8.4), or ``("done",)``, which loses what is left (R8.6). Only
legal options are listed: the house's unused units (R2.3.1), supply (R8.5, R7.8), land units in
the area itself (R8.4, R8.8), ships in its port (at most 3, R18.2, even with enemy ships in the
port's sea, R18.7) or in an adjacent sea area without enemy ships (R8.7). An area where nothing
is legal is not offered.

Frame locals (:class:`MusteringFrame`) added here: ``left`` (area -> points left, for the house
now mustering; None before it starts) and ``at`` (the area being mustered, -1 while picking).

Readings recorded here for the 1st edition (1e spec 5.2, A.4, A.14; the lead copies them to
docs/rules-readings.md):

* House by house (1e 5.2: "each house finishes all its mustering before the next house
  starts"): this step's one procedure, since R8.1 says the same; the 1e spec's A.14 ([Ext]: "2nd
  ed goes area by area") is not borne out by the 2e rulebook, so no rule differs here.
* No ports in 1e (A.4): a ship goes straight into an adjacent sea area, never one holding another
  house's ships (1e 5.2), nor one holding a neutral force (reading C.21: the units of a house not
  in play stand in sea areas as neutral forces and block ship mustering there), nor an impassable
  one. The 2e sea areas never hold a neutral force, so this changes nothing there.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from boardkit.decision import Decision

from .board import (
    army_size_list,
    enemy_ships_in,
    occupant,
    supply_ok,
    tables,
    units_in_box,
)
from .decision import DONE, Action, DecisionKind
from .frames import GotFrame
from .state import FOOTMAN, KNIGHT, SHIP, SIEGE_ENGINE, GameState, fort_areas

COSTS = {FOOTMAN: 1, KNIGHT: 2, SIEGE_ENGINE: 2, SHIP: 1}  # R8.3, in the order offered
UPGRADE_COST = 1  # a Footman in the area becomes a Knight or Siege Engine (R8.3)
UPGRADES = (KNIGHT, SIEGE_ENGINE)
PORT_CAPACITY = 3  # R18.2


def mustering_areas(state: GameState, house: int) -> list[int]:
    """Areas with a castle or stronghold that ``house`` controls (R8.1)."""
    ctrl = state.control_list()
    return [a for a in fort_areas(state.ruleset) if ctrl[a] == house]


def ship_destinations(state: GameState, house: int, area: int) -> list[int]:
    """Where a ship mustered in ``area`` may go: its port, if not full (R18.2, R18.7), and the
    adjacent sea areas holding no enemy ship (R8.7)."""
    rs = state.ruleset
    port = int(rs.port_of[area])
    out = []
    if port >= 0 and not state.impassable[port] and occupant(state, port) in (-1, house) \
            and state.units[port].sum() < PORT_CAPACITY:
        out.append(port)
    neutral, blocked = state.neutral_forces.tolist(), state.impassable.tolist()
    out += [s for s in tables(rs).sea_neighbours[area]
            if not enemy_ships_in(state, s, house) and not neutral[s] and not blocked[s]]
    return out


def muster_options(state: GameState, house: int, area: int, points: int,
                   box: tuple[list[int], list[int]] | None = None) -> list[Action]:
    """Legal musters and upgrades in ``area`` with ``points`` left (R8.3-R8.8, R2.3.1).
    ``box``: the house's (:func:`units_in_box`, :func:`army_size_list`) when the caller has
    them (the area pick asks every area in turn on the same position; not changed)."""
    return list(_muster_actions(state, house, area, points, box))


def can_muster(state: GameState, house: int, area: int, points: int,
               box: tuple[list[int], list[int]] | None = None) -> bool:
    """Whether :func:`muster_options` is not empty (the area pick stops at the first one)."""
    return next(_muster_actions(state, house, area, points, box), None) is not None


def _muster_actions(state: GameState, house: int, area: int, points: int,
                    box: tuple[list[int], list[int]] | None) -> Iterator[Action]:
    """The actions of :func:`muster_options`, in order, one at a time."""
    in_box, sizes = box if box is not None else _house_box(state, house)
    fits: dict[int, bool] = {}  # destination -> one more unit there fits (every type alike)
    for u, cost in COSTS.items():
        if cost > points or in_box[u] <= 0:
            continue
        dests = ship_destinations(state, house, area) if u == SHIP else [area]
        for d in dests:
            ok = fits.get(d)
            if ok is None:
                # a lone unit is no army: then the limits hold iff they hold now (key -1)
                key = -1 if sizes[d] == 0 else d
                ok = fits.get(key)
                if ok is None:
                    ok = fits[key] = supply_ok(state, house, {d: 1} if key >= 0 else None,
                                               sizes=sizes)
                fits[d] = ok
            if ok:
                yield ("muster", u, d)
    if points >= UPGRADE_COST and state.units[area, house, FOOTMAN] > 0:
        for u in UPGRADES:
            if in_box[u] > 0:
                yield ("upgrade", u)


def _house_box(state: GameState, house: int) -> tuple[list[int], list[int]]:
    """What :func:`muster_options` reads of the house: units left per type, army sizes."""
    return units_in_box(state, house), army_size_list(state, house)


@dataclass(slots=True)
class MusteringFrame(GotFrame):
    """One mustering: who musters, in this order, and where (None: every castle/stronghold area
    the house controls), from whoever pushes it; then, for the house now mustering, the points
    ``left`` per area (None between houses) and the area being mustered ``at`` (-1 while
    picking). Both are None before the first house starts (and ``left`` is hashed only once
    ``at`` is set: the dict this frame replaced had neither key then)."""

    step: ClassVar[str] = "mustering"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"at"})
    PRESENT_WITH: ClassVar[dict[str, str]] = {"left": "at"}

    houses: list[int]
    areas: list[int] | None
    left: dict[int, int] | None = None
    at: int | None = None

    def run(self, state: GameState) -> Decision | None:
        """R8.1: the first house of ``houses`` musters (area pick, then units there)."""
        if not self.houses:
            state.stack.pop()
            return None
        h = self.houses[0]
        if self.left is None:
            self._begin_house(state, h)
        left, at = self.left, self.at
        if at >= 0:
            options = muster_options(state, h, at, left[at])
            if not options:
                self._close_area()
                return None
            return Decision(player=h, kind=DecisionKind.MUSTER, options=(*options, DONE),
                            context={"area": at, "points": left[at]})
        box = _house_box(state, h)
        areas = [a for a, p in left.items() if p > 0 and can_muster(state, h, a, p, box)]
        if not areas:
            self._next_house()
            return None
        return Decision(player=h, kind=DecisionKind.MUSTER,
                        options=(*(("area", a) for a in areas), DONE),
                        context={"points": {a: left[a] for a in areas}})

    def act(self, state: GameState, action: Action) -> None:
        """Play one D-05 action (already checked against the options)."""
        h, at = self.houses[0], self.at
        kind = action[0]
        if kind == "area":
            self.at = action[1]
        elif kind == "done" and at >= 0:
            self._close_area()
        elif kind == "done":
            self._next_house()
        elif kind == "muster":
            _, u, dest = action
            state.units[dest, h, u] += 1
            self._spend(COSTS[u])
        else:  # upgrade: the footman leaves, the new unit takes its place (R8.4)
            u = action[1]
            footmen = state.units[at, h, FOOTMAN] - 1
            state.units[at, h, FOOTMAN] = footmen
            state.units[at, h, u] += 1
            state.routed[at, h, FOOTMAN] = min(state.routed[at, h, FOOTMAN], footmen)
            self._spend(UPGRADE_COST)

    def _begin_house(self, state: GameState, house: int) -> None:
        given = self.areas
        areas = given if given is not None else mustering_areas(state, house)
        self.left = {int(a): int(state.ruleset.fort_level[a]) for a in areas}
        self.at = int(areas[0]) if given is not None and len(areas) == 1 else -1

    def _next_house(self) -> None:
        self.houses.pop(0)
        self.left = None

    def _close_area(self) -> None:
        """Leave the area; its unspent points are lost (R8.6)."""
        self.left[self.at] = 0
        self.at = -1

    def _spend(self, cost: int) -> None:
        left, at = self.left, self.at
        left[at] -= cost
        if left[at] <= 0:
            self._close_area()
