"""Helpers for the march tests (test_marches, test_transport, test_neutral_forces, test_ports,
test_control): build a position at the March step, pick the March, read the options.

Every position gets a **sentinel**: one extra Footman of the marching house in The Fingers with
another March order. Once the March under test is over (its combat, D-28, D-47 included), the
engine asks that house to resolve the sentinel's March, so the game stops right after the March
under test: nothing later (cleanup, the next round) changes what the test looks at.
"""

from __future__ import annotations

import copy
from typing import Any

from engine_helpers import answer_single_secrets

from got_env.engine import apply, scenario
from got_env.engine.combat.frame import CombatFrame
from got_env.engine.decision import Action, DecisionKind
from got_env.engine.state import FOOTMAN, KNIGHT, SHIP, SIEGE_ENGINE, GameState

SENTINEL = "the-fingers"
MARCH_TOKENS = ("march-minus-1", "march-0", "march-special")
LETTER = {FOOTMAN: "F", KNIGHT: "K", SHIP: "S", SIEGE_ENGINE: "E"}


def march(spec: dict[str, Any], house: str, area: str) -> GameState:
    """Build ``spec`` (6 players and start "marches" unless given), add the sentinel of ``house``
    and pick ``house``'s March in ``area`` (D-26). Returns at the first decision after that."""
    spec = copy.deepcopy(spec)
    spec.setdefault("players", 6)
    spec.setdefault("start", "marches")
    units = spec.setdefault("units", {})
    units.setdefault(house, {})[SENTINEL] = "F"
    orders = spec.setdefault("orders", {})
    used = {tok for a, tok in orders.items() if a in units[house]}
    orders[SENTINEL] = next(t for t in MARCH_TOKENS if t not in used)
    state = scenario.build(spec)
    play(state, DecisionKind.MARCH_TO_RESOLVE, house, ("area", a(state, area)))
    return state


def a(state: GameState, area_id: str) -> int:
    return state.ruleset.area(area_id)


def h(state: GameState, house_id: str) -> int:
    return state.ruleset.house(house_id)


def name(state: GameState, area: int) -> str:
    return state.ruleset.areas[area].id


def units(state: GameState, house_id: str, area_id: str) -> list[int]:
    """[footmen, knights, ships, siege engines] of the house in the area."""
    return state.units[a(state, area_id), h(state, house_id)].tolist()


def routed(state: GameState, house_id: str, area_id: str) -> list[int]:
    return state.routed[a(state, area_id), h(state, house_id)].tolist()


def controller(state: GameState, area_id: str) -> str | None:
    c = int(state.control()[a(state, area_id)])
    return state.ruleset.houses[c].id if c >= 0 else None


def token(state: GameState, area_id: str) -> str | None:
    """The house whose power token lies in the area, or None."""
    t = int(state.power_tokens[a(state, area_id)])
    return state.ruleset.houses[t].id if t >= 0 else None


def order(state: GameState, area_id: str) -> str | None:
    o = int(state.orders[a(state, area_id)])
    return state.ruleset.order_tokens[o].id if o >= 0 else None


def power(state: GameState, house_id: str) -> int:
    return int(state.power[h(state, house_id)])


def pool(state: GameState, house_id: str) -> int:
    return int(state.power_pool()[h(state, house_id)])


def play(state: GameState, kind: DecisionKind, player: str, action: Action) -> None:
    """Check that ``player`` is asked a ``kind`` decision, then play ``action``."""
    d = state.pending
    assert d is not None, "no decision pending"
    assert (d.kind, state.ruleset.houses[d.player].id) == (kind, player), d
    apply(state, action)
    answer_single_secrets(state)


def moves(state: GameState) -> set[tuple[str, str]]:
    """The pending D-27's moves as {(unit letter, destination id)} (``done`` left out)."""
    d = state.pending
    assert d is not None and d.kind == DecisionKind.MARCH_MOVE, d
    return {(LETTER[o[1]], name(state, o[2])) for o in d.options if o[0] == "move"}


def dests(state: GameState, unit_type: int) -> set[str]:
    """Destinations the pending D-27 offers to units of ``unit_type``."""
    return {dst for u, dst in moves(state) if u == LETTER[unit_type]}


def can_finish(state: GameState) -> bool:
    """Whether the pending D-27 offers ``done``."""
    d = state.pending
    assert d is not None and d.kind == DecisionKind.MARCH_MOVE, d
    return ("done",) in d.options


def move(state: GameState, unit_type: int, dest: str) -> None:
    d = state.pending
    assert d is not None and d.kind == DecisionKind.MARCH_MOVE, d
    apply(state, ("move", unit_type, a(state, dest)))
    answer_single_secrets(state)


def done(state: GameState) -> None:
    d = state.pending
    assert d is not None and d.kind == DecisionKind.MARCH_MOVE, d
    apply(state, ("done",))
    answer_single_secrets(state)


def at_sentinel(state: GameState) -> bool:
    """The March under test (and all it started) is over: the sentinel's March is asked."""
    d = state.pending
    return (d is not None and d.kind == DecisionKind.MARCH_MOVE
            and d.context.get("area") == a(state, SENTINEL))


def in_combat(state: GameState) -> CombatFrame | None:
    """The innermost combat frame, if a combat is under way."""
    return next((f for f in reversed(state.stack) if type(f) is CombatFrame), None)
