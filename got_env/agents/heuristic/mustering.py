"""Mustering (D-05, and the Horde Descends' muster, D-19): where, and which units."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from got_env.engine.decision import Action, DecisionKind
from got_env.engine.state import FOOTMAN, KNIGHT, SEA, SHIP, SIEGE_ENGINE

from .view import _View

if TYPE_CHECKING:
    from .agent import Handler, HeuristicAgent

K = DecisionKind
#: A muster option worth less than this is not worth the supply it takes: the muster is done.
WORTH_ITS_SUPPLY = 0.5


def muster(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-05 / D-19: pick the area with the most points (the most threatened first), then
    Knights in strongholds, Footmen otherwise, Ships where enemy ships are near or we have
    none; a Footman upgraded to a Knight when no new unit fits; Siege Engines only next to
    an enemy castle; done when nothing left is worth its supply."""
    areas = [a for a in actions if a[0] == "area"]
    if areas:
        threat = vw.threats()
        return max(areas, key=lambda a: (vw.t.fort[a[1]], threat[a[1]]))
    units = [a for a in actions if a[0] in ("muster", "upgrade")]
    best = max(units, key=lambda a: muster_score(vw, a), default=None)
    if best is None or muster_score(vw, best) < WORTH_ITS_SUPPLY:
        return ("done",)
    return best


def muster_score(vw: _View, action: Action) -> float:
    """Worth of one muster option; below :data:`WORTH_ITS_SUPPLY` it is not worth the supply
    it takes."""
    t = vw.t
    area = action[2] if action[0] == "muster" else int(np.argmax(vw.v["decision_area"]))
    near_enemy_castle = any(t.fort[b] > 0 and vw.control[b] > 0 for b in t.neighbours[area])
    if action[0] == "upgrade":  # a Footman becomes a Knight (+1) or a Siege Engine
        if action[1] == KNIGHT:
            return 1.1
        return 1.0 if near_enemy_castle else 0.0  # a Siege Engine defends with 0
    _, u, dest = action
    if u == KNIGHT:
        return 2.6  # 2 strength for 2 points: the best use of a stronghold
    if u == FOOTMAN:
        return 1.2
    if u == SIEGE_ENGINE:
        return 1.5 if near_enemy_castle else 0.2
    # ships: where rival ships outnumber ours nearby, or we have no fleet there
    sea = dest if t.kind[dest] == SEA else int(np.flatnonzero(t.adj[dest] & (t.kind == SEA))[0])
    seas = np.flatnonzero(t.sea_adj[sea]).tolist() + [sea]
    enemy_ships = vw.standing[seas][:, 1:, SHIP].sum()
    own_ships = vw.mine[seas, SHIP].sum()
    score = 0.5 + 0.7 * (enemy_ships > own_ships) + 0.3 * (own_ships == 0)
    return score + (0.05 if t.kind[dest] == SEA else 0.0)


HANDLERS: dict[DecisionKind, Handler] = {
    K.MUSTER: muster,
    K.HORDE_DESCENDS_MUSTER: muster,
}
