"""A game's procedure as a stack of frames with one pending decision (DESIGN.md).

A game keeps *where it is* in its state: a stack of :class:`Frame` objects (turn -> phase ->
action -> battle -> round ...), each one step of the rules with its own locals. Copying the
stack copies where the game is, so a clone plays on independently (searches rely on it), and
a position can be built by pushing frames (scenario tests rely on that).

A frame's ``run(state)`` does what needs no choice: it either returns the :class:`Decision` the
step now needs, or changes the state (pushes child frames, pops itself, updates its locals) and
returns None so that the loop goes on. ``act(state, action)`` plays one option of the decision
its ``run`` returned. :func:`apply` checks an action against the pending decision *before*
anything changes, so an illegal action leaves the state as it was.

A decision with a single option is played without asking, except a *secret* or a *private* one:
whether a player has one option left can depend on what he chose before (secret) or on what
only he knows, his hand (private), so skipping the question would tell the others, through who
is asked and how often, something hidden.

Frame fields hold only immutable values (ints, strings, tuples): :func:`copy_stack` then copies
a stack with one shallow copy per frame. (A game whose frames keep lists and dicts, AGoT's,
copies each frame's containers itself: ``got_env.engine.frames.GotFrame.copy``.)

A game passes ``is_over(state)`` to the loop, asked before every step: War of the Ring's says
whether the game has ended; AGoT's also ends the game at once when a house holds enough castles
(R5.3), so the game stops even inside a combat.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Protocol

from .decision import IllegalActionError


class Frame:
    """One step of a game's procedure; subclasses are small dataclasses named for the step
    (slotted ones keep no ``__dict__``: this base has no fields)."""

    __slots__ = ()

    def run(self, state: Any) -> Any:
        """The decision this step needs now, or None after changing the state."""
        raise NotImplementedError(f"{type(self).__name__}.run")

    def act(self, state: Any, action: Any) -> None:
        """Play ``action``, one option of the decision ``run`` returned."""
        raise NotImplementedError(f"{type(self).__name__} asks no decision")


class FrameState(Protocol):
    """What the loop needs of a game's state: its stack and its pending decision."""

    stack: list[Frame]
    pending: Any


def advance(state: FrameState, is_over: Callable[[Any], bool]) -> None:
    """Run frames until a decision is pending or ``is_over(state)``."""
    stack = state.stack
    while state.pending is None and not is_over(state):
        if not stack:
            raise RuntimeError("the stack is empty in a game that has not ended")
        frame = stack[-1]
        decision = frame.run(state)
        if decision is None:
            continue
        if len(decision.options) == 1 and not (decision.secret or decision.private):
            frame.act(state, decision.options[0])
            continue
        state.pending = decision


def apply(state: FrameState, action: Any, is_over: Callable[[Any], bool],
          who: Callable[[int], str] = lambda p: f"player {p}") -> None:
    """Play ``action`` for the pending decision, then run on to the next decision.

    :raises IllegalActionError: no decision is pending, or ``action`` is not one of its
        options; the message names the decision, its player and the action, and the state is
        left unchanged.
    """
    decision = state.pending
    if decision is None:
        raise IllegalActionError(f"no decision is pending (game over); got action {action!r}")
    try:
        legal = action in decision.options
    except (TypeError, ValueError):  # unhashable against a set; an array's ambiguous ==
        legal = False
    if not legal:
        options = list(decision.options)
        shown = ", ".join(map(repr, options[:12]))
        more = f" and {len(options) - 12} more" if len(options) > 12 else ""
        raise IllegalActionError(f"{action!r} is not a legal action for {decision.kind.label} "
                                 f"of {who(decision.player)}; legal: {shown}{more}")
    state.pending = None
    state.stack[-1].act(state, action)
    advance(state, is_over)


def copy_stack(stack: list[Frame]) -> list[Frame]:
    """A copy of ``stack`` that shares nothing mutable with it (frames hold immutable fields)."""
    return [copy.copy(f) for f in stack]
