"""The action space of every env on the kit: ``Discrete(N)`` that samples legal actions."""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
from gymnasium import spaces


class LegalActions(spaces.Discrete):
    """``Discrete(N)`` whose ``sample()`` without a mask draws a *legal* action when its agent is
    to act (and any index otherwise), so that tools which step ``action_space(agent).sample()``
    (PettingZoo's ``state_test``, environment checkers) play real games. With a mask or
    probabilities it is gymnasium's own ``Discrete.sample``.

    ``owner`` (held weakly) tells the legal actions: ``owner.legal_mask(*args)`` returns the
    int8 mask of the agent's legal actions now, or None when it is not to act. The AEC env
    (:class:`boardkit.aec.KitEnv`) and AGoT's single-agent env both use it."""

    def __init__(self, n: int, owner: Any, *args: Any):
        super().__init__(n)
        self._owner = weakref.ref(owner)
        self._args = args

    def sample(self, mask: np.ndarray | None = None,
               probability: np.ndarray | None = None) -> np.int64:
        owner = self._owner() if self._owner is not None else None
        if mask is None and probability is None and owner is not None:
            mask = owner.legal_mask(*self._args)
        if probability is None:  # gymnasium < 1.0 has no probability argument
            return super().sample(mask=mask)
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_owner"] = None  # a pickled space (in a saved model) is a plain Discrete(N)
        return state
