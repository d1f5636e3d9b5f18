"""Tyrell cards with text: Mace Tyrell, Ser Loras Tyrell, Queen of Thorns (facts §7; D-37,
D-38)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from boardkit.decision import Decision

from ..board import destroy_unit, neighbours, occupant
from ..combat.cards import Ability, register
from ..combat.frame import CombatFrame, combat_frame
from ..combat.stages import ATTACKER, Side, other
from ..combat.strength import immune_to_casualties
from ..decision import Action, DecisionKind
from ..marches import MarchFrame
from ..state import FOOTMAN, GameState
from .base import CardStep, EffectStep, ctx


@dataclass(slots=True)
class MaceTyrell(CardStep):
    """At the reveal: destroy one of the opponent's attacking or defending Footmen (D-37),
    unless he played The Blackfish. Attacking Footmen wait in the start area (``units``)."""

    step: ClassVar[str] = "card:mace-tyrell"

    def run(self, state: GameState) -> Decision | None:
        combat = combat_frame(state)
        opp = other(self.side)
        h = combat.house(opp)
        if opp == ATTACKER:
            area = combat.origin
            there = combat.units[FOOTMAN] > 0
        else:
            area = combat.area
            there = state.units[area, h, FOOTMAN] > 0
        if not there or immune_to_casualties(state, combat, opp):
            state.stack.pop()
            return None
        return Decision(combat.house(self.side), DecisionKind.MACE_FOOTMAN,
                        (("unit", area, FOOTMAN),), context=ctx(combat))

    def act(self, state: GameState, action: Action) -> None:
        combat = combat_frame(state)
        state.stack.pop()
        opp = other(self.side)
        _, area, _ = action
        if opp == ATTACKER:
            combat.units[FOOTMAN] -= 1
            destroy_unit(state, area, combat.house(opp), FOOTMAN, routed=False)
        else:  # a standing one while there is one
            destroy_unit(state, area, combat.house(opp), FOOTMAN)


@dataclass(slots=True)
class SerLorasTyrell(EffectStep):
    """After combat: Loras's player attacked, won and moved in, so the March token that started
    the combat is not removed: it goes to the conquered area, to be resolved again this
    round."""

    step: ClassVar[str] = "card:ser-loras-tyrell"

    def effect(self, state: GameState, combat: CombatFrame, side: Side) -> None:
        token = -1 if combat.march_token is None else combat.march_token
        if side != ATTACKER or combat.winner != side or token < 0 \
                or not sum(combat.entered or ()):
            return
        area, origin = combat.area, combat.origin
        if state.orders[origin] == token:
            state.orders[origin] = -1
        state.orders[area] = token
        march = next((f for f in reversed(state.stack)
                      if type(f) is MarchFrame and f.area == origin), None)
        if march is not None:
            march.remove_order = False


def queen_targets(state: GameState, combat: CombatFrame, side: Side) -> list[int]:
    """Areas next to the embattled area holding an order of the opponent, except the March that
    started the combat."""
    h = combat.house(other(side))
    return [int(a) for a in neighbours(state, combat.area)
            if state.orders[a] >= 0 and occupant(state, int(a)) == h and a != combat.origin]


@dataclass(slots=True)
class QueenOfThorns(CardStep):
    """At the reveal: her player removes one such order (D-38); a removed Support order stops
    giving its support."""

    step: ClassVar[str] = "card:queen-of-thorns"

    def run(self, state: GameState) -> Decision | None:
        combat = combat_frame(state)
        options = tuple(("area", a) for a in queen_targets(state, combat, self.side))
        if not options:
            state.stack.pop()
            return None
        return Decision(combat.house(self.side), DecisionKind.QUEEN_OF_THORNS_ORDER, options,
                        context=ctx(combat))

    def act(self, state: GameState, action: Action) -> None:
        state.stack.pop()
        state.orders[action[1]] = -1


register(Ability("mace-tyrell", reveal=MaceTyrell))
register(Ability("ser-loras-tyrell", after_combat=SerLorasTyrell))
register(Ability("queen-of-thorns", reveal=QueenOfThorns))
