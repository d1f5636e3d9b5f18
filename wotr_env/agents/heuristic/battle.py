"""Battles: which enemy to attack (WD-11), the rearguard (WD-12), the Stronghold's choices
(WD-13, WD-14, WD-20), Combat cards (WD-15, WD-16), casualties (WD-17, WD-35), cease (WD-18),
retreat (WD-19) and the advance (WD-21).

An attack is worth it when the attacker wins the exchange of hits (:func:`common.exchange`)
by a margin, the Shadow's smaller (it has the reinforcements), more when the prize is a City
or Stronghold. A defender that would lose in the field goes into its Stronghold; a besieger or
an attacker ahead in the exchange goes on. Casualties keep the dice: while a force rolls
fewer than five dice an Elite is downgraded before a Regular dies.
"""

from __future__ import annotations

from wotr_env.engine.battle.forces import ATTACKER, battle_of, force
from wotr_env.engine.decision import DONE, Action, Decision, choice
from wotr_env.engine.state import FREE_PEOPLES, SHADOW, WotrState

from .armies import army_target
from .common import (
    STRONGHOLD,
    battle_edge,
    distances,
    exchange,
    hit_points,
    leadership,
    settlement,
    units,
    vp,
)

THRESHOLD = {SHADOW: 0.15, FREE_PEOPLES: 0.5}


def attack_value(state: WotrState, side: int, target: Action) -> float:
    """The margin by which an attack on ``target`` (a WD-11 option) is expected to be won,
    plus the prize: > THRESHOLD[side] is worth a die."""
    if target[0] == "edge":
        a, b = target[1], target[2]
        edge = battle_edge(state, side, a, b, siege=False)
        stronghold = settlement(state, b) == STRONGHOLD and int(state.control[b]) == 1 - side
        if stronghold and units(state, b, 1 - side, box=True) == 0:
            n = units(state, b, 1 - side)
            hp = hit_points(state, b, 1 - side)
            if n > 5:
                hp, n = int(round(hp * 5 / n)), 5
            siege = exchange(units(state, a, side), hit_points(state, a, side),
                             leadership(state, a, side), n, hp,
                             leadership(state, b, 1 - side), 6)
            edge = min(edge, siege)
        prize = vp(state, b) if int(state.control[b]) == 1 - side else 0
        return edge + 0.1 * prize
    r = target[1]
    if units(state, r, side, box=True) > 0:  # a sortie from the box
        return battle_edge(state, side, r, r, siege=False, src_box=True) - 0.3
    return battle_edge(state, side, r, r, siege=True) + 0.1 * vp(state, r)


def best_attack(state: WotrState, side: int, options: tuple[Action, ...]) -> tuple[float, Action]:
    best: tuple[float, Action] = (-9.0, options[0] if options else DONE)
    for o in options:
        if o[0] in ("edge", "region"):
            v = attack_value(state, side, o)
            if v > best[0]:
                best = (v, o)
    return best


def attack_target(state: WotrState, d: Decision) -> Action:
    return best_attack(state, d.player, d.options)[1]


def rearguard(state: WotrState, d: Decision) -> Action:
    return DONE


def current_edge(state: WotrState) -> float:
    """The attacker's exchange in the battle being fought, forces as they stand now."""
    battle = battle_of(state)
    side = battle.side
    siege = battle.kind == "siege"
    sortie = battle.kind == "sortie"
    figs = force(state, battle, ATTACKER)
    n = int(figs[:, :2].sum())
    hp = int(figs[:, 0].sum() + 2 * figs[:, 1].sum())
    lead = int(figs[:, 2].sum() + figs[:, 3].sum())
    return exchange(n, hp, lead, units(state, battle.dst, 1 - side, box=siege),
                    hit_points(state, battle.dst, 1 - side, box=siege),
                    leadership(state, battle.dst, 1 - side, box=siege),
                    6 if siege else 5) - (0.3 if sortie else 0.0)


def stronghold_choice(state: WotrState, d: Decision) -> Action:
    """WD-13: into the siege when the attacker would win in the field (or the box still
    holds the whole Army and does better there)."""
    battle = battle_of(state)
    side = battle.side
    figs = force(state, battle, ATTACKER)
    n, hp = int(figs[:, :2].sum()), int(figs[:, 0].sum() + 2 * figs[:, 1].sum())
    lead = int(figs[:, 2].sum() + figs[:, 3].sum())
    dst = battle.dst
    d_n, d_hp = units(state, dst, 1 - side), hit_points(state, dst, 1 - side)
    d_lead = leadership(state, dst, 1 - side)
    field = exchange(n, hp, lead, d_n, d_hp, d_lead, 5)
    if d_n > 5:
        d_hp, d_n = int(round(d_hp * 5 / d_n)), 5
    siege = exchange(n, hp, lead, d_n, d_hp, d_lead, 6)
    return choice("into-siege") if siege < field else choice("field-battle")


def siege_advance(state: WotrState, d: Decision) -> Action:
    return choice("advance")


def extend_siege(state: WotrState, d: Decision) -> Action:
    """WD-20: downgrade an Elite for one more round while the siege's exchange favours us."""
    if current_edge(state) > 0.0:
        for o in d.options:
            if o[0] == "casualty":
                return o
    return choice("stop")


def combat_card(state: WotrState, d: Decision) -> Action:
    """WD-15: the cards are kept for their events (no Combat card)."""
    for name in ("none", "no"):
        if choice(name) in d.options:
            return choice(name)
    return d.options[0]


def cease_or_continue(state: WotrState, d: Decision) -> Action:
    return choice("continue") if current_edge(state) > 0.0 else choice("cease")


def retreat(state: WotrState, d: Decision) -> Action:
    """WD-19: stay, unless the Army is outmatched outside a Settlement of its own."""
    battle = battle_of(state)
    defender = 1 - battle.side
    dst = battle.dst
    if vp(state, dst) > 0 and int(state.control[dst]) == defender:
        return choice("stay")
    if current_edge(state) < 1.0:
        return choice("stay")
    regions = [o for o in d.options if o[0] == "region"]
    if not regions:
        return choice("stay")
    return max(regions, key=lambda o: units(state, o[1], defender))


def advance_after_battle(state: WotrState, d: Decision) -> Action:
    """WD-21: advance into an enemy Settlement, or nearer the Army's target; else stay."""
    battle = battle_of(state)
    side, src, dst = battle.side, battle.src, battle.dst
    want = int(state.control[dst]) == 1 - side
    if not want:
        t = army_target(state, side, src)
        dist = distances(state)
        want = t >= 0 and dist[dst, t] < dist[src, t]
    if want:
        for name in ("all", "part"):
            if choice(name) in d.options:
                return choice(name)
    return choice("stay")


def casualty(state: WotrState, d: Decision) -> Action:
    """WD-17/WD-35 (and an Elite's downgrade elsewhere): keep the force's dice. A Regular
    dies while it has over five units, else an Elite is downgraded first; an Elite dies
    whole only when nothing else absorbs the hit."""
    opts = [o for o in d.options if o[0] == "casualty"]
    if not opts:
        return d.options[0]
    many = True
    try:
        battle = battle_of(state)
        role = ATTACKER if battle.side == d.player else 1
        many = int(force(state, battle, role)[:, :2].sum()) > 5
    except RuntimeError:
        pass
    order = ("regular", "downgrade", "elite") if many else ("downgrade", "regular", "elite")
    rank = {w: i for i, w in enumerate(order)}
    return min(opts, key=lambda o: (rank.get(o[2], 9), o[1]))


def combat_card_choice(state: WotrState, d: Decision) -> Action:
    """WD-16: a card's or an ability's choice: yes where asked, else the first option."""
    if choice("yes") in d.options:
        return choice("yes")
    return d.options[0]


__all__ = ["advance_after_battle", "attack_target", "attack_value", "best_attack",
           "casualty", "cease_or_continue", "combat_card", "combat_card_choice",
           "current_edge", "extend_siege", "rearguard", "retreat", "siege_advance",
           "stronghold_choice"]
