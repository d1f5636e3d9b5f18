"""Raid orders (rules spec §12.2, R18.4; D-25): remove one adjacent enemy order.

Geometry (R12.2.5, AMBIG-8): a raid from land targets adjacent land areas only; from a sea area,
adjacent seas, land areas and ports; from a port, only its sea area. Ship transport never makes
areas adjacent for raids (R14.4). Only an opponent's order can be targeted (R12.2.6).

The special Raid differs by edition (``rules.special_raid``): ``"also-defense"`` (R12.2.2: it may
remove a Defense order instead) or ``"two-areas"`` (1e spec 7.1, A.7: it removes one Raid,
Support or CP order in each of up to two different adjacent areas, never a March or Defense).
Pillage (R12.2.3, 1e 7.1): the raider gains 1 power per CP order removed; the victim loses
``rules.pillage_victim_loses`` (2e 1, 1e 0), if he has it.

Readings recorded here for the 1st edition (1e spec 7.1, reading C.7):

* A two-area special Raid is asked as a short sequence of D-25 choices: a first target or done,
  then (with a first order removed) a second target in another area or done. The raid token
  stays on the board until the raid ends, so the second choice has the same geometry as the
  first; an area whose order was just removed holds no order and is not offered again. The
  frame counts the removed orders in ``removed`` (1e only: a 2e raid's frame is unchanged).
* Each CP order removed pillages (C.7): up to 2 power with a special Raid, each within the cap of
  20 tokens a house owns (a gain takes only what the Pool holds of the raider's own tokens).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from boardkit.decision import Decision

from .board import gain_power, occupant, tables
from .decision import DONE, Action, DecisionKind
from .frames import GotFrame
from .state import LAND, PORT, SEA, GameState

RAIDABLE = ("support", "raid", "consolidate-power")
SPECIAL_RAID_AREAS = 2  # 1e spec 7.1: a special Raid hits up to two adjacent areas


def raid_targets(state: GameState, area: int, house: int) -> list[int]:
    """Areas whose order this raid may remove (R12.2.1-R12.2.6)."""
    rs = state.ruleset
    token = rs.order_tokens[state.orders[area]]
    also_defense = token.special and rs.rules.special_raid == "also-defense"
    kinds = RAIDABLE + (("defense",) if also_defense else ())
    allowed = {LAND: (LAND,), SEA: (LAND, SEA, PORT), PORT: (SEA,)}[int(rs.kind[area])]
    board = tables(rs)
    orders = state.orders.tolist()
    occupants = state.occupants()
    out = []
    for t in board.neighbours[area]:
        if board.kind[t] not in allowed or orders[t] < 0:
            continue
        if occupants[t] in (house, -1):
            continue
        if rs.order_tokens[orders[t]].type in kinds:
            out.append(t)
    return out


def raids_two_areas(state: GameState, area: int) -> bool:
    """Whether the raid in ``area`` is a special Raid that hits two areas (1e spec 7.1)."""
    rs = state.ruleset
    return rs.rules.special_raid == "two-areas" and rs.order_tokens[state.orders[area]].special


@dataclass(slots=True)
class RaidFrame(GotFrame):
    """One Raid order: its ``area`` and ``house`` (from the resolve step that pushes it), and,
    in the 1st edition's two-area special Raid, the orders ``removed`` so far (None until the
    first: a 2e raid never has it)."""

    step: ClassVar[str] = "raid"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"removed"})

    area: int
    house: int
    removed: int | None = None

    def run(self, state: GameState) -> Decision:
        """D-25: a target, or done to remove the raid unused (R12.2.4)."""
        area = self.area
        targets = raid_targets(state, area, self.house)
        context = {"area": area}
        if self.removed is not None:
            context["removed"] = self.removed
        return Decision(self.house, DecisionKind.RAID_TARGET,
                        tuple([("area", t) for t in targets]) + (DONE,), context=context)

    def act(self, state: GameState, action: Action) -> None:
        """Remove the target's order (pillaging a CP); a two-area special Raid then asks for a
        second target (1e spec 7.1); the raid token goes once the raid is over."""
        if action != DONE:
            remove_raided_order(state, self.house, action[1])
            if raids_two_areas(state, self.area):
                removed = self.removed = (self.removed or 0) + 1
                if removed < SPECIAL_RAID_AREAS:
                    return
        state.orders[self.area] = -1
        state.stack.pop()


def remove_raided_order(state: GameState, raider: int, target: int) -> None:
    """The order in ``target`` is removed; a CP order is pillaged (R12.2.1, R12.2.3, 1e 7.1)."""
    victim = occupant(state, target)
    if state.ruleset.order_tokens[state.orders[target]].type == "consolidate-power":
        pillage(state, raider, victim)
    state.orders[target] = -1


def pillage(state: GameState, raider: int, victim: int) -> None:
    """R12.2.3: the raider gains 1 power; the victim discards ``rules.pillage_victim_loses``
    (2e 1, 1e 0, 1e spec 7.1), or what he has if less."""
    gain_power(state, raider, 1)
    loses = min(state.ruleset.rules.pillage_victim_loses, int(state.power[victim]))
    state.power[victim] -= loses
