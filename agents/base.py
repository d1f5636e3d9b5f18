"""The one protocol every agent follows, so that scripts can seat any of them."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Chooses an action index from a PettingZoo observation.

    ``observation``: the float32 vector of ``got_env.encoding.ObservationEncoder``;
    ``action_mask``: int8, 1 at the legal indices; ``info``: the env's ``infos[agent]``
    (``decision`` names the kind of choice).
    """

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        ...
