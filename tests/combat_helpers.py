"""Helpers for the combat tests: build a position at the March step, march into a combat and
answer its decisions (support, refusals, house cards, Blade), and keep a copy of the state at the
moment each combat ends (after its cleanup, before the March that started it is over).

A test takes the ``ended`` fixture of its module (made by :func:`record_combat_ends`) and reads
the combat's frame with :func:`got_env.engine.combat.combat_frame` on the copy.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from engine_helpers import answer_single_secrets

from got_env.engine import DONE, NO, YES, apply, choice, scenario
from got_env.engine.combat.frame import CombatFrame, combat_frame
from got_env.engine.combat.stages import CombatStage
from got_env.engine.decision import DecisionKind
from got_env.engine.state import GameState

UNIT_INDEX = {"F": 0, "K": 1, "S": 2, "E": 3}


def build(**spec: Any) -> GameState:
    """A 6-player position at the March step (no neutral forces unless given)."""
    return scenario.build({"start": "marches", "neutral_forces": {}, **spec})


def record_combat_ends(monkeypatch) -> list[GameState]:
    """Wrap the combat step so that a copy of the state is kept when each combat ends."""
    ended: list[GameState] = []
    original = CombatFrame.run

    def run(frame: CombatFrame, state: GameState):
        if frame.stage is CombatStage.END:
            ended.append(state.clone())
        return original(frame, state)

    monkeypatch.setattr(CombatFrame, "run", run)
    return ended


def kind(state: GameState) -> DecisionKind | None:
    return state.pending.kind if state.pending is not None else None


def who(state: GameState) -> str:
    return state.ruleset.houses[state.pending.player].id


def march(state: GameState, origin: str, dest: str, units: str, token: bool = False) -> None:
    """Resolve the March in ``origin``: move ``units`` (letters F K S E) one by one into
    ``dest``, end the moves, answer D-28 (leave a power token) with ``token``."""
    rs = state.ruleset
    if kind(state) == DecisionKind.MARCH_TO_RESOLVE:
        apply(state, ("area", rs.area(origin)))
    assert kind(state) == DecisionKind.MARCH_MOVE, state.pending
    assert state.pending.context["area"] == rs.area(origin)
    for letter in units:
        apply(state, ("move", UNIT_INDEX[letter], rs.area(dest)))
    if kind(state) == DecisionKind.MARCH_MOVE:
        apply(state, DONE)
    if kind(state) == DecisionKind.LEAVE_POWER_TOKEN:
        apply(state, YES if token else NO)
    answer_single_secrets(state)


def declare(state: GameState, **answers: str) -> list[str]:
    """Answer every D-30 (declare support): house id -> "attacker", "defender" or "nothing".
    Returns the houses in the order they were asked."""
    asked = []
    while kind(state) == DecisionKind.DECLARE_SUPPORT:
        h = who(state)
        asked.append(h)
        given = answers[h]
        apply(state, choice("nothing" if given == "nothing" else f"support-{given}"))
    answer_single_secrets(state)
    return asked


def keep_support(state: GameState, refuse: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Answer every D-31: refuse the supporters named in ``refuse``, keep the others. Returns
    (combatant, supporter) pairs in the order asked."""
    rs = state.ruleset
    asked = []
    while kind(state) == DecisionKind.REFUSE_SUPPORT:
        supporter = rs.houses[state.pending.context["supporter"]].id
        asked.append((who(state), supporter))
        apply(state, choice("refuse-support" if supporter in refuse else "keep-support"))
    answer_single_secrets(state)
    return asked


def play_cards(state: GameState, attacker: str | None = None, defender: str | None = None,
               blade: bool | None = None) -> None:
    """Answer D-32 for each side that is asked and whose card is given (a one-card hand plays
    its card when none is given) and, when ``blade`` is given, D-40 (the Blade) if asked."""
    rs = state.ruleset
    while kind(state) == DecisionKind.HOUSE_CARD:
        frame = combat_frame(state)
        card = attacker if state.pending.player == frame.attacker else defender
        if card is None:
            if len(state.pending.options) > 1:
                return
            apply(state, state.pending.options[0])
            continue
        apply(state, ("card", rs.house_card(card)))
    if kind(state) == DecisionKind.BLADE_PLUS_ONE and blade is not None:
        apply(state, YES if blade else NO)


def fight(state: GameState, origin: str, dest: str, units: str, attacker: str | None = None,
          defender: str | None = None, blade: bool | None = None, **support: str) -> None:
    """March, declare support (keep all of it) and play the cards."""
    march(state, origin, dest, units)
    declare(state, **support)
    keep_support(state)
    play_cards(state, attacker, defender, blade)


def units_in(state: GameState, area: str, house: str) -> str:
    """The house's units in an area as sorted letters, e.g. "FK"."""
    rs = state.ruleset
    counts = state.units[rs.area(area), rs.house(house)]
    return "".join(letter * int(counts[i]) for letter, i in UNIT_INDEX.items())


def routed_in(state: GameState, area: str, house: str) -> str:
    rs = state.ruleset
    counts = state.routed[rs.area(area), rs.house(house)]
    return "".join(letter * int(counts[i]) for letter, i in UNIT_INDEX.items())


def order_in(state: GameState, area: str) -> str | None:
    tok = int(state.orders[state.ruleset.area(area)])
    return state.ruleset.order_tokens[tok].id if tok >= 0 else None


def areas(state: GameState, options) -> list[str]:
    """Area ids of ("area", a) or ("unit", a, u) options."""
    return sorted({state.ruleset.areas[o[1]].id for o in options})


def unit_options(state: GameState) -> list[tuple[str, str]]:
    """(area id, unit letter) of the pending ("unit", area, type) options."""
    letters = {i: c for c, i in UNIT_INDEX.items()}
    return sorted((state.ruleset.areas[o[1]].id, letters[o[2]]) for o in state.pending.options)


def last_combat(ended: list[GameState]) -> tuple[GameState, CombatFrame]:
    """The state when the last combat ended, and its frame. (Taken inside the engine's loop, not
    at a decision, so the invariants, which hold at decisions, are not checked on it.)"""
    assert ended, "no combat has ended"
    state = ended[-1]
    return state, combat_frame(state)


def cards_of(state: GameState, house: str, place: int) -> list[str]:
    rs = state.ruleset
    return sorted(c.id for c in rs.house_cards
                  if c.house == house and state.card_place[c.index] == place)


def total_units(state: GameState, house: str) -> int:
    return int(np.sum(state.units[:, state.ruleset.house(house)]))


def retreat(state: GameState, area: str) -> None:
    """Answer D-44 (the retreat area)."""
    assert kind(state) == DecisionKind.RETREAT_AREA, state.pending
    apply(state, ("area", state.ruleset.area(area)))
