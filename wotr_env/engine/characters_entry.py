"""Bringing Characters into play (WD-30; facts §3.2, §3.4, §7.1, §7.5; spec §3.4, §18.E, §20 #36).

Aragorn and Gandalf the White come with a Will of the West die (``bring-character``), the
Minions with a Muster die (``bring-minion``: Muster or Army/Muster), each when his card's
condition holds, once: a Character in play or eliminated never enters again. Each adds one
Action die to his side's pool from the next recovery on (:func:`.turn.phases.dice_pool_size` counts
the Characters in play at phase 1).

Readings: a replaced Companion (Strider by Aragorn, Gandalf the Grey by the White) leaves the
game (``ELIMINATED``); the newcomer takes his place, inside a Stronghold box if he was. Gandalf
the White, the Witch-king and the Mouth of Sauron are not placed into a Stronghold the enemy
besieges (Characters may not enter one, facts §7.3); Saruman, whose card names Orthanc alone,
enters a besieged Orthanc inside its box.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardkit.frames import Frame

from .decision import ARMY_MUSTER, MUSTER, WD, WILL, Action, Decision
from .dice import die_action
from .fellowship import is_fp_city_or_stronghold
from .politics import activate, at_war
from .regions import STRONGHOLD, besieged
from .state import (
    ELIMINATED,
    FREE_PEOPLES,
    IN_FELLOWSHIP,
    NOT_IN_PLAY,
    OFF_MORDOR,
    SHADOW,
    WotrState,
    log,
)

UPGRADES = ("aragorn", "gandalf-the-white")
MINIONS = ("saruman", "witch-king", "mouth-of-sauron")
ARAGORN_PLACES = ("minas-tirith", "dol-amroth", "pelargir")
ELVES, ISENGARD, SAURON = 1, 5, 6
FP_NATIONS = range(5)


def _region(state: WotrState, region_id: str) -> int:
    return state.ruleset.board.region(region_id)


def _char(state: WotrState, character_id: str) -> int:
    return state.ruleset.cards.character(character_id)


def _aragorn(state: WotrState) -> list[int]:
    """Strider in Minas Tirith, Dol Amroth or Pelargir, unconquered (facts §3.2)."""
    at = int(state.char_at[_char(state, "strider")])
    ok = {_region(state, r) for r in ARAGORN_PLACES}
    return [at] if at in ok and state.control[at] == FREE_PEOPLES else []


def _gandalf_the_white(state: WotrState) -> list[int]:
    """Gandalf the Grey eliminated or out of the Fellowship, and a Minion in play now or
    before (facts §3.2): in the Grey's place, else Fangorn or an unconquered Elven
    Stronghold."""
    grey = int(state.char_at[_char(state, "gandalf-the-grey")])
    minion_seen = any(state.char_at[_char(state, m)] != NOT_IN_PLAY for m in MINIONS)
    if grey == IN_FELLOWSHIP or not minion_seen:
        return []
    if grey >= 0:
        return [grey]
    board = state.ruleset.board
    elven = [r for r in range(len(board.regions))
             if board.region_nation[r] == ELVES and board.settlement[r] == STRONGHOLD
             and state.control[r] == FREE_PEOPLES and not besieged(state, r)]
    return sorted([_region(state, "fangorn"), *elven])


def _saruman(state: WotrState) -> list[int]:
    """Isengard At War and Orthanc unconquered (facts §3.4)."""
    orthanc = _region(state, "orthanc")
    return [orthanc] if at_war(state, ISENGARD) and state.control[orthanc] == SHADOW else []


def _witch_king(state: WotrState) -> list[int]:
    """Sauron and one Free Peoples nation At War: a region whose Shadow Army in the field holds
    a Sauron unit (facts §3.4)."""
    if not at_war(state, SAURON) or not any(at_war(state, n) for n in FP_NATIONS):
        return []
    return [int(r) for r in np.flatnonzero(state.army[:, SAURON, :2].sum(axis=1) > 0)]


def _mouth_of_sauron(state: WotrState) -> list[int]:
    """The Fellowship on the Mordor Track, or every Free Peoples nation At War: a region with
    an unconquered Sauron Stronghold (facts §3.4)."""
    if state.mordor_step == OFF_MORDOR and not all(at_war(state, n) for n in FP_NATIONS):
        return []
    board = state.ruleset.board
    return [r for r in range(len(board.regions))
            if board.region_nation[r] == SAURON and board.settlement[r] == STRONGHOLD
            and state.control[r] == SHADOW and not besieged(state, r)]


ENTRY = {"aragorn": _aragorn, "gandalf-the-white": _gandalf_the_white, "saruman": _saruman,
         "witch-king": _witch_king, "mouth-of-sauron": _mouth_of_sauron}
REPLACES = {"aragorn": "strider", "gandalf-the-white": "gandalf-the-grey"}


def entry_regions(state: WotrState, character_id: str) -> list[int]:
    """Where the Character may enter play now (empty: he may not)."""
    if state.char_at[_char(state, character_id)] != NOT_IN_PLAY:
        return []
    return ENTRY[character_id](state)


def candidates(state: WotrState, side: int) -> list[int]:
    """The Characters ``side`` may bring into play now."""
    ids = UPGRADES if side == FREE_PEOPLES else MINIONS
    return [_char(state, c) for c in ids if entry_regions(state, c)]


def bring_into_play(state: WotrState, character: int, region: int) -> None:
    """Place the Character; he replaces the Companion his card names where that one stands.
    An upgrade entering in a Free Peoples City or Stronghold not under enemy control
    activates its nation; the Witch-king activates every Free Peoples nation (facts §7.5)."""
    cards = state.ruleset.cards
    cid = cards.characters[character].id
    old = REPLACES.get(cid)
    state.char_at[character] = region
    if old is not None and state.char_at[_char(state, old)] == region:
        replaced = _char(state, old)
        state.char_in_box[character] = state.char_in_box[replaced]
        state.char_at[replaced] = ELIMINATED
        state.char_in_box[replaced] = False
        log(state, "replace", replaced, character)
    elif besieged(state, region):  # Saruman in a besieged Orthanc
        state.char_in_box[character] = True
    log(state, "enter-play", character, region)
    if cid in UPGRADES and is_fp_city_or_stronghold(state, region, True):
        activates = cards.characters[character].activates
        nation = int(state.ruleset.board.region_nation[region])
        if activates == "any" or state.ruleset.board.nations[nation].id == activates:
            activate(state, nation, "companion")
    if cid == "witch-king":
        for n in FP_NATIONS:
            activate(state, n)


@dataclass
class BringCharacter(Frame):
    """WD-30: which Character (``("character", c)``), then where (``("region", r)``)."""

    side: int
    character: int = -1

    def run(self, state: WotrState) -> Decision | None:
        if self.character < 0:
            options = tuple(("character", c) for c in candidates(state, self.side))
        else:
            cid = state.ruleset.cards.characters[self.character].id
            options = tuple(("region", r) for r in entry_regions(state, cid))
        if not options:
            state.stack.pop()
            return None
        return Decision(self.side, WD.BRING_CHARACTER, options,
                        context={"character": self.character})

    def act(self, state: WotrState, action: Action) -> None:
        if action[0] == "character":
            self.character = action[1]
            return
        state.stack.pop()
        bring_into_play(state, self.character, action[1])


@die_action("bring-character", (WILL,),
            lambda state, side: side == FREE_PEOPLES and bool(candidates(state, side)))
def start_bring_character(state: WotrState, side: int, face: int) -> None:
    """A Will of the West die: Aragorn or Gandalf the White (facts §3.2, §7.1)."""
    state.stack.append(BringCharacter(side))


@die_action("bring-minion", (MUSTER, ARMY_MUSTER),
            lambda state, side: side == SHADOW and bool(candidates(state, side)))
def start_bring_minion(state: WotrState, side: int, face: int) -> None:
    """A Muster die: Saruman, the Witch-king or the Mouth of Sauron (facts §3.4, §7.1)."""
    state.stack.append(BringCharacter(side))


__all__ = ["MINIONS", "UPGRADES", "BringCharacter", "bring_into_play", "candidates",
           "entry_regions"]
