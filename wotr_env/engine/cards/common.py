"""What many cards share: a card's choice (WD-34) as one frame, tiles into play, healing, the
nations, regions and characters they name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardkit.frames import Frame

from ...data import NATIONS
from ..decision import WD, Action, Decision
from ..state import IN_FELLOWSHIP, OFF_MORDOR, WotrState, log
from ..turn.hand import DiscardToLimit, draw

Options = Callable[[WotrState, "Choose"], tuple[Action, ...]]
Then = Callable[[WotrState, "Choose", Action], None]
CHOICE_STEPS: dict[str, tuple[Options, Then]] = {}
SAURON = NATIONS.index("sauron")
#: The choices whose options read the chooser's hand: asked even with one option (private).
PRIVATE_STEPS: set[str] = set()


def choice_step(name: str, options: Options, private: bool = False) -> Callable[[Then], Then]:
    """Register a card's choice ``name``: ``options(state, frame)`` lists it when it is asked,
    ``then(state, frame, action)`` plays the one chosen (decorator on ``then``). ``private``:
    the options read what only the chooser knows (his hand), so the question is asked even
    with one option (boardkit.decision.Decision.private)."""

    def register(then: Then) -> Then:
        if name in CHOICE_STEPS:
            raise ValueError(f"card choice {name!r} registered twice")
        CHOICE_STEPS[name] = (options, then)
        if private:
            PRIVATE_STEPS.add(name)
        return then

    return register


@dataclass
class Choose(Frame):
    """WD-34: ``side`` chooses for a card; ``step`` names the registered choice, ``data`` its
    locals (immutable). With no option the choice is skipped (a card does what it can)."""

    side: int
    step: str
    data: tuple[Any, ...] = ()

    def run(self, state: WotrState) -> Decision | None:
        options = CHOICE_STEPS[self.step][0](state, self)
        if not options:
            state.stack.pop()
            return None
        return Decision(self.side, WD.EVENT_CHOICE, options,
                        private=self.step in PRIVATE_STEPS, context={"step": self.step})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        CHOICE_STEPS[self.step][1](state, self, action)


def tile_into_play(state: WotrState, card: int) -> None:
    """A special Hunt tile's card: the tile is in play, and joins the Hunt Pool at once if the
    Fellowship is on the Mordor Track, else when it enters it (facts §4.2, §7.9)."""
    cards = state.ruleset.cards
    card_id = cards.events[card].id
    tile = next(i for i, t in enumerate(cards.tiles) if t.card == card_id)
    if state.mordor_step != OFF_MORDOR:
        state.hunt_pool.append(tile)
    else:
        state.specials_in_play.append(tile)
    log(state, "special-tile", tile)


def guide_is(state: WotrState, character_id: str) -> bool:
    cards = state.ruleset.cards
    c = cards.character(character_id)
    return state.guide == c and state.char_at[c] == IN_FELLOWSHIP


@dataclass
class DrawStrategy(Frame):
    """A card's "draw N Strategy cards" (after the rest of its text): from the side's
    Strategy deck while it has cards, then the hand limit."""

    side: int
    n: int = 1

    def run(self, state: WotrState) -> None:
        state.stack.pop()
        for _ in range(self.n):
            if state.decks[2 * self.side + 1]:
                draw(state, self.side, 1)
        state.stack.append(DiscardToLimit(self.side))
        return None


def nation(state: WotrState, nation_id: str) -> int:
    return state.ruleset.board.nation(nation_id)


def region(state: WotrState, region_id: str) -> int:
    return state.ruleset.board.region(region_id)


def witch_king(state: WotrState) -> int:
    return state.ruleset.cards.character("witch-king")
