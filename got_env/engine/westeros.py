"""Westeros phase (rules spec §6). PLACEHOLDER: being written."""

from __future__ import annotations

from .flow import pop, step
from .state import GameState


@step("westeros_phase")
def run_westeros(state: GameState, frame: dict) -> None:
    pop(state)
