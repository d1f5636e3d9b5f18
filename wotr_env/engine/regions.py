"""The board's vocabulary, shared by every rule: whose figures stand where, what is free,
capture and control (facts §7.3, §7.4; spec §8, §10).

An *army* is a side's units (Regulars and Elites) in a region's field, with the Leaders,
Nazgûl and Characters among them; Nazgûl and Characters may stand alone, Free Peoples Leaders
may not (spec §20 #23). Figures inside a besieged Stronghold are in ``state.box``.
"""

from __future__ import annotations

import numpy as np

from .politics import activate, advance
from .state import ELITE, FREE_PEOPLES, LEADER, NO_SIDE, REGULAR, SHADOW, WotrState, log

NATIONS_OF = (slice(0, 5), slice(5, 8))  # each side's nations: the Free Peoples first
STRONGHOLD, CITY, TOWN, FORTIFICATION = 2, 1, 0, 3  # codes of board.settlement


def units(state: WotrState, region: int, side: int, box: bool = False) -> int:
    """The side's Regulars and Elites in the region's field (or its Stronghold box)."""
    grid = state.box if box else state.army
    # Summed in Python: for ten small numbers twice as fast as numpy's sum (a hot path).
    return sum(map(sum, grid[region, NATIONS_OF[side], :2].tolist()))


def has_army(state: WotrState, region: int, side: int) -> bool:
    return units(state, region, side) > 0


def besieged(state: WotrState, region: int) -> bool:
    """A Stronghold whose defenders are in its box, the besiegers in the field."""
    return bool(np.count_nonzero(state.box[region]))  # (faster than ``.any()``: a hot path)


def free_for_movement(state: WotrState, region: int, side: int) -> bool:
    """An Army may move in: no enemy units in the field (an enemy Settlement without
    defenders is captured by entering it; a Stronghold one's own side besieges is free)."""
    return not has_army(state, region, 1 - side)


def free(state: WotrState, region: int, side: int) -> bool:
    """No enemy Army and no enemy-controlled Settlement (facts §7.4): where one may recruit."""
    return free_for_movement(state, region, side) and state.control[region] != 1 - side


def nations_in(state: WotrState, region: int, side: int, box: bool = False) -> set[int]:
    """The side's nations with units in the region's field (or box)."""
    grid = state.box if box else state.army
    first = 0 if side == FREE_PEOPLES else 5
    rows = grid[region, NATIONS_OF[side], :2].sum(axis=1)
    return {first + int(i) for i in np.flatnonzero(rows)}


def capture(state: WotrState, region: int, side: int) -> None:
    """``side`` takes control of the region's Settlement; its nation moves one step toward
    At War (facts §7.4, §7.5)."""
    if state.control[region] in (NO_SIDE, side):
        return
    state.control[region] = side
    log(state, "capture", region, side)
    board = state.ruleset.board
    owner = int(board.region_nation[region])
    if owner >= 0 and board.region_side[region] != side:  # taken by its enemy, not retaken
        advance(state, owner)


def enter(state: WotrState, region: int, side: int) -> None:
    """An Army of ``side`` has entered ``region``: an enemy Settlement with no defenders is
    captured; a Shadow Army entering a Free Peoples nation's region activates it."""
    board = state.ruleset.board
    nation = int(board.region_nation[region])
    if side == SHADOW and nation >= 0 and board.region_side[region] == FREE_PEOPLES:
        activate(state, nation)
    if state.control[region] == 1 - side and not units(state, region, 1 - side, box=True):
        capture(state, region, side)


def besieging_side(state: WotrState, region: int) -> int:
    """The side besieging the region's Stronghold (the side not in its box), or NO_SIDE."""
    if not besieged(state, region):
        return NO_SIDE
    return SHADOW if state.box[region, NATIONS_OF[FREE_PEOPLES]].any() else FREE_PEOPLES


def lift_siege(state: WotrState, region: int) -> None:
    """A siege ends once no besieging unit is left in the region (the besiegers moved away):
    the besieged come out of the box into the region (facts §7.3)."""
    side = besieging_side(state, region)
    if side == NO_SIDE or has_army(state, region, side):
        return
    release_box(state, region)


def release_box(state: WotrState, region: int) -> None:
    """The siege is over: whatever is in the Stronghold's box, figures and Characters, comes
    out into the region (facts §7.3); nothing happens to an empty box."""
    if not state.box[region].any() and not (state.char_in_box & (state.char_at == region)).any():
        return
    state.army[region] += state.box[region]
    state.box[region] = 0
    state.char_in_box[state.char_at == region] = False
    log(state, "siege-ends", region)


def remove_figures(state: WotrState, region: int, nation: int, kind: int, n: int = 1,
                   box: bool = False) -> None:
    """Figures eliminated: the Free Peoples' leave the game (their casualties), the Shadow's
    go back to the reinforcements (facts §7.2)."""
    grid = state.box if box else state.army
    if grid[region, nation, kind] < n:
        raise RuntimeError(f"removing {n} of kind {kind} of nation {nation} from region "
                           f"{region}: only {grid[region, nation, kind]}")
    grid[region, nation, kind] -= n
    if nation < 5:
        state.casualties[nation, kind] += n
    else:
        state.reserve[nation, kind] += n


def downgrade(state: WotrState, region: int, nation: int, box: bool = False) -> bool:
    """An Elite becomes a Regular of its nation, taken from the casualties, else from the
    reinforcements; False (nothing changed) if neither has one (spec §12.6, §20 #22)."""
    grid = state.box if box else state.army
    if state.casualties[nation, REGULAR] > 0:
        state.casualties[nation, REGULAR] -= 1
    elif state.reserve[nation, REGULAR] > 0:
        state.reserve[nation, REGULAR] -= 1
    else:
        return False
    grid[region, nation, ELITE] -= 1
    grid[region, nation, REGULAR] += 1
    if nation < 5:
        state.casualties[nation, ELITE] += 1
    else:
        state.reserve[nation, ELITE] += 1
    return True


def lone_leaders(state: WotrState, region: int) -> None:
    """Free Peoples Leaders left without units are eliminated at once (spec §20 #23)."""
    for grid, box in ((state.army, False), (state.box, True)):
        if grid[region, NATIONS_OF[FREE_PEOPLES], :2].sum() == 0:
            for n in range(5):
                if grid[region, n, LEADER]:
                    remove_figures(state, region, n, LEADER, int(grid[region, n, LEADER]), box)


def characters_in(state: WotrState, region: int, side: int) -> list[int]:
    """Characters of ``side`` standing in the region (not in the Fellowship)."""
    cards = state.ruleset.cards
    return [int(c) for c in np.flatnonzero((state.char_at == region)
                                           & (cards.character_side == side))]
