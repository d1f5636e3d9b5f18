"""The action dice of phase 5 (spec §5.5, §6.4): what a die may do, which dice are unused,
spending one.

A die action is registered by the module that implements it (:func:`die_action`: armies,
battles, the Hunt, the cards...), so this module holds no rule of what an action does, and the
turn (:mod:`.turn`) asks only :func:`usable`. The actions a die allows are offered in the
order of :data:`ORDER`, whatever order their modules were imported in.
"""

from __future__ import annotations

from collections.abc import Callable

from .decision import ARMY, ARMY_MUSTER, CHARACTER, EVENT, MUSTER, WILL
from .state import WotrState

# die action name -> (faces it may use, legal, start(state, side, face), legal takes the face)
Legal = Callable[..., bool]
Start = Callable[[WotrState, int, int], None]
DIE_ACTIONS: dict[str, tuple[frozenset[int], Legal, Start, bool]] = {}
# The order a die's actions are offered in (WD-08's options): fixed here, so that it does not
# follow the order the rule modules happen to be imported in.
ORDER = ("move-armies", "leader-move", "diplomacy", "attack", "leader-attack", "muster",
         "nation-ability", "voice-of-saruman", "messenger", "bring-character", "bring-minion",
         "separate", "move-companions", "play-event", "move-fellowship", "hide", "move-minions",
         "discard-table-card", "draw-event", "discard-palantir")


def die_action(name: str, faces: tuple[int, ...], legal: Legal,
               per_face: bool = False) -> Callable[[Start], Start]:
    """Register the die action ``name``, usable with a die of one of ``faces`` when
    ``legal(state, side)`` (``per_face``: ``legal(state, side, face)``, for an action whose
    legality depends on the face, such as playing a card of the die's icon): ``start`` pushes
    its frames (the die is already spent)."""

    def register(start: Start) -> Start:
        if name in DIE_ACTIONS:
            raise ValueError(f"die action {name!r} registered twice")
        if name not in ORDER:
            raise ValueError(f"die action {name!r} has no place in dice.ORDER")
        DIE_ACTIONS[name] = (frozenset(faces), legal, start, per_face)
        return start

    return register


def usable(state: WotrState, side: int, face: int) -> list[str]:
    """The die actions a die of ``face`` allows ``side`` now (``skip`` where the rules have
    it; in 1e a die is skipped only when nothing else is legal)."""
    faces = {face, CHARACTER, ARMY, MUSTER, ARMY_MUSTER, EVENT} if face == WILL else {face}
    if face == ARMY_MUSTER:
        faces |= {ARMY, MUSTER}
    names = []
    for name in ORDER:
        if name not in DIE_ACTIONS:
            continue
        ok_faces, legal, _, per_face = DIE_ACTIONS[name]
        if ok_faces & faces and (legal(state, side, face) if per_face else legal(state, side)):
            names.append(name)
    if state.ruleset.rules.skip_die or not names:
        names.append("skip")
    return names


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


__all__ = ["DIE_ACTIONS", "ORDER", "die_action", "spend_die", "unused_dice", "usable"]
