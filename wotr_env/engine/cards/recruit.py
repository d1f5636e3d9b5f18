"""Recruiting by card (spec §7.5, facts §6 "card rules"): figures from the reinforcements,
whatever the nation's political status, into a region that is otherwise free for the side, a
Stronghold besieged by the enemy included (into its box); the stacking limits still hold
(10 units in a region, 5 in a box) and what cannot be placed is not (a card does what it can).

A card lists its figures as kinds (``"regular"``, ``"elite"``, ``"leader"``, ``"nazgul"``) or
``"unit"``: a Regular or an Elite of the player's choice (WD-34; only what the reinforcements
hold is offered).
"""

from __future__ import annotations

from ...data import FIGURES
from ..decision import Action
from ..regions import NATIONS_OF, units
from ..state import ELITE, REGULAR, WotrState, log
from .common import Choose, choice_step

UNITS_PER_REGION, UNITS_PER_BOX = 10, 5


def recruit_target(state: WotrState, side: int, region: int) -> str | None:
    """Where a card's recruits go in ``region``: "army", "box" (a Stronghold of the side
    besieged by the enemy), or None (an enemy Settlement, or enemy units in the field)."""
    if state.control[region] == 1 - side:
        return None
    if units(state, region, 1 - side):
        own_box = state.box[region, NATIONS_OF[side]].any()
        return "box" if own_box else None
    return "army"


def room(state: WotrState, side: int, region: int, target: str) -> int:
    if target == "box":
        return UNITS_PER_BOX - units(state, region, side, box=True)
    return UNITS_PER_REGION - units(state, region, side)


def place(state: WotrState, side: int, region: int, nation: int, kind: int) -> bool:
    """One figure from the reinforcements into the region (or its box); False if it cannot."""
    target = recruit_target(state, side, region)
    if target is None or state.reserve[nation, kind] <= 0:
        return False
    if kind in (REGULAR, ELITE) and room(state, side, region, target) <= 0:
        return False
    grid = state.box if target == "box" else state.army
    state.reserve[nation, kind] -= 1
    grid[region, nation, kind] += 1
    log(state, "recruit", side, region, nation, kind)
    return True


def recruit(state: WotrState, side: int, region: int, nation: int,
            figures: tuple[str, ...]) -> None:
    """Recruit ``figures`` of ``nation`` in ``region``, asking for each ``"unit"``."""
    state.stack.append(Choose(side, "recruit", (region, nation, figures)))


def _recruit_options(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    region, nation, figures = frame.data
    if not figures:
        return ()
    if figures[0] != "unit":
        return (("figure", FIGURES.index(figures[0])),)
    target = recruit_target(state, frame.side, region)
    if target is None or room(state, frame.side, region, target) <= 0:
        return (("figure", REGULAR),)  # nothing can be placed: played as a no-op
    return tuple(("figure", k) for k in (REGULAR, ELITE) if state.reserve[nation, k] > 0) \
        or (("figure", REGULAR),)


@choice_step("recruit", _recruit_options)
def _recruit_one(state: WotrState, frame: Choose, action: Action) -> None:
    region, nation, figures = frame.data
    place(state, frame.side, region, nation, action[1])
    if figures[1:]:
        state.stack.append(Choose(frame.side, "recruit", (region, nation, figures[1:])))
