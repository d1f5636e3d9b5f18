"""Invariants every reachable state satisfies; checked after every decision by the fuzz tests.

:func:`check` raises :class:`InvariantError` naming the first broken invariant.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..data import UNIT_TYPES
from .board import army_sizes, fits_limits, supply_ok
from .combat.frame import CombatFrame
from .decision import DecisionKind
from .frames import F
from .marches import MarchFrame, MarchStage
from .state import LAND, PORT, SHIP, CardPlace, GameState, Phase
from .supply import ReconcileFrame, SupplyFrame

# While these decisions are pending, a house may be over its supply limits: the rules then make
# it destroy units until it fits (R7.4, §15.6 6.3 item 5, AMBIG-12).
SUPPLY_REPAIR = {DecisionKind.RECONCILE_ARMIES, DecisionKind.RETREAT_SUPPLY_LOSS}


class InvariantError(AssertionError):
    """A state the rules can never produce."""


def check(state: GameState) -> None:
    rs = state.ruleset
    hid = [h.id for h in rs.houses]
    units, routed = state.units, state.routed

    if (units < 0).any() or (routed < 0).any() or (routed > units).any():
        raise InvariantError("negative unit counts, or more routed units than units")
    occupied = units.sum(axis=2) > 0
    crowded = np.flatnonzero(occupied.sum(axis=1) > 1)
    if crowded.size:
        raise InvariantError(f"units of two houses in {rs.areas[crowded[0]].id}")
    ships = units[:, :, SHIP].sum(axis=1)
    land_units = units.sum(axis=(1, 2)) - ships
    bad = np.flatnonzero(((rs.kind == LAND) & (ships > 0)) | ((rs.kind != LAND) & (land_units > 0)))
    if bad.size:
        raise InvariantError(f"units on the wrong kind of area in {rs.areas[bad[0]].id}")
    over_port = np.flatnonzero((rs.kind == PORT) & (ships > 3))
    if over_port.size:
        raise InvariantError(f"more than 3 ships in {rs.areas[over_port[0]].id}")
    blocked = np.flatnonzero(occupied.any(axis=1) & (state.impassable | (state.neutral_forces > 0)))
    if blocked.size:
        raise InvariantError(f"units in impassable or neutral area {rs.areas[blocked[0]].id}")
    orphan = (state.orders >= 0) & ~occupied.any(axis=1)
    for march in _frames(state, MarchFrame):  # a March keeps its token until it ends (R12.3.8)
        orphan[march.area] = False
    orphan = np.flatnonzero(orphan)
    if orphan.size:
        raise InvariantError(f"an order without units in {rs.areas[orphan[0]].id}")
    tokens_on_enemy = np.flatnonzero((state.power_tokens >= 0) & occupied.any(axis=1)
                                     & ~occupied[np.arange(rs.num_areas),
                                                 np.maximum(state.power_tokens, 0)])
    if tokens_on_enemy.size:
        where = rs.areas[tokens_on_enemy[0]].id
        raise InvariantError(f"a power token under enemy units in {where}")

    for h in range(rs.num_houses):
        if not state.in_play[h]:
            if units[:, h].any() or (state.power_tokens == h).any() or state.power[h]:
                raise InvariantError(f"{hid[h]} is not in play but has pieces")
            continue
        for u, name in enumerate(UNIT_TYPES):
            if units[:, h, u].sum() > rs.unit_pool[name]:
                raise InvariantError(f"{hid[h]} has more {name}s than the box holds")
        pool = state.power_pool()[h]
        if state.power[h] < 0 or pool < 0:
            raise InvariantError(f"{hid[h]}: power tokens not conserved (available "
                                 f"{state.power[h]}, pool {pool})")
        cards = [c.index for c in rs.house_cards if c.house == hid[h]]
        places = state.card_place[cards]
        if (places == CardPlace.OUT_OF_GAME).any():
            raise InvariantError(f"{hid[h]}: a card of a house in play is out of the game")
        if not (places == CardPlace.HAND).any() and not (places == CardPlace.CHOSEN).any():
            raise InvariantError(f"{hid[h]}: no card in hand")
        if state.phase != Phase.ENDED and not _supply_fits(state, h):
            raise InvariantError(f"{hid[h]} breaks its supply limits")
    garrisoned = np.flatnonzero(state.garrisons > 0)
    if garrisoned.size and not rs.garrison_strength:
        raise InvariantError(f"a garrison in {rs.areas[garrisoned[0]].id}, in a ruleset "
                             f"without garrisons (1e spec A.4)")
    for a in garrisoned:
        owner = rs.home_of[a]
        if owner < 0 or not state.in_play[owner]:
            raise InvariantError(f"a garrison in {rs.areas[a].id}, not a home of a house in play")
        if occupied[a].any() and not occupied[a, owner]:
            raise InvariantError(f"a garrison under enemy units in {rs.areas[a].id}")
    if not 0 <= state.wildling_threat <= rs.wildling_threat["max"]:
        raise InvariantError(f"wildling threat {state.wildling_threat} off the track")


def _supply_fits(state: GameState, house: int) -> bool:
    """Supply limits hold (R7.8) except where the rules repair them: while armies are reconciled
    (R7.4) or a retreat sheds units (§15.6 6.3 item 5). A March is checked on its result
    (marches.py): while its moves are chosen the house may be over; after that its waiting
    attackers count in the area they attack."""
    if state.pending is not None and state.pending.kind in SUPPLY_REPAIR:
        return True
    if any(type(f) in (ReconcileFrame, SupplyFrame) for f in state.stack):
        return True
    march = next((f for f in _frames(state, MarchFrame) if f.house == house), None)
    if march is None:
        return supply_ok(state, house)
    if march.stage is None or march.stage is MarchStage.MOVE:
        return True
    # Attackers wait on the board in the March's area; the combat frame, once there is one,
    # holds how many still wait (casualties, retreat and entering change it).
    combat = next(_frames(state, CombatFrame), None)
    attack = march.attack
    waiting = combat.units if combat is not None else attack["units"] if attack else None
    sizes = army_sizes(state, house).astype(np.int16)
    if waiting is not None and attack is not None:
        sizes[march.area] -= sum(waiting)
        sizes[attack["area"]] += sum(waiting)
    return fits_limits(sizes, state.ruleset.supply_limits[int(state.supply[house])])


def _frames(state: GameState, cls: type[F]) -> Iterator[F]:
    """The frames of class ``cls`` on the stack, outermost first."""
    for f in state.stack:
        if type(f) is cls:
            yield f
