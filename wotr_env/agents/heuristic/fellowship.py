"""The Free Peoples' Ring: when to declare, which way the figure goes, entering Mordor, the
Guide, the Hunt's casualties and Guide abilities, and the Companions who leave (WD-02 to
WD-05, WD-22, WD-23, WD-26, WD-27).

The plan: the Fellowship stays where it is known to be (Rivendell at first: no Hunt re-roll
there) and gathers Progress until it can be declared straight into an entrance of Mordor,
where it enters the Mordor Track at once; on the way it is declared only into a Free Peoples
City or Stronghold that costs (almost) no Progress and heals one Corruption, or out of a region
where the Hunt re-rolls. A reveal moves the figure as near Mordor as the Progress allows,
avoiding Shadow Strongholds (each one more tile) and Shadow Armies (re-rolls).
"""

from __future__ import annotations

import numpy as np

from wotr_env.engine.decision import DONE, Action, Decision, choice
from wotr_env.engine.fellowship import companions_in_fellowship, is_fp_city_or_stronghold
from wotr_env.engine.regions import NATIONS_OF
from wotr_env.engine.state import (
    NAZGUL,
    OFF_MORDOR,
    SHADOW,
    WotrState,
)

from .common import distances, gate_distance, gates, is_stronghold, memo, region_id, units

CORRUPTION_MAX = 12
SAURON = 6
# Companions kept in the Fellowship when the others are sent away (their Levels absorb Hunt
# damage; Strider guides, hiding with any die).
KEEP = ("gandalf-the-grey", "strider")


def shadow_stronghold(state: WotrState, r: int) -> bool:
    return is_stronghold(state, r) and int(state.control[r]) == SHADOW


def rerolls_at(state: WotrState, r: int) -> int:
    """Hunt re-rolls the Fellowship's region would give (facts §7.8 step 2)."""
    wk = state.ruleset.cards.character("witch-king")
    nazgul = bool(state.army[r, SAURON, NAZGUL] + state.box[r, SAURON, NAZGUL] > 0
                  or state.char_at[wk] == r)
    shadow_units = units(state, r, SHADOW) + units(state, r, SHADOW, box=True) > 0
    return int(shadow_stronghold(state, r)) + int(shadow_units) + int(nazgul)


def fp_haven(state: WotrState, r: int) -> bool:
    """A Free Peoples City or Stronghold they control: a declaration there heals."""
    return is_fp_city_or_stronghold(state, r, True)


# ---------------------------------------------------------------------------------------------
# Declaring (WD-02) and the path (WD-03)


def declare_target(state: WotrState, start: int, steps: int) -> int | None:
    """Where a declaration from ``start`` with ``steps`` of Progress should take the figure,
    or None when it should not be declared."""
    if steps <= 0 or state.mordor_step != OFF_MORDOR:
        return None
    d = distances(state)
    near = sorted(gates(state), key=lambda g: (d[start, g], rerolls_at(state, g)))
    if d[start, near[0]] <= steps:
        return near[0]
    here = gate_distance(state, start)
    # Regions as near Mordor as the Progress allows (at most one step of it wasted).
    best, best_key = None, None
    for r in range(len(d)):
        k = int(d[start, r])
        if k == 0 or k > steps or here - gate_distance(state, r) < steps - 1:
            continue
        heal = state.corruption > 0 and fp_haven(state, r)
        safer = rerolls_at(state, r) < rerolls_at(state, start)
        if not (heal or safer):
            continue
        key = (not heal, gate_distance(state, r), rerolls_at(state, r))
        if best_key is None or key < best_key:
            best, best_key = r, key
    return best


def declare(state: WotrState, d: Decision) -> Action:
    target = declare_target(state, state.fellowship_region, state.progress)
    return choice("declare") if target is not None else choice("no")


def crossing_cost(state: WotrState, r: int) -> float:
    """What entering ``r`` on a reveal path costs: a tile for a Shadow Stronghold (an Eye
    there worth nothing), a little for Moria (*Balrog of Moria*)."""
    return 2.5 * shadow_stronghold(state, r) + 0.5 * (region_id(state, r) == "moria")


def costs_to(state: WotrState, target: int, steps: int) -> list[np.ndarray]:
    """``g[k][r]``: the least crossing cost of a way from ``r`` to ``target`` in at most ``k``
    steps (inf where none): the regions entered count, ``r`` itself does not."""
    n = len(state.control)
    inf = float("inf")
    g = [np.full(n, inf)]
    g[0][target] = 0.0
    neighbours = state.ruleset.board.neighbours
    enter = np.array([crossing_cost(state, r) for r in range(n)])
    for _ in range(steps):
        prev = g[-1]
        cur = prev.copy()
        for r in range(n):
            for m in neighbours[r]:
                m = int(m)
                c = prev[m] + enter[m]
                if c < cur[r]:
                    cur[r] = c
        g.append(cur)
    return g


def reveal_target(state: WotrState, start: int, steps: int) -> int:
    """The end of a reveal path: as near Mordor as possible, not in a Free Peoples City or
    Stronghold (the rules forbid it), crossing few Shadow Strongholds, few re-rolls."""
    def make() -> int:
        d = distances(state)
        n = len(state.control)
        enter = [crossing_cost(state, r) for r in range(n)]
        # least crossing cost from start to each region within ``steps`` (start counts)
        inf = float("inf")
        best_cost = np.full(n, inf)
        best_cost[start] = enter[start]
        frontier = {start: enter[start]}
        for _ in range(steps):
            nxt: dict[int, float] = {}
            for r, c in frontier.items():
                for m in state.ruleset.board.neighbours[r]:
                    m = int(m)
                    cm = c + enter[m]
                    if cm < nxt.get(m, inf):
                        nxt[m] = cm
            for m, cm in nxt.items():
                best_cost[m] = min(best_cost[m], cm)
            frontier = nxt
        best, best_key = start, None
        for r in range(n):
            if d[start, r] > steps or fp_haven(state, r) or best_cost[r] == inf:
                continue
            key = gate_distance(state, r) + best_cost[r] + 0.8 * rerolls_at(state, r) \
                + 0.01 * int(d[start, r])
            if best_key is None or key < best_key:
                best, best_key = r, key
        return best
    return memo(state, ("reveal", start, steps), make)  # type: ignore[no-any-return]


def path_step(state: WotrState, d: Decision) -> Action:
    """WD-03: the next region on the cheapest way to the path's target, or DONE there."""
    frame = state.stack[-1]
    path = getattr(frame, "path", (state.fellowship_region,))
    start, here = path[0], path[-1]
    left = int(d.context.get("steps", 0))
    total = len(path) - 1 + left
    if d.context.get("mode") == "reveal":
        target = reveal_target(state, start, total)
    else:
        target = declare_target(state, start, total)
        if target is None:
            target = here
    if here == target and DONE in d.options:
        return DONE
    steps = [o for o in d.options if o[0] == "region"]
    if not steps:
        return DONE
    g = costs_to(state, target, max(left - 1, 0))[-1]
    dist = distances(state)
    return min(steps, key=lambda o: (g[o[1]] + crossing_cost(state, o[1]),
                                     int(dist[o[1], target]), rerolls_at(state, o[1])))


def enter_mordor(state: WotrState, d: Decision) -> Action:
    return choice("yes")


# ---------------------------------------------------------------------------------------------
# The Guide and the Hunt's damage (WD-05, WD-26, WD-27)

GUIDE_PREFERENCE = ("strider", "gandalf-the-grey", "gandalf-the-white", "aragorn", "boromir",
                    "legolas", "gimli", "meriadoc", "peregrin")


def change_guide(state: WotrState, d: Decision) -> Action:
    chars = state.ruleset.cards.characters
    rank = {cid: i for i, cid in enumerate(GUIDE_PREFERENCE)}
    return min(d.options, key=lambda o: rank.get(chars[o[1]].id, 99))


def guide_ability(state: WotrState, d: Decision) -> Action:
    """A Hobbit Guide leaves for one damage less: always. Gollum reveals for one less only
    when Corruption grows dangerous."""
    damage = int(d.context.get("damage", 0))
    if d.context.get("ability") == "separate":
        return choice("yes")
    return choice("yes") if damage >= 1 and state.corruption + damage >= 8 else choice("no")


def hunt_casualty(state: WotrState, d: Decision) -> Action:
    """WD-27: a Companion takes the damage when it is large (three, or two while many
    Companions are left or on the Mordor Track, where they are kept for) or when Corruption
    nears the end; the Guide or a random one, whichever saves more (a tie keeps the Guide)."""
    damage = int(d.context.get("damage", 0))
    comps = companions_in_fellowship(state)
    if not comps or damage <= 0:
        return choice("none")
    large = 2 if len(comps) > 2 or state.mordor_step != OFF_MORDOR else 3
    if damage < large and state.corruption + damage < 8:
        return choice("none")
    level = state.ruleset.cards.character_level
    saves = {}
    if choice("guide") in d.options:
        saves[choice("guide")] = min(damage, int(level[state.guide]))
    if choice("random-companion") in d.options:
        saves[choice("random-companion")] = float(np.mean([min(damage, int(level[c]))
                                                           for c in comps]))
    if not saves:
        return choice("none")
    return max(saves, key=lambda o: (saves[o], o == choice("random-companion")))


# ---------------------------------------------------------------------------------------------
# Companions leaving the Fellowship (WD-22) and moving on the map (WD-23)


def kept(state: WotrState) -> set[int]:
    cards = state.ruleset.cards
    return {cards.character(c) for c in KEEP}


def wants_separate(state: WotrState) -> bool:
    """Companions beyond those kept leave early, while the Fellowship is off the Track: each
    one fewer lets the Shadow put one die fewer in the Hunt Box."""
    if state.mordor_step != OFF_MORDOR or state.revealed:
        return False
    comps = companions_in_fellowship(state)
    return len([c for c in comps if c not in kept(state)]) >= 2


def separate(state: WotrState, d: Decision) -> Action:
    """Toggle every Companion not kept into the group, then DONE; the group goes to the Free
    Peoples Stronghold in reach with the most units (else stays)."""
    if any(o[0] == "character" for o in d.options):
        group = set(d.context.get("group", ()))
        keep = kept(state)
        for o in d.options:
            if o[0] == "character" and o[1] not in keep and o[1] not in group:
                return o
        return DONE if DONE in d.options else d.options[0]
    regions = [o for o in d.options if o[0] == "region"]
    fp = NATIONS_OF[0]

    def worth(o: Action) -> tuple[int, int]:
        r = o[1]
        return (int(fp_haven(state, r)), int(state.army[r, fp, :2].sum()))

    return max(regions, key=worth) if regions else d.options[0]


def move_companions(state: WotrState, d: Decision) -> Action:
    return DONE if DONE in d.options else d.options[0]


__all__ = ["change_guide", "declare", "declare_target", "enter_mordor", "guide_ability",
           "hunt_casualty", "move_companions", "path_step", "reveal_target", "rerolls_at",
           "separate", "wants_separate"]
