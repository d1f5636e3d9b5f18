"""War of the Ring's piece of the value tool (its plugin's ``value`` piece, read by
``python -m experiments.value``): the baseline a learned value must beat and the agents whose
games it learns from.

The baseline reads what decides the game (facts §7): each side's victory points, the Ring-bearers'
Corruption and the Fellowship's progress (the Fellowship's Progress counter on the map, the
steps taken on the Mordor Track). The features are signed by side (+ for the Free Peoples, -
for the Shadow) beside a Free Peoples indicator, so that one linear fit over both sides' seats
is exactly a fit of the Free Peoples' share with the Shadow's as its complement (the two sum to
1).
"""

from __future__ import annotations

import numpy as np

from wotr_env.engine.state import FREE_PEOPLES, WotrState
from wotr_env.engine.victory import victory_points

#: The names of :func:`baseline_features`' entries, in order.
BASELINE_FEATURES = ("free_peoples", "fp_points", "shadow_points", "corruption", "progress",
                     "mordor_steps")
#: Who plays the value tool's games by default: the heuristic on both sides.
DEFAULT_AGENTS = ("wotr_heuristic",)


def baseline_features(state: WotrState, player: int) -> np.ndarray:
    """float[6]: 1 for the Free Peoples' seat (else 0), then the Free Peoples' and the
    Shadow's victory points, the Corruption, the Progress counter and the Mordor steps taken
    (0 off the Mordor Track), each times +1 for the Free Peoples' seat and -1 for the
    Shadow's."""
    sign = 1.0 if player == FREE_PEOPLES else -1.0
    fp, shadow = victory_points(state)
    mordor = state.mordor_step + 1 if state.mordor_step >= 0 else 0
    return np.array([float(player == FREE_PEOPLES),
                     *(sign * np.array([fp, shadow, state.corruption, state.progress, mordor],
                                       np.float64))])
