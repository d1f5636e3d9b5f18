"""Action phase (rules spec §12). PLACEHOLDER: being written."""

from __future__ import annotations

from .flow import pop, step
from .state import GameState


@step("action_phase")
def run_action(state: GameState, frame: dict) -> None:
    pop(state)
