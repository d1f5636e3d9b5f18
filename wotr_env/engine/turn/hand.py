"""A side's hand: drawing an Event card, and the hand limit (spec §7.2, facts §7.1).

A hand over the limit discards at once, face down, one card at a time (WD-01): after the Draw
phase, after an Event die's draw, after a card that draws.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardkit.frames import Frame

from ..decision import WD, Action, Decision
from ..state import WotrState, log

HAND_LIMIT = 6


def draw(state: WotrState, side: int, deck: int) -> None:
    """The top card of ``deck`` (0 character, 1 strategy) into ``side``'s hand."""
    state.hands[side].append(state.decks[2 * side + deck].pop())
    log(state, "draw", side, deck)


@dataclass
class DiscardToLimit(Frame):
    """WD-01: discard face down, one card at a time, down to the hand limit (spec §7.2)."""

    side: int

    def run(self, state: WotrState) -> Decision | None:
        hand = state.hands[self.side]
        if len(hand) <= HAND_LIMIT:
            state.stack.pop()
            return None
        return Decision(self.side, WD.DISCARD, tuple(("card", c) for c in sorted(set(hand))),
                        secret=True)

    def act(self, state: WotrState, action: Action) -> None:
        state.hands[self.side].remove(action[1])
        state.face_down[self.side].append(action[1])
        log(state, "discard-face-down", self.side)


__all__ = ["HAND_LIMIT", "DiscardToLimit", "draw"]
