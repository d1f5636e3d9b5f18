"""March orders (rules spec §12.3, §13.1-§13.2, §14, §16, R18.3; D-27 to D-29).

One March is a short sequence of atomic choices: ``("move", unit_type, destination)`` repeated,
then ``("done",)``; then, if the house emptied a land area, whether to leave a power token there
(D-28); then the one attack, if any: a combat (got_env.engine.combat) or a neutral force (R16).

Moves into friendly or empty areas happen at once. Units moved into the area of the March's one
attack wait in the frame (``attack``) and stay in the start area on the board until the combat
decides where they go. The March keeps the house within its supply limits (R12.3.9, reading
below), counting the waiting attackers where they are going.

Readings recorded here:
* AMBIG-23: entering an area that holds only an enemy power token is not a combat and does not
  use up the March's one attack; the token goes back to the Pool (R13.2.2).
* AMBIG-11: a March into a neutral force is legal; if, after support, its strength is below the
  token's, the move is void: the units stay where they were, not routed, the order is used up.
* 1e spec 10, reading C.2 (``rules.failed_neutral_attack == "routed"``): the same March, but the
  attackers go back to the area they marched from routed (strength 0, no further March this
  round), with no casualties; the token stays. They never left that area on the board (they wait
  in the frame), so going back changes no army size: the supply check is the one of AMBIG-11.
* 1e spec 13, reading C.21: the units of a house not played stand as neutral forces in land and
  sea areas alike (got_env/data/1e/setups.yaml); ships attack one in a sea area as land units do
  on land (no cards, no Blade: 1e spec 10, reading C.3), with the support of Support orders in
  adjacent sea areas only. Such a sea area holds no ship of any house, so it links no transport
  chain (board.transport_reach) and is never a retreat area (combat.retreat_areas, AMBIG-13).
* DECISIONS Open point 4: against a neutral force, other houses with adjacent Support orders
  are asked in turn order (D-29); the marcher's own adjacent support always counts.
* Open point 6 / AMBIG-15: ships in the port of a land area whose control passes to another
  house by a march (no combat) are captured as in R18.8
  (combat.capture_ports_after_control_change, D-47).
* Open point 6 / AMBIG-15, timing: ports are captured once the March's moves and its D-28
  answer are known, before its attack (R12.3.4: all movement and the establish-control choice
  come first). A house that empties an enemy home area and leaves a power token there never lost
  control of it, so the old owner does not capture the port in between.
* R7.8 / R12.3.9 (supply): a March is one action, so its result must fit the limits, not each
  atomic move on the way. A move is offered if the March can still end within the limits by
  moving more of its free units (:func:`can_end_within_supply`); "done" is offered when the
  position fits (or nothing has moved yet). Units waiting to attack count in the embattled area;
  a March on a neutral force must also fit should the attack fail and its units stay home
  (AMBIG-11), since the rules give no way to shed units then.
* R18.3: a port is never attacked; a port holding another house's ships is never a destination.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from boardkit.decision import Decision

from .board import (
    army_size_list,
    fits_limits,
    land_destinations,
    move_unit,
    ship_destinations,
    tables,
)
from .combat.frame import CombatFrame
from .decision import DONE, NO, YES, Action, DecisionKind, choice
from .frames import GotFrame
from .port_capture import capture_ports_after_control_change
from .state import LAND, PORT, SHIP, GameState
from .support import support_orders, support_strength, unit_strength

PORT_CAPACITY = 3


class MarchStage(enum.Enum):
    """Where a March stands, in the order it walks them. The values are what the digest
    hashes."""

    MOVE = "move"  # its units' moves, one at a time, until "done"
    TOKEN = "token"  # whether to leave a power token in the emptied area (D-28)
    CAPTURES = "captures"  # ports whose land changed hands (AMBIG-15); plays the D-28 answer
    ATTACK = "attack"  # the one attack, if any: a combat is pushed, or a neutral force asked
    NEUTRAL_SUPPORT = "neutral_support"  # D-29, then the neutral force's outcome
    END = "end"  # the order is removed, the March popped (R12.3.8)


@dataclass(slots=True)
class MarchFrame(GotFrame):
    """One March: ``area`` and ``house`` come from whoever pushes it (action_phase.py);
    ``stage``, ``attack`` (None, or ``{"area", "units"}``: the attacking units waiting in
    ``area``) and ``control_before`` are set on its first run (``attack`` is hashed from then
    on: None is a value of it); ``moved`` (moves so far) after its first move; ``remove_order``
    when an ability keeps its token (Ser Loras); ``neutral`` (``{"asked", "helpers"}``: Support
    order areas) and ``neutral_strength`` in an attack on a neutral force."""

    step: ClassVar[str] = "march"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset(
        {"stage", "control_before", "moved", "remove_order", "neutral", "neutral_strength"})
    PRESENT_WITH: ClassVar[dict[str, str]] = {"attack": "stage"}

    area: int
    house: int
    stage: MarchStage | None = None
    attack: dict[str, Any] | None = None
    control_before: list[int] | None = None
    moved: int | None = None
    remove_order: bool | None = None
    neutral: dict[str, list[int]] | None = None
    neutral_strength: int | None = None

    def run(self, state: GameState) -> Decision | None:
        """Run the handler of the frame's stage (:data:`_RUN_STAGE`); on the first run the
        March fills its own locals."""
        if self.stage is None:
            self.stage = MarchStage.MOVE
            self.attack = None
            self.control_before = state.control_list().copy()
        return _RUN_STAGE[self.stage](state, self)

    def act(self, state: GameState, action: Action) -> None:
        """Play ``action`` with the handler of the stage that asked (:data:`_ACT_STAGE`)."""
        _ACT_STAGE[self.stage](state, self, action)


def attack_defender(state: GameState, area: int, house: int,
                    occupants: list[int] | None = None) -> int | None:
    """Who defends ``area`` against ``house``: -1 for a neutral force, the occupying enemy, or
    the owner of an enemy garrison (R17.3); None if entering is not an attack. ``occupants``:
    ``state.occupants()`` when the caller already holds it (asked once per candidate area).
    (``item``: a plain int, since comparing numpy scalars costs several times more.)"""
    if state.neutral_forces.item(area) > 0:
        return -1
    occ = (state.occupants() if occupants is None else occupants)[area]
    if occ >= 0:
        return occ if occ != house else None
    owner = state.ruleset.home_of.item(area)
    if state.garrisons.item(area) > 0 and owner != house:
        return owner
    return None


def _pending(frame: MarchFrame) -> list[int]:
    """Units of each type waiting to attack (none before the March picks its attack)."""
    return frame.attack["units"] if frame.attack else [0, 0, 0, 0]


def _attack_area(frame: MarchFrame) -> int | None:
    """The area of the March's one attack, None before it picks one."""
    return frame.attack["area"] if frame.attack else None


def _free_units(state: GameState, frame: MarchFrame) -> list[int]:
    """Units of each type still free to move out of the March area (not routed, not waiting to
    attack; R12.3.2: routed units cannot move)."""
    src, h = frame.area, frame.house
    units, routed = state.units[src, h].tolist(), state.routed[src, h].tolist()
    return [n - r - w for n, r, w in zip(units, routed, _pending(frame), strict=True)]


def _sizes_now(state: GameState, frame: MarchFrame) -> list[int]:
    """The house's units per area with the waiting attackers counted where they go (a plain
    list: it is copied and compared many times per March decision)."""
    sizes = army_size_list(state, frame.house)
    waiting = sum(_pending(frame))
    if waiting:
        sizes[frame.area] -= waiting
        sizes[frame.attack["area"]] += waiting
    return sizes


def result_fits(limits: tuple[int, ...], sizes: list[int], src: int, attack_area: int | None,
                attackers: int, neutral: bool) -> bool:
    """Whether a March's result fits the limits (R7.8): ``sizes`` count the attackers in the
    embattled area; against a neutral force the position where they stay in ``src`` (the attack
    failed, AMBIG-11) must fit too."""
    if not fits_limits(sizes, limits):
        return False
    if neutral and attackers and attack_area is not None:
        back = sizes.copy()
        back[src] += attackers
        back[attack_area] -= attackers
        return fits_limits(back, limits)
    return True


def can_end_within_supply(limits: tuple[int, ...], fixed: list[int], src_size: int,
                          dests: list[tuple[int, int]], attackers: int | None, neutral: bool,
                          free: int) -> bool:
    """Whether moving at most ``free`` more units out of the March area can make the March's
    result fit ``limits`` (R7.8 on the March as a whole). ``fixed``: the house's other army
    sizes; ``dests``: (units there, room left) per open destination; ``attackers``: units sent
    into the March's attack so far, None if no attack is possible any more; ``neutral``: that
    attack is on a neutral force (then the result must fit with the attackers back home too).
    Only sizes matter, so destinations of the same size and room are interchangeable; the
    search is tiny (a March moves at most a few units)."""
    seen: set[tuple] = set()

    def fits(src_n: int, ds: tuple[tuple[int, int], ...], att: int | None) -> bool:
        sizes = fixed + [src_n] + [n for n, _ in ds]
        if att is None:
            return fits_limits(sizes, limits)
        if not fits_limits(sizes + [att], limits):
            return False
        return not neutral or not att or fits_limits(fixed + [src_n + att] +
                                                     [n for n, _ in ds], limits)

    def search(src_n: int, ds: tuple[tuple[int, int], ...], att: int | None, left: int) -> bool:
        if fits(src_n, ds, att):
            return True
        if left == 0 or (src_n, ds, att, left) in seen:
            return False
        seen.add((src_n, ds, att, left))
        if att is not None and search(src_n - 1, ds, att + 1, left - 1):
            return True
        for i, (n, room) in enumerate(ds):
            if room > 0 and (i == 0 or ds[i - 1] != (n, room)):
                bumped = tuple(sorted(ds[:i] + ((n + 1, room - 1),) + ds[i + 1:]))
                if search(src_n - 1, bumped, att, left - 1):
                    return True
        return False

    return search(src_size, tuple(sorted(dests)), attackers, free)


def _room(state: GameState, house: int, dst: int, free: int) -> int:
    """How many more units of ``house`` ``dst`` can take in this March (R18.2: 3 ships a port)."""
    if tables(state.ruleset).kind[dst] == PORT:
        return max(0, PORT_CAPACITY - int(state.units[dst, house].sum()))
    return free


def move_options(state: GameState, frame: MarchFrame,
                 sizes: list[int] | None = None) -> list[Action]:
    """D-27: the legal ``("move", unit_type, destination)`` actions of the March in ``frame``
    (R12.3.1-R12.3.9, R14, R16.5, R18.2-R18.3), by unit type then destination. ``sizes``: the
    frame's :func:`_sizes_now` when the caller already has it (not changed)."""
    src, h = frame.area, frame.house
    rs = state.ruleset
    kind = tables(rs).kind
    on_land = kind[src] == LAND
    free = _free_units(state, frame)
    movers = [u for u in range(4) if free[u] > 0 and (u == SHIP) != on_land]
    if not movers:
        return []  # nothing can move: no destination needs checking
    free_total = sum(free)
    waiting = sum(_pending(frame))
    attack_area = _attack_area(frame)
    if on_land:
        candidates = sorted(land_destinations(state, h, src))
    else:
        candidates = sorted(ship_destinations(state, h, src))
    occupants = state.occupants()
    open_dests: list[int] = []
    attacks: list[int] = []
    for dst in candidates:
        defender = attack_defender(state, dst, h, occupants)
        if defender is None:
            if kind[dst] != PORT or _room(state, h, dst, free_total) > 0:  # (room: free_total)
                open_dests.append(dst)
        elif kind[dst] != PORT and (attack_area is None or attack_area == dst):
            attacks.append(dst)  # one attack per March (R12.3.3, R16.5); never a port (R18.3)
    limits = rs.supply_limits[state.supply.item(h)]
    if sizes is None:
        sizes = _sizes_now(state, frame)
    neutral_at = state.neutral_forces.item
    # Moving a unit out of src into an area left with at most one unit grows no army, so a
    # position that fits still fits (fits_limits is monotone): one check serves all such moves.
    fits_now = fits_limits(sizes, limits)
    allowed: list[int] = []
    for dst in open_dests + attacks:
        after = sizes.copy()
        after[src] -= 1
        after[dst] += 1
        att_area = dst if dst in attacks else attack_area
        att_n = waiting + (dst == att_area)
        neutral = att_area is not None and neutral_at(att_area) > 0
        if fits_now and after[dst] <= 1 and not (neutral and att_n):
            ok = True  # result_fits would say so: nothing grew, no failed-attack position
        else:
            ok = result_fits(limits, after, src, att_area, att_n, neutral)
        if not ok and free_total > 1:
            skip = {src, *open_dests} | ({att_area} if att_area is not None else set())
            fixed = [n for i, n in enumerate(after) if i not in skip and n >= 2]
            rooms = [(after[d], _room(state, h, d, free_total) - (d == dst))
                     for d in open_dests]
            if att_area is None and attacks:  # an attack may still be chosen: the mildest kind
                att_n = 0
                neutral = all(state.neutral_forces[d] > 0 for d in attacks)
            ok = can_end_within_supply(limits, fixed, int(after[src]), rooms,
                                       att_n if att_area is not None or attacks else None,
                                       neutral, free_total - 1)
        if ok:
            allowed.append(dst)
    allowed.sort()
    return [("move", u, dst) for u in movers for dst in allowed]


def can_stop(state: GameState, frame: MarchFrame, sizes: list[int] | None = None) -> bool:
    """D-27 "done": the March's result fits the supply limits (R7.8), or nothing has moved.
    ``sizes``: the frame's :func:`_sizes_now` when the caller already has it (not changed)."""
    if frame.moved is None:
        return True
    limits = state.ruleset.supply_limits[int(state.supply[frame.house])]
    attack_area = _attack_area(frame)
    neutral = attack_area is not None and bool(state.neutral_forces[attack_area] > 0)
    return result_fits(limits, _sizes_now(state, frame) if sizes is None else sizes,
                       frame.area, attack_area, sum(_pending(frame)), neutral)


def can_leave_power_token(state: GameState, area: int, house: int, waiting: int) -> bool:
    """D-28 is asked when the March emptied a land area of the house's units (R13.1.1-R13.1.7,
    R13.3.1): not in a sea area, not without available power, not where its token already lies,
    not in its own home area (the shield already holds it)."""
    rs = state.ruleset  # (plain ints throughout: numpy scalars compare several times slower)
    return (tables(rs).kind[area] == LAND and sum(state.units[area, house].tolist()) == waiting
            and state.power.item(house) > 0 and state.power_tokens.item(area) != house
            and rs.home_of.item(area) != house)


def _ask_move(state: GameState, frame: MarchFrame) -> Decision:
    # the army sizes serve both checks; before any move can_stop needs none (and
    # move_options reads them only if a unit is free to move)
    sizes = _sizes_now(state, frame) if frame.moved is not None else None
    options = move_options(state, frame, sizes)
    if can_stop(state, frame, sizes) or not options:
        options.append(DONE)
    return Decision(frame.house, DecisionKind.MARCH_MOVE, tuple(options),
                    context={"area": frame.area})


def _ask_token(state: GameState, frame: MarchFrame) -> Decision | None:
    """D-28; the answer is played in the next stage (:func:`_act_token`)."""
    frame.stage = MarchStage.CAPTURES
    if can_leave_power_token(state, frame.area, frame.house, sum(_pending(frame))):
        return Decision(frame.house, DecisionKind.LEAVE_POWER_TOKEN, (YES, NO),
                        context={"area": frame.area})
    return None


def _captures(state: GameState, frame: MarchFrame) -> None:
    """Ports whose land changed hands by the moves (AMBIG-15)."""
    frame.stage = MarchStage.ATTACK
    capture_ports_after_control_change(state, frame.control_before)


def _end(state: GameState, frame: MarchFrame) -> None:
    """The March (and its combat) is over (R12.3.8): its order is removed, unless an ability
    kept it (``remove_order``)."""
    src = frame.area
    if state.orders[src] >= 0 and frame.remove_order is not False:
        state.orders[src] = -1
    state.stack.pop()


def _act_move(state: GameState, frame: MarchFrame, action: Action) -> None:
    if action == DONE:
        frame.stage = MarchStage.TOKEN
        return
    _, u, dst = action
    h = frame.house
    frame.moved = 1 if frame.moved is None else frame.moved + 1
    if attack_defender(state, dst, h) is not None:
        if frame.attack is None:
            frame.attack = {"area": dst, "units": [0, 0, 0, 0]}
        frame.attack["units"][u] += 1
    else:
        move_unit(state, frame.area, dst, h, u)


def _act_token(state: GameState, frame: MarchFrame, action: Action) -> None:
    """The D-28 answer (it comes with the stage already advanced to CAPTURES)."""
    if action == YES:
        state.power[frame.house] -= 1
        state.power_tokens[frame.area] = frame.house


def _act_neutral_support(state: GameState, frame: MarchFrame, action: Action) -> None:
    if action == choice("support-attacker"):
        frame.neutral["helpers"].append(frame.neutral["asked"][-1])


def _start_attack(state: GameState, frame: MarchFrame) -> None:
    """The March's one attack: a combat (pushed typed), or the neutral force's support asked."""
    attack = frame.attack
    frame.stage = MarchStage.END
    if attack is None:
        return None
    dst, src = attack["area"], frame.area
    defender = attack_defender(state, dst, frame.house)
    if defender == -1:
        frame.stage = MarchStage.NEUTRAL_SUPPORT
        frame.neutral = {"asked": [], "helpers": []}
        return None
    bonus = int(state.ruleset.order_tokens[state.orders[src]].bonus)
    state.stack.append(CombatFrame(attacker=frame.house, defender=defender, area=dst,
                                   origin=src, units=list(attack["units"]), march_bonus=bonus))
    return None


def _ask_neutral_support(state: GameState, frame: MarchFrame) -> Decision | None:
    """D-29, once per Support order next to the neutral force (R15.1.1, R15.1.6: support is
    given or refused order by order): other houses in turn order, each house's orders in area
    order. ``frame.neutral``: ``asked`` and ``helpers`` are lists of Support order areas."""
    dst, h = frame.attack["area"], frame.house
    supporters = support_orders(state, dst)
    asked = frame.neutral["asked"]
    for other in state.turn_order():
        for a in supporters.get(other, []) if other != h else []:
            if a not in asked:
                asked.append(a)
                return Decision(other, DecisionKind.SUPPORT_AGAINST_NEUTRAL,
                                (choice("support-attacker"), choice("nothing")),
                                context={"area": dst, "attacker": h, "support_area": a})
    _resolve_neutral(state, frame, supporters)
    return None


def _resolve_neutral(state: GameState, frame: MarchFrame,
                     supporters: dict[int, list[int]]) -> None:
    """R16.2-R16.6 (1e spec 10): units + March modifier + support against the token; no
    cards, no Blade (reading C.3); at least the token's strength takes the area."""
    dst, h, src = frame.attack["area"], frame.house, frame.area
    units = np.array(frame.attack["units"])
    rs = state.ruleset
    strength = unit_strength(state, src, h, units, None, dst)
    strength += int(rs.order_tokens[state.orders[src]].bonus)
    for a in supporters.get(h, []) + frame.neutral["helpers"]:
        strength += support_strength(state, a, dst, for_attacker=True)
    frame.neutral_strength = strength
    if strength >= state.neutral_forces[dst]:
        state.neutral_forces[dst] = 0  # destroyed, removed from the game (R16.4)
        before = state.control()
        for u in range(4):
            if units[u]:
                move_unit(state, src, dst, h, u, n=int(units[u]))
        capture_ports_after_control_change(state, before)
    else:
        _failed_neutral_attack(state, src, h, units)
    frame.attack = None
    frame.stage = MarchStage.END


#: What runs at each stage (the March's program, in order).
_RUN_STAGE: dict[MarchStage, Callable[[GameState, MarchFrame], Decision | None]] = {
    MarchStage.MOVE: _ask_move,
    MarchStage.TOKEN: _ask_token,
    MarchStage.CAPTURES: _captures,
    MarchStage.ATTACK: _start_attack,
    MarchStage.NEUTRAL_SUPPORT: _ask_neutral_support,
    MarchStage.END: _end,
}
#: Who plays the answer to a stage's decision (the stage the frame is in when it is played).
_ACT_STAGE: dict[MarchStage, Callable[[GameState, MarchFrame, Action], None]] = {
    MarchStage.MOVE: _act_move,
    MarchStage.CAPTURES: _act_token,
    MarchStage.NEUTRAL_SUPPORT: _act_neutral_support,
}


def _failed_neutral_attack(state: GameState, src: int, house: int, units: np.ndarray) -> None:
    """A March too weak for the neutral force: the attackers (still on the board in ``src``)
    stay there standing (AMBIG-11, 2e) or are routed there (1e reading C.2); none is lost."""
    if state.ruleset.rules.failed_neutral_attack == "routed":
        for u in range(4):
            state.routed[src, house, u] += int(units[u])
