"""Lannister cards with text: Tywin, Ser Kevan, Tyrion, Cersei (facts §7; D-33, D-34, D-41)."""

from __future__ import annotations

import enum
from typing import ClassVar

from ..board import gain_power
from ..cards import Ability, combat_frame, register
from ..decision import DONE, NO, YES, Action, Decision, DecisionKind
from ..flow import on_action, pop, step
from ..frames import MISSING, CombatFrame, Convert, Side, _Missing, frame_class
from ..state import FOOTMAN, CardPlace, GameState
from .base import CardFrame, ctx, effect_step, orders_of, other, replace_card, step_name


@effect_step("tywin-lannister")
def tywin_lannister(state: GameState, combat: CombatFrame, side: str) -> None:
    """After the winner: Tywin won, so his player gains 2 power from the Pool (fewer if it
    holds fewer of his tokens, AMBIG-21)."""
    if combat.winner == side:
        gain_power(state, combat[side], 2)


def ser_kevan_lannister(state: GameState, combat: CombatFrame, owner: str, side: str, house: int,
                        unit_type: int, value: int) -> int:
    """Static: Kevan's player attacks, so each of his own Footmen adding strength to his side
    (attacking, or in his supporting areas) counts 2 instead of 1 (set to 2). Routed Footmen
    still give 0."""
    own = side == owner == "attacker" and house == combat[owner]
    return 2 if own and unit_type == FOOTMAN else value


class TyrionStage(enum.StrEnum):
    """Where Tyrion's step stands (the strings its dict frame held in ``"stage"``)."""

    CANCEL = "cancel"  # D-33: whether to cancel the opponent's card
    REPLACE = "replace"  # D-34: the opponent's replacement card


@frame_class
class TyrionFrame(CardFrame):
    """Tyrion's step: the ``side`` of its card, its ``stage`` (from its first run) and the
    ``cancelled`` card (once cancelled). Declared before :data:`TYRION` is named, so that
    :func:`~got_env.engine.abilities.base.step_name` finds it instead of making the plain
    card frame."""

    step: ClassVar[str] = "card:tyrion-lannister"
    TYPED: ClassVar[dict[str, Convert]] = {"side": Side, "stage": TyrionStage}

    stage: TyrionStage | _Missing = MISSING
    cancelled: int | _Missing = MISSING


TYRION = step_name("tyrion-lannister")


@step(TYRION)
def run_tyrion(state: GameState, frame: TyrionFrame) -> Decision | None:
    """At the reveal, as a cancel effect (R15.3.4): D-33, then the opponent's D-34.."""
    combat = combat_frame(state)
    opp = other(frame.side)
    if frame.stage is MISSING:
        frame.stage = TyrionStage.CANCEL
    if frame.stage is TyrionStage.CANCEL:
        card = combat.cards.get(opp)
        if card is None:
            pop(state)
            return None
        return Decision(combat[frame.side], DecisionKind.TYRION_CANCEL, (YES, NO),
                        ctx(combat, card=card))
    options = tuple(("card", c) for c in state.hand(combat[opp]) if c != frame.cancelled)
    if not options:  # no other card: he fights with none
        pop(state)
        return None
    return Decision(combat[opp], DecisionKind.REPLACEMENT_CARD, options,
                    ctx(combat, cancelled=frame.cancelled))


@on_action(TYRION)
def act_tyrion(state: GameState, frame: TyrionFrame, action: Action) -> None:
    """D-33 (cancel or not) or D-34 (the replacement)."""
    combat = combat_frame(state)
    opp = other(frame.side)
    if frame.stage is TyrionStage.CANCEL:
        if action == NO:
            pop(state)
            return
        card = combat.cards[opp]
        state.card_place[card] = CardPlace.HAND  # back to hand; its ability does not apply
        combat.cards[opp] = None
        frame.cancelled = card
        frame.stage = TyrionStage.REPLACE
        return
    replace_card(state, combat, opp, action[1])
    pop(state)


CERSEI = step_name("cersei-lannister")


@step(CERSEI)
def run_cersei(state: GameState, frame: dict) -> Decision | None:
    """After the winner: Cersei won, so her player may remove one of the loser's order tokens
    (D-41); the embattled area and the attacker's start area are not offered (their orders go in
    the cleanup anyway; facts §12 D9, S&R)."""
    combat = combat_frame(state)
    side = frame["side"]
    if combat.winner != side:
        pop(state)
        return None
    skip = (combat.area, combat.origin)
    options = tuple(("area", a) for a in orders_of(state, combat[other(side)]) if a not in skip)
    return Decision(combat[side], DecisionKind.CERSEI_ORDER, options + (DONE,), ctx(combat))


@on_action(CERSEI)
def act_cersei(state: GameState, frame: dict, action: Action) -> None:
    if action != DONE:
        state.orders[action[1]] = -1  # back to its owner
    pop(state)


register(Ability("tywin-lannister", after_winner=step_name("tywin-lannister")))
register(Ability("ser-kevan-lannister", unit_value=ser_kevan_lannister))
register(Ability("tyrion-lannister", cancel=TYRION))
register(Ability("cersei-lannister", after_winner=CERSEI))
