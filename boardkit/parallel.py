"""A PettingZoo ``ParallelEnv`` view of a kit game's AEC env (:class:`KitParallelEnv`), for
tools that want one.

The game asks one player at a time, so a parallel step is one decision: every agent in play
observes, only the player whose decision is pending acts (``actions[acting]``, named in
``infos[agent]["acting"]`` and by its non-zero action mask); the other agents' actions are
ignored. Rewards, terminations, truncations and infos are those of the AEC env, which does the
work. A game's ``parallel`` module is laid out like PettingZoo's own parallel environments, and
:func:`parallel_module` builds its two names from the game's raw env: ``parallel_env`` (the
parallel env) and ``env`` (PettingZoo's round-robin AEC view of it, :func:`round_robin`), so
that tools written for such modules (``max_cycles_test(got_env.parallel)``,
``aec_to_parallel(got_env.parallel.env())``, which gives back the ``parallel_env``) work.
"""

from __future__ import annotations

from collections.abc import Callable
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


def parallel_module(raw_env: type, seat_word: str,
                    module: str) -> tuple[type[KitParallelEnv], Callable[..., AECEnv]]:
    """A game's ``parallel`` module's ``parallel_env`` and ``env`` over its AEC env ``raw_env``
    (constructed with the same options); ``seat_word`` names a seat in errors, ``module`` is
    the game's module, where the class says it lives (for pickling and reprs)."""

    class parallel_env(KitParallelEnv):  # noqa: N801  (PettingZoo's naming)
        metadata = {"name": raw_env.metadata["name"],
                    "render_modes": raw_env.metadata["render_modes"], "is_parallelizable": True}

        def __init__(self, **options: Any):
            super().__init__(raw_env(**options))

    parallel_env.seat_word = seat_word
    parallel_env.__module__ = module
    parallel_env.__qualname__ = "parallel_env"

    def env(**options: Any) -> AECEnv:
        """PettingZoo's round-robin AEC view of ``parallel_env``; the turn-based AEC env, which
        asks only the player to act, is the game's ``env``."""
        return round_robin(parallel_env(**options))

    env.__module__ = module
    return parallel_env, env
