"""March orders (rules spec §12.3, §13.1-§13.2, §14, §16, R18.3; D-27 to D-29).

One March is a short sequence of atomic choices: ``("move", unit_type, destination)`` repeated,
then ``("done",)``; then, if the house emptied a land area, whether to leave a power token there
(D-28); then the one attack, if any: a combat (combat.py) or a neutral force (R16).

Moves into friendly or empty areas happen at once. Units moved into the area of the March's one
attack wait in the frame (``attack``) and stay in the start area on the board until the combat
decides where they go. Every move keeps the house within its supply limits (R12.3.9), counting
the waiting attackers where they are going.

Readings recorded here:
* AMBIG-23: entering an area that holds only an enemy power token is not a combat and does not
  use up the March's one attack; the token goes back to the Pool (R13.2.2).
* AMBIG-11: a March into a neutral force is legal; if, after support, its strength is below the
  token's, the move is void: the units stay where they were, not routed, the order is used up.
* DECISIONS Open point 4: against a neutral force, other houses with adjacent Support orders
  are asked in turn order (D-29); the marcher's own adjacent support always counts.
* Open point 6 / AMBIG-15: ships in the port of a land area whose control passes to another
  house by a march (no combat) are captured as in R18.8 (see combat.capture_port).
* Supply is checked move by move: the position after each atomic move must fit the limits, so
  "done" is always legal.
"""

from __future__ import annotations

import numpy as np

from .board import (
    LAND_UNITS,
    land_destinations,
    occupant,
    ship_destinations,
    supply_ok,
)
from .decision import DONE, NO, YES, Action, Decision, DecisionKind, choice
from .flow import on_action, pop, push, step
from .state import LAND, PORT, SHIP, GameState
from .support import support_orders, support_strength, unit_strength

PORT_CAPACITY = 3


def attack_defender(state: GameState, area: int, house: int) -> int | None:
    """Who defends ``area`` against ``house``: -1 for a neutral force, the occupying enemy, or
    the owner of an enemy garrison (R17.3); None if entering is not an attack."""
    if state.neutral_forces[area] > 0:
        return -1
    occ = occupant(state, area)
    if occ >= 0:
        return occ if occ != house else None
    owner = int(state.ruleset.home_of[area])
    if state.garrisons[area] > 0 and owner != house:
        return owner
    return None


def _pending(frame: dict) -> np.ndarray:
    return np.array(frame["attack"]["units"] if frame["attack"] else [0, 0, 0, 0])


def _free_units(state: GameState, frame: dict) -> np.ndarray:
    """Units of each type still free to move out of the March area (not routed, not waiting to
    attack; R12.3.2: routed units cannot move)."""
    src, h = frame["area"], frame["house"]
    return state.units[src, h] - state.routed[src, h] - _pending(frame)


def move_options(state: GameState, frame: dict) -> list[Action]:
    src, h = frame["area"], frame["house"]
    rs = state.ruleset
    free = _free_units(state, frame)
    waiting = int(_pending(frame).sum())
    attack_area = frame["attack"]["area"] if frame["attack"] else None
    options: list[Action] = []
    land_dests = sorted(land_destinations(state, h, src)) if rs.kind[src] == LAND else []
    sea_dests = sorted(ship_destinations(state, h, src)) if rs.kind[src] != LAND else []
    for u in range(4):
        if free[u] <= 0:
            continue
        for dst in (sea_dests if u == SHIP else land_dests):
            if u in LAND_UNITS and rs.kind[dst] != LAND:
                continue
            defender = attack_defender(state, dst, h)
            if defender is not None:
                if attack_area is not None and attack_area != dst:
                    continue  # one attack per March (R12.3.3, R16.5)
                delta = {src: -(waiting + 1), dst: waiting + 1}
            else:
                if rs.kind[dst] == PORT and state.units[dst, h].sum() >= PORT_CAPACITY:
                    continue  # R18.2
                delta = {src: -(waiting + 1), dst: 1}
                if attack_area is not None:
                    delta[attack_area] = waiting
            if supply_ok(state, h, delta):
                options.append(("move", u, dst))
    return options


def can_leave_power_token(state: GameState, area: int, house: int, waiting: int) -> bool:
    """D-28 is asked when the March emptied a land area of the house's units (R13.1.1-R13.1.7,
    R13.3.1): not in a sea area, not without available power, not where its token already lies,
    not in its own home area (the shield already holds it)."""
    rs = state.ruleset
    return bool(rs.kind[area] == LAND and state.units[area, house].sum() - waiting == 0
                and state.power[house] > 0 and state.power_tokens[area] != house
                and rs.home_of[area] != house)


@step("march")
def run_march(state: GameState, frame: dict) -> Decision | None:
    """frame: {"area", "house", "stage", "attack": None | {"area", "units"}, "asked": [...]}."""
    stage = frame.setdefault("stage", "move")
    frame.setdefault("attack", None)
    h, src = frame["house"], frame["area"]
    if stage == "move":
        options = move_options(state, frame) + [DONE]
        return Decision(h, DecisionKind.MARCH_MOVE, tuple(options), {"area": src})
    if stage == "token":
        frame["stage"] = "attack"
        if can_leave_power_token(state, src, h, int(_pending(frame).sum())):
            return Decision(h, DecisionKind.LEAVE_POWER_TOKEN, (YES, NO), {"area": src})
        return None
    if stage == "attack":
        return _start_attack(state, frame)
    if stage == "neutral_support":
        return _ask_neutral_support(state, frame)
    # stage "end": the March (and its combat) is over (R12.3.8)
    if state.orders[src] >= 0 and frame.get("remove_order", True):
        state.orders[src] = -1
    pop(state)
    return None


@on_action("march")
def act_march(state: GameState, frame: dict, action: Action) -> None:
    stage = frame["stage"]
    h, src = frame["house"], frame["area"]
    if stage == "move":
        if action == DONE:
            frame["stage"] = "token"
            return
        _, u, dst = action
        if attack_defender(state, dst, h) is not None:
            if frame["attack"] is None:
                frame["attack"] = {"area": dst, "units": [0, 0, 0, 0]}
            frame["attack"]["units"][u] += 1
        else:
            move_unit(state, src, dst, h, u)
        return
    if stage == "attack":  # D-28 answer comes with stage already advanced
        if action == YES:
            state.power[h] -= 1
            state.power_tokens[src] = h
        return
    if stage == "neutral_support":
        asked = frame["neutral"]["asked"]
        helper = asked[-1]
        if action == choice("support-attacker"):
            frame["neutral"]["helpers"].append(helper)
        return
    raise AssertionError(stage)


def move_unit(state: GameState, src: int, dst: int, house: int, unit_type: int,
              n: int = 1, routed: int = 0) -> None:
    """Move units of one house between areas (no combat): enemy power tokens in ``dst`` go back to
    the Pool (R13.2.2), a port whose land changes hands is captured (combat.capture_port)."""
    from .combat import capture_ports_after_control_change

    before = state.control()
    state.units[src, house, unit_type] -= n
    state.routed[src, house, unit_type] -= routed
    state.units[dst, house, unit_type] += n
    state.routed[dst, house, unit_type] += routed
    if state.power_tokens[dst] >= 0 and state.power_tokens[dst] != house:
        state.power_tokens[dst] = -1
    capture_ports_after_control_change(state, before)


def _start_attack(state: GameState, frame: dict) -> None:
    attack = frame["attack"]
    frame["stage"] = "end"
    if attack is None:
        return None
    dst = attack["area"]
    defender = attack_defender(state, dst, frame["house"])
    if defender == -1:
        frame["stage"] = "neutral_support"
        frame["neutral"] = {"asked": [], "helpers": []}
        return None
    push(state, "combat", attacker=frame["house"], defender=defender, area=dst,
         origin=frame["area"], units=list(attack["units"]),
         march_bonus=int(state.ruleset.order_tokens[state.orders[frame["area"]]].bonus))
    return None


def _ask_neutral_support(state: GameState, frame: dict) -> Decision | None:
    """D-29: other houses with Support orders next to the neutral force, in turn order."""
    dst, h = frame["attack"]["area"], frame["house"]
    supporters = support_orders(state, dst)
    asked = frame["neutral"]["asked"]
    for other in state.turn_order():
        if other != h and other in supporters and other not in asked:
            asked.append(other)
            return Decision(other, DecisionKind.SUPPORT_AGAINST_NEUTRAL,
                            (choice("support-attacker"), choice("nothing")),
                            {"area": dst, "attacker": h})
    _resolve_neutral(state, frame, supporters)
    return None


def _resolve_neutral(state: GameState, frame: dict, supporters: dict[int, list[int]]) -> None:
    """R16.2-R16.6: units + March modifier + support against the token; no cards, no Blade."""
    dst, h, src = frame["attack"]["area"], frame["house"], frame["area"]
    units = np.array(frame["attack"]["units"])
    rs = state.ruleset
    strength = unit_strength(state, src, h, units, None, dst)
    strength += int(rs.order_tokens[state.orders[src]].bonus)
    for house in [h] + frame["neutral"]["helpers"]:
        for a in supporters.get(house, []):
            strength += support_strength(state, a, dst, for_attacker=True)
    frame["neutral_strength"] = strength
    if strength >= state.neutral_forces[dst]:
        state.neutral_forces[dst] = 0  # destroyed, removed from the game (R16.4)
        for u in range(4):
            if units[u]:
                move_unit(state, src, dst, h, u, n=int(units[u]))
    frame["attack"] = None
    frame["stage"] = "end"
