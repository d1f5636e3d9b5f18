"""Moving the Nazgûl and the Minions with a Shadow Character die (WD-24; facts §7.1, §7.3, §7.7,
§3.4; spec §11.2, §20 #2, #34, #35).

One die moves every Nazgûl on the map (figures of Sauron in ``state.army``) and every Minion,
each once: a Nazgûl, and the Witch-king like one, flies to any region, except one with a Free
Peoples-controlled Stronghold that no Shadow Army besieges; the Mouth of Sauron goes up to 3
regions alone, ignoring enemy Armies, under the same limit, and passes through no region whose
Stronghold the enemy besieges; Saruman never leaves Orthanc. Figures inside a besieged
Stronghold's box stay there (reading: besieged figures do not fly out).
"""

from __future__ import annotations

from dataclasses import dataclass

from boardkit.frames import Frame

from .companions import besieged_by
from .decision import CHARACTER, DONE, WD, Action, Decision
from .dice import die_action
from .hunt import SAURON
from .regions import STRONGHOLD
from .state import FREE_PEOPLES, NAZGUL, SHADOW, WotrState, log

MOUTH_REACH = 3  # the Mouth of Sauron alone (facts §3.4, §7.7)
FLYERS = ("witch-king",)  # Minions that move like a Nazgûl


def closed_to_minions(state: WotrState, region: int) -> bool:
    """A Free Peoples-controlled Stronghold that no Shadow Army besieges (facts §7.3)."""
    return bool(state.ruleset.board.settlement[region] == STRONGHOLD
                and state.control[region] == FREE_PEOPLES
                and not besieged_by(state, region, SHADOW))


def flight_destinations(state: WotrState, start: int) -> list[int]:
    """Where a Nazgûl (or the Witch-king) at ``start`` may fly."""
    return [r for r in range(len(state.control)) if r != start and not closed_to_minions(state, r)]


def mouth_destinations(state: WotrState, start: int) -> list[int]:
    """Where the Mouth of Sauron may go alone: up to 3 regions, not into a closed region, not
    on through a region whose Shadow Stronghold the Free Peoples besiege (spec §11.2)."""
    board = state.ruleset.board
    seen, frontier, out = {start}, [start], []
    for _ in range(MOUTH_REACH):
        step = []
        for r in frontier:
            if r != start and besieged_by(state, r, FREE_PEOPLES):
                continue
            for n in map(int, board.neighbours[r]):
                if n not in seen and not closed_to_minions(state, n):
                    seen.add(n)
                    step.append(n)
        out.extend(step)
        frontier = step
    return sorted(out)


def minion_destinations(state: WotrState, c: int) -> list[int]:
    """Where the Minion ``c`` may move now ([] for Saruman, or one in a Stronghold's box)."""
    where = int(state.char_at[c])
    if where < 0 or state.char_in_box[c]:
        return []
    name = state.ruleset.cards.characters[c].id
    if name in FLYERS:
        return flight_destinations(state, where)
    if name == "mouth-of-sauron":
        return mouth_destinations(state, where)
    return []  # Saruman, Level 0, never leaves Orthanc


def minions_on_map(state: WotrState) -> list[int]:
    cards = state.ruleset.cards
    return [c for c, ch in enumerate(cards.characters)
            if ch.kind == "minion" and minion_destinations(state, c)]


def move_minions_legal(state: WotrState, side: int) -> bool:
    return side == SHADOW and (bool(state.army[:, SAURON, NAZGUL].any())
                               or bool(minions_on_map(state)))


@die_action("move-minions", (CHARACTER,), move_minions_legal)
def start_move_minions(state: WotrState, side: int, face: int) -> None:
    state.stack.append(MoveMinions())


@dataclass
class MoveMinions(Frame):
    """WD-24: pick a region with a Nazgûl not yet moved, or a Minion, then its destination;
    DONE ends the action. ``arrived`` lists the regions moved Nazgûl arrived in (one entry
    each), so that no Nazgûl moves twice."""

    arrived: tuple[int, ...] = ()
    moved: tuple[int, ...] = ()
    source: int = -1
    who: int = -1

    def waiting(self, state: WotrState, r: int) -> int:
        return int(state.army[r, SAURON, NAZGUL]) - self.arrived.count(r)

    def run(self, state: WotrState) -> Decision | None:
        if self.source >= 0:
            ends = flight_destinations(state, self.source)
        elif self.who >= 0:
            ends = minion_destinations(state, self.who)
        else:
            sources = [("region", r) for r in range(len(state.control))
                       if self.waiting(state, r) > 0]
            minions = [("character", c) for c in minions_on_map(state) if c not in self.moved]
            if not sources and not minions:
                state.stack.pop()
                return None
            return Decision(SHADOW, WD.MOVE_MINIONS, (DONE, *sources, *minions),
                            context={"stage": "source"})
        return Decision(SHADOW, WD.MOVE_MINIONS, tuple(("region", r) for r in ends),
                        context={"stage": "destination", "from": self.source, "who": self.who})

    def act(self, state: WotrState, action: Action) -> None:
        if action == DONE:
            state.stack.pop()
        elif self.source < 0 and self.who < 0:
            if action[0] == "region":
                self.source = action[1]
            else:
                self.who = action[1]
        elif self.source >= 0:
            state.army[self.source, SAURON, NAZGUL] -= 1
            state.army[action[1], SAURON, NAZGUL] += 1
            log(state, "nazgul-move", self.source, action[1])
            self.arrived, self.source = (*self.arrived, action[1]), -1
        else:
            state.char_at[self.who] = action[1]
            log(state, "minion-move", self.who, action[1])
            self.moved, self.who = (*self.moved, self.who), -1


__all__ = ["MoveMinions", "closed_to_minions", "flight_destinations", "minion_destinations",
           "mouth_destinations"]
