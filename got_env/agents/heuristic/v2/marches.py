"""v2's March plans (D-26/D-27, and the Marches of its order planning): v1's plan
(:func:`..marches.evaluate_march`), then weighed for what it leaves behind and where it goes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from got_env.data import UNIT_TYPES
from got_env.engine.decision import Action

from ..marches import MarchPlan, attack_chance, evaluate_march
from ..view import _View
from .view import _ThreatView

if TYPE_CHECKING:
    from .agent import HeuristicV2Agent


def guarded_march(agent: HeuristicV2Agent, vw: _View, src: int, moves: list[Action] | None,
                  claimed: set[int] | frozenset = frozenset(), planning: bool = False
                  ) -> MarchPlan:
    """v1's March plan, then:

    * moves into free areas where the arriving units are weaker than the threat there are
      dropped (:func:`safe_moves`);
    * out of our home area (the agent's ``GUARD_STAKE``), units are taken back from the plan
      (spreading and approaching moves first, the strongest unit first, then the attack's)
      until what stays (units + garrison) is at least the threat against it; an attack left
      with less than an even chance is called off, and the plan's worth loses the home's
      stake if it still cannot hold."""
    worth, queue, target, need = evaluate_march(vw, src, moves, claimed, planning)
    if not queue or not isinstance(vw, _ThreatView) or not vw.t.is_land[src]:
        return worth, queue, target, need
    if agent.SAFE_MOVES is not None:
        queue = safe_moves(agent, vw, queue, target)
        if not queue:
            return 0.0, [], None, need
    stake = vw.stake(src)
    threat = float(vw.threats()[src]) - agent.GUARD_MARGIN
    if stake < agent.GUARD_STAKE or threat <= 0:
        return worth, queue, target, need
    strength = vw.t.base_strength

    def stays(q: list[Action]) -> float:
        return float(vw.held()[src]) - sum(strength[m[1]] for m in q)

    if stays(queue) >= threat:
        return worth, queue, target, need
    attack = [m for m in queue if target is not None and m[2] == target]
    other = [m for m in queue if target is None or m[2] != target]
    other = sorted(other, key=lambda m: -strength[m[1]])
    while other and stays(attack + other) < threat:
        other.pop(0)
    if stays(attack + other) < threat and attack:
        attack = sorted(attack, key=lambda m: strength[m[1]])
        while attack and stays(attack + other) < threat:
            attack.pop()
        if attack:
            send = np.zeros(len(UNIT_TYPES), dtype=int)
            for m in attack:
                send[m[1]] += 1
            p, need = attack_chance(vw, src, target, vw.defender(target), send, planning)
            if p < 0.5:
                attack = []
    # keep the order of v1's plan (attack moves first, as v1 plays them)
    budget: dict[Action, int] = {}
    for m in attack + other:
        budget[m] = budget.get(m, 0) + 1
    new_queue = []
    for m in queue:
        if budget.get(m, 0) > 0:
            new_queue.append(m)
            budget[m] -= 1
    if not attack:
        target = None
    if not new_queue:
        return 0.0, [], None, need
    risk = stake * (1.0 if stays(new_queue) < threat else 0.0)
    return worth * len(new_queue) / len(queue) - risk, new_queue, target, need


def safe_moves(agent: HeuristicV2Agent, vw: _ThreatView, queue: list[Action],
               target: int | None) -> list[Action]:
    """Moves into areas nobody holds are dropped when the units arriving there are weaker
    than the threat against that area by more than the agent's ``SAFE_MOVES`` (they would
    only be killed next round, v1's spreading fed rivals one Footman at a time); attacks
    stay."""
    threat = vw.threats()
    into: dict[int, float] = {}
    for m in queue:
        into[m[2]] = into.get(m[2], 0.0) + vw.t.base_strength[m[1]]
    return [m for m in queue if m[2] == target or vw.defender(m[2]) != -1
            or (not agent.SAFE_INTO_CASTLES and vw.t.fort[m[2]] > 0)
            or into[m[2]] + agent.SAFE_MOVES >= threat[m[2]]]
