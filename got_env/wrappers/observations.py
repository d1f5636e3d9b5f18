"""Observation options: the same facts as the env's vector, shaped for different models.

The AEC env observes ``{"observation": float32[F], "action_mask": int8[N]}`` with every feature
in ``[0, high]`` (:attr:`got_env.encoding.ObservationEncoder.high`, the ``high`` column of
docs/env.md). An :class:`ObservationTransform` turns that pair into one of the kinds in
:data:`OBS_KINDS`, with a matching gymnasium space:

* ``"dict"``: the PettingZoo pair itself (the mask travels with the observation).
* ``"flat"``: the vector, ``Box(0, high)``; the mask comes from ``action_masks()`` or ``info``.
* ``"normalized"``: the vector divided by ``high``, ``Box(0, 1)``, for networks that want inputs
  of one scale without learning the scales first.
* ``"structured"``: ``{"areas": [A, k], "globals": [G], "adjacency": [A, A]}``: every piece of the
  layout with an area axis concatenated per area, the rest as one vector, and the board's
  adjacency (a constant) for graph or attention models that share weights across areas.

Nothing is added or dropped: the flat vector can be rebuilt from ``areas`` and ``globals``
(:meth:`ObservationTransform.flatten`), so no option hides or leaks information the vector does
not. :class:`AECObservationWrapper` applies a kind to the multi-agent env, keeping PettingZoo's
``{"observation", "action_mask"}`` shape around the transformed part.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import BaseWrapper

from ..data import Ruleset
from ..encoding import ObservationEncoder, codec_for, encoder_for

OBS_KINDS = ("dict", "flat", "normalized", "structured")


def check_obs_kind(kind: object) -> str:
    """``kind`` if it names an observation option, else a ValueError naming it and the options
    (raised at construction, so that a typo fails before any game is played)."""
    if not isinstance(kind, str) or kind not in OBS_KINDS:
        raise ValueError(f"unknown observation kind obs={kind!r}; choose one of {OBS_KINDS}")
    return kind


class ObservationTransform:
    """Converts an observation vector (and its mask) to one kind, and says its space.

    Built once per ruleset and kind; every call allocates new arrays (callers keep them, and
    gymnasium's checker demands that no two observations share memory).

    :ivar space: the gymnasium space of the transformed observation.
    :ivar area_columns: ``"structured"``: piece name -> its columns in ``areas`` (a slice).
    :ivar global_columns: ``"structured"``: piece name -> its slice of ``globals``.
    """

    def __init__(self, kind: str, ruleset: Ruleset, encoder: ObservationEncoder | None = None):
        self.kind = check_obs_kind(kind)
        self.ruleset = ruleset
        self.encoder = encoder if encoder is not None else encoder_for(ruleset)
        enc = self.encoder
        high = enc.high.astype(np.float32)
        self.high = high
        # A zero bound would only come from an empty piece; dividing by 1 keeps it at 0.
        self._scale = np.where(high > 0, high, np.float32(1.0)).astype(np.float32)
        A = ruleset.num_areas
        # Area pieces are the layout's pieces whose first axis is the area axis.
        index = np.arange(enc.size)
        views = enc.views(index)
        area_parts, global_parts = [], []
        self.area_columns: dict[str, slice] = {}
        self.global_columns: dict[str, slice] = {}
        col = glob = 0
        for p in enc.layout:
            part = views[p.name]
            if p.shape[0] == A:
                width = p.size // A
                area_parts.append(part.reshape(A, width))
                self.area_columns[p.name] = slice(col, col + width)
                col += width
            else:
                global_parts.append(part.ravel())
                self.global_columns[p.name] = slice(glob, glob + p.size)
                glob += p.size
        self._area_index = np.concatenate(area_parts, axis=1)  # [A, k] flat indices
        self._global_index = np.concatenate(global_parts)  # [G]
        self.adjacency = ruleset.adjacency.astype(np.float32)
        self.adjacency.flags.writeable = False
        self.space = self._space()

    @property
    def area_index(self) -> np.ndarray:
        """int ``[A, k]``: the flat vector's index of each (area, column) of ``areas``."""
        return self._area_index.copy()

    @property
    def global_index(self) -> np.ndarray:
        """int ``[G]``: the flat vector's index of each entry of ``globals``."""
        return self._global_index.copy()

    def _space(self) -> spaces.Space:
        high, size = self.high, self.encoder.size
        n = _num_actions(self.ruleset)
        if self.kind == "dict":
            return spaces.Dict({
                "observation": spaces.Box(np.zeros(size, np.float32), high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            })
        if self.kind == "flat":
            return spaces.Box(np.zeros(size, np.float32), high, dtype=np.float32)
        if self.kind == "normalized":
            return spaces.Box(0.0, 1.0, (size,), dtype=np.float32)
        area_high = high[self._area_index]
        global_high = high[self._global_index]
        A = self.ruleset.num_areas
        return spaces.Dict({
            "areas": spaces.Box(np.zeros_like(area_high), area_high, dtype=np.float32),
            "globals": spaces.Box(np.zeros_like(global_high), global_high, dtype=np.float32),
            "adjacency": spaces.Box(0.0, 1.0, (A, A), dtype=np.float32),
        })

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> Any:
        """The observation of this kind (new arrays, never views of the inputs)."""
        if self.kind == "dict":
            return {"observation": np.array(observation, dtype=np.float32),
                    "action_mask": np.array(action_mask, dtype=np.int8)}
        if self.kind == "flat":
            return np.array(observation, dtype=np.float32)
        if self.kind == "normalized":
            return normalize(observation, self._scale)
        return self.structure(observation)

    def structure(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        """``{"areas": [A, k], "globals": [G], "adjacency": [A, A]}`` of a vector (any kind)."""
        return {"areas": observation[self._area_index].astype(np.float32),
                "globals": observation[self._global_index].astype(np.float32),
                "adjacency": self.adjacency.copy()}

    def flatten(self, structured: dict[str, np.ndarray]) -> np.ndarray:
        """The flat vector back from a structured observation (the inverse of
        :meth:`structure`; it shows that the structured kind carries exactly the vector)."""
        out = np.zeros(self.encoder.size, dtype=np.float32)
        out[self._area_index] = structured["areas"]
        out[self._global_index] = structured["globals"]
        return out


def normalize(observation: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Every feature divided by its bound, so in ``[0, 1]`` (x / high is exactly 1 at the bound
    in floating point, never above); ``high`` is ``encoder.high`` (zeros left as ones)."""
    return np.divide(observation, high, dtype=np.float32)


def _num_actions(ruleset: Ruleset) -> int:
    return codec_for(ruleset).size


class AECObservationWrapper(BaseWrapper):
    """The multi-agent env with observations of one kind: ``observe(agent)`` is
    ``{"observation": <kind>, "action_mask": int8[N]}`` (the kind ``"dict"`` changes nothing),
    so that PettingZoo tools still find the mask where they expect it.

        env = AECObservationWrapper(got_env.env(num_players=4), obs="structured")
    """

    def __init__(self, env: AECEnv, obs: str = "normalized"):
        super().__init__(env)
        raw = env.unwrapped
        self.transform = ObservationTransform(check_obs_kind(obs), raw.ruleset, raw.encoder)
        n = raw.codec.size
        inner = (self.transform.space["observation"] if obs == "dict"
                 else self.transform.space)
        self._obs_space = spaces.Dict({"observation": inner,
                                       "action_mask": spaces.Box(0, 1, (n,), np.int8)})
        # set here, or BaseWrapper would forward these to the inner env's untransformed spaces
        self.observation_spaces = {a: self._obs_space for a in raw.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def observe(self, agent: str) -> dict[str, Any]:
        obs = self.env.observe(agent)
        if self.transform.kind == "dict":
            return obs
        return {"observation": self.transform(obs["observation"], obs["action_mask"]),
                "action_mask": obs["action_mask"]}
