"""Helpers for the scenario tests of the Planning and Action phases (planning, raids, consolidate,
action phase, victory, engine API): names instead of raw indices, and small drivers that play a
phase's decisions from a readable plan."""

from __future__ import annotations

from typing import Any

from got_env.engine import DecisionKind, apply, scenario
from got_env.engine.decision import Action
from got_env.engine.state import GameState


def build(**spec: Any) -> GameState:
    """``scenario.build`` with keyword arguments."""
    return scenario.build(spec)


def area(state: GameState, area_id: str) -> int:
    return state.ruleset.area(area_id)


def area_id(state: GameState, index: int) -> str:
    return state.ruleset.areas[index].id


def house(state: GameState, house_id: str) -> int:
    return state.ruleset.house(house_id)


def house_id(state: GameState, index: int) -> str:
    return state.ruleset.houses[index].id


def token(state: GameState, token_id: str) -> int:
    """Order token index by id (``raid-special``, ``defense-1a``, ...)."""
    return [t.id for t in state.ruleset.order_tokens].index(token_id)


def token_id(state: GameState, index: int) -> str:
    return state.ruleset.order_tokens[index].id


def order(state: GameState, area_name: str, token_name: str) -> Action:
    return ("order", area(state, area_name), token(state, token_name))


def at(state: GameState, area_name: str) -> Action:
    """The ``("area", a)`` action."""
    return ("area", area(state, area_name))


def power(state: GameState) -> dict[str, int]:
    """Available power of each house in play, by id."""
    return {h.id: int(state.power[h.index]) for h in state.ruleset.houses
            if state.in_play[h.index]}


def orders(state: GameState) -> dict[str, str]:
    """Order tokens on the board: area id -> token id."""
    return {area_id(state, a): token_id(state, int(t))
            for a, t in enumerate(state.orders) if t >= 0}


def who(state: GameState) -> str | None:
    """House id of the pending decision's player (None once the game is over)."""
    return None if state.pending is None else house_id(state, state.pending.player)


def kind(state: GameState) -> DecisionKind | None:
    return None if state.pending is None else state.pending.kind


def option_areas(state: GameState) -> list[str]:
    """Area ids of the pending decision's ``("area", a)`` options, sorted."""
    return sorted(area_id(state, o[1]) for o in state.pending.options if o[0] == "area")


def option_tokens(state: GameState, area_name: str) -> list[str]:
    """Token ids offered for ``area_name`` by the pending ``("order", a, t)`` options."""
    a = area(state, area_name)
    return sorted(token_id(state, o[2]) for o in state.pending.options
                  if o[0] == "order" and o[1] == a)


def same_kind(state: GameState, t1: int, t2: int) -> bool:
    """Identical tokens (same type, bonus and star), which the engine offers once."""
    a, b = state.ruleset.order_tokens[t1], state.ruleset.order_tokens[t2]
    return (a.type, a.bonus, a.special) == (b.type, b.bonus, b.special)


def place(state: GameState, area_name: str, token_name: str) -> None:
    """Play one D-20 placement: ``token_name`` or the copy of it the engine offers."""
    a, t = area(state, area_name), token(state, token_name)
    for o in state.pending.options:
        if o[0] == "order" and o[1] == a and same_kind(state, o[2], t):
            apply(state, o)
            return
    raise AssertionError(f"{token_name} in {area_name} not offered to {who(state)}: "
                         f"{option_tokens(state, area_name)}")


def place_orders(state: GameState, plan: dict[str, str]) -> list[str]:
    """Play the D-20 decisions from ``plan`` (area id -> token id) while the pending placement
    is for an area of the plan. Returns the houses asked, in the order asked (one entry per
    placement)."""
    asked = []
    while kind(state) == DecisionKind.PLACE_ORDERS:
        pending_areas = {area_id(state, o[1]) for o in state.pending.options}
        todo = [a for a in plan if a in pending_areas]
        if not todo:
            break
        asked.append(who(state))
        place(state, todo[0], plan[todo[0]])
    return asked


def answer_single_secrets(state: GameState) -> None:
    """Answer the pending secret decisions that have a single legal option (the card of a
    one-card hand, the bid of a house with no power). The engine asks them all the same
    (boardkit.frames.advance: asking must reveal nothing), and most scenario tests have no
    choice there."""
    while state.pending is not None and state.pending.secret and len(state.pending.options) == 1:
        apply(state, state.pending.options[0])
