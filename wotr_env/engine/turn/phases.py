"""The turn (spec §5): draw, Fellowship phase, Hunt allocation, action roll, action resolution,
victory check, each phase a frame pushed by :class:`Turn`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardkit.frames import Frame

from ..decision import EYE, WD, Action, Decision
from ..fellowship import companions_in_fellowship, fellowship_phase_frames
from ..state import ELIMINATED, FREE_PEOPLES, NOT_IN_PLAY, SHADOW, WotrState, log
from ..victory import check_military_victory
from .hand import DiscardToLimit
from .resolution import ActionResolution

# ---------------------------------------------------------------------------------------------
# The turn


@dataclass
class Turn(Frame):
    """The bottom frame: each run starts the next turn, its phases pushed in reverse order."""

    def run(self, state: WotrState) -> None:
        if state.max_turns is not None and state.turn >= state.max_turns:
            state.truncated = True
            return None
        state.turn += 1
        for phase in (VictoryCheck(), ActionResolution(), ActionRoll(), HuntAllocation(),
                      FellowshipPhase(), DrawPhase()):
            state.stack.append(phase)
        return None


@dataclass
class DrawPhase(Frame):
    """Phase 1 (spec §5.1, facts §7.1): every die comes back, then each side draws one card
    from each deck that is not empty, then discards down to the hand limit."""

    def run(self, state: WotrState) -> None:
        state.phase = 1
        state.fp_dice_returned = int(state.hunt_box[2])
        state.hunt_box[:] = 0
        state.dice[:] = -1
        state.ring_used[:] = False
        state.fellowship_acted = False
        for side in (FREE_PEOPLES, SHADOW):
            state.dice_pool[side] = dice_pool_size(state, side)
            for deck in (2 * side, 2 * side + 1):
                if state.decks[deck]:
                    state.hands[side].append(state.decks[deck].pop())
        state.stack.pop()
        for side in (SHADOW, FREE_PEOPLES):  # pushed in reverse: the Free Peoples discard first
            state.stack.append(DiscardToLimit(side))
        return None



@dataclass
class FellowshipPhase(Frame):
    """Phase 2 (spec §5.2, facts §7.6, §7.9): declare, enter Mordor, change the Guide."""

    def run(self, state: WotrState) -> None:
        state.phase = 2
        state.declared_in = -1
        state.stack.pop()
        state.stack.extend(reversed(fellowship_phase_frames(state)))
        return None


@dataclass
class HuntAllocation(Frame):
    """Phase 3, WD-06 (spec §6.3, facts §4.4): the Shadow puts 0..max(1, companions) dice in
    the Hunt Box; in 2e at least one if the Free Peoples took a die back from it this turn."""

    def run(self, state: WotrState) -> Decision:
        state.phase = 3
        most = min(max(1, len(companions_in_fellowship(state))), int(state.dice_pool[SHADOW]))
        least = 1 if state.ruleset.rules.hunt_minimum_allocation and state.fp_dice_returned else 0
        least = min(least, most)
        return Decision(SHADOW, WD.HUNT_ALLOCATION,
                        tuple(("count", n) for n in range(least, most + 1)))

    def act(self, state: WotrState, action: Action) -> None:
        state.hunt_box[0] = action[1]
        log(state, "hunt-allocation", action[1])
        state.stack.pop()


@dataclass
class ActionRoll(Frame):
    """Phase 4 (spec §5.4): both sides roll; every Eye goes into the Hunt Box."""

    def run(self, state: WotrState) -> None:
        state.phase = 4
        faces = state.ruleset.cards.die_faces  # (side, 6): the faces of each side's die
        for side in (FREE_PEOPLES, SHADOW):
            n = int(state.dice_pool[side]) - (int(state.hunt_box[0]) if side == SHADOW else 0)
            rolled = [int(faces[side, r - 1]) for r in state.chance.roll(side, n)]
            eyes = rolled.count(EYE)
            kept = sorted(f for f in rolled if f != EYE)
            state.hunt_box[1] += eyes
            state.dice[side, :] = -1
            state.dice[side, :len(kept)] = kept
            log(state, "roll", side, tuple(rolled))
        state.stack.pop()
        return None


@dataclass
class VictoryCheck(Frame):
    """Phase 6 (facts §7.12): the Shadow wins with 10 VP, else the Free Peoples with 4."""

    def run(self, state: WotrState) -> None:
        state.phase = 6
        state.stack.pop()
        check_military_victory(state)
        return None


def dice_pool_size(state: WotrState, side: int) -> int:
    """The side's dice: its start plus one per die-bonus character in play (facts §5); the
    Draw phase recovers this many (the pool follows the characters in play)."""
    cards = state.ruleset.cards
    in_play = (state.char_at != NOT_IN_PLAY) & (state.char_at != ELIMINATED)
    bonus = int(np.sum(cards.character_die_bonus[in_play & (cards.character_side == side)]))
    return min(cards.dice.sides[side].start + bonus, cards.dice.sides[side].maximum)


__all__ = ["ActionRoll", "DrawPhase", "FellowshipPhase", "HuntAllocation", "Turn",
           "VictoryCheck", "dice_pool_size"]
