"""Tyrell cards with text: Mace Tyrell, Ser Loras Tyrell, Queen of Thorns (facts §7; D-37,
D-38)."""

from __future__ import annotations

from ..board import destroy_unit, neighbours, occupant
from ..cards import Ability, combat_frame, register
from ..combat import immune_to_casualties
from ..decision import Action, Decision, DecisionKind
from ..flow import on_action, pop, step
from ..frames import CombatFrame
from ..state import FOOTMAN, GameState
from .base import ctx, effect_step, other, step_name

MACE = step_name("mace-tyrell")


@step(MACE)
def run_mace(state: GameState, frame: dict) -> Decision | None:
    """At the reveal: destroy one of the opponent's attacking or defending Footmen (D-37), unless
    he played The Blackfish. Attacking Footmen wait in the start area (``units``)."""
    combat = combat_frame(state)
    opp = other(frame["side"])
    h = combat[opp]
    if opp == "attacker":
        area = combat.origin
        there = combat.units[FOOTMAN] > 0
    else:
        area = combat.area
        there = state.units[area, h, FOOTMAN] > 0
    if not there or immune_to_casualties(state, combat, opp):
        pop(state)
        return None
    return Decision(combat[frame["side"]], DecisionKind.MACE_FOOTMAN,
                    (("unit", area, FOOTMAN),), ctx(combat))


@on_action(MACE)
def act_mace(state: GameState, frame: dict, action: Action) -> None:
    combat = combat_frame(state)
    pop(state)
    opp = other(frame["side"])
    _, area, _ = action
    if opp == "attacker":
        combat.units[FOOTMAN] -= 1
        destroy_unit(state, area, combat[opp], FOOTMAN, routed=False)
    else:
        destroy_unit(state, area, combat[opp], FOOTMAN)  # a standing one while there is one


@effect_step("ser-loras-tyrell")
def ser_loras_tyrell(state: GameState, combat: CombatFrame, side: str) -> None:
    """After combat: Loras's player attacked, won and moved in, so the March token that started
    the combat is not removed: it goes to the conquered area, to be resolved again this round."""
    token = combat.get("march_token", -1)
    if side != "attacker" or combat.winner != side or token < 0 \
            or not sum(combat.get("entered", ())):
        return
    area, origin = combat.area, combat.origin
    if state.orders[origin] == token:
        state.orders[origin] = -1
    state.orders[area] = token
    march = next((f for f in reversed(state.stack)
                  if f["step"] == "march" and f["area"] == origin), None)
    if march is not None:
        march["remove_order"] = False


QUEEN = step_name("queen-of-thorns")


def queen_targets(state: GameState, combat: CombatFrame, side: str) -> list[int]:
    """Areas next to the embattled area holding an order of the opponent, except the March that
    started the combat."""
    h = combat[other(side)]
    return [int(a) for a in neighbours(state, combat.area)
            if state.orders[a] >= 0 and occupant(state, int(a)) == h and a != combat.origin]


@step(QUEEN)
def run_queen(state: GameState, frame: dict) -> Decision | None:
    """At the reveal: her player removes one such order (D-38); a removed Support order stops
    giving its support."""
    combat = combat_frame(state)
    options = tuple(("area", a) for a in queen_targets(state, combat, frame["side"]))
    if not options:
        pop(state)
        return None
    return Decision(combat[frame["side"]], DecisionKind.QUEEN_OF_THORNS_ORDER, options,
                    ctx(combat))


@on_action(QUEEN)
def act_queen(state: GameState, frame: dict, action: Action) -> None:
    pop(state)
    state.orders[action[1]] = -1


register(Ability("mace-tyrell", reveal=MACE))
register(Ability("ser-loras-tyrell", after_combat=step_name("ser-loras-tyrell")))
register(Ability("queen-of-thorns", reveal=QUEEN))
