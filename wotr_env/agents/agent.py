"""War of the Ring's heuristic as an agent of the kit's protocol (``agents.REGISTRY``:
``"wotr_heuristic"``; the game's ``default_policy``, so IS-MCTS rolls out with it).

The rules (:mod:`wotr_env.agents.heuristic`) read an engine state; the agent hands them a sample of
what its side cannot know (the game's ``determinize``), never the true state, so that it plays
from its own view only: the opponent's hand, the decks' and the Hunt Pool's order and future
chance are drawn again at every decision.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardkit import games

from .heuristic.policy import choose


class WotrHeuristicAgent:
    """``WotrHeuristicAgent(env=..., seed=...)``: ``env`` is the game's env (or IS-MCTS's
    simulated one), read for its state and codec."""

    def __init__(self, env: Any = None, seed: int | None = None):
        if env is None:
            raise ValueError("WotrHeuristicAgent needs the game's env (env=...), whose state it "
                             "reads through its side's view")
        self.env = env
        self.rng = np.random.default_rng(seed)
        self.game = games.get("wotr")

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        raw = self.env.unwrapped
        state = raw.game
        decision = self.game.pending(state)
        if decision is None:
            raise ValueError("the game is over: nothing to choose")
        codec = raw.codec
        if len(decision.options) == 1:
            return codec.encode(decision.options[0])
        view = self.game.determinize(state, decision.player, self.rng)
        action = choose(view, self.rng)
        index = codec.encode(action)
        if not action_mask[index]:
            raise RuntimeError(f"the heuristic chose {codec.name(index)}, which the mask does "
                               f"not allow")
        return index
