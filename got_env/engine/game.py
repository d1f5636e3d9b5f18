"""The round loop (R5.1-R5.4): Westeros phase (from round 2), Planning phase, Action phase; the
game ends after the last round's Action phase, or at once on seven castles (see victory.py).

Public entry points of the engine: :func:`start` (put a fresh state on its first decision),
:func:`pending` and :func:`apply` (re-exported from flow).
"""

from __future__ import annotations

from typing import ClassVar

from . import action_phase, planning, westeros, wildlings  # noqa: F401  (register their steps)
from .flow import advance, push, step
from .frames import Frame, frame_class
from .state import GameState, Phase
from .victory import end_game

PHASE_STEPS = ((Phase.WESTEROS, "westeros_phase"), (Phase.PLANNING, "planning_phase"),
               (Phase.ACTION, "action_phase"))


@frame_class
class RoundFrame(Frame):
    """The round loop's one local: ``at``, the index into :data:`PHASE_STEPS` of the next
    phase to start (3: round over), given by whoever starts the loop."""

    step: ClassVar[str] = "round"

    at: int


@step("round")
def run_round(state: GameState, frame: RoundFrame) -> None:
    """The next phase of the round, or the next round (or the game's end, R5.4)."""
    at = frame.at
    if at < len(PHASE_STEPS):
        frame.at = at + 1
        phase, name = PHASE_STEPS[at]
        if phase == Phase.WESTEROS and state.round == 1:
            return None  # no Westeros phase in round 1 (R5.1)
        state.phase = phase
        push(state, name)
        return None
    if state.round >= state.options["max_rounds"]:
        end_game(state, "last-round")  # R5.4, R22.3
        return None
    state.round += 1  # Westeros step 1: advance the round marker (§6.2)
    frame.at = 0
    return None


def start(state: GameState, at: int = 1) -> GameState:
    """Put the round loop on ``state``'s stack (at phase index ``at``) and run to the first
    decision. ``new_game`` starts at the Planning phase of round 1."""
    if state.stack:
        raise ValueError("the state has already started")
    push(state, "round", at=at)
    advance(state)
    return state
