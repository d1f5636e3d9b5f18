"""The Free Peoples Character deck's table cards (facts §6.2 #5-#8): their part in the Hunt
(WD-25, through ``hunt_cards.register_hunt_card``) and their discard conditions.

* *Mithril Coat and Sting* (#5): once a tile is drawn, discard it to draw a second tile; the
  second is applied, the first goes back into the pool (``"damage"`` moment: offered for any
  tile the Hunt applies, since a second draw may even heal on the Mordor Track).
* *Axe and Bow* (#6), *Horn of Gondor* (#7): discard to lower the tile's damage by 1, never
  below 0 (offered only when the damage is 1 or more: below that it would do nothing).
* *Wizard's Staff* (#8): discard to stop the tile's draw (``"draw"`` moment).

Cards #6-#8 may be played only while their Companion (Gimli or Legolas; Boromir; Gandalf the
Grey) is in the Fellowship, and go to the discard pile at once when he (both, for #6) has left
it: a table card whose play condition stops being true is discarded at once (facts §6 "card
rules"). The condition is registered with ``table.discard_when_lapsed`` (so that its Hunt use
tests it live, ``table.in_force``), and the table is swept after every change of the
Fellowship's make-up (``companions.FELLOWSHIP_CHANGED``), which is when it can lapse.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..companions import FELLOWSHIP_CHANGED
from ..events import event
from ..hunt_cards import HuntCard, HuntDraw, register_hunt_card
from ..hunt_tiles import draw_tile, return_tile
from ..state import IN_FELLOWSHIP, WotrState, log
from .table import discard_from_table, discard_when_lapsed, in_force, sweep

MITHRIL = "fp-char-05-mithril-coat-and-sting"
AXE_AND_BOW = "fp-char-06-axe-and-bow"
HORN = "fp-char-07-horn-of-gondor"
STAFF = "fp-char-08-wizards-staff"
# The table cards kept by a Companion in the Fellowship: card id -> any of these Companions.
KEEPERS: dict[str, tuple[str, ...]] = {
    AXE_AND_BOW: ("gimli", "legolas"),
    HORN: ("boromir",),
    STAFF: ("gandalf-the-grey",),
}


def in_fellowship(state: WotrState, character_id: str) -> bool:
    return bool(state.char_at[state.ruleset.cards.character(character_id)] == IN_FELLOWSHIP)


def kept(card_id: str) -> Callable[[WotrState], bool]:
    """The play condition of a table card kept by a Companion (its ``KEEPERS``)."""
    def still_holds(state: WotrState) -> bool:
        return any(in_fellowship(state, c) for c in KEEPERS[card_id])
    return still_holds


def _register(card_id: str) -> None:
    holds = kept(card_id)
    event(card_id, lambda state, side: holds(state))(lambda state, side, card: None)
    discard_when_lapsed(card_id, holds)


# The cards go to the table when played (``events.play_card``); their play does nothing more.
event(MITHRIL)(lambda state, side, card: None)
for _card_id in KEEPERS:
    _register(_card_id)
FELLOWSHIP_CHANGED.append(sweep)


def _used(state: WotrState, card: int) -> None:
    """A card discarded to act in the Hunt."""
    discard_from_table(state, state.ruleset.cards.events[card].id)


def _mithril(state: WotrState, card: int, draw: HuntDraw) -> HuntDraw:
    """A second tile replaces the first, which goes back into the pool."""
    _used(state, card)
    second = draw_tile(state)
    if second is None:
        return draw
    if draw.tile not in state.hunt_pool:
        return_tile(state, draw.tile)
    log(state, "hunt-tile-replaced", draw.tile, second)
    return replace(draw, tile=second)


def _lower_damage(state: WotrState, card: int, draw: HuntDraw) -> HuntDraw:
    _used(state, card)
    return replace(draw, damage=max(0, draw.damage - 1))


def _stop_draw(state: WotrState, card: int, draw: HuntDraw) -> HuntDraw:
    _used(state, card)
    return replace(draw, cancelled=True)


def _live(card_id: str,
          test: Callable[[HuntDraw], bool]) -> Callable[[WotrState, HuntDraw], bool]:
    return lambda state, draw: in_force(state, card_id) and test(draw)


register_hunt_card(MITHRIL, HuntCard("damage", _live(MITHRIL, lambda d: d.tile >= 0), _mithril))
for _card_id in (AXE_AND_BOW, HORN):
    register_hunt_card(_card_id, HuntCard("damage", _live(_card_id, lambda d: d.damage >= 1),
                                          _lower_damage))
register_hunt_card(STAFF, HuntCard("draw", _live(STAFF, lambda d: True), _stop_draw))


__all__ = ["AXE_AND_BOW", "HORN", "KEEPERS", "MITHRIL", "STAFF", "in_fellowship", "kept"]
