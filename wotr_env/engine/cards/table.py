"""Event cards on the table (spec §7.5, facts §6 "card rules"): which are in play, and how each
leaves it.

A table card stays in ``state.table`` until its discard condition; then it goes to its owner's
face-up discard pile. Three ways, each registered by the card's module:

* its play condition stops being true (:func:`discard_when_lapsed`): it is discarded at once.
  The card's effects test the condition live (:func:`in_force`), so nothing of the card acts
  after that moment; the pile itself is tidied before each die is chosen in Action Resolution
  (``turn.resolution.ACTION_HOOKS``), the next moment a player could act on it;
* an event its text names (:func:`discard_when`): the Fellowship ``"declared"`` (region),
  ``"revealed"``, an FP nation ``"advanced"`` (nation, cause), from the hooks of
  ``fellowship.py``, ``hunt.py`` and ``politics.py``;
* a die (and whatever else its text asks) spent by a side (:func:`discard_with_die`): the die
  action ``discard-table-card`` (spec §7.5: discarding a card by spending a die is an action),
  which offers every table card the side may end with that die's face.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..decision import ARMY, ARMY_MUSTER, CHARACTER, EVENT, MUSTER, WILL, Action
from ..dice import die_action
from ..fellowship import DECLARE_HOOKS, REVEAL_HOOKS
from ..politics import ADVANCE_HOOKS
from ..state import FREE_PEOPLES, SHADOW, WotrState, log
from ..turn.resolution import ACTION_HOOKS
from .common import Choose, choice_step

StillHolds = Callable[[WotrState], bool]
LAPSES: dict[str, StillHolds] = {}  # card id -> its play condition, tested live
EVENT_DISCARDS: dict[str, list[tuple[str, Callable[..., bool]]]] = {}  # event -> (card, test)


@dataclass(frozen=True)
class DieDiscard:
    """A side may end the card with a die of a face ``pays(state, face)`` accepts; ``cost``
    (a registered card choice step) is what else it spends, asked after the card goes."""

    side: int
    pays: Callable[[WotrState, int], bool]
    cost: str | None = None


DIE_DISCARDS: dict[str, DieDiscard] = {}


def card_index(state: WotrState, card_id: str) -> int:
    return state.ruleset.cards.card(card_id)


def on_table(state: WotrState, card_id: str) -> bool:
    return card_index(state, card_id) in state.table


def in_force(state: WotrState, card_id: str) -> bool:
    """The card is on the table and its play condition (if any) still holds."""
    holds = LAPSES.get(card_id)
    return on_table(state, card_id) and (holds is None or holds(state))


def discard_from_table(state: WotrState, card_id: str) -> None:
    """The card leaves the table for its owner's discard pile (face up)."""
    c = card_index(state, card_id)
    if c not in state.table:
        return
    side = FREE_PEOPLES if state.ruleset.cards.events[c].side == "free_peoples" else SHADOW
    state.table.remove(c)
    state.discards[side].append(c)
    log(state, "table-discard", side, c)


def discard_card(state: WotrState, card: int) -> None:
    """:func:`discard_from_table` for a card given by its index."""
    discard_from_table(state, state.ruleset.cards.events[card].id)


def discard_when_lapsed(card_id: str, still_holds: StillHolds) -> None:
    """The card goes as soon as ``still_holds(state)`` (its play condition) is False."""
    LAPSES[card_id] = still_holds


def discard_when(event: str, card_id: str,
                 test: Callable[..., bool] = lambda state, *args: True) -> None:
    """The card goes when ``event`` happens and ``test(state, *event args)`` holds."""
    EVENT_DISCARDS.setdefault(event, []).append((card_id, test))


def fire(state: WotrState, event: str, *args: object) -> None:
    for card_id, test in EVENT_DISCARDS.get(event, ()):
        if on_table(state, card_id) and test(state, *args):
            discard_from_table(state, card_id)


def sweep(state: WotrState) -> None:
    """Discard every table card whose play condition no longer holds."""
    for card_id, holds in LAPSES.items():
        if on_table(state, card_id) and not holds(state):
            discard_from_table(state, card_id)


ACTION_HOOKS.append(sweep)
DECLARE_HOOKS.append(lambda state, region: fire(state, "declared", region))
REVEAL_HOOKS.append(lambda state: fire(state, "revealed"))
ADVANCE_HOOKS.append(lambda state, nation, cause: fire(state, "advanced", nation, cause))


# ---------------------------------------------------------------------------------------------
# Ending a table card with a die


def discard_with_die(card_id: str, side: int, pays: Callable[[WotrState, int], bool],
                     cost: str | None = None) -> None:
    """``side`` may end the card with a die of a face ``pays`` accepts, then pays ``cost``."""
    DIE_DISCARDS[card_id] = DieDiscard(side, pays, cost)


def endable(state: WotrState, side: int, face: int) -> list[int]:
    """The table cards ``side`` may end now with a die of ``face``."""
    cards = state.ruleset.cards
    return [c for c in sorted(state.table)
            if (rule := DIE_DISCARDS.get(cards.events[c].id)) is not None
            and rule.side == side and rule.pays(state, face)]


@die_action("discard-table-card", (CHARACTER, ARMY, MUSTER, ARMY_MUSTER, EVENT, WILL),
            lambda state, side, face: bool(endable(state, side, face)), per_face=True)
def start_discard(state: WotrState, side: int, face: int) -> None:
    state.stack.append(Choose(side, "discard-table-card", (face,)))


@choice_step("discard-table-card", lambda state, frame: tuple(
    ("card", c) for c in endable(state, frame.side, frame.data[0])), private=True)
def _discard_chosen(state: WotrState, frame: Choose, action: Action) -> None:
    card_id = state.ruleset.cards.events[action[1]].id
    discard_from_table(state, card_id)
    cost = DIE_DISCARDS[card_id].cost
    if cost is not None:
        state.stack.append(Choose(frame.side, cost))


__all__ = ["DIE_DISCARDS", "LAPSES", "discard_card", "discard_from_table", "discard_when",
           "discard_when_lapsed", "discard_with_die", "endable", "fire", "in_force", "on_table",
           "sweep"]
