"""v2's order planning (D-20): v1's planner (:class:`..orders.OrderPlanner`) with a guard step
first and a few hooks changed; what is not named here plans as v1."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..orders import OrderPlanner
from .view import _ThreatView

if TYPE_CHECKING:
    from .agent import HeuristicV2Agent

#: Our areas of at least this stake, threatened beyond what stays there, are endangered: Support
#: goes next to them.
ENDANGERED_STAKE = 2.0


class ThreatOrderPlanner(OrderPlanner):
    """D-20: a token for every area without an order, by :meth:`steps`:

    1. Defense on our home area (:attr:`HeuristicV2Agent.PLAN_GUARD_STAKE`) when its units and
       garrison do not beat the strongest attack a rival can bring next round (the special
       Defense when +1 is not enough): v1 left Lannisport open to the attack that lost
       Lannister the game;
    2. March where the agent's ``_evaluate_march`` finds a worthwhile plan (which keeps guards
       behind), the best first, with a little noise (``temperature``) so that plans vary;
    3. Support next to a planned attack, and next to our home or castles still weaker than
       their threat after the marches leave;
    4. Raid next to a rival's area; the special Raid next to a rival's castle or home, where a
       Defense order is likely (only it removes one, R12.2);
    5. the rest: Defense first on a castle (:attr:`HeuristicV2Agent.REST_DEFENSE_STAKE`) whose
       units do not beat its threat, else Consolidate Power (the special one in a castle, to
       muster), as v1."""

    agent: HeuristicV2Agent
    vw: _ThreatView

    def __init__(self, agent: HeuristicV2Agent, vw: _ThreatView, areas: list[int]):
        super().__init__(agent, vw, areas)
        self.held = vw.held()

    def steps(self) -> tuple[Callable[[], None], ...]:
        return self.guards, self.marches, self.support, self.raids, self.rest

    def guards(self) -> None:
        """Defense on our areas of at least the agent's ``PLAN_GUARD_STAKE`` whose threat
        reaches what we hold there; the highest stake first."""
        t, vw, guards = self.t, self.vw, []
        for a in self.areas:
            stake = vw.stake(a)
            threat = self.threat[a]
            if t.is_land[a] and stake >= self.agent.PLAN_GUARD_STAKE and threat > 0 \
                    and threat >= self.held[a]:
                guards.append((stake, threat - self.held[a], a))
        self.place_defenses(guards)

    def march_noise(self) -> float:
        """The agent's seeded noise (``temperature``), so that plans vary."""
        return self.agent._noise(0.5)

    def endangered(self) -> list[int]:
        """Our areas of some stake that the threat reaches after the planned Marches took
        their units out (less 1: a Support can make up for it)."""
        vw = self.vw
        after = self.held - self.leaving
        return [b for b in range(self.t.n) if vw.control[b] == 0
                and vw.stake(b) >= ENDANGERED_STAKE and self.threat[b] > 0
                and self.threat[b] >= after[b] - 1]

    def raid_star(self, near: list[int]) -> bool:
        """The special Raid next to a rival's castle: only it removes a Defense order."""
        return any(self.t.fort[b] > 0 for b in near)

    def rest_defends(self, a: int) -> bool:
        """Defense first on an area whose threat beats what we hold there, if its stake is at
        least the agent's ``REST_DEFENSE_STAKE``."""
        return bool(self.threat[a] > self.held[a]
                    and self.vw.stake(a) >= self.agent.REST_DEFENSE_STAKE)

