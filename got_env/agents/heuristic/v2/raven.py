"""v2's Messenger Raven (D-21/D-22): once orders are revealed, swap an order when a better one
exists (Defense where a revealed enemy March now beats us, Consolidate Power for a Raid with
nothing to raid); else v1's rules (:mod:`..raven`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from got_env.engine.decision import Action
from got_env.engine.state import LAND

from .. import raven
from ..choices import choice
from ..orders import available_tokens
from ..view import _View
from .view import _ThreatView

if TYPE_CHECKING:
    from .agent import HeuristicV2Agent

#: A swap is asked for at D-21 only when it gains at least this (half a power's worth).
SWAP_WORTH = 0.5


def swap_gain(vw: _ThreatView, area: int, token: int) -> float:
    """Worth of replacing our order in ``area`` by ``token`` now that every order is
    revealed: a Defense where a revealed rival March next door (with its revealed Supports)
    beats what we hold there is worth the area's stake (and a March, which v1's plan chose
    on purpose, is never swapped away); Consolidate Power for a Raid that has nothing left
    to raid is worth its power."""
    t = vw.t
    now = vw.order[area]
    if now < 0 or vw.occupant[area] != 0:
        return 0.0
    now_type, new_type = t.tok_type[now], t.tok_type[token]
    if now_type == "march":
        return 0.0
    if new_type == "defense" and t.is_land[area]:
        attack = revealed_attack(vw, area)
        mine = float(vw.held()[area]) + sum(vw.support_value(s, area, False)
                                            for s in vw.support_areas(0, area))
        before = mine + (t.tok_bonus[now] if now_type == "defense" else 0.0)
        after = mine + float(t.tok_bonus[token])
        stake = max(vw.stake(area), float(t.value[area]))
        if attack > before and after >= attack:
            return stake
        if attack > before and after > before:
            return 0.3 * stake
        return 0.0
    if new_type == "consolidate-power" and now_type == "raid" and t.kind[area] == LAND:
        special = bool(t.tok_special[now])
        has_target = any(vw.occupant[b] > 0 and vw.order[b] >= 0
                         and (t.tok_type[vw.order[b]] != "defense" or special)
                         and t.tok_type[vw.order[b]] != "march"
                         for b in np.flatnonzero(t.can_raid[area]))
        return 0.0 if has_target else 1.0 + float(t.crowns[area])
    return 0.0


def revealed_attack(vw: _View, area: int) -> float:
    """The strongest attack a revealed rival March can bring on ``area``: the March area's
    units and bonus, plus that rival's revealed Supports next to ``area``."""
    t = vw.t
    best = 0.0
    for s in np.flatnonzero(t.adj[:, area] | t.land_adj[:, area]):
        tok = vw.order[s]
        rel = int(vw.occupant[s])
        if tok < 0 or rel <= 0 or t.tok_type[tok] != "march":
            continue
        val = float(vw.strength[s, rel]) + float(t.tok_bonus[tok])
        val += sum(vw.support_value(x, area, True) for x in vw.support_areas(rel, area))
        best = max(best, val)
    return best


def raven_options(vw: _ThreatView) -> list[tuple[float, Action]]:
    """Every swap we could make, from the observation: each of our ordered areas with each
    unused token (the special ones only within the star limit), with its gain."""
    t = vw.t
    avail, stars = available_tokens(vw)
    out = []
    for area in np.flatnonzero((vw.order >= 0) & (vw.occupant == 0)):
        now = int(vw.order[area])
        for toks in avail.values():
            for tok in toks:
                if t.tok_special[tok] and stars <= 0 and not t.tok_special[now]:
                    continue
                out.append((swap_gain(vw, int(area), tok), ("order", int(area), tok)))
    return out


def raven_use(agent: HeuristicV2Agent, vw: _View, actions: list[Action]) -> Action:
    """D-21: swap an order when a swap gains at least :data:`SWAP_WORTH` (:func:`swap_gain`);
    else look at the wildling card as v1."""
    agent._raven_plan = None
    if choice("swap-order") in actions and isinstance(vw, _ThreatView):
        best = max(raven_options(vw), key=lambda e: e[0], default=(0.0, None))
        if best[0] >= SWAP_WORTH:
            agent._raven_plan = best[1]
            return choice("swap-order")
    return raven.raven_use(agent, vw, actions)


def raven_swap(agent: HeuristicV2Agent, vw: _View, actions: list[Action]) -> Action:
    """D-22: the swap chosen at D-21 when it is offered, else the offered swap that gains
    most; v1's rule when none gains anything."""
    plan, agent._raven_plan = agent._raven_plan, None
    if plan in actions:
        return plan
    if isinstance(vw, _ThreatView):
        gains = [(swap_gain(vw, a[1], a[2]), a) for a in actions if a[0] == "order"]
        best = max(gains, key=lambda e: e[0], default=(0.0, None))
        if best[0] > 0:
            return best[1]
    return raven.raven_swap(agent, vw, actions)
