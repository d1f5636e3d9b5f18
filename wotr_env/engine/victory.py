"""Victory (facts §7.12): the Ring at once, the armies at the Victory Check (phase 6).

Precedence when two conditions hold together: Corruption 12 (Shadow), then the Crack of Doom
(Free Peoples), then the Shadow's 10 VP, then the Free Peoples' 4 VP. The Ring conditions are
checked where Corruption or the Mordor Track changes (:func:`add_corruption`, the Fellowship's
last Mordor step), so a game stops even inside a Hunt; points only in phase 6.
"""

from __future__ import annotations

import numpy as np

from .state import FREE_PEOPLES, SHADOW, WotrState

CORRUPTION_MAX = 12
MORDOR_STEPS = 5  # completing the 5th step reaches the Crack of Doom (facts §4.3)


def end(state: WotrState, winner: int, how: str) -> None:
    """The game ends: ``winner`` wins by ``how``; the first ending set stands."""
    if state.winner < 0:
        state.winner = winner
        state.ending = how
        state.pending = None
        state.log.append((state.turn, "victory", winner, how))


def add_corruption(state: WotrState, n: int) -> None:
    """Change Corruption by ``n`` (kept in 0..12); at 12 the Shadow wins at once."""
    state.corruption = int(min(CORRUPTION_MAX, max(0, state.corruption + n)))
    if state.corruption >= CORRUPTION_MAX:
        end(state, SHADOW, "corruption")


def reach_crack_of_doom(state: WotrState) -> None:
    """The Ring-bearers complete the Mordor Track: the Free Peoples win unless corrupted."""
    if state.corruption < CORRUPTION_MAX:
        end(state, FREE_PEOPLES, "crack-of-doom")


def victory_points(state: WotrState) -> tuple[int, int]:
    """(Free Peoples, Shadow) points: each side's enemy Cities (1) and Strongholds (2) it
    controls (facts §7.4)."""
    board = state.ruleset.board
    captured = (state.control >= 0) & (state.control != board.region_side)
    fp = int(np.sum(board.vp[captured & (state.control == FREE_PEOPLES)]))
    shadow = int(np.sum(board.vp[captured & (state.control == SHADOW)]))
    return fp, shadow


def check_military_victory(state: WotrState) -> None:
    """Phase 6: the Shadow with 10 points wins, else the Free Peoples with 4."""
    fp, shadow = victory_points(state)
    rules = state.ruleset.rules
    if shadow >= rules.shadow_victory_points:
        end(state, SHADOW, "shadow-points")
    elif fp >= rules.free_peoples_victory_points:
        end(state, FREE_PEOPLES, "free-peoples-points")
