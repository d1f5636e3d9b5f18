"""Lannister cards with text: Tywin, Ser Kevan, Tyrion, Cersei (facts §7; D-33, D-34, D-41)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from boardkit.decision import Decision

from ..board import gain_power
from ..combat.cards import Ability, register
from ..combat.frame import CombatFrame, combat_frame
from ..combat.stages import ATTACKER, Side, other
from ..decision import DONE, NO, YES, Action, DecisionKind
from ..state import FOOTMAN, CardPlace, GameState
from .base import CardStep, EffectStep, ctx, orders_of, replace_card


@dataclass(slots=True)
class TywinLannister(EffectStep):
    """After the winner: Tywin won, so his player gains 2 power from the Pool (fewer if it
    holds fewer of his tokens, AMBIG-21)."""

    step: ClassVar[str] = "card:tywin-lannister"

    def effect(self, state: GameState, combat: CombatFrame, side: Side) -> None:
        if combat.winner == side:
            gain_power(state, combat.house(side), 2)


def ser_kevan_lannister(state: GameState, combat: CombatFrame, owner: Side, side: Side,
                        house: int, unit_type: int, value: int) -> int:
    """Static: Kevan's player attacks, so each of his own Footmen adding strength to his side
    (attacking, or in his supporting areas) counts 2 instead of 1 (set to 2). Routed Footmen
    still give 0."""
    own = side == owner == ATTACKER and house == combat.house(owner)
    return 2 if own and unit_type == FOOTMAN else value


class TyrionStage(enum.Enum):
    """Where Tyrion's step stands. The values are what the digest hashes."""

    CANCEL = "cancel"  # D-33: whether to cancel the opponent's card
    REPLACE = "replace"  # D-34: the opponent's replacement card


@dataclass(slots=True)
class TyrionLannister(CardStep):
    """At the reveal, as a cancel effect (R15.3.4): D-33, then the opponent's D-34. Its
    ``stage`` (from its first run) and the ``cancelled`` card (once cancelled)."""

    step: ClassVar[str] = "card:tyrion-lannister"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"stage", "cancelled"})

    stage: TyrionStage | None = None
    cancelled: int | None = None

    def run(self, state: GameState) -> Decision | None:
        combat = combat_frame(state)
        opp = other(self.side)
        if self.stage is None:
            self.stage = TyrionStage.CANCEL
        if self.stage is TyrionStage.CANCEL:
            card = combat.cards.get(opp)
            if card is None:
                state.stack.pop()
                return None
            return Decision(combat.house(self.side), DecisionKind.TYRION_CANCEL, (YES, NO),
                            context=ctx(combat, card=card))
        options = tuple(("card", c) for c in state.hand(combat.house(opp))
                        if c != self.cancelled)
        if not options:  # no other card: he fights with none
            state.stack.pop()
            return None
        return Decision(combat.house(opp), DecisionKind.REPLACEMENT_CARD, options,
                        context=ctx(combat, cancelled=self.cancelled))

    def act(self, state: GameState, action: Action) -> None:
        """D-33 (cancel or not) or D-34 (the replacement)."""
        combat = combat_frame(state)
        opp = other(self.side)
        if self.stage is TyrionStage.CANCEL:
            if action == NO:
                state.stack.pop()
                return
            card = combat.cards[opp]
            state.card_place[card] = CardPlace.HAND  # back to hand; its ability does not apply
            combat.cards[opp] = None
            self.cancelled = card
            self.stage = TyrionStage.REPLACE
            return
        replace_card(state, combat, opp, action[1])
        state.stack.pop()


@dataclass(slots=True)
class CerseiLannister(CardStep):
    """After the winner: Cersei won, so her player may remove one of the loser's order tokens
    (D-41); the embattled area and the attacker's start area are not offered (their orders go in
    the cleanup anyway; facts §12 D9, S&R)."""

    step: ClassVar[str] = "card:cersei-lannister"

    def run(self, state: GameState) -> Decision | None:
        combat = combat_frame(state)
        side = self.side
        if combat.winner != side:
            state.stack.pop()
            return None
        skip = (combat.area, combat.origin)
        options = tuple(("area", a) for a in orders_of(state, combat.house(other(side)))
                        if a not in skip)
        return Decision(combat.house(side), DecisionKind.CERSEI_ORDER, options + (DONE,),
                        context=ctx(combat))

    def act(self, state: GameState, action: Action) -> None:
        if action != DONE:
            state.orders[action[1]] = -1  # back to its owner
        state.stack.pop()


register(Ability("tywin-lannister", after_winner=TywinLannister))
register(Ability("ser-kevan-lannister", unit_value=ser_kevan_lannister))
register(Ability("tyrion-lannister", cancel=TyrionLannister))
register(Ability("cersei-lannister", after_winner=CerseiLannister))
