"""Playing Event cards (spec §7.3-§7.5, facts §6): the die action, the play condition, the
table, and the registry of card effects keyed by card id.

A card is playable with an Event die, or with a die whose face matches the *card's* icon
(from the card's data, not its deck: a Strategy deck mixes Army and Muster icons); a Will of the
West die is any face; an Army/Muster die either icon. Its precondition must hold. Each card's
effect is one small function registered with :func:`event` under the card's id; a card played
on the table stays there (``state.table``) instead of going to the discard pile.

After an Event die plays a card, Gandalf the Grey as Guide lets the Free Peoples draw a card of
the same type (2e; 1e: after a Character card only, ``rules.gandalf_guide_draw``), facts §3.1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boardkit.frames import Frame

from .decision import ARMY, ARMY_MUSTER, CHARACTER, EVENT, MUSTER, WD, WILL, Action, Decision
from .dice import die_action
from .state import FREE_PEOPLES, IN_FELLOWSHIP, WotrState, log
from .turn.hand import DiscardToLimit

Condition = Callable[[WotrState, int], bool]
Effect = Callable[[WotrState, int, int], None]  # (state, side, card index)


@dataclass(frozen=True)
class EventAbility:
    condition: Condition
    effect: Effect


EVENTS: dict[str, EventAbility] = {}
# ``hook(state, side, card)`` when a card is played with an Event die, before its effect (its
# frames run after the effect's, as the Guide's draw does); table cards' modules append.
EVENT_DIE_HOOKS: list[Effect] = []


def always(state: WotrState, side: int) -> bool:
    return True


def event(card_id: str, condition: Condition = always) -> Callable[[Effect], Effect]:
    """Register the effect of the Event card ``card_id`` (decorator), playable when
    ``condition(state, side)`` holds (its precondition; ``always`` when it has none)."""

    def register(effect: Effect) -> Effect:
        if card_id in EVENTS:
            raise ValueError(f"event {card_id!r} registered twice")
        EVENTS[card_id] = EventAbility(condition, effect)
        return effect

    return register


ICON_OF_FACE = {CHARACTER: (0,), ARMY: (1,), MUSTER: (2,), ARMY_MUSTER: (1, 2),
                EVENT: (0, 1, 2), WILL: (0, 1, 2)}  # face -> card icons it pays for


def playable(state: WotrState, side: int, face: int) -> list[int]:
    """The cards in ``side``'s hand that a die of ``face`` may play now."""
    cards = state.ruleset.cards
    icons = ICON_OF_FACE.get(face, ())
    out = []
    for c in sorted(set(state.hands[side])):
        ability = EVENTS.get(cards.events[c].id)
        if ability is not None and cards.event_icon[c] in icons \
                and ability.condition(state, side):
            out.append(c)
    return out


def _legal(state: WotrState, side: int, face: int) -> bool:
    return bool(playable(state, side, face))


@die_action("play-event", (CHARACTER, ARMY, MUSTER, ARMY_MUSTER, EVENT), _legal, per_face=True)
def start_play(state: WotrState, side: int, face: int) -> None:
    state.stack.append(PlayEvent(side, face))


@dataclass
class PlayEvent(Frame):
    """WD-32: which card the die plays."""

    side: int
    face: int

    def run(self, state: WotrState) -> Decision:
        return Decision(self.side, WD.PLAY_EVENT,
                        tuple(("card", c) for c in playable(state, self.side, self.face)),
                        private=True, context={"face": self.face})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        play_card(state, self.side, action[1], by_event_die=self.face == EVENT)


def play_card(state: WotrState, side: int, card: int, by_event_die: bool = False) -> None:
    """The card leaves the hand, goes to the table or the discard pile, and its effect runs
    (its frames pushed above the Guide's draw, which follows them)."""
    cards = state.ruleset.cards
    state.hands[side].remove(card)
    if cards.event_table[card]:
        state.table.append(card)
    else:
        state.discards[side].append(card)
    log(state, "event", side, card)
    if by_event_die and guide_draws(state, side, card):
        state.stack.append(GuideDraw(int(cards.event_deck[card]) % 2))
    for hook in EVENT_DIE_HOOKS if by_event_die else ():  # *The Palantir of Orthanc*
        hook(state, side, card)
    EVENTS[cards.events[card].id].effect(state, side, card)


def guide_draws(state: WotrState, side: int, card: int) -> bool:
    """Gandalf the Grey is the Guide and the card's type allows his draw (facts §3.1, §3.6)."""
    cards = state.ruleset.cards
    if side != FREE_PEOPLES:
        return False
    gandalf = cards.character("gandalf-the-grey")
    if state.guide != gandalf or state.char_at[gandalf] != IN_FELLOWSHIP:
        return False
    character_card = cards.event_deck[card] % 2 == 0
    return state.ruleset.rules.gandalf_guide_draw == "same_type" or character_card


@dataclass
class GuideDraw(Frame):
    """WD-37: the Free Peoples may draw a card of the played card's type (0 character deck,
    1 strategy deck), if that deck is not exhausted."""

    deck: int

    def run(self, state: WotrState) -> Decision | None:
        if not state.decks[self.deck]:
            state.stack.pop()
            return None
        return Decision(FREE_PEOPLES, WD.EXTRA_DRAW, (("choice", "no"), ("choice", "yes")),
                        context={"deck": self.deck})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        if action == ("choice", "yes"):
            state.hands[FREE_PEOPLES].append(state.decks[self.deck].pop())
            log(state, "draw", FREE_PEOPLES, self.deck)
            state.stack.append(DiscardToLimit(FREE_PEOPLES))
