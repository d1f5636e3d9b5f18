"""Shadow Character deck (facts §6.4): every card C-icon.

This module holds the cards that act on the Fellowship (the Hunt tile a card draws is
:class:`.card_tile.CardTile`); the cards that move the Nazgûl are in
:mod:`.shadow_character_nazgul`, those that strike Armies (#19, #20) in
:mod:`.shadow_character_armies`, the table cards in :mod:`.shadow_character_table`.
"""

from __future__ import annotations

from ..companions import eliminate_companion
from ..decision import DONE, Action, choice
from ..dice import spend_die
from ..events import event
from ..fellowship import companions_in_fellowship
from ..state import FREE_PEOPLES, OFF_MORDOR, SHADOW, WotrState, log
from ..victory import add_corruption
from .card_tile import CardTile
from .common import Choose, choice_step, guide_is, tile_into_play
from .conditions import progress

for _card in ("sh-char-01-shelobs-lair", "sh-char-02-the-ring-is-mine",
              "sh-char-03-on-on-they-went", "sh-char-04-give-it-to-uss"):
    event(_card)(lambda state, side, card: tile_into_play(state, card))


def not_at_fp_settlement(state: WotrState, side: int) -> bool:
    """The Fellowship is not in a region with a Free Peoples Settlement (cards #5-#8)."""
    if state.mordor_step != OFF_MORDOR:
        return True
    r = state.fellowship_region
    board = state.ruleset.board
    return not (0 <= board.settlement[r] <= 2 and board.region_side[r] == FREE_PEOPLES)


def revealed(state: WotrState, side: int) -> bool:
    return state.revealed


@event("sh-char-05-orc-patrol", not_at_fp_settlement)
def orc_patrol(state: WotrState, side: int, card: int) -> None:
    state.stack.append(CardTile("hunt"))


@event("sh-char-06-isildurs-bane", not_at_fp_settlement)
def isildurs_bane(state: WotrState, side: int, card: int) -> None:
    state.stack.append(CardTile("unreduced"))


@event("sh-char-07-foul-thing-from-the-deep", not_at_fp_settlement)
def foul_thing_from_the_deep(state: WotrState, side: int, card: int) -> None:
    state.stack.append(CardTile("companion-first"))


@event("sh-char-14-the-breaking-of-the-fellowship", revealed)
def the_breaking_of_the_fellowship(state: WotrState, side: int, card: int) -> None:
    """A tile's number of Companions separate; with Gollum as Guide +1 Corruption instead."""
    if guide_is(state, "gollum"):
        add_corruption(state, 1)
    else:
        state.stack.append(CardTile("breaking", can_reveal=False))


# ---------------------------------------------------------------------------------------------
# The Fellowship's own cards


@event("sh-char-08-candles-of-corpses", not_at_fp_settlement)
def candles_of_corpses(state: WotrState, side: int, card: int) -> None:
    """Roll 3 dice; +1 Corruption per 4+ (per 6 with Gollum as Guide)."""
    need = 6 if guide_is(state, "gollum") else 4
    add_corruption(state, sum(r >= need for r in state.chance.roll(side, 3)))


@event("sh-char-10-cruel-weather", lambda s, side: progress(s, side) and s.mordor_step < 0)
def cruel_weather(state: WotrState, side: int, card: int) -> None:
    """The Shadow moves the Fellowship to an adjacent region."""
    state.stack.append(Choose(side, "cruel-weather"))


@choice_step("cruel-weather", lambda state, frame: tuple(
    ("region", int(r)) for r in state.ruleset.board.neighbours[state.fellowship_region]))
def _cruel_weather_region(state: WotrState, frame: Choose, action: Action) -> None:
    state.fellowship_region = action[1]


@event("sh-char-12-morgul-wound", revealed)
def morgul_wound(state: WotrState, side: int, card: int) -> None:
    """+2 Corruption if it is 3 or less, else +1."""
    add_corruption(state, 2 if state.corruption <= 3 else 1)


@event("sh-char-13-lure-of-the-ring", revealed)
def lure_of_the_ring(state: WotrState, side: int, card: int) -> None:
    """A random Companion: the Free Peoples add his Level in Corruption or eliminate him; with
    Gollum as Guide +1 Corruption instead."""
    companions = companions_in_fellowship(state)
    if guide_is(state, "gollum") or not companions:
        add_corruption(state, 1)
        return
    who = int(state.chance.pick_companion(companions))
    log(state, "lure-of-the-ring", who)
    state.stack.append(Choose(FREE_PEOPLES, "lure-of-the-ring", (who,)))


@choice_step("lure-of-the-ring", lambda state, frame: (choice("corruption"), choice("eliminate")))
def _lure(state: WotrState, frame: Choose, action: Action) -> None:
    who = frame.data[0]
    if action == choice("eliminate"):
        eliminate_companion(state, who)
    else:
        add_corruption(state, int(state.ruleset.cards.character_level[who]))


@event("sh-char-18-the-lidless-eye")
def the_lidless_eye(state: WotrState, side: int, card: int) -> None:
    """Up to 3 unused Shadow dice become Eyes and go into the Hunt Box at once."""
    state.stack.append(Choose(side, "lidless-eye", (0,)))


def _lidless_options(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    if frame.data[0] >= 3:
        return ()
    faces = sorted({int(f) for f in state.dice[SHADOW] if f >= 0})
    return (DONE, *(("die", f) for f in faces)) if faces else ()


@choice_step("lidless-eye", _lidless_options)
def _lidless_die(state: WotrState, frame: Choose, action: Action) -> None:
    if action == DONE:
        return
    spend_die(state, SHADOW, action[1])
    state.hunt_box[1] += 1
    state.stack.append(Choose(SHADOW, "lidless-eye", (frame.data[0] + 1,)))

