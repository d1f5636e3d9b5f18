"""What must hold after every decision (issue 27, item 4), checked by the fuzz tests.

:func:`check` returns the broken invariants as sentences (empty when the state is sound), so
that a failing test names every problem at once.
"""

from __future__ import annotations

import numpy as np

from ..data import FIGURES, NATIONS
from .decision import WD
from .state import FREE_PEOPLES, LEADER, SHADOW, WotrState
from .turn.hand import HAND_LIMIT

UNITS_PER_REGION, UNITS_PER_BOX = 10, 5
FP_NATIONS = slice(0, 5)


def check(state: WotrState) -> list[str]:
    rs = state.ruleset
    board, cards = rs.board, rs.cards
    bad: list[str] = []
    total = state.army.sum(0, dtype=np.int16) + state.box.sum(0, dtype=np.int16) \
        + state.reserve + state.casualties
    for n, k in zip(*np.nonzero(total != board.figures), strict=True):
        bad.append(f"{NATIONS[n]} {FIGURES[k]}: {total[n, k]} figures, owns "
                   f"{board.figures[n, k]}")
    overstacked = (state.pending.context["region"] if state.pending is not None
                   and state.pending.kind == WD.OVERSTACK else -1)  # WD-36 removing the excess
    for name, grid, limit in (("region", state.army, UNITS_PER_REGION),
                              ("box", state.box, UNITS_PER_BOX)):
        if (grid < 0).any():
            bad.append(f"a negative figure count in a {name}")
        units = grid[:, :, :2].sum(axis=(1, 2))
        for r in np.flatnonzero(units > limit):
            if name == "region" and r == overstacked:
                continue
            bad.append(f"{board.regions[r].id}: {units[r]} units in its {name}")
        fp_units = grid[:, FP_NATIONS, :2].sum(axis=(1, 2))
        fp_leaders = grid[:, FP_NATIONS, LEADER].sum(axis=1)
        for r in np.flatnonzero((fp_leaders > 0) & (fp_units == 0)):
            bad.append(f"{board.regions[r].id}: Free Peoples Leaders alone in its {name}")
    fp_army = state.army[:, FP_NATIONS, :2].sum(axis=(1, 2)) > 0
    sh_army = state.army[:, 5:, :2].sum(axis=(1, 2)) > 0
    for r in np.flatnonzero(fp_army & sh_army):
        bad.append(f"{board.regions[r].id}: both sides' armies in the field")
    pending = state.pending
    discarding = pending is not None and pending.kind == WD.DISCARD
    for side in (FREE_PEOPLES, SHADOW):
        if len(state.hands[side]) > HAND_LIMIT and not discarding:
            bad.append(f"side {side}: {len(state.hands[side])} cards in hand")
    every = [c for pile in (*state.decks, *state.hands, *state.discards, *state.face_down,
                            state.table, *held_cards(state)) for c in pile]
    if sorted(every) != list(range(len(cards.events))):
        bad.append(f"cards: {len(every)} in the piles, {len(set(every))} distinct, of "
                   f"{len(cards.events)}")
    tiles = state.hunt_pool + state.hunt_drawn + state.hunt_removed + state.specials_in_play
    if len(tiles) != len(set(tiles)) or not set(tiles) <= set(range(len(cards.tiles))):
        bad.append("Hunt tiles: a tile in two places")
    standard = {i for i, t in enumerate(cards.tiles) if t.side is None}
    if not standard <= set(tiles):
        bad.append(f"Hunt tiles: standard tiles lost: {sorted(standard - set(tiles))}")
    if not 0 <= state.corruption <= 12:
        bad.append(f"corruption {state.corruption}")
    for n in np.flatnonzero((state.politics == 0) & ~state.active):
        bad.append(f"{NATIONS[n]}: At War while Passive")
    return bad


def held_cards(state: WotrState) -> list[list[int]]:
    """Cards out of every pile for a moment (a combat card chosen and not yet discarded);
    the battle frames that hold them say so through ``held``."""
    return [list(getattr(f, "held", ())) for f in state.stack]
