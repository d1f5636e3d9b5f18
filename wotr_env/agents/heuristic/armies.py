"""Armies on the map: what each Army aims at, where it moves (WD-09), what stays behind
(WD-10), which units go over the stacking limit (WD-36).

Each Army aims at the nearest enemy City or Stronghold (the Settlements worth victory points),
a weaker one preferred. It marches towards it, waits two regions short while it is too weak to
win there (the musters and other Armies join it), and steps next to it once strong enough to
attack; an undefended enemy Settlement it can reach is taken at once. An Army leaving its own
City or Stronghold leaves a garrison when an enemy Army is near.
"""

from __future__ import annotations

import numpy as np

from wotr_env.engine.decision import DONE, Action, Decision, choice
from wotr_env.engine.regions import besieged
from wotr_env.engine.state import ELITE, REGULAR, SHADOW, WotrState

from .common import (
    STRONGHOLD,
    army_regions,
    distances,
    exchange,
    hit_points,
    leadership,
    memo,
    settlement,
    units,
    vp,
)

READY = {SHADOW: 0.2, 0: 0.6}  # the exchange an Army wants before stepping next to its target


def targets(state: WotrState, side: int) -> list[int]:
    """Cities and Strongholds the enemy controls (each worth points to ``side``)."""
    board = state.ruleset.board
    return memo(state, ("targets", side), lambda: [
        int(r) for r in np.flatnonzero((board.vp > 0) & (state.control == 1 - side))])


def defenders(state: WotrState, r: int, side: int) -> tuple[int, int, int]:
    """(units, hit points, leadership) of the side's Army at ``r``, field and box together
    (a Stronghold's box holds five: the rest go back when the siege begins)."""
    return memo(state, ("defenders", r, side), lambda: _defenders(state, r, side))


def _defenders(state: WotrState, r: int, side: int) -> tuple[int, int, int]:
    n = units(state, r, side) + units(state, r, side, box=True)
    hp = hit_points(state, r, side) + hit_points(state, r, side, box=True)
    lead = leadership(state, r, side) + leadership(state, r, side, box=True)
    if settlement(state, r) == STRONGHOLD and n > 5:
        hp = int(round(hp * 5 / n))
        n = 5
    return n, hp, lead


def strength_against(state: WotrState, side: int, n: int, hp: int, lead: int, t: int) -> float:
    """The exchange of an Army of ``n`` units (``hp`` hit points, ``lead`` Leadership)
    attacking the enemy at ``t``: in a Stronghold, its defenders' better choice (the siege)."""
    d_n, d_hp, d_lead = defenders(state, t, 1 - side)
    if d_n == 0:
        return 10.0
    fortified = settlement(state, t) in (1, 3)
    field = exchange(n, hp, lead, d_n, d_hp, d_lead, 5, fortified)
    if settlement(state, t) != STRONGHOLD or int(state.control[t]) != 1 - side:
        return field
    return min(field, exchange(n, hp, lead, d_n, d_hp, d_lead, 6))


def army_target(state: WotrState, side: int, a: int) -> int:
    """The enemy Settlement the Army at ``a`` aims at (-1: none left)."""
    return memo(state, ("target", side, a), lambda: _army_target(state, side, a))


def _army_target(state: WotrState, side: int, a: int) -> int:
    d = distances(state)
    best, best_key = -1, None
    for t in targets(state, side):
        d_n, d_hp, _ = defenders(state, t, 1 - side)
        key = int(d[a, t]) + 0.25 * d_hp - 0.5 * vp(state, t)
        if best_key is None or key < best_key:
            best, best_key = t, key
    return best


def enemy_near(state: WotrState, side: int, r: int, reach: int = 2) -> int:
    """Enemy units within ``reach`` regions of ``r``."""
    d = distances(state)
    return sum(units(state, e, 1 - side) for e in army_regions(state, 1 - side) if d[r, e] <= reach)


def garrison_needed(state: WotrState, side: int, r: int) -> int:
    """Units to keep in ``r``, the side's own City or Stronghold, with an enemy Army near."""
    if vp(state, r) == 0 or int(state.control[r]) != side:
        return 0
    threat = enemy_near(state, side, r)
    return 0 if threat == 0 else (2 if threat >= 4 else 1)


def move_score(state: WotrState, side: int, a: int, b: int) -> float:
    """How good moving the Army at ``a`` into ``b`` is (<= 0: not worth a move)."""
    mine = units(state, a, side) - garrison_needed(state, side, a)
    if mine <= 0:
        return -1.0
    if int(state.control[b]) == 1 - side and units(state, b, 1 - side, box=True) == 0:
        return 20.0 + 5 * vp(state, b)  # an undefended enemy Settlement: taken by entering
    return attack_move_score(state, side, a, b, mine)


def threat(state: WotrState, side: int, r: int) -> int:
    """Enemy units within two regions of ``r`` beyond the side's own units there."""
    return enemy_near(state, side, r) - units(state, r, side) - units(state, r, side, box=True)


def attack_move_score(state: WotrState, side: int, a: int, b: int, mine: int) -> float:
    """Marching on the Army's target (:func:`army_target`) with ``mine`` units."""
    d = distances(state)
    t = army_target(state, side, a)
    if t < 0:
        return -1.0
    theirs = units(state, b, side)
    n = mine + theirs
    if n > 10:
        return -1.0
    hp = hit_points(state, a, side) + hit_points(state, b, side)
    lead = leadership(state, a, side) + leadership(state, b, side)
    ready = strength_against(state, side, n, hp, lead, t) > READY[side]
    progress = int(d[a, t]) - int(d[b, t])
    if progress > 0:
        if d[b, t] <= 1 and not ready:
            return -1.0  # too weak to stand next to it: wait for the others
        return 2.0 * progress + 0.1 * mine + (1.0 if theirs else 0.0)
    if theirs >= mine and d[b, t] <= d[a, t] and not ready:
        return 1.0  # join a larger Army as near the target
    return -1.0


def best_move(state: WotrState, side: int, options: tuple[Action, ...]) -> tuple[float, Action]:
    best: tuple[float, Action] = (-9.0, DONE)
    for o in options:
        if o[0] == "edge":
            s = move_score(state, side, o[1], o[2])
            if s > best[0]:
                best = (s, o)
    return best


def fallback_done(d: Decision) -> Action:
    return DONE if DONE in d.options else d.options[0]


def card_path(state: WotrState, d: Decision) -> Action:
    """A card's move, region by region: nearer the moving Army's target, DONE once no step
    brings it nearer."""
    frame = state.stack[-1]
    src = int(getattr(frame, "src", -1))
    t = army_target(state, d.player, src) if src >= 0 else -1
    steps = [o for o in d.options if o[0] in ("edge", "region")]  # a border, or a card's jump
    if t < 0 or not steps:
        return fallback_done(d)
    dist = distances(state)
    here = frame.path[-1] if getattr(frame, "path", ()) else src
    best = min(steps, key=lambda o: int(dist[o[-1], t]))
    if DONE in d.options and dist[best[-1], t] >= dist[here, t]:
        return DONE
    return best


def army_move(state: WotrState, d: Decision) -> Action:
    """WD-09: the best move, or DONE when no move is worth it (a first move must be made)."""
    if "card_move" in d.context:
        return card_path(state, d)
    score, edge = best_move(state, d.player, d.options)
    if (score <= 0 or edge == DONE) and DONE in d.options:
        return DONE
    return edge if edge in d.options else d.options[0]


def split_army(state: WotrState, d: Decision) -> Action:
    """WD-10: after a move's edge, "all" unless a garrison stays; then one unit at a time
    (a Regular first) until it does. After a battle (SplitAdvance): every unit that fits."""
    if "battle" in d.context:
        for o in d.options:
            if o[0] == "unit" and o[2] < 2:
                return o
        return DONE if DONE in d.options else d.options[0]
    if "edge" not in d.context:  # a card's move: the whole Army goes
        return choice("all") if choice("all") in d.options else fallback_done(d)
    a, _ = d.context["edge"]
    keep = garrison_needed(state, d.player, a)
    if not d.context.get("part"):
        if keep and choice("part") in d.options:
            return choice("part")
        return choice("all")
    frame = state.stack[-1]
    staying = units(state, a, d.player)
    if hasattr(frame, "group"):
        figs, _ = frame.group(state)
        staying -= int(figs[:, :2].sum())
    if staying < keep:
        for kind in (REGULAR, ELITE):
            for o in d.options:
                if o[0] == "unit" and o[2] == kind:
                    return o
    return DONE if DONE in d.options else d.options[0]


def overstack(state: WotrState, d: Decision) -> Action:
    """WD-36: a Regular of the nation with the most Regulars there goes back first."""
    r = int(d.context.get("region", -1))
    grid = state.box if besieged(state, r) and d.context.get("limit") == 5 else state.army

    def key(o: Action) -> tuple[int, int]:
        return (o[2] == REGULAR, int(grid[r, o[1], o[2]]) if r >= 0 else 0)

    return max(d.options, key=key)


__all__ = ["army_move", "army_target", "best_move", "defenders", "enemy_near",
           "garrison_needed", "move_score", "overstack", "split_army", "strength_against",
           "targets", "threat"]
