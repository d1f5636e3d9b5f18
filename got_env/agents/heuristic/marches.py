"""Action phase, the Marches: which March next (D-26), its moves (D-27), a power token left
behind (D-28), support against a neutral force (D-29); and the evaluation of a March from an
area (:func:`evaluate_march`), which the order planning uses too."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from got_env.data import UNIT_TYPES
from got_env.engine.decision import Action, DecisionKind
from got_env.engine.state import FOOTMAN, KNIGHT, LAND, SEA, SHIP, SIEGE_ENGINE

from .choices import UNIT_COST, choice
from .combat import p_win, tie_wins
from .view import UNREACHABLE, _View

if TYPE_CHECKING:
    from .agent import Handler, HeuristicAgent

K = DecisionKind
#: Neutral forces stronger than this are not worth walking toward.
BEATABLE_NEUTRAL = 4
#: Before the reveal: what we guess our March token adds, and the defender's Defense token.
GUESSED_MARCH_BONUS = 1.0
GUESSED_DEFENSE_BONUS = 1.0

#: (worth, moves, attack target, strength missing) of a March plan.
MarchPlan = tuple[float, list[Action], "int | None", float]


def march_to_resolve(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-26: the March with the most valuable plan first (attacks before mere moves)."""
    def worth(a: int) -> float:
        return agent._evaluate_march(vw, a, None)[0]

    return max((a for a in actions if a[0] == "area"), key=lambda a: worth(a[1]))


def march_move(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-27: plan the whole March once (the agent's ``_evaluate_march``), then play its moves
    one by one; a planned move that became illegal (supply) is skipped; done when the plan is
    over, or, when done is not yet legal, the most valuable move still offered. The plan is
    made again if the board is not the one it expects (another game or simulation)."""
    src = int(np.argmax(vw.v["decision_area"]))
    m = agent._march
    if m is None or m["key"] != (vw.round, src, vw.me) or \
            not np.array_equal(expected_units(m, src), vw.mine):
        moves = [a for a in actions if a[0] == "move"]
        _, queue, _, _ = agent._evaluate_march(vw, src, moves)
        m = agent._march = {"key": (vw.round, src, vw.me), "start": vw.mine.copy(),
                            "played": [], "queue": queue}
    while m["queue"]:
        move = m["queue"].pop(0)
        if move in actions:
            m["played"].append((move, vw.defender(move[2]) != -1))
            return move
    if ("done",) in actions:
        agent._march = None
        return ("done",)
    moves = [a for a in actions if a[0] == "move"]
    own = [a for a in moves if vw.defender(a[2]) == -1]
    move = max(own or moves, key=lambda a: (vw.gain(a[2]), -UNIT_COST[a[1]]))
    m["played"].append((move, vw.defender(move[2]) != -1))
    return move


def expected_units(m: dict[str, Any], src: int) -> np.ndarray:
    """Our units as the March plan expects them now: its moves into free areas are on the
    board; units sent to attack still wait in the March area."""
    units = m["start"].copy()
    for (_, u, b), waits in m["played"]:
        if not waits:
            units[src, u] -= 1
            units[b, u] += 1
    return units


def evaluate_march(vw: _View, src: int, moves: list[Action] | None,
                   claimed: set[int] | frozenset = frozenset(), planning: bool = False
                   ) -> MarchPlan:
    """(worth, moves, attack target, strength missing) of a March from ``src``; one
    evaluator for planning (orders still hidden, ``planning``) and for the march itself:

    * attack: the target with the best chance x gain, if the chance is at least 1/2 (a
      neutral force only if our strength reaches its token); every unit that can go goes
      (Siege Engines only against castles);
    * spread: each spare unit (Footmen first) walks into a valuable empty area not
      ``claimed`` by another March;
    * approach: with nothing in reach, the army steps toward the nearest castle we lack;
    * a valuable area under threat keeps one unit unless the attack needs it, and does not
      wander off."""
    t = vw.t
    free = vw.standing[src, 0].astype(int)
    if moves is None:  # estimate: every destination our units could reach
        dests = {int(b) for b in np.flatnonzero(t.adj[src]) if not vw.impassable[b]}
        if t.kind[src] == LAND:
            dests = {b for b in dests if t.is_land[b]} | vw.ship_reach(src)
        else:
            dests = {b for b in dests if t.kind[b] == SEA}
        moves = [("move", u, b) for b in dests for u in range(len(UNIT_TYPES)) if free[u] > 0
                 and ((u == SHIP) == (t.kind[src] != LAND))]
    by_dest: dict[int, list[int]] = {}
    for _, u, b in moves:
        by_dest.setdefault(b, []).append(u)
    threat = vw.threats()
    guard = t.value[src] >= 2.0 and threat[src] > 0 and t.kind[src] == LAND
    # attack
    best, plan_attack, need = 0.0, None, -99.0
    for b, types in by_dest.items():
        d = vw.defender(b)
        if d == -1 or b in claimed:
            continue
        send = np.array([free[u] if u in types else 0 for u in range(len(UNIT_TYPES))])
        if t.fort[b] == 0:
            send[SIEGE_ENGINE] = 0
        if send.sum() == 0:
            continue
        p, gap = attack_chance(vw, src, b, d, send, planning)
        worth = p * (vw.gain(b) + (1.0 if t.kind[b] == SEA else 0.0)) - (1 - p)
        if p >= 0.5 and worth > best:
            best, plan_attack, need = worth, (b, send), gap
    queue: list[Action] = []
    left = free.copy()
    if plan_attack is not None:
        b, send = plan_attack
        if guard and send.sum() == free.sum() > 1 and send[FOOTMAN] > 0:
            fewer = send.copy()
            fewer[FOOTMAN] -= 1
            if attack_chance(vw, src, b, vw.defender(b), fewer, planning)[0] >= 0.6:
                send = fewer
        for u in (KNIGHT, SIEGE_ENGINE, FOOTMAN, SHIP):
            queue += [("move", u, b)] * int(send[u])
        left -= send
    # spread into valuable empty areas, one unit each, cheapest first
    empties = sorted(((vw.gain(b), b) for b in by_dest if vw.defender(b) == -1
                      and vw.gain(b) > 0.5 and vw.occupant[b] != 0 and b not in claimed),
                     reverse=True)
    spread = 0.0
    for g, b in empties:
        if left.sum() - (1 if guard else 0) <= 0:
            break
        u = next((u for u in (FOOTMAN, SHIP, KNIGHT) if left[u] > 0 and u in by_dest[b]),
                 None)
        if u is None:
            continue
        queue.append(("move", u, b))
        left[u] -= 1
        spread += g
    worth = best + spread
    # approach: with nothing else to do, the army steps toward the nearest castle
    if not queue and t.kind[src] == LAND and not guard:
        goal = goal_distance(vw)
        steps = [b for b in by_dest if vw.defender(b) == -1 and goal[b] < goal[src]]
        if steps and goal[src] < UNREACHABLE:
            b = min(steps, key=lambda b: (goal[b], -vw.gain(b)))
            for u in (KNIGHT, FOOTMAN, SIEGE_ENGINE):
                if u in by_dest[b]:
                    queue += [("move", u, b)] * int(left[u])
            worth = 0.7
    return worth, queue, plan_attack[0] if plan_attack else None, need


def attack_chance(vw: _View, src: int, area: int, d: int, send: np.ndarray,
                  planning: bool = False) -> tuple[float, float]:
    """(chance, strength gap) of ``send`` units from ``src`` against the defender of
    ``area``: our units + March bonus + our Support, against its units, Defense order,
    garrison and Support (its own in full, third parties' at half); house cards from both
    visible hands. Before the reveal (``planning``) we count our March token as
    :data:`GUESSED_MARCH_BONUS`, 70% of our neighbours' strength as support, and guess the
    defence (:func:`defence_estimate`). A neutral force: strength >= token, no cards."""
    t = vw.t
    mine = vw.attack_strength(send, area)
    if planning:
        mine += GUESSED_MARCH_BONUS + 0.7 * sum(float(vw.my_strength[s]) for s in
                                                np.flatnonzero(t.can_support[:, area])
                                                if s != src and vw.occupant[s] == 0)
    else:
        if vw.order[src] >= 0:
            mine += float(t.tok_bonus[vw.order[src]])
        mine += sum(vw.support_value(s, area, True) for s in vw.support_areas(0, area))
    if d == -2:
        return (1.0 if mine >= vw.neutral[area] else 0.0), float(vw.neutral[area]) - mine
    if planning:
        theirs = defence_estimate(vw, area, d)
    else:
        theirs = vw.defence_strength(area, d)
        theirs += sum(vw.support_value(s, area, False) for s in vw.support_areas(d, area))
        for r in vw.rivals:
            if r != d:
                theirs += 0.5 * sum(vw.support_value(s, area, False)
                                    for s in vw.support_areas(int(r), area))
    p = float(p_win(mine - theirs, t.card_strength[vw.hand(0)],
                    t.card_strength[vw.hand(d)], tie_wins(vw, d)).max())
    return p, theirs - mine


def defence_estimate(vw: _View, area: int, d: int) -> float:
    """Defender strength before the reveal: units, garrison, a likely Defense order
    (:data:`GUESSED_DEFENSE_BONUS`) and half of what its neighbours could add in support."""
    t = vw.t
    val = float(vw.strength[area, d]) + GUESSED_DEFENSE_BONUS
    if t.home_of[area] == vw.canon(d):
        val += float(vw.garrison[area])
    near = t.can_support[:, area]
    val += 0.5 * float(vw.strength[near, d].sum())
    return val


def goal_distance(vw: _View) -> np.ndarray:
    """Walking distance from each area to the nearest castle or stronghold we do not hold
    (neutral forces stronger than :data:`BEATABLE_NEUTRAL` excluded)."""
    t = vw.t
    dist = t.land_distance(vw.impassable)
    goals = np.flatnonzero((t.fort > 0) & (vw.control != 0) & ~vw.impassable
                           & (vw.neutral <= BEATABLE_NEUTRAL))
    if goals.size == 0:
        return np.full(t.n, UNREACHABLE)
    return dist[:, goals].min(axis=1)


def leave_token(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-28: keep a valuable area (castle, barrels, crowns) with a power token when we have
    power to spare; a plain area only when we are rich."""
    area = int(np.argmax(vw.v["decision_area"]))
    worth = vw.t.value[area]
    if (worth >= 0.8 and vw.power[0] >= 1) or vw.power[0] >= 4:
        return choice("yes")
    return choice("no")


def support_neutral(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-29: helping another house take a neutral castle only makes a rival stronger."""
    return choice("nothing")


HANDLERS: dict[DecisionKind, Handler] = {
    K.MARCH_TO_RESOLVE: march_to_resolve,
    K.MARCH_MOVE: march_move,
    K.LEAVE_POWER_TOKEN: leave_token,
    K.SUPPORT_AGAINST_NEUTRAL: support_neutral,
}
