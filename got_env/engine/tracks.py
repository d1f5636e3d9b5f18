"""Moving houses on the influence tracks outside bidding (R21.1-R21.3).

A house moved to a new position takes it, and the houses between its old and new positions shift
by one to fill the gap (R21.1). Dominance tokens need no bookkeeping: the holder of a track's token
is whoever stands at position 1 (:meth:`GameState.holder`), so a house that loses position 1 passes
the token at once, in its current used/unused state (R21.2, ``blade_used``/``raven_used`` stay as
they are). Positions are 0-based here (position 1 of the rules is index 0).

Used by the wildling cards (Preemptive Raid, A King Beyond the Wall) and Doran Martell.
"""

from __future__ import annotations

from .state import GameState


def track_order(state: GameState, track: int) -> list[int]:
    """The houses on ``track``, position 1 first (only houses in play are on a track)."""
    return [int(h) for h in state.tracks[track] if h >= 0]


def move_to(state: GameState, track: int, house: int, position: int) -> None:
    """Put ``house`` at 0-based ``position`` of ``track``; the others shift (R21.1-R21.2).

    A position past the last one means the last position.

    :raises ValueError: ``house`` is not on the track, or ``position`` is negative.
    """
    if position < 0:
        raise ValueError(f"track position must be >= 0, got {position}")
    order = track_order(state, track)
    order.remove(house)  # ValueError if absent
    order.insert(min(position, len(order)), house)
    state.tracks[track, : len(order)] = order


def move_to_top(state: GameState, track: int, house: int) -> None:
    """Position 1 of ``track``, with its dominance token (R21.1-R21.2)."""
    move_to(state, track, house, 0)


def move_to_bottom(state: GameState, track: int, house: int) -> None:
    """The last position of ``track`` (R21.1)."""
    move_to(state, track, house, len(track_order(state, track)) - 1)


def move_down(state: GameState, track: int, house: int, steps: int) -> None:
    """``steps`` positions further from position 1, at most to the last position (R21.1)."""
    move_to(state, track, house, state.track_position(track, house) + steps)
