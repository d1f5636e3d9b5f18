"""The suite's games: every deal seed played once with the candidate in each seat (paired
seatings), as the tournament's :class:`GameSpec`, so that the tournament plays and records them."""

from __future__ import annotations

import numpy as np

from ..tournament.plan import GameSpec
from .config import SuiteConfig


def paired_plan(cfg: SuiteConfig) -> list[GameSpec]:
    """For each seed (in order), each line-up and each rotation r: the candidate (the line-up's
    seat 0) plays house r, the opponents the houses after it, the deal the seed's. Game ``k * n
    + r`` of a line-up is seed k at rotation r, so that any prefix of the plan is whole seeds.
    Each agent's seed depends on the deal seed and its house alone: a candidate replaced by
    another meets the very same opponents' draws."""
    n = cfg.num_players
    plan = []
    for k, seed in enumerate(cfg.seeds):
        house_seeds = np.random.SeedSequence([seed]).generate_state(n, np.uint32)
        for li, lineup in enumerate(cfg.tournament.lineups):
            for r in range(n):
                at = [(r + i) % n for i in range(n)]
                plan.append(GameSpec(li, k * n + r, lineup, tuple(cfg.houses[h] for h in at),
                                     seed, tuple(int(house_seeds[h]) for h in at)))
    return plan
