"""A Game of Thrones' piece of the value tool (its plugin's ``value`` piece, read by
``python -m experiments.value``): the baseline a learned value must beat and the agents whose
games it learns from.

The baseline is the castle count: issue 26 found that a least-squares fit of a house's share of
the win on the castles and strongholds it holds (its victory points, R5.3) explained more of
the outcome (EV 0.21) than a value network fitted on 324 games (0.14). The tool fits it per
round on the same training games as the network, so the comparison is like for like.
"""

from __future__ import annotations

import numpy as np

from got_env.engine.state import GameState

#: The names of :func:`baseline_features`' entries, in order.
BASELINE_FEATURES = ("castles",)
#: Who plays the value tool's games by default: the strongest heuristic in every seat.
DEFAULT_AGENTS = ("heuristic_v2",)


def baseline_features(state: GameState, player: int) -> np.ndarray:
    """float[1]: the castles and strongholds house ``player`` holds (its victory points)."""
    return np.array([state.victory_points()[player]], np.float64)
