"""v2's mustering (D-05 / D-19): the area whose threat exceeds its defence first; the units as
v1 (:func:`..mustering.muster`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from got_env.engine.decision import Action

from .. import mustering
from ..view import _View
from .view import _ThreatView

if TYPE_CHECKING:
    from .agent import HeuristicV2Agent


def muster(agent: HeuristicV2Agent, vw: _View, actions: list[Action]) -> Action:
    """D-05 / D-19: the area whose threat exceeds its defence most is mustered first (new
    units answer the attack), then v1's order (castle level, threat); the units as v1."""
    areas = [a for a in actions if a[0] == "area"]
    if areas and isinstance(vw, _ThreatView):
        threat, held = vw.threats(), vw.held()
        return max(areas, key=lambda a: (threat[a[1]] > held[a[1]], vw.t.fort[a[1]],
                                         threat[a[1]]))
    return mustering.muster(agent, vw, actions)
