"""A Hunt tile drawn and applied (facts §7.8 steps 3-5, §4.1, §4.2, §7.9, §7.11).

:class:`DrawTile` draws one tile "as for a successful Hunt" (after a Hunt roll, a Mordor move,
a Shadow Stronghold on a reveal path, or a card) and :class:`ResolveTile` applies it in the
rulebook's order: the tile's value; one FP table card (WD-25); the Guide's ability (WD-26:
Meriadoc or Peregrin separates for -1, Gollum reveals for -1); one casualty (WD-27: the Guide or
a random Companion, damage minus his Level); the rest as Corruption; the reveal last; on the
Mordor Track then the step forward unless the tile shows Stop.

The pool: a drawn standard tile waits in ``hunt_drawn`` until the pool is empty, when every
standard tile not removed for good comes back; a drawn special tile is out for good
(``hunt_removed``, facts §7.8 step 5).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from boardkit.frames import Frame

from .companions import HOBBITS, eliminate_companion, separate_companions
from .decision import WD, Action, Decision, choice
from .fellowship import companions_in_fellowship, reveal
from .hunt_cards import HuntDraw, hunt_card_options, use_hunt_card
from .state import FREE_PEOPLES, IN_FELLOWSHIP, SHADOW, WotrState, log
from .victory import MORDOR_STEPS, add_corruption, reach_crack_of_doom

# Called as ``hook(state, companion)`` after a Companion of the Fellowship is taken as a Hunt
# casualty (a card's module appends: *Worn with Sorrow and Toil*).
CASUALTY_HOOKS: list[Callable[[WotrState, int], None]] = []


def refill_pool(state: WotrState) -> None:
    """The pool is empty: the drawn standard tiles go back into it (facts §7.8 step 5)."""
    state.hunt_pool.extend(state.hunt_drawn)
    state.hunt_drawn = []
    log(state, "hunt-pool-refilled", len(state.hunt_pool))


def draw_tile(state: WotrState) -> int | None:
    """A tile drawn at random from the pool (None if no tile is left anywhere)."""
    if not state.hunt_pool:
        refill_pool(state)
    if not state.hunt_pool:
        return None
    tile = state.hunt_pool.pop(state.chance.pick_tile(state.hunt_pool))
    special = state.ruleset.cards.tiles[tile].special
    (state.hunt_removed if special else state.hunt_drawn).append(tile)
    if not state.hunt_pool:
        refill_pool(state)
    return tile


def return_tile(state: WotrState, tile: int) -> None:
    """A drawn tile goes back into the pool (*Mithril Coat and Sting*, *Challenge of the King*)."""
    for pile in (state.hunt_drawn, state.hunt_removed):
        if tile in pile:
            pile.remove(tile)
    state.hunt_pool.append(tile)


def tile_value(state: WotrState, tile: int, eye: int) -> int:
    """The tile's Hunt damage: its number; an Eye worth ``eye``; Shelob's Lair one die the
    Shadow rolls (facts §4.1, §4.2); negative for the FP tiles that heal."""
    cards = state.ruleset.cards
    if cards.tile_eye[tile]:
        return eye
    if cards.tile_die[tile]:
        return state.chance.roll(SHADOW, 1)[0]
    return int(cards.tile_damage[tile])


def gollum_guides(state: WotrState) -> bool:
    gollum = state.ruleset.cards.character("gollum")
    return state.guide == gollum and state.char_at[gollum] == IN_FELLOWSHIP


def tile_reveals(state: WotrState, tile: int) -> bool:
    """The tile's Reveal icon counts: with Gollum as Guide a numbered standard tile does not
    reveal (facts §3.3)."""
    cards = state.ruleset.cards
    if not cards.tile_reveal[tile]:
        return False
    numbered = not cards.tiles[tile].special and not cards.tile_eye[tile]
    return not (numbered and gollum_guides(state))


def mordor_advance(state: WotrState, stop: bool) -> None:
    """A move on the Mordor Track ends: one step on unless a Stop tile was drawn; completing
    the last step reaches the Crack of Doom (facts §7.9, §4.3)."""
    if stop:
        log(state, "mordor-stop", state.mordor_step)
        return
    state.mordor_step += 1
    log(state, "mordor-step", state.mordor_step)
    if state.mordor_step >= MORDOR_STEPS:
        reach_crack_of_doom(state)


class TileDraw(Frame):
    """A Hunt tile about to be drawn, which the Free Peoples may first stop with a table card
    (WD-25 ``draw``: *Wizard's Staff*), asked once (the subclass's ``asked`` field). A subclass
    says which draw the card sees (:meth:`hunt_draw`), what the drawn tile does
    (:meth:`drawn`) and what a stopped draw or an empty pool leaves (:meth:`not_drawn`)."""

    asked: bool

    def hunt_draw(self) -> HuntDraw:
        return HuntDraw()

    def drawn(self, state: WotrState, tile: int) -> None:
        raise NotImplementedError

    def not_drawn(self, state: WotrState) -> None:
        """Nothing, unless the subclass says otherwise."""

    def run(self, state: WotrState) -> Decision | None:
        if not self.asked:
            self.asked = True
            options = hunt_card_options(state, "draw", self.hunt_draw())
            if options:
                return Decision(FREE_PEOPLES, WD.HUNT_TABLE_CARD, options,
                                context={"when": "draw"})
        state.stack.pop()
        tile = draw_tile(state)
        if tile is None:
            self.not_drawn(state)
        else:
            self.drawn(state, tile)
        return None

    def act(self, state: WotrState, action: Action) -> None:
        if use_hunt_card(state, action, self.hunt_draw()).cancelled:
            state.stack.pop()
            log(state, "hunt-draw-cancelled")
            self.not_drawn(state)


@dataclass
class DrawTile(TileDraw):
    """A tile drawn as for a successful Hunt, an Eye worth ``eye`` (:class:`TileDraw`).
    ``mordor_move``: the draw of a move on the Mordor Track, which ends with the step.
    ``can_reveal``: False where a card says the tile's Reveal icon is ignored."""

    eye: int
    mordor_move: bool = False
    can_reveal: bool = True
    asked: bool = False

    def hunt_draw(self) -> HuntDraw:
        return HuntDraw(eye=self.eye)

    def drawn(self, state: WotrState, tile: int) -> None:
        state.stack.append(ResolveTile(HuntDraw(tile=tile, eye=self.eye), self.mordor_move,
                                       self.can_reveal))

    def not_drawn(self, state: WotrState) -> None:
        if self.mordor_move:
            mordor_advance(state, stop=False)


@dataclass
class ResolveTile(Frame):
    """One tile applied, stage by stage (facts §7.8 step 4): value, cards, guide, casualty,
    guide again (a Guide appointed during the Hunt may use his ability at once), corruption,
    reveal, advance."""

    draw: HuntDraw
    mordor_move: bool = False
    can_reveal: bool = True
    stage: str = "value"
    cards_used: bool = False
    casualty_done: bool = False
    guides_used: tuple[int, ...] = ()
    gollum_revealed: bool = False

    def reveals(self, state: WotrState) -> bool:
        return self.gollum_revealed or tile_reveals(state, self.draw.tile)

    def guide_ability(self, state: WotrState) -> str | None:
        """The Guide's Hunt ability usable now: "separate" (a Hobbit), "reveal" (Gollum)."""
        guide = int(state.guide)
        if self.draw.damage < 1 or guide in self.guides_used \
                or state.char_at[guide] != IN_FELLOWSHIP:
            return None
        name = state.ruleset.cards.characters[guide].id
        if name in HOBBITS:
            return "separate"
        if name == "gollum" and not self.reveals(state) and not state.revealed:
            return "reveal"
        return None

    def run(self, state: WotrState) -> Decision | None:
        while True:
            if self.stage == "value":
                damage = tile_value(state, self.draw.tile, self.draw.eye)
                self.draw = replace(self.draw, damage=damage)
                log(state, "hunt-tile", self.draw.tile, damage)
                if damage < 0:
                    add_corruption(state, damage)
                    self.stage = "reveal"
                else:
                    self.stage = "cards"
            elif self.stage == "cards":
                self.stage = "guide"
                if not self.cards_used:
                    options = hunt_card_options(state, "damage", self.draw)
                    if options:
                        self.stage = "cards"
                        return Decision(FREE_PEOPLES, WD.HUNT_TABLE_CARD, options,
                                        context={"when": "damage", "damage": self.draw.damage})
            elif self.stage == "guide":
                ability = self.guide_ability(state)
                if ability is not None:
                    return Decision(FREE_PEOPLES, WD.HUNT_GUIDE_ABILITY,
                                    (choice("no"), choice("yes")),
                                    context={"ability": ability, "damage": self.draw.damage})
                self.stage = "corruption" if self.casualty_done else "casualty"
            elif self.stage == "casualty":
                self.casualty_done = True
                self.stage = "guide"
                companions = companions_in_fellowship(state)
                if self.draw.damage >= 1 and companions:
                    options = [choice("none"), choice("guide")]
                    if len(companions) > 1:
                        options.append(choice("random-companion"))
                    if state.guide not in companions:
                        options.remove(choice("guide"))
                    self.stage = "casualty"
                    return Decision(FREE_PEOPLES, WD.HUNT_CASUALTY, tuple(options),
                                    context={"damage": self.draw.damage})
            elif self.stage == "corruption":
                self.stage = "reveal"
                if self.draw.damage > 0:
                    add_corruption(state, self.draw.damage)
                    if state.over:
                        return None
            elif self.stage == "reveal":
                self.stage = "advance"
                if self.can_reveal and self.reveals(state) and not state.revealed:
                    reveal(state)
                    return None
            else:
                state.stack.pop()
                if self.mordor_move:
                    mordor_advance(state, bool(state.ruleset.cards.tile_stop[self.draw.tile]))
                return None

    def act(self, state: WotrState, action: Action) -> None:
        if self.stage == "cards":
            self.cards_used = True
            new = use_hunt_card(state, action, self.draw)
            self.stage = "value" if new.tile != self.draw.tile else "guide"
            self.draw = new
        elif self.stage == "guide":
            guide, ability = int(state.guide), self.guide_ability(state)
            self.guides_used = (*self.guides_used, guide)
            if action == choice("yes"):
                self.draw = replace(self.draw, damage=self.draw.damage - 1)
                log(state, "guide-ability", guide, ability)
                if ability == "reveal":
                    self.gollum_revealed = True
                else:
                    separate_companions(state, (guide,))
        else:  # casualty
            self.stage = "guide"
            if action == choice("none"):
                return
            companions = companions_in_fellowship(state)
            who = int(state.guide) if action == choice("guide") \
                else int(state.chance.pick_companion(companions))
            level = int(state.ruleset.cards.character_level[who])
            self.draw = replace(self.draw, damage=max(0, self.draw.damage - level))
            log(state, "hunt-casualty", who, level)
            eliminate_companion(state, who)
            for hook in CASUALTY_HOOKS:  # *Worn with Sorrow and Toil* (cards)
                hook(state, who)


__all__ = ["CASUALTY_HOOKS", "DrawTile", "ResolveTile", "draw_tile", "gollum_guides",
           "mordor_advance", "refill_pool", "return_tile", "tile_reveals", "tile_value"]
