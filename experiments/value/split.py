"""Which games train the value, which stop its training, which only the report reads: a split
by game (never by row: one game's rounds are alike, and a game on both sides would flatter the
fit). Each game's part is drawn from its own generator (the fit's seed and the game's index),
so a game keeps its part when more games are recorded later."""

from __future__ import annotations

import numpy as np

TRAIN, VALIDATION, HELD_OUT = 0, 1, 2


def game_parts(games: np.ndarray, validation: float, holdout: float, seed: int) -> np.ndarray:
    """int8[len(games)]: :data:`TRAIN`, :data:`VALIDATION` or :data:`HELD_OUT` for each row's
    game: held out with probability ``holdout``, validation with ``validation``."""
    ids, back = np.unique(games, return_inverse=True)
    draw = np.array([np.random.default_rng([seed, int(g)]).random() for g in ids])
    part = np.where(draw < holdout, HELD_OUT,
                    np.where(draw < holdout + validation, VALIDATION, TRAIN)).astype(np.int8)
    return part[back]
