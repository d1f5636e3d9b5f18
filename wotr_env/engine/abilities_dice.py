"""Characters' abilities on Action dice (WD-38; facts §3.1, §3.4, §7.1): Boromir's *High Warden
of the White Tower*, Legolas's *Prince of Mirkwood*, Gimli's *Dwarf of Erebor* (the
``nation-ability`` die action), Saruman's *The Voice of Saruman* (``voice-of-saruman``) and the
Mouth of Sauron's *Messenger of the Dark Tower* (``messenger``).

Readings: "unconquered" is a Settlement its Free Peoples still control (besieged or not); a
Companion's step obeys the Political Track like any other (a Passive nation stops one step short
of At War). The Voice recruits in every Isengard Settlement where a Muster could place a
Regular now (Shadow-controlled, free, not besieged); with fewer Regulars left than such
Settlements the Shadow chooses where they go, one at a time (WD-29); the swap takes two Regulars
out of Orthanc to the reinforcements and puts two Elites from them in, so it needs two of each.
The Messenger turns a Muster die (not Army/Muster, already an Army die) into an Army die for
any Army die action, playing an Army-icon card included, once per turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boardkit.frames import Frame

from .armies import check_stacking
from .decision import (
    ARMY,
    ARMY_MUSTER,
    CHARACTER,
    EVENT,
    MUSTER,
    WD,
    WILL,
    Action,
    Decision,
    choice,
)
from .dice import DIE_ACTIONS, die_action, usable
from .muster import placements, recruit
from .politics import advance, can_advance
from .regions import CITY, STRONGHOLD, besieged
from .state import ELITE, FREE_PEOPLES, REGULAR, SHADOW, WotrState, log

DWARVES, ELVES, GONDOR, ISENGARD = 0, 1, 2, 5
ANY_DIE = (CHARACTER, ARMY, MUSTER, ARMY_MUSTER, EVENT, WILL)
# Called ``fn(state, nation)`` after a Companion's ability advanced a nation (*Threats and
# Promises* is discarded then: facts §6.5 #5).
ADVANCE_HOOKS: list[Callable[[WotrState, int], None]] = []


def _char(state: WotrState, character_id: str) -> int:
    return state.ruleset.cards.character(character_id)


# ---------------------------------------------------------------------------------------------
# Boromir, Legolas, Gimli


def _unconquered(state: WotrState, nation: int, kinds: tuple[int, ...], character_id: str,
                 region_id: str | None = None) -> bool:
    """The Companion stands in an unconquered Settlement of ``nation`` of one of ``kinds``
    (or in ``region_id`` itself)."""
    r = int(state.char_at[_char(state, character_id)])
    if r < 0 or state.control[r] != FREE_PEOPLES:
        return False
    board = state.ruleset.board
    if region_id is not None:
        return r == board.region(region_id)
    return int(board.region_nation[r]) == nation and int(board.settlement[r]) in kinds


def high_warden_of_the_white_tower(state: WotrState) -> bool:
    """Boromir in an unconquered Gondor City or Stronghold (facts §3.1)."""
    return _unconquered(state, GONDOR, (CITY, STRONGHOLD), "boromir")


def prince_of_mirkwood(state: WotrState) -> bool:
    """Legolas in an unconquered Elven Stronghold (facts §3.1)."""
    return _unconquered(state, ELVES, (STRONGHOLD,), "legolas")


def dwarf_of_erebor(state: WotrState) -> bool:
    """Gimli in Erebor, unconquered (facts §3.1)."""
    return _unconquered(state, DWARVES, (STRONGHOLD,), "gimli", "erebor")


NATION_ABILITIES: dict[str, tuple[int, Callable[[WotrState], bool]]] = {
    "boromir": (GONDOR, high_warden_of_the_white_tower),
    "legolas": (ELVES, prince_of_mirkwood),
    "gimli": (DWARVES, dwarf_of_erebor),
}


def ability_nations(state: WotrState) -> list[int]:
    """The nations a Companion's ability may advance one step now."""
    return sorted({nation for nation, holds in NATION_ABILITIES.values()
                   if holds(state) and can_advance(state, nation)})


@die_action("nation-ability", ANY_DIE,
            lambda state, side: side == FREE_PEOPLES and bool(ability_nations(state)))
def start_nation_ability(state: WotrState, side: int, face: int) -> None:
    state.stack.append(NationAbility())


@dataclass
class NationAbility(Frame):
    """WD-38: which nation the die advances (asked only when two Companions could)."""

    def run(self, state: WotrState) -> Decision:
        return Decision(FREE_PEOPLES, WD.CHARACTER_ABILITY,
                        tuple(("nation", n) for n in ability_nations(state)))

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        nation = action[1]
        log(state, "nation-ability", nation)
        advance(state, nation)
        for hook in ADVANCE_HOOKS:
            hook(state, nation)


# ---------------------------------------------------------------------------------------------
# Saruman


def voice_active(state: WotrState) -> bool:
    """Saruman in play, Orthanc controlled by the Shadow and not besieged (facts §3.4)."""
    orthanc = state.ruleset.board.region("orthanc")
    return bool(state.char_at[_char(state, "saruman")] >= 0
                and state.control[orthanc] == SHADOW and not besieged(state, orthanc))


def voice_regions(state: WotrState, taken: tuple[int, ...] = ()) -> list[int]:
    """Isengard Settlements where a Regular may be recruited now, not among ``taken``."""
    nation = state.ruleset.board.region_nation
    return [r for r in placements(state, SHADOW, REGULAR, taken) if nation[r] == ISENGARD]


def elites_swap_legal(state: WotrState) -> bool:
    orthanc = state.ruleset.board.region("orthanc")
    return bool(state.army[orthanc, ISENGARD, REGULAR] >= 2
                and state.reserve[ISENGARD, ELITE] >= 2)


def voice_modes(state: WotrState) -> list[str]:
    if not voice_active(state):
        return []
    return ([name for name, ok in (("voice-recruit", bool(voice_regions(state))),
                                   ("voice-elites", elites_swap_legal(state))) if ok])


@die_action("voice-of-saruman", (MUSTER, ARMY_MUSTER),
            lambda state, side: side == SHADOW and bool(voice_modes(state)))
def start_voice(state: WotrState, side: int, face: int) -> None:
    state.stack.append(VoiceOfSaruman())


@dataclass
class VoiceOfSaruman(Frame):
    """WD-38: recruit a Regular in every Isengard Settlement, or two Elites for two Regulars
    in Orthanc."""

    def run(self, state: WotrState) -> Decision:
        return Decision(SHADOW, WD.CHARACTER_ABILITY,
                        tuple(choice(m) for m in voice_modes(state)))

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        log(state, "voice-of-saruman", action[1])
        if action == choice("voice-recruit"):
            state.stack.append(VoiceRecruit())
            return
        orthanc = state.ruleset.board.region("orthanc")
        state.army[orthanc, ISENGARD, REGULAR] -= 2
        state.reserve[ISENGARD, REGULAR] += 2
        state.reserve[ISENGARD, ELITE] -= 2
        state.army[orthanc, ISENGARD, ELITE] += 2


@dataclass
class VoiceRecruit(Frame):
    """One Isengard Regular in each Settlement ``voice_regions`` lists; where the reinforcements
    run short, the Shadow places them one at a time (WD-29)."""

    placed: tuple[int, ...] = ()

    def run(self, state: WotrState) -> Decision | None:
        regions = voice_regions(state, self.placed)
        left = int(state.reserve[ISENGARD, REGULAR])
        if not regions or left <= 0:
            state.stack.pop()
            return None
        if len(regions) <= left:
            state.stack.pop()
            for r in regions:
                recruit(state, SHADOW, r, ISENGARD, REGULAR)
            for r in regions:
                check_stacking(state, SHADOW, r)
            return None
        return Decision(SHADOW, WD.MUSTER_PLACEMENT, tuple(("region", r) for r in regions),
                        context={"figure": "regular"})

    def act(self, state: WotrState, action: Action) -> None:
        region = action[1]
        recruit(state, SHADOW, region, ISENGARD, REGULAR)
        self.placed = (*self.placed, region)
        check_stacking(state, SHADOW, region)


# ---------------------------------------------------------------------------------------------
# The Mouth of Sauron


def army_die_actions(state: WotrState) -> list[str]:
    """What an Army die would allow the Shadow now (skipping aside)."""
    return [n for n in usable(state, SHADOW, ARMY) if n != "skip"]


def messenger_legal(state: WotrState, side: int) -> bool:
    """The Mouth of Sauron in play, his ability not used this turn, an Army action possible."""
    return bool(side == SHADOW and state.char_at[_char(state, "mouth-of-sauron")] >= 0
                and state.messenger_turn != state.turn and army_die_actions(state))


@die_action("messenger", (MUSTER,), messenger_legal)
def start_messenger(state: WotrState, side: int, face: int) -> None:
    state.messenger_turn = state.turn
    state.stack.append(Messenger())


@dataclass
class Messenger(Frame):
    """WD-08 again: the Army die action the Muster die now takes (facts §3.4)."""

    def run(self, state: WotrState) -> Decision:
        return Decision(SHADOW, WD.DIE_ACTION,
                        tuple(("action", n) for n in army_die_actions(state)),
                        context={"face": ARMY, "ability": "messenger"})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        log(state, "messenger", action[1])
        DIE_ACTIONS[action[1]][2](state, SHADOW, ARMY)


__all__ = ["ADVANCE_HOOKS", "NATION_ABILITIES", "Messenger", "NationAbility",
           "VoiceOfSaruman", "VoiceRecruit", "ability_nations", "army_die_actions",
           "dwarf_of_erebor", "elites_swap_legal", "high_warden_of_the_white_tower",
           "messenger_legal", "prince_of_mirkwood", "voice_active", "voice_modes",
           "voice_regions"]
