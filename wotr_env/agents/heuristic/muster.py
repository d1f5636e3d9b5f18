"""Recruiting and the figures that are no Army: muster combinations (WD-28) and placements
(WD-29), Characters brought into play (WD-30), the Nazgûl and Minions in flight (WD-24).

The Shadow recruits Regulars where its Armies gather (the Settlement nearest an enemy
target, an Army already there preferred) and flies its Nazgûl to the Armies about to attack
that lack Leadership; the Free Peoples recruit where the enemy threatens most.
"""

from __future__ import annotations

from wotr_env.engine.decision import DONE, Action, Decision, choice
from wotr_env.engine.state import FREE_PEOPLES, NAZGUL, SHADOW, WotrState

from .armies import army_target, enemy_near, targets
from .common import army_regions, distances, leadership, units, vp

SAURON = 6
MUSTER_ORDER = {SHADOW: ("muster-2r", "muster-rl", "muster-e", "muster-2l"),
                FREE_PEOPLES: ("muster-2r", "muster-e", "muster-rl", "muster-2l")}


def muster_combination(state: WotrState, d: Decision) -> Action:
    """WD-28: two Regulars; a Nazgûl with one when the Shadow's Armies lack Leadership."""
    order = MUSTER_ORDER[d.player]
    if d.player == SHADOW and leadership_needed(state) and choice("muster-rl") in d.options:
        return choice("muster-rl")
    for name in order:
        if choice(name) in d.options:
            return choice(name)
    return d.options[0]


def leadership_needed(state: WotrState) -> bool:
    """A Shadow Army of five units or more near its target has no Leadership."""
    d = distances(state)
    for r in army_regions(state, SHADOW):
        t = army_target(state, SHADOW, r)
        if t >= 0 and d[r, t] <= 2 and units(state, r, SHADOW) >= 5 \
                and leadership(state, r, SHADOW) == 0:
            return True
    return False


def placement_score(state: WotrState, side: int, r: int) -> float:
    """Where a recruit helps most: the Shadow near its targets, joining an Army; the Free
    Peoples where enemies are near and their own units few."""
    here = units(state, r, side)
    if here >= 10:
        return -10.0
    if side == FREE_PEOPLES:
        return enemy_near(state, side, r, 3) - 0.5 * here + vp(state, r)
    ts = targets(state, side)
    if not ts:
        return here
    d = distances(state)
    near = min(int(d[r, t]) for t in ts)
    return -near + 0.15 * here


def muster_placement(state: WotrState, d: Decision) -> Action:
    regions = [o for o in d.options if o[0] == "region"]
    if not regions:
        return DONE if DONE in d.options else d.options[0]
    return max(regions, key=lambda o: placement_score(state, d.player, o[1]))


def bring_character(state: WotrState, d: Decision) -> Action:
    """WD-30: any Character (the first offered); the Witch-king to the largest Army near a
    target, the others where their card allows (the first region)."""
    regions = [o for o in d.options if o[0] == "region"]
    if not regions:
        return d.options[0]
    if d.player == SHADOW:
        return max(regions, key=lambda o: placement_score(state, SHADOW, o[1])
                   + 0.2 * units(state, o[1], SHADOW))
    return regions[0]


def nazgul_home(state: WotrState) -> int:
    """The Shadow Army a Nazgûl helps most: the largest one two regions or less from its
    target, with the least Leadership (-1: none)."""
    d = distances(state)
    best, best_key = -1, None
    for r in army_regions(state, SHADOW):
        n = units(state, r, SHADOW)
        t = army_target(state, SHADOW, r)
        if n < 4 or t < 0 or d[r, t] > 2:
            continue
        key = (leadership(state, r, SHADOW) >= 3, -n, int(d[r, t]))
        if best_key is None or key < best_key:
            best, best_key = r, key
    return best


def move_minions(state: WotrState, d: Decision) -> Action:
    """WD-24: a Nazgûl (or the Witch-king) standing where it leads nobody flies to
    :func:`nazgul_home`; DONE when every one is useful where it is."""
    home = nazgul_home(state)
    if d.context.get("stage") == "destination":
        target = ("region", home)
        if home >= 0 and target in d.options:
            return target
        return max((o for o in d.options if o[0] == "region"),
                   key=lambda o: units(state, o[1], SHADOW), default=d.options[0])
    if home < 0:
        return DONE
    for o in d.options:
        if o[0] == "region" and o[1] != home and idle(state, o[1]):
            return o
        if o[0] == "character" and int(state.char_at[o[1]]) != home \
                and idle(state, int(state.char_at[o[1]])):
            return o
    return DONE


def idle(state: WotrState, r: int) -> bool:
    """Flyers at ``r`` lead no Army worth leading (fewer than four units), or more
    Leadership than the Army's dice need."""
    if r < 0:
        return False
    n = units(state, r, SHADOW)
    return n < 4 or leadership(state, r, SHADOW) > max(2, n // 2) \
        and int(state.army[r, SAURON, NAZGUL]) > 1


__all__ = ["bring_character", "leadership_needed", "move_minions", "muster_combination",
           "muster_placement", "nazgul_home", "placement_score"]
