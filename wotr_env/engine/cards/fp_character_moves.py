"""Free Peoples Character cards that separate or move Companions (facts §6.2 #11, #15-#17),
and what the deck's other cards ask about Companions on the map.

A card's separation or move is one WD-34 choice: the first Companion picked says which it is
(one in the Fellowship: a separation; one on the map: a move), more Companions join him (from
the Fellowship, or from his region), then DONE; the group then ends its move (WD-22 for a
separation, WD-23 for a move) as far as the card allows:

* *I Will Go Alone* (#11): separate, 1 extra region; then heal 1 Corruption.
* *Gwaihir the Windlord* (#15): separate or move as if the Level were 4, possibly into a
  besieged Stronghold.
* *We Prove the Swifter* (#16): separate or move with 2 extra regions, possibly into a
  besieged Stronghold.
* *There and Back Again* (#17): separate, 1 extra region; then, with Gimli or Legolas in Dale,
  Erebor or the Woodland Realm, the Dwarves and the North are activated and the Dwarves, the
  Elves and the North advance one step each.

Readings: as with the die action, no Companion separates on the Mordor Track (the card's other
parts still apply); a Companion inside a besieged Stronghold's box stays there (separated
inside one, or already on the map inside one: facts §7.3); "may end in a besieged Stronghold"
puts a group ending in a Free Peoples Stronghold the Shadow besieges into its box.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardkit.frames import Frame

from ..companions import (
    MOVING_KINDS,
    PlaceSeparated,
    arrive,
    besieged_by,
    companion_destinations,
    group_level,
    separate_companions,
)
from ..decision import DONE, WD, Action, Decision
from ..events import event
from ..fellowship import companions_in_fellowship
from ..politics import activate, advance
from ..regions import units
from ..state import FREE_PEOPLES, OFF_MORDOR, SHADOW, WotrState, log
from ..victory import add_corruption
from .common import Choose, choice_step, nation, region

# -- Companions on the map ---------------------------------------------------------------------


def companions_on_map(state: WotrState) -> list[int]:
    """The Free Peoples' Companions standing on the map (Aragorn and Gandalf the White count)."""
    chars = state.ruleset.cards.characters
    return [c for c, ch in enumerate(chars) if ch.kind in MOVING_KINDS and state.char_at[c] >= 0]


def king(state: WotrState) -> int | None:
    """Strider or Aragorn, whichever stands on the map (None if neither)."""
    cards = state.ruleset.cards
    for cid in ("aragorn", "strider"):
        c = cards.character(cid)
        if state.char_at[c] >= 0:
            return c
    return None


def with_fp_army(state: WotrState, c: int) -> bool:
    """The Character on the map stands with a Free Peoples Army (in its box if he is in one)."""
    where = int(state.char_at[c])
    return where >= 0 and units(state, where, FREE_PEOPLES, bool(state.char_in_box[c])) > 0


# -- "then": a card's step after the frames it pushed ----------------------------------------

THEN: dict[str, Callable[[WotrState, int, tuple[Any, ...]], None]] = {}


@dataclass
class Then(Frame):
    """Run the card step ``step`` (registered in :data:`THEN`) once the frames above it are
    done: what a card's text does after a choice, a separation or a casualty."""

    step: str
    side: int
    data: tuple[Any, ...] = ()

    def run(self, state: WotrState) -> None:
        state.stack.pop()
        THEN[self.step](state, self.side, self.data)
        return None


# -- the cards ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CompanionCard:
    """How far a card lets a group go: separate (and/or move one on the map) with ``extra``
    regions, or ``level`` (when not 0) in place of the group's Level."""

    move: bool = False
    extra: int = 0
    level: int = 0
    into_siege: bool = False


GO_ALONE = "fp-char-11-i-will-go-alone"
GWAIHIR = "fp-char-15-gwaihir-the-windlord"
SWIFTER = "fp-char-16-we-prove-the-swifter"
BACK_AGAIN = "fp-char-17-there-and-back-again"
CARD_MOVES = {
    GO_ALONE: CompanionCard(extra=1),
    GWAIHIR: CompanionCard(move=True, level=4, into_siege=True),
    SWIFTER: CompanionCard(move=True, extra=2, into_siege=True),
    BACK_AGAIN: CompanionCard(extra=1),
}


def companion_card(state: WotrState, card_id: str) -> None:
    """Push the card's choice of a group (data: card id, mode, group)."""
    state.stack.append(Choose(FREE_PEOPLES, "companion-card", (card_id, "", ())))


def _can_move(state: WotrState, c: int) -> bool:
    return not state.char_in_box[c]


def _group_options(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    card_id, mode, group = frame.data
    spec = CARD_MOVES[card_id]
    separating = state.mordor_step == OFF_MORDOR
    if not group:
        out = [c for c in companions_in_fellowship(state)] if separating else []
        if spec.move:
            out += [c for c in companions_on_map(state) if _can_move(state, c)]
        return tuple(("character", c) for c in out)
    if mode == "separate":
        more = [c for c in companions_in_fellowship(state) if c not in group]
    else:
        here = state.char_at[group[0]]
        more = [c for c in companions_on_map(state)
                if c not in group and state.char_at[c] == here and _can_move(state, c)]
    return (DONE, *(("character", c) for c in more))


@choice_step("companion-card", _group_options)
def _group_pick(state: WotrState, frame: Choose, action: Action) -> None:
    card_id, mode, group = frame.data
    if action != DONE:
        c = action[1]
        mode = mode or ("separate" if c in companions_in_fellowship(state) else "move")
        state.stack.append(Choose(FREE_PEOPLES, "companion-card",
                                  (card_id, mode, (*group, c))))
        return
    spec = CARD_MOVES[card_id]
    level = spec.level or group_level(state, group)
    if mode == "move":
        state.stack.append(CardPlace(group, int(state.char_at[group[0]]), level + spec.extra,
                                     spec.into_siege, WD.MOVE_COMPANIONS))
        return
    reach = state.progress + level + spec.extra
    separate_companions(state, group, move=False)
    top = state.stack[-1]
    if isinstance(top, PlaceSeparated) and not state.char_in_box[group[0]]:
        state.stack[-1] = CardPlace(group, state.fellowship_region, reach, spec.into_siege,
                                    WD.SEPARATE_COMPANIONS)


@dataclass
class CardPlace(Frame):
    """WD-22 / WD-23: where a card's group ends, up to ``reach`` regions from ``start``
    (staying is allowed); with ``into_siege`` a Stronghold of the Free Peoples besieged by the
    Shadow takes it into its box."""

    group: tuple[int, ...]
    start: int
    reach: int
    into_siege: bool
    kind: WD

    def run(self, state: WotrState) -> Decision:
        ends = [self.start, *companion_destinations(state, self.start, self.reach)]
        return Decision(FREE_PEOPLES, self.kind, tuple(("region", r) for r in ends),
                        context={"group": self.group})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        to = action[1]
        if to == self.start:  # staying: a separated group stands in the Fellowship's region
            if self.kind == WD.SEPARATE_COMPANIONS:
                arrive(state, self.group, to)
            return
        inside = self.into_siege and besieged_by(state, to, SHADOW) \
            and state.control[to] == FREE_PEOPLES
        for c in self.group:
            state.char_at[c] = to
            state.char_in_box[c] = inside
        log(state, "companions-move", self.group, to)
        arrive(state, self.group, to)


def companions_in_fellowship_now(state: WotrState, side: int) -> bool:
    return bool(companions_in_fellowship(state))


@event(GO_ALONE, companions_in_fellowship_now)
def i_will_go_alone(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Then("heal", side, (1,)))
    companion_card(state, GO_ALONE)


@event(GWAIHIR)
def gwaihir(state: WotrState, side: int, card: int) -> None:
    companion_card(state, GWAIHIR)


@event(SWIFTER)
def we_prove_the_swifter(state: WotrState, side: int, card: int) -> None:
    companion_card(state, SWIFTER)


@event(BACK_AGAIN)
def there_and_back_again(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Then("back-again", side))
    companion_card(state, BACK_AGAIN)


def _heal(state: WotrState, side: int, data: tuple[Any, ...]) -> None:
    add_corruption(state, -data[0])


def _back_again(state: WotrState, side: int, data: tuple[Any, ...]) -> None:
    cards = state.ruleset.cards
    places = {region(state, r) for r in ("dale", "erebor", "woodland-realm")}
    if not any(state.char_at[cards.character(c)] in places for c in ("gimli", "legolas")):
        return
    for n in ("dwarves", "the-north"):
        activate(state, nation(state, n))
    for n in ("dwarves", "elves", "the-north"):
        advance(state, nation(state, n))


THEN["heal"] = _heal
THEN["back-again"] = _back_again


__all__ = ["CARD_MOVES", "THEN", "CardPlace", "CompanionCard", "Then", "companion_card",
           "companions_on_map", "king", "with_fp_army"]
