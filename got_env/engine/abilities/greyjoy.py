"""Greyjoy cards with text: Victarion, Balon, Theon, Asha, Aeron Damphair (facts §7; D-35)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from boardkit.decision import Decision

from ..combat.cards import Ability, register
from ..combat.frame import CombatFrame, combat_frame
from ..combat.stages import ATTACKER, DEFENDER, Side
from ..combat.strength import supporters
from ..decision import DONE, Action, DecisionKind
from ..state import SHIP, CardPlace, GameState
from .base import CardStep, ctx, replace_card


def victarion_greyjoy(state: GameState, combat: CombatFrame, owner: Side, side: Side,
                      house: int, unit_type: int, value: int) -> int:
    """Static: Victarion's player attacks, so each of his own Ships adding strength to his side
    (attacking, or in his supporting areas) counts 2 "instead of 1": the value is set to 2,
    whatever an earlier card made it (Salladhor's 0 when Baratheon sits higher on the Iron
    Throne, R15.3.4). Routed Ships still give 0."""
    own = side == owner == ATTACKER and house == combat.house(owner)
    return 2 if own and unit_type == SHIP else value


def balon_greyjoy(state: GameState, combat: CombatFrame, owner: Side, side: Side) -> int:
    """Static: the printed strength of the opponent's card counts 0 (its own text bonuses
    stay)."""
    card = combat.cards.get(side)
    if side == owner or card is None:
        return 0
    return -state.ruleset.house_cards[card].strength


def theon_greyjoy(state: GameState, combat: CombatFrame, owner: Side, side: Side) -> int:
    """Static: defending an area with a Castle or Stronghold, +1 strength and one sword."""
    fort = state.ruleset.fort_level[combat.area] > 0
    return 1 if side == owner == DEFENDER and fort else 0


def asha_swords(state: GameState, combat: CombatFrame, owner: Side, side: Side) -> int:
    """Static: with no support at all for her side, two swords ..."""
    return 2 if side == owner and not supporters(state, combat, owner) else 0


def asha_fortifications(state: GameState, combat: CombatFrame, owner: Side, side: Side) -> int:
    """... and one fortification."""
    return 1 if side == owner and not supporters(state, combat, owner) else 0


@dataclass(slots=True)
class AeronDamphair(CardStep):
    """At the reveal: with 2+ available power and another card in hand, Aeron's player may pay
    2 power to discard Aeron and play another card of his hand instead (D-35)."""

    step: ClassVar[str] = "card:aeron-damphair"

    def run(self, state: GameState) -> Decision | None:
        combat = combat_frame(state)
        h = combat.house(self.side)
        hand = state.hand(h)
        if state.power[h] < 2 or not hand:
            state.stack.pop()
            return None
        return Decision(h, DecisionKind.AERON_SWAP, tuple(("card", c) for c in hand) + (DONE,),
                        context=ctx(combat))

    def act(self, state: GameState, action: Action) -> None:
        combat = combat_frame(state)
        state.stack.pop()
        if action == DONE:
            return
        side = self.side
        state.power[combat.house(side)] -= 2  # to the Power Pool
        state.card_place[combat.cards[side]] = CardPlace.DISCARD
        replace_card(state, combat, side, action[1])


register(Ability("victarion-greyjoy", unit_value=victarion_greyjoy))
register(Ability("balon-greyjoy", strength=balon_greyjoy))
register(Ability("theon-greyjoy", strength=theon_greyjoy, swords=theon_greyjoy))
register(Ability("asha-greyjoy", swords=asha_swords, fortifications=asha_fortifications))
register(Ability("aeron-damphair", reveal=AeronDamphair))
