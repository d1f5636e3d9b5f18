"""The one protocol every agent follows, so that scripts can seat any of them."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Chooses an action index from a PettingZoo observation.

    ``observation``: the float32 vector of the game's observation encoder (AGoT's
    ``got_env.encoding.ObservationEncoder``, Goofspiel's ``goofspiel.encoding.Encoder``: the
    kit's ``Game.encoder``, docs/kit.md);
    ``action_mask``: int8, 1 at the legal indices; ``info``: the env's ``infos[agent]``
    (``decision`` names the kind of choice).

    Optional methods, called by the scripts when an agent has them (:func:`begin_game`,
    :func:`end_game`): ``reset()`` before a game and ``observe_end(reward, info)`` after it.

    Construction is not part of the protocol but of the agent spec (``agents.AgentSpec``,
    docs/agents.md): a constructor parameter named ``env`` receives the game's env and one named
    ``seed`` a per-game seed; a class that loads trained weights may define a classmethod
    ``from_checkpoint(path, **kwargs)``, else a spec's checkpoint arrives as ``checkpoint=path``.
    """

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        ...


def begin_game(agent: object) -> None:
    """Call the agent's optional ``reset()`` before a game."""
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset()


def end_game(agent: object, reward: float, info: dict[str, Any]) -> None:
    """Call the agent's optional ``observe_end(reward, info)`` once its game is over."""
    observe = getattr(agent, "observe_end", None)
    if callable(observe):
        observe(reward, info)
