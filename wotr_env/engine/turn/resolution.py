"""Phase 5, Action Resolution (spec §5.5, §6.4, §6.6, facts §7.1): the sides alternate choosing
a die (or an Elven Ring's change of one), then what the die does.

What a die may do is registered in :mod:`..dice` by the modules that implement it, so this
module holds the order of play and nothing of what an action does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boardkit.frames import Frame

from ..decision import (
    ARMY,
    ARMY_MUSTER,
    CHARACTER,
    EVENT,
    EYE,
    MUSTER,
    WD,
    Action,
    Decision,
    choice,
)
from ..dice import DIE_ACTIONS, spend_die, unused_dice, usable
from ..fellowship import mordor_idle_penalty
from ..state import FREE_PEOPLES, SHADOW, WotrState, log

# ``hook(state)`` before each choice of a die in Action Resolution (table cards whose play
# condition no longer holds are discarded then, cards/table.py); modules append.
ACTION_HOOKS: list[Callable[[WotrState], None]] = []


@dataclass
class ActionResolution(Frame):
    """Phase 5 (spec §5.5, §6.4, facts §7.1): the sides alternate, the Free Peoples first; a
    side with fewer unused dice may pass; a side without dice leaves the other to act on."""

    side: int = FREE_PEOPLES

    def run(self, state: WotrState) -> Decision | None:
        state.phase = 5
        for hook in ACTION_HOOKS:
            hook(state)
        mine, theirs = unused_dice(state, self.side), unused_dice(state, 1 - self.side)
        if not mine and not theirs:
            state.stack.pop()
            mordor_idle_penalty(state)
            return None
        if not mine:
            self.side = 1 - self.side
            return None
        # Every die may be chosen: ``usable`` always leaves it an action (skip, in 1e when
        # nothing else is legal), so its legality is computed only once the die is chosen.
        options: list[Action] = [("die", f) for f in sorted(set(mine))]
        if len(mine) < len(theirs):
            options.append(choice("pass"))
        options.extend(ring_options(state, self.side))
        return Decision(self.side, WD.CHOOSE_DIE, tuple(options))

    def act(self, state: WotrState, action: Action) -> None:
        side = self.side
        if action[0] == "ring":
            use_ring(state, side, action[1], action[2])
            return
        self.side = 1 - side
        if action == choice("pass"):
            log(state, "pass", side)
            return
        state.stack.append(DieAction(side, action[1]))



@dataclass
class DieAction(Frame):
    """WD-08: what the chosen die does."""

    side: int
    face: int

    def run(self, state: WotrState) -> Decision:
        return Decision(self.side, WD.DIE_ACTION,
                        tuple(("action", n) for n in usable(state, self.side, self.face)),
                        private=True, context={"face": self.face})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        spend_die(state, self.side, self.face)
        name = action[1]
        log(state, "die-action", self.side, self.face, name)
        if name != "skip":
            DIE_ACTIONS[name][2](state, self.side, self.face)


def ring_options(state: WotrState, side: int) -> list[Action]:
    """("ring", from, to): an Elven Ring changes an unused die (spec §6.6, facts §7.1)."""
    rules = state.ruleset.rules
    if not (state.rings == side).any() or state.ring_used[side]:
        return []
    if rules.elven_rings_per_turn == "shared" and state.ring_used.any():
        return []
    targets = ((CHARACTER, MUSTER, ARMY_MUSTER, EVENT) if side == FREE_PEOPLES
               else (CHARACTER, ARMY, MUSTER, ARMY_MUSTER, EVENT, EYE))
    out: list[Action] = []
    for f in sorted(set(unused_dice(state, side))):
        if f == EYE and not rules.shadow_ring_changes_eye:
            continue
        out.extend(("ring", f, t) for t in targets if t != f)
    return out


def use_ring(state: WotrState, side: int, face: int, to: int) -> None:
    """Change one unused die; the FP's Ring goes to the Shadow, the Shadow's leaves the game."""
    ring = int(next(i for i in range(3) if state.rings[i] == side))
    state.rings[ring] = SHADOW if side == FREE_PEOPLES else 2
    state.ring_used[side] = True
    spend_die(state, side, face)
    if to == EYE:
        state.hunt_box[1] += 1
    else:
        row = state.dice[side]
        n = int((row >= 0).sum())
        row[n] = to
        row[:n + 1] = sorted(row[:n + 1])
    log(state, "elven-ring", side, face, to)



__all__ = ["ACTION_HOOKS", "ActionResolution", "DieAction", "ring_options", "use_ring"]
