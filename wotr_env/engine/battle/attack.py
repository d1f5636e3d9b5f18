"""Attacks: the die actions that start a battle, the target (WD-11), the rearguard (WD-12)
(spec §12, §13, §20 #19 #26-#30; facts §7.2-§7.5).

An Army attacks with an Army die (or Army/Muster, or Will of the West as either), or with a
Character die if a Leader, Nazgûl or Character goes with it (``attack``, ``leader-attack``).
Its target (WD-11) is an adjacent enemy Army (``("edge", from, to)``: a field battle, or the
relief of a siege when the enemy besieges a friendly Stronghold there) or, in its own region
(``("region", r)``), the enemy Army besieged in the Stronghold's box (a siege battle) or, from
inside the box, the besiegers (a sortie). Only units and Leaders of nations At War attack; the
others stay in the rearguard, with whatever the attacker holds back (WD-12). Nazgûl and
Characters count as At War.

The rearguard chosen, :class:`.sequence.Battle` runs the battle's rounds. Event cards that start
a battle call :func:`start_battle`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardkit.frames import Frame

from ..armies import closed, leads
from ..decision import ARMY, ARMY_MUSTER, CHARACTER, DONE, WD, Action, Decision
from ..dice import die_action
from ..politics import at_war
from ..regions import NATIONS_OF
from ..state import ELITE, LEADER, NAZGUL, REGULAR, WotrState
from ..sweeps import SIDE_SET, attack_ready, unit_nations
from .forces import (
    FIELD,
    N_KINDS,
    N_NATIONS,
    NO_REAR,
    SIEGE,
    SORTIE,
    army_at,
    characters_at,
    units_in,
)
from .sequence import Battle

RANKS = (REGULAR, ELITE, LEADER, NAZGUL)


def not_at_war(state: WotrState, side: int) -> list[int]:
    """The side's nations not At War (their units and Leaders never attack)."""
    return [n for n in range(N_NATIONS)[NATIONS_OF[side]] if not at_war(state, n)]


def can_attack_from(state: WotrState, region: int, side: int, box: bool, leader: bool) -> bool:
    """The side's Army there has a unit At War (and, with ``leader``, a Leader At War, a
    Nazgûl or a Character to go with it; an Isengard Elite while Saruman is in play, his
    *Servants of the White Hand*, facts §3.4)."""
    figures = army_at(state, region, side, box)
    figures[not_at_war(state, side)] = 0
    if figures[:, :2].sum() == 0:
        return False
    return not leader or leads(state, figures, tuple(characters_at(state, region, side, box)))


def attack_targets(state: WotrState, side: int, leader: bool = False) -> list[Action]:
    """WD-11 options: ("edge", from, to) field battles, ("region", r) siege battles/sorties,
    by region (each region's field battles, then its siege battle), then the sorties; none on
    a region a card closes. Every region's Army is tested at once (:func:`.sweeps.attack_ready`:
    a die's legality asks this before every choice of a die action)."""
    board = state.ruleset.board
    enemy = SIDE_SET[1 - side]
    field = unit_nations(state.army)
    enemy_field = (field & enemy) != 0
    ready = attack_ready(state, side, False, leader, field)
    hits = ready[board.border_from] & enemy_field[board.border_to]
    found = [(a, 0, b) for a, b in zip(board.border_from[hits].tolist(),
                                        board.border_to[hits].tolist(), strict=True)]
    sorties: list[int] = []
    if np.count_nonzero(state.box):  # a siege somewhere
        inside = unit_nations(state.box)
        found += [(r, 1, r) for r in np.flatnonzero(ready & ((inside & enemy) != 0)).tolist()]
        sorties = np.flatnonzero(enemy_field & attack_ready(state, side, True, leader,
                                                            inside)).tolist()
    found.sort()
    out: list[Action] = [("edge", a, b) if k == 0 else ("region", a) for a, k, b in found]
    out += [("region", r) for r in sorties]
    shut: dict[int, bool] = {}  # closed(), asked once per region
    for t in out:
        if t[-1] not in shut:
            shut[t[-1]] = closed(state, side, t[-1])
    return [t for t in out if not shut[t[-1]]]  # a card forbids (armies.py)


def attack_legal(state: WotrState, side: int) -> bool:
    return bool(attack_targets(state, side))


def leader_attack_legal(state: WotrState, side: int) -> bool:
    return bool(attack_targets(state, side, leader=True))


@die_action("attack", (ARMY, ARMY_MUSTER), attack_legal)
def start_attack(state: WotrState, side: int, face: int) -> None:
    state.stack.append(ChooseTarget(side, False))


@die_action("leader-attack", (CHARACTER,), leader_attack_legal)
def start_leader_attack(state: WotrState, side: int, face: int) -> None:
    state.stack.append(ChooseTarget(side, True))


def start_battle(state: WotrState, side: int, target: Action, leader: bool = False,
                 siege_rounds: int = 1) -> None:
    """Push the battle of an attack on ``target`` (a WD-11 option): the rearguard, then the
    rounds. ``siege_rounds``: rounds a siege battle lasts before WD-20 (*Grond*: 3)."""
    if target[0] == "edge":
        src, dst, kind = target[1], target[2], FIELD
    else:
        src = dst = target[1]
        kind = SORTIE if units_in(state, src, side, box=True) else SIEGE
    state.stack.append(Rearguard(side, src, dst, kind, leader, siege_rounds))


@dataclass
class ChooseTarget(Frame):
    """WD-11: which enemy Army to attack, and from where."""

    side: int
    leader: bool

    def run(self, state: WotrState) -> Decision:
        return Decision(self.side, WD.ATTACK_TARGET,
                        tuple(attack_targets(state, self.side, self.leader)))

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        start_battle(state, self.side, action, self.leader)


@dataclass
class Rearguard(Frame):
    """WD-12: figures held back, one at a time, then DONE (spec §12.1, §20 #19; facts §7.2).

    Units and Leaders of nations not At War are held back first, by the rules. The attacker may
    hold back more units while one stays to fight, then Leaders, Nazgûl and Characters once a
    unit is in the rearguard (a rearguard holds at least one unit; Leaders forced into it with
    no unit of theirs are left alone and eliminated at the battle's end, spec §20 #23); with
    a Character die one Leader, Nazgûl or Character must still fight."""

    side: int
    src: int
    dst: int
    kind: str
    leader: bool
    siege_rounds: int = 1
    rear: tuple[int, ...] = NO_REAR
    rear_chars: tuple[int, ...] = ()
    forced: bool = False

    def holding(self) -> np.ndarray:
        return np.array(self.rear, np.int16).reshape(N_NATIONS, N_KINDS)

    def run(self, state: WotrState) -> Decision:
        box = self.kind == SORTIE
        if not self.forced:
            self.forced = True
            held = self.holding()
            figures = army_at(state, self.src, self.side, box)
            for n in not_at_war(state, self.side):
                held[n, :3] = figures[n, :3]
            self.rear = tuple(int(x) for x in held.flat)
        force = army_at(state, self.src, self.side, box) - self.holding()
        chars = tuple(c for c in characters_at(state, self.src, self.side, box)
                      if c not in self.rear_chars)
        unit_held = self.holding()[:, :2].sum() > 0
        options: list[Action] = []
        for n, k in zip(*np.nonzero(force > 0), strict=True):
            rest = force.copy()
            rest[n, k] -= 1
            if (force[:, :2].sum() >= 2 if k < 2 else unit_held) and (
                    not self.leader or leads(state, rest, chars)):
                options.append(("unit", int(n), int(k)))
        if unit_held:
            options += [("character", c) for c in chars
                        if not self.leader or leads(state, force, tuple(x for x in chars
                                                                        if x != c))]
        options.append(DONE)
        return Decision(self.side, WD.REARGUARD, tuple(options),
                        context={"battle": (self.src, self.dst)})

    def act(self, state: WotrState, action: Action) -> None:
        if action[0] == "character":
            self.rear_chars = (*self.rear_chars, action[1])
            return
        if action[0] == "unit":
            rear = list(self.rear)
            rear[action[1] * N_KINDS + action[2]] += 1
            self.rear = tuple(rear)
            return
        state.stack.pop()
        state.stack.append(Battle(self.side, self.src, self.dst, self.kind, self.rear,
                                  self.rear_chars, rounds_left=self.siege_rounds))


__all__ = ["ChooseTarget", "Rearguard", "attack_targets", "can_attack_from", "not_at_war",
           "start_battle"]
