"""Planning phase, the orders (D-20): every order of a Planning phase is planned at once by an
:class:`OrderPlanner`, then placed one area per decision. The Raven is in :mod:`.raven`.

The planner is a short list of steps, each giving orders to some of the areas still without
one; a subclass (v2's :class:`got_env.agents.heuristic.v2.orders.ThreatOrderPlanner`) changes the
list or one of the few hooks, never a copy of the whole plan."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from got_env.data import ORDER_TYPES
from got_env.engine.decision import Action, DecisionKind
from got_env.engine.state import KINGS_COURT, SEA, SPECIAL_MARCH_BAN

from .view import _View

if TYPE_CHECKING:
    from .agent import Handler, HeuristicAgent

K = DecisionKind
#: A March is planned only where its plan is worth at least this (a move toward a castle: 0.7).
MARCH_WORTH = 0.6
#: Areas worth at least this (castles, strongholds: :attr:`_Tables.value`) are defended.
DEFEND_VALUE = 2.0

Take = Callable[[str, bool], "int | None"]


def place_orders(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-20: plan every order of this Planning phase once (the agent's :attr:`PLANNER`), then
    place the planned token of one area per call (identical tokens are interchangeable)."""
    key = (vw.round, vw.mine.tobytes())
    legal: dict[int, dict[tuple, Action]] = {}
    for a in actions:
        legal.setdefault(a[1], {})[vw.t.tok_key[a[2]]] = a
    if agent._order_plan is None or agent._order_plan[0] != key:
        agent._order_plan = (key, agent._plan_orders(vw, sorted(legal)))
    plan = agent._order_plan[1]
    for area, tkey in list(plan.items()):
        if area in legal and tkey in legal[area]:
            del plan[area]
            return legal[area][tkey]
    # the plan no longer fits (a star or a token ran out): re-plan what is left
    plan = agent._plan_orders(vw, sorted(legal))
    agent._order_plan = (key, plan)
    for area, tkey in plan.items():
        if area in legal and tkey in legal[area]:
            del plan[area]
            return legal[area][tkey]
    area = min(legal)
    return next(iter(legal[area].values()))


def available_tokens(vw: _View) -> tuple[dict[str, list[int]], int]:
    """Our unused tokens by type (best bonus first, Westeros bans applied) and how many
    more special orders King's Court allows us (R10.1.3, §10.3)."""
    t = vw.t
    used = {int(vw.order[a]) for a in np.flatnonzero(vw.order >= 0) if vw.occupant[a] == 0}
    bans = vw.v["order_bans"]
    avail: dict[str, list[int]] = {k: [] for k in ORDER_TYPES}
    for i, typ in enumerate(t.tok_type):
        if i in used or bans[ORDER_TYPES.index(typ)]:
            continue
        if typ == "march" and t.tok_special[i] and bans[SPECIAL_MARCH_BAN]:
            continue
        avail[typ].append(i)
    for typ in avail:
        avail[typ].sort(key=lambda i: (-t.tok_bonus[i], -t.tok_special[i]))
    stars = t.stars[vw.n_players][min(vw.position(KINGS_COURT, 0), vw.n_players - 1)]
    stars_left = stars - sum(bool(t.tok_special[i]) for i in used)
    return avail, stars_left


def token_pool(vw: _View) -> tuple[dict[str, list[int]], Take]:
    """The order tokens this planning may still place, by type, and ``take(type,
    want_star)``, which takes the best one of a type out of that pool (:func:`take_token`,
    the star limit kept across calls)."""
    avail, stars = available_tokens(vw)
    pool = {k: list(v) for k, v in avail.items()}
    stars_left = [stars]

    def take(typ: str, want_star: bool) -> int | None:
        return take_token(vw, pool, stars_left, typ, want_star)

    return pool, take


def take_token(vw: _View, pool: dict[str, list[int]], stars_left: list[int], typ: str,
               want_star: bool) -> int | None:
    """Take one token of type ``typ`` out of ``pool`` (the best bonus first; a special one
    only if ``want_star`` or nothing else is left, and only while ``stars_left[0]`` allows
    it): the token index, or None when the type has run out."""
    t = vw.t
    toks = pool[typ]
    if not toks:
        return None
    order = toks if want_star else sorted(toks, key=lambda i: t.tok_special[i])
    for i in order:
        if t.tok_special[i] and stars_left[0] <= 0:
            continue
        toks.remove(i)
        stars_left[0] -= int(t.tok_special[i])
        return i
    return None


class OrderPlanner:
    """v1's plan: a token for every area still without an order, by :meth:`steps`:

    1. March where the agent's ``_evaluate_march`` finds a worthwhile plan (the attacks needing
       the most strength get the best March tokens);
    2. Defense on castles and home areas that a rival could attack with more than we hold;
    3. Support next to a planned attack or a threatened castle of ours;
    4. Raid next to a rival's area (its Consolidate Power and Support orders);
    5. Consolidate Power elsewhere (the special one in a castle, to muster there).

    Areas whose wanted type has run out take the next useful type. One planner plans once."""

    def __init__(self, agent: HeuristicAgent, vw: _View, areas: list[int]):
        self.agent = agent
        self.vw = vw
        self.t = vw.t
        self.areas = areas
        self.pool, self.take = token_pool(vw)
        self.plan: dict[int, int] = {}  # area -> token, in the order they were planned
        self.threat = vw.threats()
        self.targets: list[int] = []  # the areas the planned Marches attack
        self.leaving = np.zeros(vw.t.n)  # the strength the planned Marches take out of areas

    def run(self) -> dict[int, tuple]:
        """The plan: area -> token key (type, bonus, special), in the order to place them."""
        for step in self.steps():
            step()
        return {a: self.t.tok_key[tok] for a, tok in self.plan.items()}

    def steps(self) -> tuple[Callable[[], None], ...]:
        """The planning's steps, in order (see the class docstring)."""
        return self.marches, self.defense, self.support, self.raids, self.rest

    # -- the steps ------------------------------------------------------------------------------
    def marches(self) -> None:
        """March orders, best first (:meth:`march_noise` added to each plan's worth); later
        plans do not count the areas earlier ones walk into; the closest fights get the best
        tokens."""
        vw, claimed = self.vw, set()
        chosen: list[tuple[float, int]] = []
        left = [a for a in self.areas if a not in self.plan]
        while left and len(chosen) < len(self.pool["march"]):
            evals = [(self.agent._evaluate_march(vw, a, None, claimed, planning=True), a)
                     for a in left]
            noisy = [(e[0] + self.march_noise(), e, a) for e, a in evals]
            _, (worth, queue, target, need), a = max(noisy, key=lambda e: e[0])
            if worth < MARCH_WORTH:
                break
            chosen.append((need, a))
            left.remove(a)
            claimed |= {m[2] for m in queue}
            self.leaving[a] += sum(self.t.base_strength[m[1]] for m in queue)
            if target is not None:
                self.targets.append(target)
        for need, a in sorted(chosen, reverse=True):
            tok = self.take("march", need > -2)
            if tok is not None:
                self.plan[a] = tok

    def defense(self) -> None:
        """Defense on valuable land areas whose threat reaches what we hold there (units, and
        the garrison of our home) less one; the most valuable and threatened first."""
        t, vw, guards = self.t, self.vw, []
        for a in self.areas:
            if a in self.plan or not t.is_land[a]:
                continue
            held = vw.my_strength[a] + (vw.garrison[a] if t.home_of[a] == vw.me else 0)
            threat = self.threat[a]
            if t.value[a] >= DEFEND_VALUE and threat > 0 and threat >= held - 1:
                guards.append((t.value[a] * threat, threat - held, a))
        self.place_defenses(guards)

    def place_defenses(self, guards: list[tuple[float, float, int]]) -> None:
        """Defense orders on ``(priority, gap, area)`` entries, the highest priority first: the
        special Defense where the threat beats what we hold by 1 or more."""
        for _, gap, a in sorted(guards, reverse=True):
            tok = self.take("defense", gap >= 1)
            if tok is not None:
                self.plan[a] = tok

    def support(self) -> None:
        """Support from areas with units next to a planned attack (the special Support there)
        or next to one of :meth:`endangered`."""
        t, vw = self.t, self.vw
        endangered = self.endangered()
        for a in self.areas:
            if a in self.plan or vw.my_strength[a] <= 0:
                continue
            helps_attack = any(t.can_support[a, b] for b in self.targets)
            if helps_attack or any(t.can_support[a, b] for b in endangered if b != a):
                tok = self.take("support", helps_attack)
                if tok is not None:
                    self.plan[a] = tok

    def raids(self) -> None:
        """Raid from areas next to a rival's (the special Raid where :meth:`raid_star`)."""
        t, vw = self.t, self.vw
        for a in self.areas:
            if a in self.plan:
                continue
            near = [int(b) for b in np.flatnonzero(t.can_raid[a]) if vw.occupant[b] > 0]
            if near:
                tok = self.take("raid", self.raid_star(near))
                if tok is not None:
                    self.plan[a] = tok

    def rest(self) -> None:
        """Every area still without an order (castles first) takes the first type left in
        its preference list: at sea Support, Raid, Defense, March, CP; on land CP first (the
        special one in a castle, to muster), or Defense first where :meth:`rest_defends`."""
        t = self.t
        for a in sorted((a for a in self.areas if a not in self.plan), key=lambda a: -t.fort[a]):
            if t.kind[a] == SEA:
                prefs = ["support", "raid", "defense", "march", "consolidate-power"]
            elif self.rest_defends(a):
                prefs = ["defense", "consolidate-power", "support", "raid", "march"]
            else:
                prefs = ["consolidate-power", "support", "defense", "raid", "march"]
            for typ in prefs:
                tok = self.take(typ, typ == "consolidate-power" and t.fort[a] > 0)
                if tok is not None:
                    self.plan[a] = tok
                    break

    # -- the hooks ------------------------------------------------------------------------------
    def march_noise(self) -> float:
        """Added to the worth of each March plan when choosing the best: none in v1."""
        return 0.0

    def endangered(self) -> list[int]:
        """Our valuable areas that a rival threatens, which Support orders next door help."""
        t, vw = self.t, self.vw
        return [b for b in np.flatnonzero(vw.control == 0)
                if t.value[b] >= DEFEND_VALUE and self.threat[b] > 0]

    def raid_star(self, near: list[int]) -> bool:
        """Whether a Raid next to the rival areas ``near`` wants the special token: no."""
        return False

    def rest_defends(self, a: int) -> bool:
        """Whether area ``a``, left for the last step, prefers Defense: never in v1."""
        return False


HANDLERS: dict[DecisionKind, Handler] = {
    K.PLACE_ORDERS: place_orders,
}
