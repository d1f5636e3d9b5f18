"""Raid orders (rules spec §12.2, R18.4; D-25): remove one adjacent enemy order.

Geometry (R12.2.5, AMBIG-8): a raid from land targets adjacent land areas only; from a sea area,
adjacent seas, land areas and ports; from a port, only its sea area. Ship transport never makes
areas adjacent for raids (R14.4). Only an opponent's order can be targeted (R12.2.6).
"""

from __future__ import annotations

from .board import gain_power, occupant, tables
from .decision import DONE, Action, Decision, DecisionKind
from .flow import on_action, pop, step
from .state import LAND, PORT, SEA, GameState

RAIDABLE = ("support", "raid", "consolidate-power")


def raid_targets(state: GameState, area: int, house: int) -> list[int]:
    """Areas whose order this raid may remove (R12.2.1-R12.2.6)."""
    rs = state.ruleset
    token = rs.order_tokens[state.orders[area]]
    kinds = RAIDABLE + (("defense",) if token.special else ())
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


@step("raid")
def run_raid(state: GameState, frame: dict) -> Decision:
    """frame: {"area", "house"}. D-25: a target, or done to remove the raid unused (R12.2.4)."""
    targets = raid_targets(state, frame["area"], frame["house"])
    return Decision(frame["house"], DecisionKind.RAID_TARGET,
                    tuple(("area", t) for t in targets) + (DONE,), {"area": frame["area"]})


@on_action("raid")
def act_raid(state: GameState, frame: dict, action: Action) -> None:
    if action != DONE:
        target = action[1]
        victim = occupant(state, target)
        if state.ruleset.order_tokens[state.orders[target]].type == "consolidate-power":
            pillage(state, frame["house"], victim)
        state.orders[target] = -1
    state.orders[frame["area"]] = -1
    pop(state)


def pillage(state: GameState, raider: int, victim: int) -> None:
    """R12.2.3: the raider gains 1 power; the victim discards 1 if he has any."""
    gain_power(state, raider, 1)
    if state.power[victim] > 0:
        state.power[victim] -= 1
