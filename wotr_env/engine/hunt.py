"""Moving and hiding the Fellowship, and the Hunt a move calls (facts §7.6, §7.8, §7.9, §3.1;
spec §14, §18.C, §18.D).

A move (a Character die, a Will of the West die, or a card) adds one to Progress while the
Fellowship is Hidden, then the Shadow hunts: min(5, Hunt Level) dice, each a success on 6+ with
+1 for every Free Peoples die already in the Hunt Box, a natural 1 always failing; failed dice
are re-rolled once for each of a Shadow-controlled Stronghold, Shadow Army units, and Nazgûl in
the Fellowship's region; one success or more draws a tile (``hunt_tiles``). Only then does the
die go into the Hunt Box (so a move's own die never counts for its Hunt). On the Mordor Track a
move draws a tile without a roll and steps forward unless it shows Stop.

A reveal (:func:`.fellowship.reveal`) flips the Fellowship to Revealed and the Free Peoples
move the figure up to Progress regions, never ending in a Free Peoples City or Stronghold
they control (:class:`~.fellowship.FellowshipPath` mode "reveal"); each Shadow-controlled
Stronghold the path starts in, crosses or ends in draws one more tile, an Eye on it worth 0
(facts §7.6).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boardkit.frames import Frame

from ..data import NATIONS
from .companions import shadow_stronghold
from .decision import ARMY, ARMY_MUSTER, CHARACTER, EVENT, MUSTER, WD, WILL, Action, Decision
from .dice import die_action
from .fellowship import PATH_ENDS
from .hunt_cards import HuntDraw, hunt_card_options, use_hunt_card
from .hunt_tiles import DrawTile
from .regions import units
from .state import FREE_PEOPLES, NAZGUL, OFF_MORDOR, SHADOW, WotrState, log

HUNT_DICE_MAX = 5
SUCCESS = 6
SAURON = NATIONS.index("sauron")
# Table cards under which a die that moved the Fellowship stays out of the Hunt Box (*The Last
# Battle*): the card's module appends a test here.
HUNT_BOX_EXEMPT: list[Callable[[WotrState], bool]] = []


def hunt_level(state: WotrState) -> int:
    """Shadow dice in the Hunt Box: those allocated and every Eye rolled (facts §4.4)."""
    return int(state.hunt_box[0]) + int(state.hunt_box[1])


def rerolls(state: WotrState) -> int:
    """Re-rolls the Fellowship's region gives: a Shadow-controlled Stronghold, Shadow Army
    units (field or box), Nazgûl (the Witch-king is one), one each (facts §7.8 step 2)."""
    r = state.fellowship_region
    cards = state.ruleset.cards
    witch_king = cards.character("witch-king")
    nazgul = state.army[r, SAURON, NAZGUL] + state.box[r, SAURON, NAZGUL] > 0 \
        or state.char_at[witch_king] == r
    shadow_units = units(state, r, SHADOW) + units(state, r, SHADOW, box=True) > 0
    return int(shadow_stronghold(state, r)) + int(shadow_units) + int(nazgul)


# ---------------------------------------------------------------------------------------------
# Die actions


def move_legal(state: WotrState, side: int) -> bool:
    """A Hidden Fellowship moves; a Revealed one must be hidden first (facts §7.6, §7.9)."""
    return side == FREE_PEOPLES and not state.revealed


@die_action("move-fellowship", (CHARACTER,), move_legal)
def start_move(state: WotrState, side: int, face: int) -> None:
    move_fellowship(state)


def move_fellowship(state: WotrState, die: bool = True) -> None:
    """The Fellowship moves (facts §7.6): Progress +1 (on the Mordor Track, a tile and a step
    instead), then the Hunt, then (``die``: not for a card's move) the die into the Hunt Box."""
    state.fellowship_acted = True
    if die:
        state.stack.append(DieToHuntBox())
    if state.mordor_step != OFF_MORDOR:
        log(state, "fellowship-move-mordor", state.mordor_step)
        state.stack.append(DrawTile(int(state.hunt_box.sum()), mordor_move=True))
        return
    state.progress = min(state.progress + 1, state.ruleset.cards.tracks.fellowship_max)
    log(state, "fellowship-move", state.progress)
    state.stack.append(HuntRoll())


def hide_legal(state: WotrState, side: int, face: int) -> bool:
    """A Revealed Fellowship hides with a Character die (a Will of the West die being one);
    with Strider as Guide, with any die (facts §7.6, §3.1)."""
    if side != FREE_PEOPLES or not state.revealed:
        return False
    strider = state.ruleset.cards.character("strider")
    return face in (CHARACTER, WILL) or state.guide == strider


@die_action("hide", (CHARACTER, ARMY, MUSTER, ARMY_MUSTER, EVENT, WILL), hide_legal,
            per_face=True)
def start_hide(state: WotrState, side: int, face: int) -> None:
    hide(state)


def hide(state: WotrState) -> None:
    """Revealed becomes Hidden; no move, and no die goes into the Hunt Box (facts §7.6)."""
    state.revealed = False
    state.fellowship_acted = True
    log(state, "fellowship-hidden")


@dataclass
class DieToHuntBox(Frame):
    """The die that moved the Fellowship goes into the Hunt Box after the Hunt (facts §7.6)."""

    def run(self, state: WotrState) -> None:
        state.stack.pop()
        if not any(exempt(state) for exempt in HUNT_BOX_EXEMPT):
            state.hunt_box[2] += 1
        return None


@dataclass
class HuntRoll(Frame):
    """The Hunt roll (facts §7.8 steps 1-3), after the Shadow may use a table card (WD-25
    ``roll``): one success or more draws a tile, an Eye worth the successes."""

    asked: bool = False
    bonus: int = 0

    def run(self, state: WotrState) -> Decision | None:
        if not self.asked:
            self.asked = True
            options = hunt_card_options(state, "roll", HuntDraw(bonus=self.bonus))
            if options:
                return Decision(SHADOW, WD.HUNT_TABLE_CARD, options, context={"when": "roll"})
        state.stack.pop()
        bonus = int(state.hunt_box[2]) + self.bonus

        def success(d: int) -> bool:
            return d != 1 and d + bonus >= SUCCESS

        dice = state.chance.roll(SHADOW, min(HUNT_DICE_MAX, hunt_level(state)))
        failed = sum(not success(d) for d in dice)
        again = state.chance.roll(SHADOW, min(rerolls(state), failed))
        hits = sum(map(success, dice)) + sum(map(success, again))
        log(state, "hunt-roll", tuple(dice), tuple(again), hits)
        if hits:
            state.stack.append(DrawTile(hits))
        return None

    def act(self, state: WotrState, action: Action) -> None:
        self.bonus = use_hunt_card(state, action, HuntDraw(bonus=self.bonus)).bonus


# ---------------------------------------------------------------------------------------------
# Revealed


def end_reveal(state: WotrState, path: tuple[int, ...]) -> None:
    """One more tile, an Eye worth 0, for each Shadow-controlled Stronghold the reveal path
    started in, crossed or ended in, in the path's order (facts §7.6)."""
    strongholds = [r for i, r in enumerate(path)
                   if shadow_stronghold(state, r) and r not in path[:i]]
    for r in strongholds:
        log(state, "stronghold-tile", r)
    state.stack.extend(DrawTile(0) for _ in strongholds)


PATH_ENDS["reveal"] = end_reveal


__all__ = ["HUNT_BOX_EXEMPT", "DieToHuntBox", "HuntRoll", "end_reveal", "hide",
           "hunt_level", "move_fellowship", "rerolls"]
