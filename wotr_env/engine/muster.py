"""Recruiting with a Muster die (spec §9, §20 #17, #18; facts §7.1, §7.3, §7.4).

One Muster result buys 2 Regulars, 2 Leaders (Nazgûl for the Shadow), 1 Regular and 1 Leader
(or Nazgûl), or 1 Elite (WD-28), of nations At War, from the reinforcements. Each figure goes
to a Settlement (Town, City or Stronghold; a Fortification is none) of its own nation that its
side controls and that is free: no enemy Army there and not a Stronghold the enemy besieges.
Nazgûl go to a Sauron Stronghold. Two figures go to two different Settlements, of one nation or
of two, both At War (WD-29). The stacking limit applies after each placement (:mod:`.armies`).

Readings: the combination is the most one may recruit; after the first figure the player may
stop (DONE), as when only one Settlement is free. A Leader goes only where a Free Peoples Army
stands: alone he would be removed at once (spec §3.2, §20 #23).
"""

from __future__ import annotations

from dataclasses import dataclass

from boardkit.frames import Frame

from ..data import FIGURES
from .armies import check_stacking
from .decision import ARMY_MUSTER, DONE, MUSTER, WD, Action, Decision, choice
from .dice import die_action
from .politics import SIDE_OF, at_war
from .regions import STRONGHOLD, TOWN, besieged, free, has_army
from .state import ELITE, FREE_PEOPLES, LEADER, NAZGUL, REGULAR, WotrState, log

SAURON = 6
LEADERS = -1  # in a combination: a Leader for the Free Peoples, a Nazgûl for the Shadow
COMBINATIONS: dict[str, tuple[int, ...]] = {
    "muster-2r": (REGULAR, REGULAR),
    "muster-2l": (LEADERS, LEADERS),
    "muster-rl": (REGULAR, LEADERS),
    "muster-e": (ELITE,),
}


def figure_kind(side: int, kind: int) -> int:
    """The figure kind a combination's entry stands for on ``side``."""
    if kind != LEADERS:
        return kind
    return LEADER if side == FREE_PEOPLES else NAZGUL


def placements(state: WotrState, side: int, kind: int, taken: tuple[int, ...] = ()) -> list[int]:
    """Regions where ``side`` may recruit one figure of ``kind`` with a Muster die now, not
    among ``taken`` (the Settlements this action used already)."""
    board = state.ruleset.board
    out = []
    for r in range(len(board.regions)):
        settlement, nation = int(board.settlement[r]), int(board.region_nation[r])
        if not TOWN <= settlement <= STRONGHOLD or nation < 0 or SIDE_OF[nation] != side:
            continue
        if kind == NAZGUL and (nation != SAURON or settlement != STRONGHOLD):
            continue
        if r in taken or state.reserve[nation, kind] <= 0 or not at_war(state, nation):
            continue
        if not free(state, r, side) or besieged(state, r):  # free: not enemy-controlled
            continue
        if kind == LEADER and not has_army(state, r, side):  # he would be removed at once
            continue
        out.append(r)
    return out


def combinations(state: WotrState, side: int) -> list[str]:
    """The combinations whose first figure can be placed."""
    return [name for name, kinds in COMBINATIONS.items()
            if placements(state, side, figure_kind(side, kinds[0]))]


def muster_legal(state: WotrState, side: int) -> bool:
    return any(placements(state, side, figure_kind(side, k)) for k in (REGULAR, LEADERS, ELITE))


@die_action("muster", (MUSTER, ARMY_MUSTER), muster_legal)
def start_muster(state: WotrState, side: int, face: int) -> None:
    state.stack.append(MusterCombination(side))


@dataclass
class MusterCombination(Frame):
    """WD-28: which figures one Muster result recruits."""

    side: int

    def run(self, state: WotrState) -> Decision | None:
        names = combinations(state, self.side)
        if not names:
            state.stack.pop()
            return None
        return Decision(self.side, WD.MUSTER_COMBINATION, tuple(choice(n) for n in names))

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        kinds = tuple(figure_kind(self.side, k) for k in COMBINATIONS[action[1]])
        state.stack.append(MusterPlacement(self.side, kinds))


@dataclass
class MusterPlacement(Frame):
    """WD-29: where the next figure of ``kinds`` goes (its nation is the Settlement's); DONE
    stops after the first figure."""

    side: int
    kinds: tuple[int, ...]
    placed: tuple[int, ...] = ()

    def run(self, state: WotrState) -> Decision | None:
        if len(self.placed) == len(self.kinds):
            state.stack.pop()
            return None
        kind = self.kinds[len(self.placed)]
        options: list[Action] = [("region", r)
                                 for r in placements(state, self.side, kind, self.placed)]
        if self.placed:
            options.insert(0, DONE)
        if not options:
            state.stack.pop()
            return None
        return Decision(self.side, WD.MUSTER_PLACEMENT, tuple(options),
                        context={"figure": FIGURES[kind]})

    def act(self, state: WotrState, action: Action) -> None:
        if action == DONE:
            state.stack.pop()
            return
        region = action[1]
        kind = self.kinds[len(self.placed)]
        nation = int(state.ruleset.board.region_nation[region])
        recruit(state, self.side, region, nation, kind)
        self.placed = (*self.placed, region)
        check_stacking(state, self.side, region)


def recruit(state: WotrState, side: int, region: int, nation: int, kind: int) -> None:
    """One figure from the reinforcements into the region's field."""
    state.reserve[nation, kind] -= 1
    state.army[region, nation, kind] += 1
    log(state, "recruit", side, region, nation, kind)


__all__ = ["COMBINATIONS", "MusterCombination", "MusterPlacement", "combinations",
           "figure_kind", "placements", "recruit"]
