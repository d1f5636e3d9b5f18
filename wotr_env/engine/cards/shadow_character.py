"""Shadow Character deck (facts §6.4): every card C-icon.

This module holds the cards that act on the Fellowship, and :class:`CardTile`, the Hunt tile a
card draws; the cards that move the Nazgûl are in :mod:`.shadow_character_nazgul`, those that
strike Armies (#19, #20) in :mod:`.shadow_character_armies`, the table cards in
:mod:`.shadow_character_table` (all imported at the end).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boardkit.frames import Frame

from ...data import NATIONS
from ..companions import eliminate_companion, separate_companions
from ..decision import DONE, WD, Action, Decision, choice
from ..dice import spend_die
from ..events import event
from ..fellowship import companions_in_fellowship
from ..hunt_cards import HuntDraw, hunt_card_options, use_hunt_card
from ..hunt_tiles import CASUALTY_HOOKS, ResolveTile, draw_tile, tile_value
from ..state import FREE_PEOPLES, OFF_MORDOR, SHADOW, WotrState, log
from ..victory import add_corruption
from . import table
from .common import Choose, choice_step, guide_is, tile_into_play

SAURON = NATIONS.index("sauron")

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


def progress(state: WotrState, side: int) -> bool:
    return state.progress >= 1


def witch_king(state: WotrState) -> int:
    return state.ruleset.cards.character("witch-king")


def discard_from_table(state: WotrState, card: int) -> None:
    """A table card (by index) leaves the table for its owner's discard pile (face up)."""
    table.discard_from_table(state, state.ruleset.cards.events[card].id)


# ---------------------------------------------------------------------------------------------
# A Hunt tile drawn by a card (#5-#7, #14; #17 in the table module)

TileUse = Callable[[WotrState, int, "CardTile"], None]
TILE_USES: dict[str, TileUse] = {}


def no_effect(state: WotrState, tile: int, eye_only: bool = False) -> bool:
    """An Eye (worth 0 when a card draws it, facts §4.1), or a Free Peoples special tile."""
    cards = state.ruleset.cards
    return bool(cards.tile_eye[tile]) or (not eye_only
                                          and int(cards.tile_side[tile]) == FREE_PEOPLES)


@dataclass
class CardTile(Frame):
    """A Hunt tile a Shadow card draws: the Free Peoples may first stop the draw (WD-25
    "draw", *Wizard's Staff* stops the Shadow drawing any tile); an Eye, or a Free Peoples
    special tile (*Balrog of Moria*: an Eye only), is set aside without effect; any other tile
    is used as ``use`` names (:data:`TILE_USES`). ``can_reveal``: False where the card says the
    Reveal icon is ignored."""

    use: str
    can_reveal: bool = True
    asked: bool = False

    def run(self, state: WotrState) -> Decision | None:
        if not self.asked:
            self.asked = True
            options = hunt_card_options(state, "draw", HuntDraw())
            if options:
                return Decision(FREE_PEOPLES, WD.HUNT_TABLE_CARD, options,
                                context={"when": "draw"})
        state.stack.pop()
        tile = draw_tile(state)
        if tile is None:
            return None
        if no_effect(state, tile, eye_only=self.use == "balrog"):
            log(state, "card-tile-no-effect", tile)
            return None
        TILE_USES[self.use](state, tile, self)
        return None

    def act(self, state: WotrState, action: Action) -> None:
        if use_hunt_card(state, action, HuntDraw()).cancelled:
            state.stack.pop()
            log(state, "hunt-draw-cancelled")


def as_a_hunt(state: WotrState, tile: int, frame: CardTile) -> None:
    """The tile counts as a successful Hunt (facts §7.8 step 4), an Eye worth 0."""
    state.stack.append(ResolveTile(HuntDraw(tile=tile), can_reveal=frame.can_reveal))


def unreduced(state: WotrState, tile: int, frame: CardTile) -> None:
    """*Isildur's Bane*: no table card, Guide or casualty lowers the damage; the Ring takes
    it all, then the tile's Reveal icon acts."""
    damage = tile_value(state, tile, 0)
    log(state, "hunt-tile", tile, damage)
    state.stack.append(ResolveTile(HuntDraw(tile=tile, damage=damage), stage="corruption",
                                   casualty_done=True))


def companion_first(state: WotrState, tile: int, frame: CardTile) -> None:
    """*Foul Thing from the Deep*: damage takes a random Companion first (his Level off the
    damage, as a Hunt casualty), then the rest is Corruption; no other reduction."""
    damage = tile_value(state, tile, 0)
    log(state, "hunt-tile", tile, damage)
    companions = companions_in_fellowship(state)
    who = int(state.chance.pick_companion(companions)) if damage >= 1 and companions else -1
    if who >= 0:
        level = int(state.ruleset.cards.character_level[who])
        damage = max(0, damage - level)
        log(state, "hunt-casualty", who, level)
    state.stack.append(ResolveTile(HuntDraw(tile=tile, damage=damage), stage="corruption",
                                   casualty_done=True))
    if who >= 0:
        eliminate_companion(state, who)
        for hook in CASUALTY_HOOKS:
            hook(state, who)


def breaking(state: WotrState, tile: int, frame: CardTile) -> None:
    """*The Breaking of the Fellowship*: the Free Peoples separate as many Companions as the
    tile's number, placed in the Fellowship's region (no Reveal, no Stop)."""
    n = max(0, tile_value(state, tile, 0))
    log(state, "hunt-tile", tile, n)
    state.stack.append(Choose(FREE_PEOPLES, "breaking", (n, ())))


TILE_USES.update({"hunt": as_a_hunt, "balrog": as_a_hunt, "unreduced": unreduced,
                  "companion-first": companion_first, "breaking": breaking})


def _breaking_options(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    n, chosen = frame.data
    if len(chosen) >= n:
        return ()
    return tuple(("character", c) for c in companions_in_fellowship(state) if c not in chosen)


@choice_step("breaking", _breaking_options)
def _breaking_pick(state: WotrState, frame: Choose, action: Action) -> None:
    n, chosen = frame.data
    chosen = (*chosen, action[1])
    left = [c for c in companions_in_fellowship(state) if c not in chosen]
    if len(chosen) >= n or not left:
        separate_companions(state, chosen, move=False)
    else:
        state.stack.append(Choose(FREE_PEOPLES, "breaking", (n, chosen)))


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


from . import (  # noqa: E402, F401  (their cards register on import)
    shadow_character_armies,
    shadow_character_nazgul,
    shadow_character_table,
)
