"""The round loop (R5.1-R5.4): Westeros phase (from round 2), Planning phase, Action phase; the
game ends after the last round's Action phase, or at once on seven castles (see victory.py).

Public entry points of the engine: :func:`start` (put a fresh state on its first decision),
:func:`pending` and :func:`apply`, on the kit's loop (:mod:`boardkit.frames`) with AGoT's
:func:`is_over`: immediate victory (R5.3) is checked before every step, so the game stops even
inside a combat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from boardkit import frames
from boardkit.decision import Decision

from .action_phase import ActionPhaseFrame
from .decision import Action
from .frames import GotFrame
from .planning import PlanningFrame
from .state import GameState, Phase
from .victory import check_immediate_victory, end_game
from .westeros import WesterosFrame

#: The phases of a round, in order (R5.1).
PHASE_STEPS: tuple[tuple[Phase, type[GotFrame]], ...] = (
    (Phase.WESTEROS, WesterosFrame), (Phase.PLANNING, PlanningFrame),
    (Phase.ACTION, ActionPhaseFrame))


@dataclass(slots=True)
class RoundFrame(GotFrame):
    """The round loop (the bottom frame): ``at``, the index into :data:`PHASE_STEPS` of the
    next phase to start (3: round over), given by whoever starts the loop."""

    step: ClassVar[str] = "round"

    at: int

    def run(self, state: GameState) -> None:
        """The next phase of the round, or the next round (or the game's end, R5.4)."""
        at = self.at
        if at < len(PHASE_STEPS):
            self.at = at + 1
            phase, frame_class = PHASE_STEPS[at]
            if phase == Phase.WESTEROS and state.round == 1:
                return None  # no Westeros phase in round 1 (R5.1)
            state.phase = phase
            state.stack.append(frame_class())
            return None
        if state.round >= state.options["max_rounds"]:
            end_game(state, "last-round")  # R5.4, R22.3
            return None
        state.round += 1  # Westeros step 1: advance the round marker (§6.2)
        self.at = 0
        return None


def is_over(state: GameState) -> bool:
    """Whether the game is over: it has ended, or a house holds enough castles now and the game
    ends at once (R5.3; asked by the loop before every step)."""
    return state.phase == Phase.ENDED or check_immediate_victory(state)


def advance(state: GameState) -> None:
    """Run steps until a decision is pending or the game has ended (a position built by pushing
    frames starts so)."""
    frames.advance(state, is_over)


def pending(state: GameState) -> Decision | None:
    """The decision the game waits for, or None once it has ended."""
    return state.pending


def apply(state: GameState, action: Action) -> None:
    """Play ``action`` for the pending decision, then run on to the next decision.

    :raises IllegalActionError: the game is over, or the action is not a legal option; the
        message names the decision, the house and the action, and the state is left
        unchanged.
    """
    frames.apply(state, action, is_over, lambda p: f"house {state.ruleset.houses[p].id}")


def start(state: GameState, at: int = 1) -> GameState:
    """Put the round loop on ``state``'s stack (at phase index ``at``) and run to the first
    decision. ``new_game`` starts at the Planning phase of round 1."""
    if state.stack:
        raise ValueError("the state has already started")
    state.stack.append(RoundFrame(at=at))
    advance(state)
    return state
