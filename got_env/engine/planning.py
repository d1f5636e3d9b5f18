"""Planning phase (rules spec §10). PLACEHOLDER: being written."""

from __future__ import annotations

from .flow import pop, step
from .state import GameState


@step("planning_phase")
def run_planning(state: GameState, frame: dict) -> None:
    pop(state)
