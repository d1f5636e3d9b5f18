"""Action phase, Consolidate Power: which order next (D-48) and what a special one in a castle
does (D-49)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from got_env.engine.decision import Action, DecisionKind

from .choices import choice
from .view import _View

if TYPE_CHECKING:
    from .agent import Handler, HeuristicAgent

K = DecisionKind


def consolidate_to_resolve(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-48: the order changes nothing: the area with the most crowns first."""
    return max((a for a in actions if a[0] == "area"), key=lambda a: vw.t.crowns[a[1]])


def consolidate_special(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-49: muster (new units take castles) unless we are short of power with no enemy
    near the area."""
    area = int(np.argmax(vw.v["decision_area"]))
    if vw.power[0] < 2 and vw.threats()[area] == 0:
        return choice("gain-power")
    return choice("mustering")


HANDLERS: dict[DecisionKind, Handler] = {
    K.CONSOLIDATE_TO_RESOLVE: consolidate_to_resolve,
    K.CONSOLIDATE_SPECIAL: consolidate_special,
}
