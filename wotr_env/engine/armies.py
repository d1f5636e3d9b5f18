"""Army movement and the stacking limit (spec §8, §10, §20 #4-8, #35; facts §7.1, §7.3-§7.5).

An Army die moves up to two different Armies one region each, a Character die one Army that
holds a Leader, a Nazgûl or a Character (WD-09); each move may leave part of the Army behind
(WD-10). What may go is the side's figures in the region's field that have not moved yet in
this action ("no figure moves twice", spec §10.3): figures that arrived in a region stay put
when the Army already there moves on, so the merged Army is never moved twice. Figures of a
nation not At War may not enter another nation's region (facts §7.5); Characters and Nazgûl are
always At War; a Level-0 Character (Saruman) never moves (facts §7.7). A besieged Army is in
its Stronghold's box and has no move; besiegers may leave, which lifts the siege when none of
their units is left (facts §7.3).

After each move (and each recruit, :mod:`.muster`) a region over ten units makes its owner send
the excess back to the reinforcements (WD-36, spec §8, §20 #8), before anything else happens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from boardkit.frames import Frame

from .decision import ARMY, ARMY_MUSTER, CHARACTER, DONE, WD, Action, Decision, choice
from .dice import die_action
from .regions import (
    NATIONS_OF,
    characters_in,
    enter,
    lift_siege,
    lone_leaders,
    units,
)
from .state import ELITE, FREE_PEOPLES, LEADER, NAZGUL, REGULAR, WotrState, log
from .sweeps import move_edges

UNITS_PER_REGION = 10
ISENGARD = 5
Moved = tuple[tuple[int, int, int], ...]  # (region, nation, kind): one entry per figure moved
# ``closed(state, side, region) -> bool``: the side's Armies may neither move into nor attack the
# region (*A Power too Great*, *The Power of Tom Bombadil*); table cards append.
CLOSED_REGIONS: list[Callable[[WotrState, int, int], bool]] = []


def closed(state: WotrState, side: int, region: int) -> bool:
    """A card in play forbids the side's Armies to move into, or attack, ``region``."""
    for test in CLOSED_REGIONS:  # (a loop, not any(...): asked for every destination)
        if test(state, side, region):
            return True
    return False


def may_enter(state: WotrState, region: int) -> np.ndarray:
    """(nations, kinds) bool: which figures may go into ``region``. A nation not At War stays
    inside its own borders and the regions of no nation (facts §7.5, spec §20 #20); Nazgûl
    count as At War always."""
    owner = int(state.ruleset.board.region_nation[region])
    nations = np.arange(state.army.shape[1])
    ok = (state.politics == 0) | (owner < 0) | (nations == owner)
    allowed = np.repeat(ok[:, None], state.army.shape[2], axis=1)
    allowed[:, NAZGUL] = True
    return allowed


def movable(state: WotrState, side: int, region: int, moved: Moved = ()) -> np.ndarray:
    """(nations, kinds) counts: the side's figures in the region's field not moved yet."""
    figs = np.zeros(state.army.shape[1:], np.int16)
    figs[NATIONS_OF[side]] = state.army[region, NATIONS_OF[side]]
    for r, n, k in moved:
        if r == region:
            figs[n, k] -= 1
    return np.maximum(figs, 0)  # arrivals sent back over the stacking limit are gone


def movable_characters(state: WotrState, side: int, region: int,
                       moved: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The side's Characters with the Army in the region's field that may move: not inside a
    Stronghold box, not of Level 0 (Saruman never leaves Orthanc), not moved yet."""
    level = state.ruleset.cards.character_level
    return tuple(c for c in characters_in(state, region, side)
                 if not state.char_in_box[c] and level[c] > 0 and c not in moved)


def eligible(state: WotrState, side: int, a: int, b: int, moved: Moved = ()) -> np.ndarray:
    """The figures in ``a`` that may take part in a move to ``b``."""
    return movable(state, side, a, moved) * may_enter(state, b)


def leads(state: WotrState, figs: np.ndarray, chars: tuple[int, ...]) -> bool:
    """A Leader, a Nazgûl or a Character is among them (what a Character die needs, facts
    §7.1); while Saruman is in play an Isengard Elite counts as a Leader for movement (his
    *Servants of the White Hand*, facts §3.4)."""
    if chars or figs[:, LEADER].any() or figs[:, NAZGUL].any():
        return True
    saruman = state.ruleset.cards.character("saruman")
    return bool(state.char_at[saruman] >= 0 and figs[ISENGARD, ELITE] > 0)


def valid_group(state: WotrState, figs: np.ndarray, chars: tuple[int, ...],
                need_leader: bool) -> bool:
    """What moves is an Army (one unit at least), with a Leader for a Character die."""
    return bool(figs[:, :2].sum() > 0) and (not need_leader or leads(state, figs, chars))


def edges(state: WotrState, side: int, need_leader: bool, moved: Moved = (),
          moved_chars: tuple[int, ...] = (), first: bool = False) -> list[Action]:
    """("edge", a, b): a move some unmoved part of the side's Army in ``a`` may make into the
    adjacent ``b``, free for army movement (no enemy units in its field, facts §7.4) and not
    closed by a card. The whole board is swept at once (:func:`.sweeps.move_edges`: a die's
    legality asks this before every choice of a die action)."""
    out: list[Action] = []
    shut: dict[int, bool] = {}  # closed(), asked once per destination
    for a, b in move_edges(state, side, need_leader, moved, moved_chars):
        if b not in shut:
            shut[b] = closed(state, side, b)
        if not shut[b]:
            out.append(("edge", a, b))
            if first:
                return out
    return out


def move_figures(state: WotrState, side: int, a: int, b: int, figs: np.ndarray,
                 chars: tuple[int, ...]) -> None:
    """Move ``figs`` (nations, kinds) and ``chars`` from ``a`` into ``b``: a Free Peoples
    Leader left without units is eliminated, a siege whose besiegers all left ends, and the
    Army entering ``b`` captures an undefended enemy Settlement there and, for the Shadow,
    activates the Free Peoples nation whose region it is (facts §7.4, §7.5)."""
    delta = figs.astype(state.army.dtype)
    state.army[a] -= delta
    state.army[b] += delta
    for c in chars:
        state.char_at[c] = b
    log(state, "army-move", side, a, b, tuple(int(x) for x in figs.ravel()), tuple(chars))
    lone_leaders(state, a)
    lift_siege(state, a)
    enter(state, b, side)


def check_stacking(state: WotrState, side: int, region: int) -> None:
    """Push the removal of the units over ten in ``region`` (WD-36), if any."""
    if units(state, region, side) > UNITS_PER_REGION:
        state.stack.append(Overstack(side, region))


@dataclass
class Overstack(Frame):
    """WD-36: the side sends units over ``limit`` (ten in a region, five in a Stronghold's
    box) back to the reinforcements, one at a time; for both sides they are not casualties
    (spec §8, §20 #8)."""

    side: int
    region: int
    box: bool = False
    limit: int = UNITS_PER_REGION

    def run(self, state: WotrState) -> Decision | None:
        if units(state, self.region, self.side, self.box) <= self.limit:
            state.stack.pop()
            return None
        first = NATIONS_OF[self.side].start
        grid = (state.box if self.box else state.army)[self.region, NATIONS_OF[self.side]]
        options = tuple(("unit", first + int(n), k) for n in range(grid.shape[0])
                        for k in (REGULAR, ELITE) if grid[n, k] > 0)
        return Decision(self.side, WD.OVERSTACK, options,
                        context={"region": self.region, "limit": self.limit})

    def act(self, state: WotrState, action: Action) -> None:
        _, n, k = action
        (state.box if self.box else state.army)[self.region, n, k] -= 1
        state.reserve[n, k] += 1
        log(state, "overstack", self.side, self.region, n, k)


@dataclass
class ArmyMove(Frame):
    """WD-09 then WD-10 for each move: ``moves_left`` moves of different Armies (``moved`` and
    ``moved_chars``: what moved already in this action), each with a Leader or Character when
    ``need_leader``. DONE ends the action once one move is made.

    WD-10: after the edge, "all" (every figure that may go) or "part", then one figure at a
    time to leave behind (``("unit", nation, kind)``, ``("character", c)``), DONE. A Free
    Peoples Leader may stay only where a unit stays (spec §10.2)."""

    side: int
    moves_left: int = 2
    need_leader: bool = False
    moved: Moved = ()
    moved_chars: tuple[int, ...] = ()
    edge: tuple[int, ...] = ()
    part: bool = False
    stay: tuple[tuple[int, int], ...] = ()  # (nation, kind): one entry per figure left behind
    stay_chars: tuple[int, ...] = ()

    def run(self, state: WotrState) -> Decision | None:
        made = bool(self.moved)
        if not self.edge:
            options = edges(state, self.side, self.need_leader, self.moved, self.moved_chars)
            if made:
                options.insert(0, DONE)
            if not options:
                state.stack.pop()
                return None
            return Decision(self.side, WD.ARMY_MOVE, tuple(options),
                            context={"moves_left": self.moves_left})
        leave = self.leave_options(state)
        if not self.part:
            options = [choice("all")] + ([choice("part")] if leave else [])
        else:
            options = ([DONE] if self.stay or self.stay_chars else []) + leave
        return Decision(self.side, WD.SPLIT_ARMY, tuple(options),
                        context={"edge": self.edge, "part": self.part})

    def group(self, state: WotrState) -> tuple[np.ndarray, tuple[int, ...]]:
        """The figures and Characters that go, given what is left behind so far."""
        a, b = self.edge
        figs = eligible(state, self.side, a, b, self.moved)
        for n, k in self.stay:
            figs[n, k] -= 1
        chars = tuple(c for c in movable_characters(state, self.side, a, self.moved_chars)
                      if c not in self.stay_chars)
        return figs, chars

    def leave_options(self, state: WotrState) -> list[Action]:
        """The figures that may still stay behind, keeping the moving part an Army (with its
        Leader for a Character die) and no Free Peoples Leader alone."""
        figs, chars = self.group(state)
        staying_units = units(state, self.edge[0], self.side) - int(figs[:, :2].sum())
        out: list[Action] = []
        for n, k in zip(*np.nonzero(figs), strict=True):
            n, k = int(n), int(k)
            trial = figs.copy()
            trial[n, k] -= 1
            if k == LEADER and self.side == FREE_PEOPLES and staying_units == 0:
                continue
            if valid_group(state, trial, chars, self.need_leader):
                out.append(("unit", n, k))
        for c in chars:
            rest = tuple(x for x in chars if x != c)
            if valid_group(state, figs, rest, self.need_leader):
                out.append(("character", c))
        return out

    def act(self, state: WotrState, action: Action) -> None:
        if action[0] == "edge":
            self.edge = (action[1], action[2])
        elif action == DONE and not self.edge:
            state.stack.pop()
        elif action == choice("part"):
            self.part = True
        elif action[0] == "unit":
            self.stay = (*self.stay, (action[1], action[2]))
        elif action[0] == "character":
            self.stay_chars = (*self.stay_chars, action[1])
        else:  # "all", or DONE after choosing what stays: the move itself
            self.make_move(state)

    def make_move(self, state: WotrState) -> None:
        figs, chars = self.group(state)
        a, b = self.edge
        move_figures(state, self.side, a, b, figs, chars)
        self.moved = (*self.moved, *((b, int(n), int(k)) for n, k in zip(*np.nonzero(figs),
                                                                        strict=True)
                                     for _ in range(int(figs[n, k]))))
        self.moved_chars = (*self.moved_chars, *chars)
        self.moves_left -= 1
        self.edge, self.part, self.stay, self.stay_chars = (), False, (), ()
        if self.moves_left == 0:
            state.stack.pop()
        check_stacking(state, self.side, b)


def move_armies_legal(state: WotrState, side: int) -> bool:
    return bool(edges(state, side, False, first=True))


def leader_move_legal(state: WotrState, side: int) -> bool:
    return bool(edges(state, side, True, first=True))


@die_action("move-armies", (ARMY, ARMY_MUSTER), move_armies_legal)
def start_move_armies(state: WotrState, side: int, face: int) -> None:
    """An Army die: up to two different Armies, one region each (facts §7.1, spec §20 #5)."""
    state.stack.append(ArmyMove(side, 2, False))


@die_action("leader-move", (CHARACTER,), leader_move_legal)
def start_leader_move(state: WotrState, side: int, face: int) -> None:
    """A Character die: one Army with a Leader or Character, the moving part keeping one."""
    state.stack.append(ArmyMove(side, 1, True))


__all__ = ["CLOSED_REGIONS", "UNITS_PER_REGION", "ArmyMove", "Overstack", "check_stacking",
           "closed", "edges", "eligible", "leads", "may_enter", "move_figures", "movable",
           "movable_characters"]
