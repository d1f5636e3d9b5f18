"""From a game's final scores (:meth:`boardkit.protocol.Game.outcome`) to what the tools
reward: each player's share of the win, so that every game's rewards lie in [0, 1] and sum to 1
whatever its scoring (a search's values, an env's end rewards)."""

from __future__ import annotations

import numpy as np


def win_shares(scores: np.ndarray) -> np.ndarray:
    """float[player]: 1/k for each of the k players with the top score, 0 for the others."""
    scores = np.asarray(scores)
    top = scores == scores.max()
    r = np.zeros(scores.shape)
    r[top] = 1.0 / int(top.sum())
    return r
