"""A PettingZoo ``ParallelEnv`` view of a kit game's AEC env (:class:`KitParallelEnv`), for
tools that want one.

The game asks one player at a time, so a parallel step is one decision: every agent in play
observes, only the player whose decision is pending acts (``actions[acting]``, named in
``infos[agent]["acting"]`` and by its non-zero action mask); the other agents' actions are
ignored. Rewards, terminations, truncations and infos are those of the AEC env, which does the
work. A game's ``parallel`` module subclasses it with its own ``metadata`` and raw env
(``got_env.parallel``, ``wotr_env.parallel``), and offers :func:`round_robin` as ``env``:
PettingZoo's round-robin AEC view of it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec


class KitParallelEnv(ParallelEnv):
    """The parallel view of ``aec`` (a :class:`boardkit.aec.KitEnv`): module docstring."""

    #: What the game calls a seat, in error messages (AGoT: "house", War of the Ring: "side").
    seat_word = "player"

    def __init__(self, aec: Any):
        self.aec = aec
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.state_space = self.aec.state_space
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None,
              options: dict | None = None) -> tuple[dict[str, Any], dict[str, dict]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return self._observations(), self._infos()

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Play ``actions[acting]`` for the player to act; every other entry is ignored."""
        if not self.agents:
            raise RuntimeError("every agent is done; call reset() to start a new game")
        acting = self.aec.agent_selection
        if acting not in actions:
            raise KeyError(f"actions has no entry for {acting!r}, the {self.seat_word} to act")
        self.aec.step(actions[acting])
        observations = self._observations()
        rewards = {a: float(self.aec.rewards[a]) for a in self.agents}
        terminations = {a: bool(self.aec.terminations[a]) for a in self.agents}
        truncations = {a: bool(self.aec.truncations[a]) for a in self.agents}
        infos = self._infos()
        if all(terminations.values()) or all(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        return self.aec.state()

    def render(self) -> str | np.ndarray | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    @property
    def acting(self) -> str | None:
        """The player whose decision is pending (None once the game ended or was truncated)."""
        aec = self.aec
        if aec.game is None or aec._pending(aec.game) is None or aec._truncated:
            return None
        return aec.agent_selection

    def _observations(self) -> dict[str, Any]:
        return {a: self.aec.observe(a) for a in self.agents}

    def _infos(self) -> dict[str, dict]:
        """The AEC infos plus ``acting``: the acting player's index in ``possible_agents`` (-1 at
        the end) in the numeric format, its id (None at the end) with ``info_format="text"``."""
        acting = self.acting
        if self.aec.info_format != "text":
            acting = -1 if acting is None else self.possible_agents.index(acting)
        return {a: {**self.aec.infos[a], "acting": acting} for a in self.agents}


def round_robin(parallel: ParallelEnv) -> AECEnv:
    """PettingZoo's round-robin AEC view of a parallel env (``parallel_to_aec``): each cycle asks
    every agent in turn, and only the acting agent's action is played (the others' are ignored,
    any index will do). For tools that expect a round-robin AEC env; the turn-based one, which
    asks only the agent to act, is the game's ``env``."""
    return parallel_to_aec(parallel)
