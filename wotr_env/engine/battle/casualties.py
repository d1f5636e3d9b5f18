"""Casualties, one hit at a time (WD-17; spec §12.6, §20 #21-#23; facts §7.2).

Each hit is absorbed by the side that takes it: remove a Regular (1 hit), downgrade an Elite to
a Regular of its nation (1 hit; the Regular comes from the casualties, else from the
reinforcements, and the Elite goes where an eliminated Elite goes, so figures are conserved:
:func:`regions.downgrade`), or remove an Elite (2 hits). With no Regular to downgrade with, the
downgrade option disappears for that nation; a single hit left over when every unit left is such
an Elite removes one of them (spec §20 #21). Only the force takes casualties, never the
rearguard. When a force has no unit left, its Leaders, Nazgûl and Characters are removed.

The attacker chooses his casualties first (spec §12.6): both sides' hits were scored before
either removes anything, so casualties are simultaneous and both forces can be wiped out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardkit.frames import Frame

from ..decision import WD, Action, Decision
from ..regions import downgrade, remove_figures
from ..state import ELITE, REGULAR, WotrState, log
from .forces import (
    ATTACKER,
    DEFENDER,
    N_NATIONS,
    battle_of,
    eliminate_followers,
    force,
    force_characters,
    place,
    role_of,
    side_of,
)

KILL_REGULAR, DOWNGRADE, KILL_ELITE = "regular", "downgrade", "elite"


def can_downgrade(state: WotrState, nation: int) -> bool:
    """A Regular of the nation is at hand to replace an Elite (spec §20 #22)."""
    return bool(state.casualties[nation, REGULAR] > 0 or state.reserve[nation, REGULAR] > 0)


def casualty_options(state: WotrState, role: int, hits: int) -> list[Action]:
    """("casualty", nation, what) for the next hit the role's force takes."""
    return figure_casualty_options(state, force(state, battle_of(state), role), hits)


def figure_casualty_options(state: WotrState, figures: np.ndarray, hits: int) -> list[Action]:
    """("casualty", nation, what) for the next hit taken by ``figures`` (nations, kinds), ``hits``
    still to absorb: shared by battles and by cards' hits (``cards/hits.py``)."""
    options: list[Action] = []
    for n in range(N_NATIONS):
        if figures[n, REGULAR] > 0:
            options.append(("casualty", n, KILL_REGULAR))
        if figures[n, ELITE] > 0 and can_downgrade(state, n):
            options.append(("casualty", n, DOWNGRADE))
        if figures[n, ELITE] > 0 and hits >= 2:
            options.append(("casualty", n, KILL_ELITE))
    if not options and hits == 1:  # only Elites that cannot be downgraded: one goes for 1 hit
        options = [("casualty", n, KILL_ELITE) for n in range(N_NATIONS) if figures[n, ELITE]]
    return options


def take_casualty(state: WotrState, role: int, nation: int, what: str) -> int:
    """Apply one casualty to the role's force; the hits it absorbed."""
    battle = battle_of(state)
    region, box = place(battle, role)
    cost = remove_casualty(state, region, box, nation, what)
    log(state, "casualty", side_of(battle, role), nation, what)
    return cost


def remove_casualty(state: WotrState, region: int, box: bool, nation: int, what: str) -> int:
    """One casualty of the nation in the region's field (or box); the hits it absorbed."""
    if what == KILL_REGULAR:
        remove_figures(state, region, nation, REGULAR, 1, box)
        return 1
    if what == DOWNGRADE:
        if not downgrade(state, region, nation, box):
            raise RuntimeError(f"no Regular to downgrade an Elite of nation {nation}")
        return 1
    remove_figures(state, region, nation, ELITE, 1, box)
    return 2


@dataclass
class Casualties(Frame):
    """WD-17: the side of ``role`` absorbs ``hits``, one choice per hit (a forced one is played
    without asking); hits beyond the force's units are lost. Then, if the force has no unit
    left, its Leaders and Characters go too (at once: no Free Peoples Leader stands alone
    while the other side chooses its casualties)."""

    role: int
    hits: int

    def run(self, state: WotrState) -> Decision | None:
        options = casualty_options(state, self.role, self.hits) if self.hits > 0 else []
        if not options:
            state.stack.pop()
            wipe_out(state, self.role)
            return None
        battle = battle_of(state)
        return Decision(side_of(battle, self.role), WD.CASUALTY, tuple(options),
                        context={"hits": self.hits, "battle": (battle.src, battle.dst)})

    def act(self, state: WotrState, action: Action) -> None:
        _, nation, what = action
        self.hits -= min(self.hits, take_casualty(state, self.role, nation, what))


def wipe_out(state: WotrState, role: int) -> None:
    """A force with no unit left loses its Leaders, Nazgûl and Characters (spec §12.6)."""
    battle = battle_of(state)
    figures = force(state, battle, role)
    chars = force_characters(state, battle, role)
    if figures[:, :2].sum() == 0 and (figures.any() or chars):
        region, box = place(battle, role)
        eliminate_followers(state, region, side_of(battle, role), box, figures, chars)


def push_casualties(state: WotrState, hits: tuple[int, int]) -> None:
    """Push the removal of ``hits`` (scored by the Free Peoples, by the Shadow): the attacker
    removes his casualties first, then the defender.
    Combat effects use it for extra attacks whose casualties are taken at once."""
    battle = battle_of(state)
    taken = [0, 0]  # hits each role takes
    for side in (0, 1):
        taken[1 - role_of(battle, side)] += hits[side]
    state.stack.append(Casualties(DEFENDER, taken[DEFENDER]))
    state.stack.append(Casualties(ATTACKER, taken[ATTACKER]))


__all__ = ["DOWNGRADE", "KILL_ELITE", "KILL_REGULAR", "Casualties", "can_downgrade",
           "casualty_options", "figure_casualty_options", "push_casualties", "remove_casualty",
           "take_casualty", "wipe_out"]
