"""The Hunt tile a Shadow Character card draws (facts §6.4 #5-#7, #14, #17): :class:`CardTile`,
and what the card does with the tile (:data:`TILE_USES`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..companions import eliminate_companion, separate_companions
from ..decision import Action
from ..fellowship import companions_in_fellowship
from ..hunt_cards import HuntDraw
from ..hunt_tiles import CASUALTY_HOOKS, ResolveTile, TileDraw, tile_value
from ..state import FREE_PEOPLES, WotrState, log
from .common import Choose, choice_step

TileUse = Callable[[WotrState, int, "CardTile"], None]
TILE_USES: dict[str, TileUse] = {}


def no_effect(state: WotrState, tile: int, eye_only: bool = False) -> bool:
    """An Eye (worth 0 when a card draws it, facts §4.1), or a Free Peoples special tile."""
    cards = state.ruleset.cards
    return bool(cards.tile_eye[tile]) or (not eye_only
                                          and int(cards.tile_side[tile]) == FREE_PEOPLES)


@dataclass
class CardTile(TileDraw):
    """A Hunt tile a Shadow card draws (:class:`TileDraw`: the Free Peoples may first stop the
    draw, WD-25 "draw"); an Eye, or a Free Peoples special tile (*Balrog of Moria*: an Eye
    only), is set aside without effect; any other tile is used as ``use`` names
    (:data:`TILE_USES`). ``can_reveal``: False where the card says the Reveal icon is ignored."""

    use: str
    can_reveal: bool = True
    asked: bool = False

    def drawn(self, state: WotrState, tile: int) -> None:
        if no_effect(state, tile, eye_only=self.use == "balrog"):
            log(state, "card-tile-no-effect", tile)
        else:
            TILE_USES[self.use](state, tile, self)


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


__all__ = ["TILE_USES", "CardTile", "no_effect"]
