"""Baratheon cards with text: Stannis, Renly, Ser Davos, Salladhor Saan, Patchface (facts §7;
D-42, D-46)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from boardkit.decision import Decision

from ..board import unused_units
from ..combat.cards import Ability, register
from ..combat.frame import CombatFrame, combat_frame
from ..combat.stages import ATTACKER, DEFENDER, Side, other
from ..combat.strength import given_support, supporters
from ..decision import DONE, Action, DecisionKind
from ..state import FOOTMAN, IRON_THRONE, KNIGHT, SHIP, CardPlace, GameState
from .base import CardStep, ctx


def stannis_baratheon(state: GameState, combat: CombatFrame, owner: Side, side: Side) -> int:
    """Static: +1 if the opponent is higher (nearer position 1) on the Iron Throne track."""
    if side != owner:
        return 0
    me, opp = combat.house(owner), combat.house(other(owner))
    higher = state.track_position(IRON_THRONE, opp) < state.track_position(IRON_THRONE, me)
    return 1 if higher else 0


def ser_davos_seaworth(state: GameState, combat: CombatFrame, owner: Side, side: Side) -> int:
    """Static: +1 strength and one sword while the owner's Stannis Baratheon is discarded."""
    if side != owner:
        return 0
    stannis = state.ruleset.house_card("stannis-baratheon")
    return 1 if state.card_place[stannis] == CardPlace.DISCARD else 0


def salladhor_saan(state: GameState, combat: CombatFrame, owner: Side, side: Side, house: int,
                   unit_type: int, value: int) -> int:
    """Static: while Salladhor's side is supported, every non-Baratheon Ship gives 0, on both
    sides, attacking, defending or supporting: the value is set to 0, whatever an earlier card
    made it (Victarion's 2 when Greyjoy sits higher on the Iron Throne, R15.3.4)."""
    if unit_type == SHIP and house != combat.house(owner) and supporters(state, combat, owner):
        return 0
    return value


def renly_targets(state: GameState, combat: CombatFrame, side: Side) -> list[int]:
    """Areas with a Footman of Renly's house that fought for him: his attacking Footmen (waiting
    in the start area), his defending Footmen, his Footmen in areas whose Support order still
    gives him support."""
    h = combat.house(side)
    out = []
    if side == ATTACKER and combat.units[FOOTMAN] > 0:
        out.append(combat.origin)
    if side == DEFENDER and state.units[combat.area, h, FOOTMAN] > 0:
        out.append(combat.area)
    out += [a for a in given_support(state, combat, side).get(h, [])
            if state.units[a, h, FOOTMAN] > 0]
    return out


@dataclass(slots=True)
class RenlyBaratheon(CardStep):
    """After the winner: Renly won, so his player may turn one such Footman into an unused
    Knight (D-42)."""

    step: ClassVar[str] = "card:renly-baratheon"

    def run(self, state: GameState) -> Decision | None:
        combat = combat_frame(state)
        side = self.side
        if combat.winner != side or unused_units(state, combat.house(side), KNIGHT) <= 0:
            state.stack.pop()
            return None
        options = tuple(("unit", a, FOOTMAN) for a in sorted(renly_targets(state, combat, side)))
        return Decision(combat.house(side), DecisionKind.RENLY_UPGRADE, options + (DONE,),
                        context=ctx(combat))

    def act(self, state: GameState, action: Action) -> None:
        """The Footman picked becomes a Knight (routed if it stood routed)."""
        combat = combat_frame(state)
        state.stack.pop()
        if action == DONE:
            return
        _, area, _ = action
        h = combat.house(self.side)
        if self.side == ATTACKER and area == combat.origin:
            combat.units[FOOTMAN] -= 1  # a waiting attacker: it attacks on as a Knight
            combat.units[KNIGHT] += 1
        standing = state.units[area, h, FOOTMAN] > state.routed[area, h, FOOTMAN]
        state.units[area, h, FOOTMAN] -= 1
        state.units[area, h, KNIGHT] += 1
        if not standing:  # only routed Footmen there: the Knight is routed too
            state.routed[area, h, FOOTMAN] -= 1
            state.routed[area, h, KNIGHT] += 1


@dataclass(slots=True)
class Patchface(CardStep):
    """After combat: Patchface's player looks at the opponent's hand and may discard one card
    of it (D-46)."""

    step: ClassVar[str] = "card:patchface"

    def run(self, state: GameState) -> Decision | None:
        combat = combat_frame(state)
        hand = state.hand(combat.house(other(self.side)))
        if not hand:
            state.stack.pop()
            return None
        return Decision(combat.house(self.side), DecisionKind.PATCHFACE,
                        tuple(("card", c) for c in hand) + (DONE,), context=ctx(combat))

    def act(self, state: GameState, action: Action) -> None:
        combat = combat_frame(state)
        state.stack.pop()
        if action == DONE:
            return
        opp = combat.house(other(self.side))
        card = action[1]
        state.card_place[card] = CardPlace.DISCARD
        if not state.hand(opp):  # emptied: every other discarded card comes back (facts §7)
            for c in state.discards(opp):
                if c != card:
                    state.card_place[c] = CardPlace.HAND


register(Ability("stannis-baratheon", strength=stannis_baratheon))
register(Ability("renly-baratheon", after_winner=RenlyBaratheon))
register(Ability("ser-davos-seaworth", strength=ser_davos_seaworth, swords=ser_davos_seaworth))
register(Ability("salladhor-saan", unit_value=salladhor_saan))
register(Ability("patchface", after_combat=Patchface))
