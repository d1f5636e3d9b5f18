"""A combat's cleanup (§15.6 6.4, R17.4, R15.3.6, R18.8): after the after-retreat abilities,
a winning attacker takes the area (or, kept out by an ability, stays where he marched from and
may then destroy units to fit his supply, AMBIG-12), and the played cards are discarded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardkit.decision import Decision

from ..board import destroy_unit, move_unit, occupant, remove_orphan_order, supply_ok
from ..decision import Action, DecisionKind
from ..port_capture import capture_ports_after_control_change
from ..state import CardPlace, GameState
from .ability_steps import _push_next_ability
from .stages import ATTACKER, SIDES, CombatStage
from .strength import _ctx

if TYPE_CHECKING:  # (frame.py, which runs this module's handlers, declares the frame)
    from .frame import CombatFrame


def _run_cleanup(state: GameState, frame: CombatFrame) -> None:
    if _push_next_ability(state, frame, ("after_retreat",)):
        return None
    _cleanup(state, frame)
    frame.stage = CombatStage.STAY_LOSSES
    return None


def _cleanup(state: GameState, frame: CombatFrame) -> None:
    """§15.6 6.4, R17.4, R15.3.6, R18.8: the winner takes or keeps the area; cards discarded."""
    area, att, dfn = frame.area, frame.attacker, frame.defender
    rs = state.ruleset
    if frame.winner == ATTACKER:
        before = state.control()
        if state.orders[area] >= 0 and occupant(state, area) != att:
            state.orders[area] = -1
        if state.power_tokens[area] == dfn:
            state.power_tokens[area] = -1
        if rs.home_of[area] == dfn:
            state.garrisons[area] = 0  # R17.4
        stay = frame.attackers_stay is True
        units = [0, 0, 0, 0] if stay else frame.units
        if stay:
            frame.stayed = list(frame.units)
        for u in range(4):
            if units[u]:
                move_unit(state, frame.origin, area, att, u, n=int(units[u]))
        frame.entered = list(units)
        frame.units = [0, 0, 0, 0]  # no attacker is waiting any more: in, or staying home
        capture_ports_after_control_change(state, before)
    to_hand = frame.card_to_hand or ()
    for side in SIDES:
        card = frame.cards[side]
        if card is None:
            continue
        if side in to_hand:
            state.card_place[card] = CardPlace.HAND
        else:
            discard_after_combat(state, frame.house(side), card)
    for a in (area, frame.origin):
        remove_orphan_order(state, a)


def _stay_losses(state: GameState, frame: CombatFrame) -> Decision | None:
    """AMBIG-12 for winning attackers kept out of the embattled area (``attackers_stay``): back
    for good in their start area they may break supply; the attacker destroys units of his
    choice among them (D-45) until the position fits."""
    stayed, h = frame.stayed, frame.attacker
    if stayed is None or not any(stayed) or supply_ok(state, h):
        frame.stage = CombatStage.AFTER_COMBAT
        frame.abilities_done = {}
        return None
    return Decision(h, DecisionKind.RETREAT_SUPPLY_LOSS,
                    tuple(("unit", frame.origin, u) for u in range(4) if stayed[u] > 0),
                    context=_ctx(frame))


def _act_stay_loss(state: GameState, frame: CombatFrame, action: Action) -> None:
    _, area, u = action
    destroy_unit(state, area, frame.attacker, u, routed=False)
    frame.stayed[u] -= 1


def discard_after_combat(state: GameState, house: int, card: int) -> None:
    """R15.3.6: the played card goes to the discard pile; a house that has just played its last
    card takes the other six back, and that card stays discarded (``last_house_card``
    "stays-discarded") or comes back too (``"returns"``, 1e spec 8.5, reading C.1: all seven
    are in hand again; this cleanup comes after every ability but Patchface's and Loras's,
    which the 1st edition does not have)."""
    state.card_place[card] = CardPlace.DISCARD
    if not state.hand(house):
        returns = state.ruleset.rules.last_house_card == "returns"
        for c in state.discards(house):
            if c != card or returns:
                state.card_place[c] = CardPlace.HAND
