"""Free Peoples Character cards that strike Shadow Armies (facts §6.2 #18-#22).

* *The Eagles are Coming!* (#18): with a Free Peoples Army holding a Companion in, or next to,
  the region of a Shadow Army with Nazgûl (the Witch-king is no Nazgûl here), roll one die per
  Nazgûl there (at most 5); each 5+ eliminates one; the Shadow flies the others at once to one
  unconquered Sauron Stronghold.
* *The Ents Awake* (#19-#21, one text in 2e): with Gandalf the White in play and a Companion
  in Fangorn, 3 dice, each 4+ a hit on the Shadow Army in Orthanc (``hits.card_hits`` with its
  Nazgûl and Minions dying if it dies); with no Shadow Army there, Saruman in Orthanc is
  eliminated; then, if Gandalf the White is in Fangorn or a Rohan region, the Free Peoples may
  play one more Character card without a die.
* *Dead Men of Dunharrow* (#22): Strider/Aragorn in a Rohan region goes with every Companion in
  his region to Erech, Lamedon or Pelargir; a Shadow Army there takes one die's worth of hits
  and must retreat, or is destroyed with its Nazgûl and Minions; then up to 3 Gondor Regulars
  are recruited there, control taken back if need be.

The Ents and the Dead Men act as an attack on the Army they strike: its nations are activated
and advance one step (facts §6 card rules, §7.5).

Readings: the player whose card it is rolls its dice; a Shadow Army is one with units (Nazgûl
alone are none); the Eagles' Nazgûl fly to a Sauron Stronghold the Shadow controls and the Free
Peoples do not besiege, and stay where they are if there is none; the Dead Men's die is rolled
only when a Shadow Army is there; when its hits leave no Shadow unit there, nothing retreats
(the Nazgûl and Minions left stay, as after any card's hits); the retreat is the Shadow's
choice of an adjacent region free for him, Nazgûl and moving Minions going along; the Ents'
dice are rolled only when a Shadow Army is in Orthanc.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from boardkit.frames import Frame

from ..armies import check_stacking, move_figures
from ..battle.forces import characters_at, eliminate_character
from ..companions import arrive
from ..decision import CHARACTER, WD, Action, Decision, choice
from ..events import event, play_card, playable
from ..hunt import SAURON
from ..politics import attacked
from ..regions import NATIONS_OF, STRONGHOLD, besieged, capture, free, nations_in, units
from ..regions import remove_figures as remove
from ..state import ELITE, FREE_PEOPLES, NAZGUL, REGULAR, SHADOW, WotrState, log
from .common import Choose, choice_step, nation, region
from .fp_character_moves import THEN, Then, companions_on_map, king
from .hits import card_hits
from .recruit import recruit

EAGLES = "fp-char-18-the-eagles-are-coming"
ENTS = ("fp-char-19-the-ents-awake-treebeard", "fp-char-20-the-ents-awake-huorns",
        "fp-char-21-the-ents-awake-entmoot")
DEAD_MEN = "fp-char-22-dead-men-of-dunharrow"
DEAD_MEN_PLACES = ("erech", "lamedon", "pelargir")
MAX_DICE = 5


def shadow_place(state: WotrState, r: int) -> bool | None:
    """Where the Shadow Army in region ``r`` stands: False its field, True its Stronghold box,
    None if the Shadow has no unit there."""
    for box in (False, True):
        if units(state, r, SHADOW, box):
            return box
    return None


# -- The Eagles are Coming! --------------------------------------------------------------------


def eagles_targets(state: WotrState) -> list[int]:
    """Regions of a Shadow Army with Nazgûl that an FP Army with a Companion is in or next to."""
    board = state.ruleset.board
    near: set[int] = set()
    for c in companions_on_map(state):
        r = int(state.char_at[c])
        if units(state, r, FREE_PEOPLES, bool(state.char_in_box[c])):
            near.add(r)
            near.update(int(n) for n in board.neighbours[r])
    out = []
    for r in sorted(near):
        box = shadow_place(state, r)
        if box is not None and (state.box if box else state.army)[r, SAURON, NAZGUL]:
            out.append(r)
    return out


@event(EAGLES, lambda state, side: bool(eagles_targets(state)))
def the_eagles_are_coming(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "eagles", ()))


@choice_step("eagles", lambda state, frame: tuple(("region", r) for r in eagles_targets(state)))
def _eagles_strike(state: WotrState, frame: Choose, action: Action) -> None:
    r = action[1]
    box = bool(shadow_place(state, r))
    grid = state.box if box else state.army
    rolls = state.chance.roll(frame.side, min(MAX_DICE, int(grid[r, SAURON, NAZGUL])))
    killed = sum(d >= 5 for d in rolls)
    if killed:
        remove(state, r, SAURON, NAZGUL, killed, box)
    log(state, "eagles", r, tuple(rolls), killed)
    if grid[r, SAURON, NAZGUL]:
        state.stack.append(Choose(SHADOW, "eagles-flight", (r, box)))


def _flight_options(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    board = state.ruleset.board
    return tuple(("region", s) for s in range(len(board.regions))
                 if board.region_nation[s] == SAURON and board.settlement[s] == STRONGHOLD
                 and state.control[s] == SHADOW and not besieged(state, s))


@choice_step("eagles-flight", _flight_options)
def _eagles_flight(state: WotrState, frame: Choose, action: Action) -> None:
    r, box = frame.data
    grid = state.box if box else state.army
    n = int(grid[r, SAURON, NAZGUL])
    grid[r, SAURON, NAZGUL] = 0
    state.army[action[1], SAURON, NAZGUL] += n
    log(state, "nazgul-flight", r, action[1], n)


# -- The Ents Awake ----------------------------------------------------------------------------


def ents_condition(state: WotrState, side: int) -> bool:
    cards = state.ruleset.cards
    fangorn = region(state, "fangorn")
    return bool(state.char_at[cards.character("gandalf-the-white")] >= 0) and any(
        state.char_at[c] == fangorn for c in companions_on_map(state))


def the_ents_awake(state: WotrState, side: int, card: int) -> None:
    orthanc = region(state, "orthanc")
    state.stack.append(Then("ents-extra-card", side))
    box = shadow_place(state, orthanc)
    if box is None:
        saruman = state.ruleset.cards.character("saruman")
        if state.char_at[saruman] == orthanc:
            eliminate_character(state, saruman)
        return
    attacked(state, nations_in(state, orthanc, SHADOW, box))
    rolls = state.chance.roll(side, 3)
    log(state, "ents", tuple(rolls))
    card_hits(state, SHADOW, orthanc, sum(d >= 4 for d in rolls), box, followers=True)


for _card_id in ENTS:
    event(_card_id, ents_condition)(the_ents_awake)


def _ents_extra(state: WotrState, side: int, data: tuple[Any, ...]) -> None:
    board = state.ruleset.board
    white = int(state.char_at[state.ruleset.cards.character("gandalf-the-white")])
    if white >= 0 and (white == region(state, "fangorn")
                       or board.region_nation[white] == nation(state, "rohan")):
        state.stack.append(ExtraCharacterCard())


THEN["ents-extra-card"] = _ents_extra


@dataclass
class ExtraCharacterCard(Frame):
    """WD-32: the Free Peoples may play one more Character card without a die (no Guide draw:
    no Event die is used), or decline. Asked even with no playable card (private: the Shadow
    must not learn from the question whether they hold one)."""

    def run(self, state: WotrState) -> Decision | None:
        cards = playable(state, FREE_PEOPLES, CHARACTER)
        return Decision(FREE_PEOPLES, WD.PLAY_EVENT,
                        (choice("no"), *(("card", c) for c in cards)), private=True,
                        context={"die": None})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        if action != choice("no"):
            play_card(state, FREE_PEOPLES, action[1])


# -- Dead Men of Dunharrow ---------------------------------------------------------------------


def dead_men_condition(state: WotrState, side: int) -> bool:
    k = king(state)
    return k is not None and bool(
        state.ruleset.board.region_nation[state.char_at[k]] == nation(state, "rohan"))


@event(DEAD_MEN, dead_men_condition)
def dead_men_of_dunharrow(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "dead-men", ()))


@choice_step("dead-men", lambda state, frame: tuple(
    ("region", region(state, r)) for r in DEAD_MEN_PLACES))
def _dead_men_go(state: WotrState, frame: Choose, action: Action) -> None:
    to, k = action[1], king(state)
    assert k is not None
    here = int(state.char_at[k])
    group = tuple(c for c in companions_on_map(state) if state.char_at[c] == here)
    for c in group:
        state.char_at[c] = to
        state.char_in_box[c] = False
    log(state, "companions-move", group, to)
    arrive(state, group, to)
    state.stack.append(Then("dead-men-recruit", frame.side, (to,)))
    if units(state, to, SHADOW):
        state.stack.append(Then("dead-men-retreat", frame.side, (to,)))
        attacked(state, nations_in(state, to, SHADOW))
        card_hits(state, SHADOW, to, state.chance.roll(frame.side, 1)[0])


def _dead_men_retreat(state: WotrState, side: int, data: tuple[Any, ...]) -> None:
    r = data[0]
    if not units(state, r, SHADOW):
        return
    if _retreat_options(state, Choose(SHADOW, "dead-men-retreat", (r,))):
        state.stack.append(Choose(SHADOW, "dead-men-retreat", (r,)))
        return
    log(state, "army-destroyed", SHADOW, r)
    for n in range(NATIONS_OF[SHADOW].start, NATIONS_OF[SHADOW].stop):
        for k in (REGULAR, ELITE, NAZGUL):
            if state.army[r, n, k]:
                remove(state, r, n, k, int(state.army[r, n, k]))
    for c in characters_at(state, r, SHADOW):
        eliminate_character(state, c)


def _retreat_options(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    r = frame.data[0]
    return tuple(("region", int(n)) for n in state.ruleset.board.neighbours[r]
                 if free(state, int(n), SHADOW))


@choice_step("dead-men-retreat", _retreat_options)
def _retreat(state: WotrState, frame: Choose, action: Action) -> None:
    r, to = frame.data[0], action[1]
    level = state.ruleset.cards.character_level
    chars = tuple(c for c in characters_at(state, r, SHADOW) if level[c] != 0)
    figures = np.zeros(state.army.shape[1:], np.int16)
    figures[NATIONS_OF[SHADOW]] = state.army[r, NATIONS_OF[SHADOW]]
    move_figures(state, SHADOW, r, to, figures, chars)
    check_stacking(state, SHADOW, to)


def _dead_men_recruit(state: WotrState, side: int, data: tuple[Any, ...]) -> None:
    r = data[0]
    if state.control[r] == SHADOW and not units(state, r, SHADOW):
        capture(state, r, FREE_PEOPLES)
    recruit(state, FREE_PEOPLES, r, nation(state, "gondor"), ("regular",) * 3)


THEN["dead-men-retreat"] = _dead_men_retreat
THEN["dead-men-recruit"] = _dead_men_recruit

__all__ = ["DEAD_MEN_PLACES", "ExtraCharacterCard", "eagles_targets", "ents_condition",
           "shadow_place"]
