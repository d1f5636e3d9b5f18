"""Uniform random play over the legal actions: the floor every other agent must beat."""

from __future__ import annotations

from typing import Any

import numpy as np


class RandomAgent:
    """Picks uniformly among the unmasked actions, with its own seeded generator."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask: this agent is not to act")
        return int(self.rng.choice(legal))
