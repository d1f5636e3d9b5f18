"""Who fights in a battle: the two forces, their units, Leadership and Characters; moving
figures; a Stronghold's box (spec §12.1-§12.3, §13.2, §20 #19 #38; facts §7.2, §7.3).

A battle is fought between two *forces*. The attacker's is his Army (in the field, or in a
Stronghold's box for a sortie) less the rearguard he holds back; the defender's is every
figure of his Army (in the field, or in the box for a siege battle), Leaders and Characters
included. The arrays are never split: the rearguard is a count per nation and figure kind that
:func:`force` subtracts, so the figures a battle cannot touch stay where they stand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from boardkit.frames import Frame

from ..regions import NATIONS_OF, remove_figures, units
from ..state import ELIMINATED, LEADER, NAZGUL, WotrState, log

ATTACKER, DEFENDER = 0, 1  # the roles
FIELD, SIEGE, SORTIE = "field", "siege", "sortie"  # the kinds of battle (facts §7.3)
N_NATIONS, N_KINDS = 8, 4
NO_REAR: tuple[int, ...] = (0,) * (N_NATIONS * N_KINDS)  # a rearguard, flat (nation * 4 + kind)
# ``hook(state, character)`` after a Character is eliminated (:func:`eliminate_character`): table
# cards that need one in play append their discard (*The Palantir of Orthanc*, *Wormtongue*).
CHARACTER_ELIMINATED: list[Callable[[WotrState, int], None]] = []
# Characters' abilities that change a force's Combat Strength or Leadership (:mod:`..abilities`:
# *Captain of the West*, *The White Rider*, *Servants of the White Hand*): each
# ``fn(state, battle, role) -> int`` is added to the count.
Modifier = Callable[[WotrState, "BattleFields", int], int]
STRENGTH_MODIFIERS: list[Modifier] = []
LEADERSHIP_MODIFIERS: list[Modifier] = []


@dataclass
class BattleFields(Frame):
    """What a battle is: who attacks, from where, which kind, his rearguard, its round, whether
    it has ended and why. The battle's steps (rounds, casualties, siege, end) find it on the stack
    with :func:`battle_of` and read and change these fields; :class:`.sequence.Battle`, the frame
    on the stack, adds the sequence of its steps.

    ``rear``: the attacker's figures held back (flat, nation * 4 + kind), ``rear_chars`` his
    Characters held back; ``ended``: the battle stops after the current step (cease, retreat,
    retreat into a siege, a siege battle not extended, or a Combat card's effect);
    ``outcome`` says why."""

    side: int  # the attacker
    src: int  # the attacking force's region
    dst: int  # the defending Army's region (the same region for a siege battle or a sortie)
    kind: str = FIELD
    rear: tuple[int, ...] = NO_REAR
    rear_chars: tuple[int, ...] = ()
    round: int = 0
    rounds_left: int = 1  # siege battle rounds still to fight before WD-20
    step: str = "start"
    ended: bool = False
    outcome: str = ""
    white_rider: bool = False  # Gandalf the White gave up his Leadership (facts §3.2)


def battle_of(state: WotrState) -> BattleFields:
    """The battle being fought (the topmost :class:`.sequence.Battle` on the stack)."""
    for frame in reversed(state.stack):
        if isinstance(frame, BattleFields):
            return frame
    raise RuntimeError("no battle is being fought")


def side_of(battle: BattleFields, role: int) -> int:
    return battle.side if role == ATTACKER else 1 - battle.side


def role_of(battle: BattleFields, side: int) -> int:
    return ATTACKER if side == battle.side else DEFENDER


def place(battle: BattleFields, role: int) -> tuple[int, bool]:
    """(region, in the box) where the role's force stands."""
    if role == ATTACKER:
        return battle.src, battle.kind == SORTIE
    return battle.dst, battle.kind == SIEGE


def army_at(state: WotrState, region: int, side: int, box: bool = False) -> np.ndarray:
    """The side's figures (nations, kinds) in the region's field or box; other rows zero."""
    grid = state.box if box else state.army
    out = np.zeros((N_NATIONS, N_KINDS), np.int16)
    rows = NATIONS_OF[side]
    out[rows] = grid[region, rows]
    return out


def characters_at(state: WotrState, region: int, side: int, box: bool = False) -> list[int]:
    """The side's Characters in the region's field (or its box)."""
    cards = state.ruleset.cards
    return [int(c) for c in np.flatnonzero((state.char_at == region) & (state.char_in_box == box)
                                           & (cards.character_side == side))]


def force(state: WotrState, battle: BattleFields, role: int) -> np.ndarray:
    """The figures (nations, kinds) of the role's force: what takes part in the battle."""
    region, box = place(battle, role)
    figures = army_at(state, region, side_of(battle, role), box)
    if role == ATTACKER:
        figures -= np.array(battle.rear, np.int16).reshape(N_NATIONS, N_KINDS)
    return figures


def force_characters(state: WotrState, battle: BattleFields, role: int) -> list[int]:
    region, box = place(battle, role)
    chars = characters_at(state, region, side_of(battle, role), box)
    return [c for c in chars if role == DEFENDER or c not in battle.rear_chars]


def force_units(state: WotrState, battle: BattleFields, role: int) -> int:
    """Combat Strength before the 5-dice cap: the force's Regulars and Elites (spec §12.2)."""
    return int(force(state, battle, role)[:, :2].sum())


def combat_strength(state: WotrState, battle: BattleFields, role: int) -> int:
    """Combat Strength before the 5-dice cap: the units, with the Characters' abilities
    (spec §12.2; facts §3.1 *Captain of the West*); none without a unit."""
    units = force_units(state, battle, role)
    if units == 0:
        return 0
    return max(0, units + sum(fn(state, battle, role) for fn in STRENGTH_MODIFIERS))


def leadership(state: WotrState, battle: BattleFields, role: int) -> int:
    """Leaders and Nazgûl 1 each, Characters their card's value (spec §12.3, §20 #38), with
    the Characters' abilities (:data:`LEADERSHIP_MODIFIERS`)."""
    figures = force(state, battle, role)
    lead = state.ruleset.cards.character_leadership
    chars = force_characters(state, battle, role)
    base = int(figures[:, LEADER].sum() + figures[:, NAZGUL].sum()
               + sum(int(lead[c]) for c in chars))
    return max(0, base + sum(fn(state, battle, role) for fn in LEADERSHIP_MODIFIERS))


def nations_of_force(state: WotrState, battle: BattleFields, role: int) -> set[int]:
    """The nations with units in the force (the Political Track's "attacked" nations)."""
    figures = force(state, battle, role)
    return {int(n) for n in np.flatnonzero(figures[:, :2].sum(axis=1))}


def decided(state: WotrState, battle: BattleFields) -> bool:
    """One force has no unit left: the battle is over (spec §12.8)."""
    return force_units(state, battle, ATTACKER) == 0 or force_units(state, battle, DEFENDER) == 0


def eliminate_character(state: WotrState, character: int) -> None:
    """A Character removed from play for good (spec §12.6: Minions included)."""
    state.char_at[character] = ELIMINATED
    state.char_in_box[character] = False
    log(state, "character-eliminated", character)
    for hook in CHARACTER_ELIMINATED:
        hook(state, character)


def eliminate_followers(state: WotrState, region: int, side: int, box: bool,
                        figures: np.ndarray, chars: list[int]) -> None:
    """The Leaders, Nazgûl and Characters of an Army whose units are all gone are removed:
    Free Peoples Leaders for good, Nazgûl back to the reinforcements (spec §12.6, facts §7.2)."""
    for nation in range(N_NATIONS):
        for kind in (LEADER, NAZGUL):
            if figures[nation, kind] > 0:
                remove_figures(state, region, nation, kind, int(figures[nation, kind]), box)
    for c in chars:
        eliminate_character(state, c)


def move_figures(state: WotrState, figures: np.ndarray, chars: list[int], src: int, dst: int,
                 src_box: bool = False, dst_box: bool = False) -> None:
    """Move ``figures`` (nations, kinds) and ``chars`` between fields and boxes."""
    (state.box if src_box else state.army)[src] -= figures.astype(np.int8)
    (state.box if dst_box else state.army)[dst] += figures.astype(np.int8)
    for c in chars:
        state.char_at[c] = dst
        state.char_in_box[c] = dst_box


def units_in(state: WotrState, region: int, side: int, box: bool = False) -> int:
    """The side's Regulars and Elites in the region's field (or box): ``regions.units``."""
    return units(state, region, side, box)


__all__ = ["ATTACKER", "CHARACTER_ELIMINATED", "DEFENDER", "FIELD", "LEADERSHIP_MODIFIERS",
           "NO_REAR", "SIEGE", "SORTIE", "BattleFields",
           "STRENGTH_MODIFIERS", "army_at", "battle_of", "characters_at", "combat_strength",
           "decided", "eliminate_character",
           "eliminate_followers", "force", "force_characters", "force_units",
           "leadership", "move_figures", "nations_of_force", "place", "role_of", "side_of",
           "units_in"]
