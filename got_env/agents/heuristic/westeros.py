"""Westeros phase: the choices of the Westeros cards (D-01..D-03) and the armies a new supply
level no longer allows (D-04). Mustering (D-05) is in :mod:`.mustering`, the wildlings' cards in
:mod:`.wildlings`, the bids of a Clash of Kings in :mod:`.bidding`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from got_env.engine.decision import Action, DecisionKind

from .choices import cheapest_unit, choice
from .view import _View

if TYPE_CHECKING:
    from .agent import Handler, HeuristicAgent

K = DecisionKind


def throne_of_blades(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-01: Supply if our barrels exceed our supply level (we grow); else Mustering if our
    castles muster at least as much as any rival's; else nothing."""
    t = vw.t
    ctrl = vw.control
    barrels = float(t.barrels[ctrl == 0].sum())
    if barrels > float(vw.v["supply"][0]):
        return choice("supply")
    points = [float(t.fort[ctrl == r].sum()) for r in range(t.H)]
    if points[0] >= max((points[r] for r in vw.rivals), default=0.0):
        return choice("mustering")
    return choice("nothing")


def dark_wings(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-02: Game of Thrones if our crowns earn at least the average rival's; else a Clash of
    Kings if we hold the most power (we would win the bids); else nothing."""
    crowns = [float(vw.t.crowns[vw.control == r].sum()) for r in range(vw.t.H)]
    rival = [crowns[r] for r in vw.rivals] or [0.0]
    if crowns[0] >= sum(rival) / len(rival):
        return choice("game-of-thrones")
    if vw.power[0] >= max((vw.power[r] for r in vw.rivals), default=0.0):
        return choice("clash-of-kings")
    return choice("nothing")


def put_to_the_sword(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-03: we are the attacking side: banning Defense orders helps our marches."""
    return choice("no-defense-orders")


def reconcile(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-04: destroy the cheapest unit where it matters least."""
    return cheapest_unit(vw, actions)


HANDLERS: dict[DecisionKind, Handler] = {
    K.THRONE_OF_BLADES: throne_of_blades,
    K.DARK_WINGS_DARK_WORDS: dark_wings,
    K.PUT_TO_THE_SWORD: put_to_the_sword,
    K.RECONCILE_ARMIES: reconcile,
}
