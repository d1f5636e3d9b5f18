"""The turn (spec §5): draw, Fellowship phase, Hunt allocation, action roll, action resolution,
victory check, each phase a frame pushed by :class:`Turn`.

Phase 5's die actions are registered by the modules that implement them (:func:`die_action`),
so this module holds the order of play and nothing of what an action does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boardkit.frames import Frame

from .decision import (
    ARMY,
    ARMY_MUSTER,
    CHARACTER,
    EVENT,
    EYE,
    MUSTER,
    WD,
    WILL,
    Action,
    Decision,
    choice,
)
from .state import FREE_PEOPLES, SHADOW, WotrState

HAND_LIMIT = 6

# die action name -> (faces it may use, legal, start(state, side, face), legal takes the face)
Legal = Callable[..., bool]
Start = Callable[[WotrState, int, int], None]
DIE_ACTIONS: dict[str, tuple[frozenset[int], Legal, Start, bool]] = {}
# ``hook(state)`` before each choice of a die in Action Resolution (table cards whose play
# condition no longer holds are discarded then, cards/table.py); modules append.
ACTION_HOOKS: list[Callable[[WotrState], None]] = []


def die_action(name: str, faces: tuple[int, ...], legal: Legal,
               per_face: bool = False) -> Callable[[Start], Start]:
    """Register the die action ``name``, usable with a die of one of ``faces`` when
    ``legal(state, side)`` (``per_face``: ``legal(state, side, face)``, for an action whose
    legality depends on the face, such as playing a card of the die's icon): ``start`` pushes
    its frames (the die is already spent)."""

    def register(start: Start) -> Start:
        if name in DIE_ACTIONS:
            raise ValueError(f"die action {name!r} registered twice")
        DIE_ACTIONS[name] = (frozenset(faces), legal, start, per_face)
        return start

    return register


def log(state: WotrState, *event: object) -> None:
    """A public event (the log is in every observer's view)."""
    state.log.append((state.turn, *event))


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
        from .setup import dice_pool_size  # (the pool follows the characters in play)

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
class DiscardToLimit(Frame):
    """WD-01: discard face down, one card at a time, down to the hand limit (spec §7.2)."""

    side: int

    def run(self, state: WotrState) -> Decision | None:
        hand = state.hands[self.side]
        if len(hand) <= HAND_LIMIT:
            state.stack.pop()
            return None
        return Decision(self.side, WD.DISCARD, tuple(("card", c) for c in sorted(set(hand))),
                        secret=True)

    def act(self, state: WotrState, action: Action) -> None:
        state.hands[self.side].remove(action[1])
        state.face_down[self.side].append(action[1])
        log(state, "discard-face-down", self.side)


@dataclass
class FellowshipPhase(Frame):
    """Phase 2 (spec §5.2, facts §7.6, §7.9): declare, enter Mordor, change the Guide."""

    def run(self, state: WotrState) -> None:
        from .fellowship import fellowship_phase_frames

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
        from .fellowship import companions_in_fellowship

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


def unused_dice(state: WotrState, side: int) -> list[int]:
    """The faces of ``side``'s dice still to be used this turn."""
    return [int(f) for f in state.dice[side] if f >= 0]


def spend_die(state: WotrState, side: int, face: int) -> None:
    """Set one unused die of ``face`` aside."""
    row = state.dice[side]
    for i in range(len(row)):
        if row[i] == face:
            row[i:-1] = row[i + 1:].copy()
            row[-1] = -1
            return
    raise RuntimeError(f"no unused {face} die for side {side}")


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
            from .fellowship import mordor_idle_penalty
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


def usable(state: WotrState, side: int, face: int) -> list[str]:
    """The die actions a die of ``face`` allows ``side`` now (``skip`` where the rules have
    it; in 1e a die is skipped only when nothing else is legal)."""
    faces = {face, CHARACTER, ARMY, MUSTER, ARMY_MUSTER, EVENT} if face == WILL else {face}
    if face == ARMY_MUSTER:
        faces |= {ARMY, MUSTER}
    names = [name for name, (ok_faces, legal, _, per_face) in DIE_ACTIONS.items()
             if name != "skip" and ok_faces & faces
             and (legal(state, side, face) if per_face else legal(state, side))]
    if state.ruleset.rules.skip_die or not names:
        names.append("skip")
    return names


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


@dataclass
class VictoryCheck(Frame):
    """Phase 6 (facts §7.12): the Shadow wins with 10 VP, else the Free Peoples with 4."""

    def run(self, state: WotrState) -> None:
        from .victory import check_military_victory

        state.phase = 6
        state.stack.pop()
        check_military_victory(state)
        return None


__all__ = ["ACTION_HOOKS", "DIE_ACTIONS", "HAND_LIMIT", "MUSTER", "Turn", "die_action", "log",
           "spend_die", "unused_dice", "usable"]
