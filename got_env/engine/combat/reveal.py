"""A combat up to its winner (§15.1 to §15.4, §24; D-30, D-31, D-39, D-40): support declared
and refused, the house cards chosen in secret and revealed together, the Tides of Battle cards
drawn, the Valyrian Steel Blade. One ``_ask_*`` (or ``_draw_*``, ``_show_*``) handler per stage
and one ``_act_*`` for the answer to its decision; got_env.engine.combat runs them in order
(the readings of support are recorded there).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardkit.decision import Decision

from ..decision import Action, DecisionKind, choice
from ..state import FIEFDOMS, CardPlace, GameState
from ..support import support_orders
from . import tides
from .stages import ATTACKER, DEFENDER, SIDES, CombatStage, Side
from .strength import _ctx, given_support

if TYPE_CHECKING:  # (frame.py, which runs this module's handlers, declares the frame)
    from .frame import CombatFrame

# the answers of the combat's yes/no questions, built once
_SUPPORT_ATTACKER, _SUPPORT_DEFENDER = choice("support-attacker"), choice("support-defender")
_REFUSE, _YES = choice("refuse-support"), choice("yes")


def _blade_side(state: GameState, frame: CombatFrame) -> Side | None:
    """The combatant side holding the unused Valyrian Steel Blade, if any (§15.4)."""
    if state.blade_used:
        return None
    return frame.side_of(state.holder(FIEFDOMS))


def _ask_support(state: GameState, frame: CombatFrame) -> Decision | None:
    """D-30, once per Support order next to the embattled area (R15.1.1, R15.1.6): houses in
    turn order, one house's orders in area order. frame: ``support_areas`` (house -> its Support
    areas able to support, fixed when the combat starts), ``asked`` (areas asked so far),
    ``support_given`` (area -> the side; an order given to nobody is absent)."""
    if frame.support_given is None:
        frame.support_given = {}
    if frame.asked is None:
        frame.asked = []
    if frame.march_token is None:
        frame.march_token = int(state.orders[frame.origin])
    if frame.support_areas is None:
        frame.support_areas = support_orders(state, frame.area)
    asked = frame.asked
    for h in state.turn_order():
        for a in frame.support_areas.get(h, []):
            if a in asked:
                continue
            asked.append(a)
            options = [choice("nothing")]
            if h != frame.defender:  # never against one's own units (R15.1.4)
                options.insert(0, _SUPPORT_ATTACKER)
            if h != frame.attacker:
                options.insert(len(options) - 1, _SUPPORT_DEFENDER)
            return Decision(h, DecisionKind.DECLARE_SUPPORT, tuple(options),
                            context={**_ctx(frame), "support_area": a})
    frame.stage = CombatStage.REFUSE
    frame.refusals = []
    return None


def _act_support(state: GameState, frame: CombatFrame, action: Action) -> None:
    a = frame.asked[-1]
    if action == _SUPPORT_ATTACKER:
        frame.support_given[a] = ATTACKER
    elif action == _SUPPORT_DEFENDER:
        frame.support_given[a] = DEFENDER


def _ask_refusal(state: GameState, frame: CombatFrame) -> Decision | None:
    """D-31: each combatant, for each other house backing it, keeps or refuses that support;
    then the cards are chosen (with a fresh Tides of Battle deck, §24, FAQ)."""
    for side in SIDES:
        house = frame.house(side)
        for supporter in given_support(state, frame, side):
            key = [side, supporter]
            if supporter != house and key not in frame.refusals:
                frame.refusals.append(key)
                return Decision(house, DecisionKind.REFUSE_SUPPORT,
                                (choice("keep-support"), _REFUSE),
                                context={**_ctx(frame), "supporter": supporter})
    frame.stage = CombatStage.CARDS
    frame.cards = {}
    if state.options.get("tides_of_battle"):
        frame.tides_deck = tides.fresh_deck(state)  # §24, FAQ: before every card choice
        frame.tides = {}
    return None


def _act_refusal(state: GameState, frame: CombatFrame, action: Action) -> None:
    if action == _REFUSE:  # all of that house's support to this side
        side, supporter = frame.refusals[-1]
        for a in given_support(state, frame, side)[supporter]:
            del frame.support_given[a]


def _ask_cards(state: GameState, frame: CombatFrame) -> Decision | None:
    """Each side chooses its house card in secret; both are then revealed together."""
    cards = frame.cards
    for side in SIDES:
        if side not in cards:
            house = frame.house(side)
            return Decision(house, DecisionKind.HOUSE_CARD,
                            tuple([("card", c) for c in state.hand(house)]),
                            context=_ctx(frame), secret=True)
    for side in SIDES:
        state.card_place[cards[side]] = CardPlace.CHOSEN
    frame.revealed = True
    frame.stage = CombatStage.REVEAL
    frame.abilities_done = {}
    return None


def _act_card(state: GameState, frame: CombatFrame, action: Action) -> None:
    frame.cards[ATTACKER if ATTACKER not in frame.cards else DEFENDER] = action[1]


def _draw_tides(state: GameState, frame: CombatFrame) -> Decision | None:
    """§24: each side draws a Tides card; the Blade's holder may draw again (D-39)."""
    for side in SIDES:
        tides.draw(frame, side)
    frame.stage = CombatStage.TIDES_REDRAW
    return _ask_blade_holder(state, frame, DecisionKind.BLADE_REDRAW)


def _ask_blade_holder(state: GameState, frame: CombatFrame, kind: DecisionKind
                      ) -> Decision | None:
    """Ask the Valyrian Steel Blade's holder, if in the combat and the Blade unused, yes or no
    (D-39 redraw, D-40 +1); None when nobody holds it there."""
    side = _blade_side(state, frame)
    if side is None:
        return None
    frame.blade_side = side
    return Decision(frame.house(side), kind, (_YES, choice("no")), context=_ctx(frame))


def _act_redraw(state: GameState, frame: CombatFrame, action: Action) -> None:
    """D-39 (asked with the stage already TIDES_REDRAW): discard the Tides card and draw again
    (§24 step 2)."""
    if action == _YES:
        tides.draw(frame, frame.blade_side)
        state.blade_used = True


def _show_tides(state: GameState, frame: CombatFrame) -> None:
    frame.tides_revealed = True
    frame.stage = CombatStage.BLADE


def _ask_blade(state: GameState, frame: CombatFrame) -> Decision | None:
    """§15.4: the Blade's holder, in the combat, may add 1 (asked with the stage already
    RESOLVE, whose act plays the answer)."""
    frame.stage = CombatStage.RESOLVE
    return _ask_blade_holder(state, frame, DecisionKind.BLADE_PLUS_ONE)


def _act_blade(state: GameState, frame: CombatFrame, action: Action) -> None:
    if action == _YES:
        frame.blade = frame.blade_side
        state.blade_used = True
