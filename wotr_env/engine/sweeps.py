"""Whole-board sweeps for the legality tests that look at every Army at once: which moves an
Army may make (:func:`move_edges`, for :func:`.armies.edges`) and which Armies may attack
(:func:`attack_ready`, for :func:`.battle.attack.attack_targets`).

Asked one region and one border at a time, these tests cost a few small numpy sums each, and
thousands of them are asked before a die is played (every die action's legality); the same
answers come from a few operations on whole-board arrays, indexed by the board's borders taken
both ways (``board.border_from``/``border_to``). The rules are those of the per-region
functions they stand for (``armies.may_enter``, ``armies.leads``, ``armies.valid_group``,
``battle.attack.can_attack_from``), which stay the reference for a single Army (the tests compare
them); nothing is cached, so a clone or a determinized state needs no care.

A set of nations is an int, bit ``n`` for nation ``n`` (:func:`nation_sets`): "a nation with a
unit here may enter there" is then one AND per border. Small reductions over the last axes of
``state.army`` are slow in numpy, so figures are added kind by kind (an int8 sum of a nation's
Regulars and Elites cannot overflow: no nation owns 127 units, facts §2.2).
"""

from __future__ import annotations

import numpy as np

from .state import ELITE, LEADER, NAZGUL, REGULAR, SHADOW, WotrState

ISENGARD = 5  # an Isengard Elite leads while Saruman is in play (facts §3.4)
NATION_BIT = 1 << np.arange(8)  # (nations,) int64: nation n's bit in a set of nations
SIDE_SET = (0b00011111, 0b11100000)  # each side's nations (the Free Peoples first)
Moved = tuple[tuple[int, int, int], ...]  # as in armies: (region, nation, kind) per figure


def nation_sets(present: np.ndarray) -> np.ndarray:
    """(regions,) int: the set of nations whose entry in each row of ``present`` (regions,
    nations) bool is True."""
    return present @ NATION_BIT


def unit_nations(grid: np.ndarray) -> np.ndarray:
    """(regions,) int: the nations with a unit (Regular or Elite) in each region of ``grid``
    (``state.army``, ``state.box``, or movable figures of that shape)."""
    return nation_sets(grid[:, :, REGULAR] + grid[:, :, ELITE] > 0)


def at_war_set(state: WotrState) -> int:
    """The nations At War."""
    return int(nation_sets(state.politics == 0))


def regions_holding(state: WotrState, chars: np.ndarray) -> np.ndarray:
    """(regions,) bool: a region where one of ``chars`` (a bool mask over the characters)
    stands on the map."""
    out = np.zeros(state.army.shape[0], bool)
    at = state.char_at[chars]
    out[at[at >= 0]] = True
    return out


def saruman_in_play(state: WotrState) -> bool:
    return bool(state.char_at[state.ruleset.cards.character("saruman")] >= 0)


def movable_figures(state: WotrState, side: int, moved: Moved = ()) -> np.ndarray:
    """(regions, nations, kinds): the figures in the fields, less the side's figures that
    moved already in this action (``armies.movable`` for every region at once; the side's
    rows are the ones to read)."""
    if not moved:
        return state.army
    figs = state.army.astype(np.int16)
    first, stop = (0, 5) if side != SHADOW else (5, 8)
    for r, n, k in moved:
        if first <= n < stop:
            figs[r, n, k] -= 1
    return np.maximum(figs, 0)  # arrivals sent back over the stacking limit are gone


def movable_characters_at(state: WotrState, side: int, moved_chars: tuple[int, ...]) \
        -> np.ndarray:
    """(regions,) bool: ``armies.movable_characters`` is not empty there (the side's
    Characters in the field, of Level 1 or more, not moved yet)."""
    cards = state.ruleset.cards
    mask = (cards.character_side == side) & ~state.char_in_box & (cards.character_level > 0)
    if moved_chars:
        mask[list(moved_chars)] = False
    return regions_holding(state, mask)


def move_edges(state: WotrState, side: int, need_leader: bool, moved: Moved = (),
               moved_chars: tuple[int, ...] = ()) -> list[tuple[int, int]]:
    """(from, to): the borders over which some unmoved part of the side's Army may move, in
    the order of the regions and their neighbours, before the cards' closed regions: the
    destination has no enemy unit in its field (``regions.free_for_movement``), and what may
    enter it (``armies.may_enter``: a nation not At War stays home, Nazgûl go anywhere) holds a
    unit and, with ``need_leader``, a Leader, a Nazgûl or a Character (``armies.leads``)."""
    board = state.ruleset.board
    figs = movable_figures(state, side, moved)
    units = unit_nations(figs)
    mine = units & SIDE_SET[side]
    src, dst = board.border_from, board.border_to
    open_ = (mine != 0)[src] & ((units & SIDE_SET[1 - side]) == 0)[dst]
    src, dst = src[open_], dst[open_]
    may = board.home_nations[dst] | at_war_set(state)  # who may enter each destination
    ok = (mine[src] & may) != 0
    if need_leader:
        mask = SIDE_SET[side]
        leaders = nation_sets(figs[:, :, LEADER] > 0) & mask
        nazgul = (nation_sets(figs[:, :, NAZGUL] > 0) & mask) != 0
        lead = movable_characters_at(state, side, moved_chars)[src] \
            | ((leaders[src] & may) != 0) | nazgul[src]
        if side == SHADOW and saruman_in_play(state):
            lead |= ((may & (1 << ISENGARD)) != 0) & (figs[src, ISENGARD, ELITE] > 0)
        ok &= lead
    return list(zip(src[ok].tolist(), dst[ok].tolist(), strict=True))


def attack_ready(state: WotrState, side: int, box: bool, leader: bool,
                 units: np.ndarray | None = None) -> np.ndarray:
    """(regions,) bool: ``battle.attack.can_attack_from`` for every region at once: the side's
    figures there (field or box) of nations At War hold a unit and, with ``leader``, a
    Leader or Nazgûl of them, a Character, or an Isengard Elite while Saruman is in play.
    ``units``: ``unit_nations`` of that grid, if the caller has it."""
    grid = state.box if box else state.army
    war = at_war_set(state) & SIDE_SET[side]  # the nations not At War never attack
    ready = ((unit_nations(grid) if units is None else units) & war) != 0
    if not leader:
        return ready
    cards = state.ruleset.cards
    lead = (nation_sets(grid[:, :, LEADER] + grid[:, :, NAZGUL] > 0) & war) != 0
    lead |= regions_holding(state, (cards.character_side == side) & (state.char_in_box == box))
    if war & (1 << ISENGARD) and saruman_in_play(state):
        lead |= grid[:, ISENGARD, ELITE] > 0
    return ready & lead


__all__ = ["SIDE_SET", "at_war_set", "attack_ready", "move_edges", "movable_characters_at",
           "movable_figures", "nation_sets", "regions_holding", "unit_nations"]
