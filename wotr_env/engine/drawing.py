"""Drawing Event cards with an Event die (facts §7.1, spec §7.2): one card from either of the
side's decks that is not exhausted; a hand over the limit discards at once, face down."""

from __future__ import annotations

from dataclasses import dataclass

from boardkit.frames import Frame

from .decision import EVENT, WD, Action, Decision, choice
from .dice import die_action
from .state import WotrState
from .turn.hand import DiscardToLimit, draw

DECK_CHOICES = ("deck-character", "deck-strategy")


def draw_legal(state: WotrState, side: int) -> bool:
    return bool(state.decks[2 * side] or state.decks[2 * side + 1])


@die_action("draw-event", (EVENT,), draw_legal)
def start_draw(state: WotrState, side: int, face: int) -> None:
    state.stack.append(DrawCard(side))


@dataclass
class DrawCard(Frame):
    """WD-33: which deck to draw from."""

    side: int

    def run(self, state: WotrState) -> Decision:
        return Decision(self.side, WD.DRAW_CARD,
                        tuple(choice(name) for i, name in enumerate(DECK_CHOICES)
                              if state.decks[2 * self.side + i]))

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        draw(state, self.side, DECK_CHOICES.index(action[1]))
        state.stack.append(DiscardToLimit(self.side))
