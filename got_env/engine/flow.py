"""The engine's program: a stack of frames, one pending decision at a time (DESIGN.md).

A game's procedure (round -> phase -> step -> combat -> ...) is kept *in the state* as a stack of
frames, each a typed frame (got_env.engine.frames: every step of the engine declares one) that
reads as the plain dict ``{"step": name, ...locals}`` it replaced (a step without a frame class,
or a position built from dicts, still holds such a dict), so that copying a state copies where
the game is, and a clone can be played on independently (search agents rely on this). Every
step name has two functions, registered with :func:`step`:

* ``run(state, frame) -> Decision | None``: do what needs no choice. Either return the decision
  the step now needs, or change the state (push child frames, pop itself, update its locals) and
  return None so that the loop goes on.
* ``act(state, frame, action) -> None``: play one legal action of the decision ``run`` returned.

:func:`apply` checks the action against the pending decision *before* touching anything, plays
it, and :func:`advance` runs steps until the next decision or the end of the game. A decision with
a single option is played without asking (DECISIONS.md: "may be applied without asking"), except
a *secret* one (orders, bids, house cards): whether a house has one option left there can depend
on what it chose before, so skipping the question would tell every other house, through who is
asked and how often, something about a hidden choice. Secret decisions are always asked.
Immediate victory (R5.3) is checked after every step, so the game stops even inside a combat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .decision import Action, Decision, IllegalActionError
from .frames import FRAME_CLASSES, Frame, typed
from .state import GameState, Phase
from .victory import check_immediate_victory

RunFn = Callable[[GameState, dict], "Decision | None"]
ActFn = Callable[[GameState, dict, Action], None]

_RUN: dict[str, RunFn] = {}
_ACT: dict[str, ActFn] = {}


def step(name: str, act: ActFn | None = None) -> Callable[[RunFn], RunFn]:
    """Register ``run`` for step ``name`` (decorator); ``act`` plays its decisions' actions."""

    def register(run: RunFn) -> RunFn:
        if name in _RUN:
            raise ValueError(f"step {name!r} registered twice")
        _RUN[name] = run
        if act is not None:
            _ACT[name] = act
        return run

    return register


def on_action(name: str) -> Callable[[ActFn], ActFn]:
    """Register ``act`` for step ``name`` (decorator; the alternative to ``step(name, act=)``)."""

    def register(act: ActFn) -> ActFn:
        if name in _ACT:
            raise ValueError(f"actions of step {name!r} registered twice")
        _ACT[name] = act
        return act

    return register


def push(state: GameState, step_name: str, **local: Any) -> dict | Frame:
    """Start step ``step_name`` on top of the current one; returns its frame: the step's typed
    frame (got_env.engine.frames) if it has one, so that its ``run`` need not convert a dict,
    else a plain dict."""
    if step_name not in _RUN:
        raise KeyError(f"unknown step {step_name!r}")
    cls = FRAME_CLASSES.get(step_name)
    frame = {"step": step_name, **local} if cls is None else cls(**local)
    state.stack.append(frame)
    return frame


def push_frame(state: GameState, frame: Frame) -> Frame:
    """Start the step of the typed ``frame`` on top of the current one (its caller built it,
    with the field types checked where it is written)."""
    if frame.step not in _RUN:
        raise KeyError(f"unknown step {frame.step!r}")
    state.stack.append(frame)
    return frame


def pop(state: GameState) -> dict | Frame:
    """End the innermost step."""
    return state.stack.pop()


def advance(state: GameState) -> None:
    """Run steps until a decision is pending or the game has ended."""
    ended = Phase.ENDED  # (enum members are looked up through the class: once, not per step)
    stack = state.stack
    while state.pending is None and state.phase != ended:
        if check_immediate_victory(state):
            return
        if not stack:
            raise RuntimeError("the engine's stack is empty in a game that has not ended")
        frame = stack[-1]
        if type(frame) is dict:  # a position built from dicts (scenarios): typed once, here
            frame = typed(stack)
        name = frame["step"] if type(frame) is dict else frame.step  # (no __getitem__ call)
        decision = _RUN[name](state, frame)
        if decision is None:
            continue
        if len(decision.options) == 1 and not decision.secret:
            _ACT[name](state, frame, decision.options[0])
            continue
        state.pending = decision


def pending(state: GameState) -> Decision | None:
    """The decision the game waits for, or None once it has ended."""
    return state.pending


def apply(state: GameState, action: Action) -> None:
    """Play ``action`` for the pending decision, then run on to the next decision.

    :raises IllegalActionError: the game is over, or the action is not a legal option; the
        message names the decision and the action, and the state is left unchanged.
    """
    decision = state.pending
    if decision is None:
        raise IllegalActionError(f"no decision is pending (game over); got action {action!r}")
    if not isinstance(action, tuple) or action not in decision.options:  # (Decision.__contains__)
        shown = ", ".join(map(repr, decision.options[:12]))
        more = f" and {len(decision.options) - 12} more" if len(decision.options) > 12 else ""
        raise IllegalActionError(
            f"{action!r} is not a legal action for {decision.kind.label} of house "
            f"{state.ruleset.houses[decision.player].id}; legal: {shown}{more}")
    state.pending = None
    frame = state.stack[-1]
    if type(frame) is dict:  # a position built from dicts with its decision already pending
        frame = typed(state.stack)
    _ACT[frame["step"] if type(frame) is dict else frame.step](state, frame, action)
    advance(state)
