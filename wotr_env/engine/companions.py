"""Companions out of the Fellowship: separating (WD-22), moving (WD-23), eliminating, and where a
Companion may go (facts §7.6, §7.7, §7.3, §3.1; spec §11.1, §20 #33).

A Companion moves up to his Level (a group up to its highest Level) through any region, enemy
Armies or not; a region with a Shadow-controlled Stronghold stops him (``rules.
companion_enemy_stronghold`` ``stop``, 2e) or is closed to him (``forbidden``, 1e, spec §20 #33).
A Character inside a friendly Stronghold's box that the enemy besieges may not leave it; one who
enters such a region stands in its field, with the besiegers (facts §7.3). Ending a move, or
entering play, in a Free Peoples City or Stronghold the enemy does not control activates its
nation if his card names it, or any (facts §3, §7.5).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boardkit.frames import Frame

from ..data import NATIONS
from .decision import CHARACTER, DONE, WD, Action, Decision
from .dice import die_action
from .fellowship import (
    ChangeGuide,
    companions_in_fellowship,
    is_fp_city_or_stronghold,
    settle_guide,
)
from .politics import activate
from .regions import STRONGHOLD, besieged, units
from .state import ELIMINATED, FREE_PEOPLES, OFF_MORDOR, SHADOW, WotrState, log

MOVING_KINDS = ("companion", "upgrade")  # the Free Peoples' Characters with a figure on the map
HOBBITS = ("meriadoc", "peregrin")
SHADOWFAX_LEVEL = 4  # Gandalf the White alone or with one Hobbit (facts §3.2)
# Called after the Fellowship's make-up changed (:func:`regroup`): table cards whose play
# condition names a Companion in the Fellowship append their discard test here (cards/).
FELLOWSHIP_CHANGED: list[Callable[[WotrState], None]] = []


def shadow_stronghold(state: WotrState, region: int) -> bool:
    """A Stronghold under Shadow control (a Companion stops on entering, facts §7.3)."""
    return bool(state.ruleset.board.settlement[region] == STRONGHOLD
                and state.control[region] == SHADOW)


def besieged_by(state: WotrState, region: int, side: int) -> bool:
    """The region's Stronghold is besieged by ``side``'s Army (the other side in its box)."""
    return besieged(state, region) and units(state, region, side) > 0


def companion_destinations(state: WotrState, start: int, reach: int) -> list[int]:
    """Regions other than ``start`` a Companion (or group) may end a move in, at most ``reach``
    regions away: he may leave any region, but passes through no region with a
    Shadow-controlled Stronghold (2e: he may stop there; 1e: he may not enter it)."""
    board = state.ruleset.board
    forbidden = state.ruleset.rules.companion_enemy_stronghold == "forbidden"
    seen, frontier, out = {start}, [start], []
    for _ in range(reach):
        step = []
        for r in frontier:
            if r != start and shadow_stronghold(state, r):
                continue  # he stopped on entering
            for n in board.neighbours[r]:
                n = int(n)
                if n in seen or (forbidden and shadow_stronghold(state, n)):
                    continue
                seen.add(n)
                step.append(n)
        out.extend(step)
        frontier = step
    return sorted(out)


def group_level(state: WotrState, group: tuple[int, ...]) -> int:
    """How far a group moves: its highest Level; *Shadowfax*: Gandalf the White alone or with
    one Hobbit counts 4 (facts §3.2)."""
    cards = state.ruleset.cards
    level = max(int(cards.character_level[c]) for c in group)
    white = cards.character("gandalf-the-white")
    hobbits = {cards.character(h) for h in HOBBITS}
    if white in group and len(group) <= 2 and set(group) <= hobbits | {white}:
        level = max(level, SHADOWFAX_LEVEL)
    return level


def arrive(state: WotrState, chars: tuple[int, ...], region: int) -> None:
    """Characters ended a move (or entered play) in ``region``: each activates its nation where
    his card allows, in an FP City or Stronghold the enemy does not control (facts §7.5)."""
    if not is_fp_city_or_stronghold(state, region, True):
        return
    nation = int(state.ruleset.board.region_nation[region])
    for c in chars:
        names = state.ruleset.cards.characters[c].activates
        if names == "any" or (names is not None and NATIONS.index(names) == nation):
            activate(state, nation, "companion")


def regroup(state: WotrState) -> None:
    """The Fellowship's make-up changed: the Guide is re-settled at once, and the Free Peoples
    choose among tied highest-Level Companions (WD-05, facts §7.6)."""
    before = state.guide
    settle_guide(state)
    if state.guide != before:
        log(state, "guide", int(state.guide))
    for hook in FELLOWSHIP_CHANGED:
        hook(state)
    state.stack.append(ChangeGuide())


# ---------------------------------------------------------------------------------------------
# Leaving the Fellowship


def separate_companions(state: WotrState, group: tuple[int, ...], move: bool = True) -> None:
    """``group`` leaves the Fellowship (facts §7.6): off the Mordor Track into the Ring-bearers'
    region and (``move``) on up to Progress + its highest Level, ending together; inside a
    friendly Stronghold the enemy besieges they stay in its box. On the Mordor Track anything
    that would separate a Companion eliminates him instead (facts §7.9)."""
    if state.mordor_step != OFF_MORDOR:
        for c in group:
            state.char_at[c] = ELIMINATED
            log(state, "companion-eliminated", int(c))
        regroup(state)
        return
    here = state.fellowship_region
    inside = besieged_by(state, here, SHADOW) and state.control[here] == FREE_PEOPLES
    for c in group:
        state.char_at[c] = here
        state.char_in_box[c] = inside
    log(state, "separate", tuple(int(c) for c in group))
    regroup(state)
    reach = 0 if inside or not move else state.progress + max(
        int(state.ruleset.cards.character_level[c]) for c in group)
    state.stack.append(PlaceSeparated(tuple(int(c) for c in group), reach))


def eliminate_companion(state: WotrState, c: int) -> None:
    """A Companion in the Fellowship is eliminated (a Hunt casualty, a card). *Take Them
    Alive!*: Meriadoc or Peregrin instead enters play as if just separated, except on the
    Mordor Track (facts §3.1)."""
    cards = state.ruleset.cards
    if cards.characters[c].id in HOBBITS and state.mordor_step == OFF_MORDOR:
        log(state, "take-them-alive", int(c))
        separate_companions(state, (c,))
        return
    state.char_at[c] = ELIMINATED
    log(state, "companion-eliminated", int(c))
    regroup(state)


@dataclass
class PlaceSeparated(Frame):
    """WD-22, second part: where the separated group ends, at most ``reach`` regions from the
    Ring-bearers' region (staying is allowed)."""

    group: tuple[int, ...]
    reach: int

    def run(self, state: WotrState) -> Decision:
        here = state.fellowship_region
        ends = [here, *companion_destinations(state, here, self.reach)]
        return Decision(FREE_PEOPLES, WD.SEPARATE_COMPANIONS,
                        tuple(("region", r) for r in ends), context={"group": self.group})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        region = action[1]
        if region != state.fellowship_region:
            for c in self.group:
                state.char_at[c] = region
                state.char_in_box[c] = False
            log(state, "companions-move", self.group, region)
        arrive(state, self.group, region)


def separate_legal(state: WotrState, side: int) -> bool:
    return (side == FREE_PEOPLES and state.mordor_step == OFF_MORDOR
            and bool(companions_in_fellowship(state)))


@die_action("separate", (CHARACTER,), separate_legal)
def start_separate(state: WotrState, side: int, face: int) -> None:
    state.stack.append(SeparateGroup())


@dataclass
class SeparateGroup(Frame):
    """WD-22, first part: the Companions who leave, one at a time, then DONE. A Companion once
    chosen is not offered again (a toggle would let a sequence of choices run forever); every
    group is still reachable, its members chosen in any order."""

    group: tuple[int, ...] = ()

    def run(self, state: WotrState) -> Decision:
        options: list[Action] = [DONE] if self.group else []
        options.extend(("character", c) for c in companions_in_fellowship(state)
                       if c not in self.group)
        return Decision(FREE_PEOPLES, WD.SEPARATE_COMPANIONS, tuple(options),
                        context={"group": self.group})

    def act(self, state: WotrState, action: Action) -> None:
        if action != DONE:
            c = action[1]
            self.group = tuple(sorted({*self.group, c}))
            return
        state.stack.pop()
        separate_companions(state, self.group)


# ---------------------------------------------------------------------------------------------
# Moving the Companions on the map


def movable_companions(state: WotrState) -> list[int]:
    """The Free Peoples' Characters on the map that can move now."""
    cards = state.ruleset.cards
    out = []
    for c, ch in enumerate(cards.characters):
        where = int(state.char_at[c])
        if ch.kind in MOVING_KINDS and where >= 0 and not state.char_in_box[c] \
                and companion_destinations(state, where, group_level(state, (c,))):
            out.append(c)
    return out


def move_companions_legal(state: WotrState, side: int) -> bool:
    return side == FREE_PEOPLES and bool(movable_companions(state))


@die_action("move-companions", (CHARACTER,), move_companions_legal)
def start_move_companions(state: WotrState, side: int, face: int) -> None:
    state.stack.append(MoveCompanions())


@dataclass
class MoveCompanions(Frame):
    """WD-23 (facts §7.7): every Companion on the map may move once. Pick one (or DONE: the
    rest stay), add others from his region to his group, then its destination (DONE here: the
    group stays)."""

    moved: tuple[int, ...] = ()
    group: tuple[int, ...] = ()

    def run(self, state: WotrState) -> Decision | None:
        free = [c for c in movable_companions(state) if c not in self.moved]
        if not self.group:
            if not free:
                state.stack.pop()
                return None
            return Decision(FREE_PEOPLES, WD.MOVE_COMPANIONS,
                            (DONE, *(("character", c) for c in free)), context={"group": ()})
        here = int(state.char_at[self.group[0]])
        mates = [c for c in free if c not in self.group and state.char_at[c] == here]
        ends = companion_destinations(state, here, group_level(state, self.group))
        return Decision(FREE_PEOPLES, WD.MOVE_COMPANIONS,
                        (DONE, *(("character", c) for c in mates),
                         *(("region", r) for r in ends)), context={"group": self.group})

    def act(self, state: WotrState, action: Action) -> None:
        if action == DONE:
            if not self.group:
                state.stack.pop()
                return
            self.moved, self.group = self.moved + self.group, ()
            return
        if action[0] == "character":
            self.group = (*self.group, action[1])
            return
        region = action[1]
        for c in self.group:
            state.char_at[c] = region
        log(state, "companions-move", self.group, region)
        arrive(state, self.group, region)
        self.moved, self.group = self.moved + self.group, ()


__all__ = ["FELLOWSHIP_CHANGED", "MoveCompanions", "PlaceSeparated", "SeparateGroup", "arrive",
           "besieged_by", "companion_destinations", "eliminate_companion", "group_level",
           "movable_companions", "regroup", "separate_companions", "shadow_stronghold"]
