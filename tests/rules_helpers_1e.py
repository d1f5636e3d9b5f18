"""Helpers for the 1st-edition rule tests (tests/test_1e_rules.py): positions built with
``scenario.build`` under ``ruleset: 1e``, and a wildling attack started directly (1e spec 5.4).

3 players unless said otherwise: Stark, Lannister, Baratheon; Iron Throne order Baratheon,
Lannister, Stark (got_env/data/1e/tracks.yaml); 5 power each.
"""

from __future__ import annotations

from typing import Any

from got_env.engine import scenario
from got_env.engine.game import RoundFrame, advance
from got_env.engine.state import GameState, Phase
from got_env.engine.wildlings.attack import WildlingAttackFrame


def build_1e(**spec: Any) -> GameState:
    """A 1e scenario (3 players unless ``players`` is given), run to its first decision."""
    options = {"ruleset": "1e", **spec.pop("options", {})}
    return scenario.build({"players": 3, "options": options, **spec})


def attack_1e(strength: int, **spec: Any) -> GameState:
    """A 1e game in round 2's Westeros phase with a wildling attack of ``strength`` under way
    (the threat token at ``strength``); the game ends when the attack is over (max_rounds 2)."""
    state = build_1e(round=2, wildling_threat=strength, options={"max_rounds": 2}, **spec)
    state.stack.clear()
    state.pending = None
    state.phase = Phase.WESTEROS
    state.stack.append(RoundFrame(at=3))
    state.stack.append(WildlingAttackFrame(strength=strength, exclude=[]))
    advance(state)
    return state
