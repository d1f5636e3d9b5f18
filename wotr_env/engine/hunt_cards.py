"""Table cards that act inside a Hunt (WD-25, facts §7.8 step 4.1): a registry the Event cards
fill, and the question the Hunt's frames ask from it.

The Hunt's frames know nothing of any card: a card that acts at one of the Hunt's moments
registers a :class:`HuntCard` under its id (``register_hunt_card``), and the frame offers it
(WD-25) when the card lies on the table, belongs to the side that acts at that moment, and its
``legal`` holds. **A table card that no module registered is never offered**: the Hunt then runs
as if the card were not on the table (the card's own module owns its text).

The moments, and who is asked:

* ``"roll"``: before the Hunt roll, the Shadow (*Flocks of Crebain*: ``bonus`` +1);
* ``"draw"``: after a successful roll, before the tile is drawn, the Free Peoples (*Wizard's
  Staff*: ``cancelled``); the same moment comes before a Mordor draw and a Stronghold tile;
* ``"damage"``: once a tile's damage is known (step 4.1), the Free Peoples, **one** card per
  tile (*Mithril Coat and Sting*: a new ``tile``; *Axe and Bow*, *Horn of Gondor*: ``damage``
  - 1).

``use(state, card, draw)`` discards the card where its text says so and returns the changed
:class:`HuntDraw`; a new ``tile`` is valued afresh by the frame (a drawn Eye worth ``eye``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .decision import Action, choice
from .state import FREE_PEOPLES, SHADOW, WotrState

WHEN_SIDE = {"roll": SHADOW, "draw": FREE_PEOPLES, "damage": FREE_PEOPLES}


@dataclass(frozen=True)
class HuntDraw:
    """What a table card sees of the Hunt and may change (immutable: frames hold it)."""

    tile: int = -1  # the tile drawn (-1 before the draw)
    eye: int = 0  # what an Eye tile is worth here (successes; 0; the Mordor Hunt Box)
    damage: int = 0  # the tile's value once known
    bonus: int = 0  # added to every Hunt die, re-rolls included
    cancelled: bool = False  # no tile is drawn


@dataclass(frozen=True)
class HuntCard:
    """A table card's part in the Hunt: at moment ``when``, usable while ``legal``."""

    when: str  # "roll" | "draw" | "damage"
    legal: Callable[[WotrState, HuntDraw], bool]
    use: Callable[[WotrState, int, HuntDraw], HuntDraw]


HUNT_CARDS: dict[str, HuntCard] = {}


def register_hunt_card(card_id: str, hook: HuntCard) -> None:
    """Register the Hunt part of the table card ``card_id`` (an Event card id)."""
    if hook.when not in WHEN_SIDE:
        raise ValueError(f"{card_id}: unknown Hunt moment {hook.when!r}")
    if card_id in HUNT_CARDS:
        raise ValueError(f"Hunt card {card_id!r} registered twice")
    HUNT_CARDS[card_id] = hook


def hunt_card_options(state: WotrState, when: str, draw: HuntDraw) -> tuple[Action, ...]:
    """The WD-25 options at moment ``when``: each usable table card, then "no"; () if none."""
    cards = state.ruleset.cards
    side = WHEN_SIDE[when]
    usable = []
    for c in sorted(set(state.table)):
        hook = HUNT_CARDS.get(cards.events[c].id)
        if hook is not None and hook.when == when and int(cards.event_deck[c]) // 2 == side \
                and hook.legal(state, draw):
            usable.append(("card", c))
    return (*usable, choice("no")) if usable else ()


def use_hunt_card(state: WotrState, action: Action, draw: HuntDraw) -> HuntDraw:
    """Play the WD-25 answer ``action``: the card's ``use``, or the draw unchanged for "no"."""
    if action == choice("no"):
        return draw
    c = action[1]
    return HUNT_CARDS[state.ruleset.cards.events[c].id].use(state, c, draw)


__all__ = ["HUNT_CARDS", "WHEN_SIDE", "HuntCard", "HuntDraw", "hunt_card_options",
           "register_hunt_card", "use_hunt_card"]
