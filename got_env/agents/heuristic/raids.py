"""Action phase, the Raids (D-24: which Raid next, D-25: which order it removes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from got_env.engine.decision import Action, DecisionKind

from .view import _View

if TYPE_CHECKING:
    from .agent import Handler, HeuristicAgent

K = DecisionKind
#: What removing a rival's order of each type is worth: his Consolidate Power (we pillage a
#: power), his Support (a combat may hinge on it), Defense (special Raid only), Raid.
RAID_TARGET_VALUE = {"consolidate-power": 4.0, "support": 3.5, "raid": 2.0, "defense": 2.5,
                     "march": 0.0}


def raid_score(vw: _View, target: int) -> float:
    """Worth of removing the order in ``target`` (:data:`RAID_TARGET_VALUE`, more for a
    special token and for crowns)."""
    tok = vw.order[target]
    if tok < 0:
        return 0.0
    val = RAID_TARGET_VALUE[vw.t.tok_type[tok]] + (0.5 if vw.t.tok_special[tok] else 0)
    return val + 0.1 * vw.t.crowns[target]


def raid_to_resolve(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-24: the Raid with the most valuable target first."""
    t = vw.t

    def best(a: int) -> float:
        special = vw.order[a] >= 0 and t.tok_special[vw.order[a]]
        scores = [raid_score(vw, int(b)) for b in np.flatnonzero(t.can_raid[a])
                  if vw.occupant[b] > 0 and vw.order[b] >= 0
                  and (t.tok_type[vw.order[b]] != "defense" or special)]
        return max(scores, default=0.0)

    return max((a for a in actions if a[0] == "area"), key=lambda a: best(a[1]))


def raid_target(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-25: remove the most valuable order in reach; done only when there is none."""
    targets = [a for a in actions if a[0] == "area"]
    if not targets:
        return ("done",)
    return max(targets, key=lambda a: raid_score(vw, a[1]))


HANDLERS: dict[DecisionKind, Handler] = {
    K.RAID_TO_RESOLVE: raid_to_resolve,
    K.RAID_TARGET: raid_target,
}
