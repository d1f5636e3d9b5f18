"""Pickers shared by several parts of the round: the same kind of choice (a unit to lose, a bid,
a card, a house) is asked by different decisions, and each is made by one rule, here."""

from __future__ import annotations

import numpy as np

from got_env.engine.decision import CHOICES, Action
from got_env.engine.state import FOOTMAN, KNIGHT, LAND, SHIP, SIEGE_ENGINE

from .view import _View

#: What losing one unit costs (a Siege Engine is dear to muster, useless away from castles).
UNIT_COST = {FOOTMAN: 1.0, SHIP: 1.2, SIEGE_ENGINE: 1.5, KNIGHT: 2.0}


def choice(name: str) -> Action:
    """The "choice" action of the named option."""
    return ("choice", CHOICES.index(name))


def default(vw: _View, actions: list[Action]) -> Action:
    """A decision no rule covers: DONE or "nothing" when offered (doing nothing is never
    harmful), else the first option."""
    for a in actions:
        if a == ("done",) or a == choice("nothing"):
            return a
    return actions[0]


def closest_bid(actions: list[Action], bid: int) -> Action:
    """The offered bid nearest to ``bid``."""
    bids = [a for a in actions if a[0] == "bid"]
    return min(bids, key=lambda a: abs(a[1] - bid))


def best_house_for_us(vw: _View, actions: list[Action]) -> Action:
    """Ourselves when offered; else the rival with the fewest castles (never help the
    leader)."""
    houses = [a for a in actions if a[0] == "house"]
    for a in houses:
        if vw.rel(a[1]) == 0:
            return a
    return min(houses, key=lambda a: vw.victory_points(vw.rel(a[1])))


def strongest_card(vw: _View, actions: list[Action]) -> Action:
    """The offered card of the highest printed strength, or "done" when none is offered."""
    cards = [a for a in actions if a[0] == "card"]
    if not cards:
        return ("done",)
    return max(cards, key=lambda a: vw.t.card_strength[a[1]])


def cheapest_unit(vw: _View, actions: list[Action]) -> Action:
    """The unit whose loss costs least: cheap types first, in areas that keep other units
    and face little danger."""
    units = [a for a in actions if a[0] == "unit"]
    if not units:
        return actions[0]
    t = vw.t
    threat = vw.threats()
    defending = vw.v["combat_area"].any() and int(np.argmax(vw.v["combat_sides"][1])) == 0

    def cost(a: Action) -> float:
        _, area, u = a
        c = UNIT_COST[u]
        if u == SIEGE_ENGINE and defending and vw.v["combat_area"][area] > 0:
            c = 0.0
        if u == SIEGE_ENGINE and t.kind[area] == LAND and not any(
                t.fort[b] > 0 and vw.control[b] > 0 for b in t.neighbours[area]):
            c = 0.5
        last = vw.units[area, 0].sum() <= 1
        return c + (0.5 * t.value[area] if last else 0.0) + 0.1 * threat[area]

    return min(units, key=cost)
