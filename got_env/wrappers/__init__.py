"""Wrappers for the RL libraries researchers use (docs/wrappers.md).

* :class:`SingleAgentEnv`: one learning house against policies, as a ``gymnasium.Env``
  (registered as ``got_env/GameOfThrones-v0`` when this package is imported).
* :class:`ObservationTransform`, :class:`AECObservationWrapper`: the observation as a dict, a
  flat vector, a normalized vector or per-area structured features.
* :class:`PotentialShaping`, :class:`PotentialShapingWrapper`: potential-based reward shaping.

    import gymnasium, got_env.wrappers
    env = gymnasium.make("got_env/GameOfThrones-v0", num_players=3, opponents="heuristic")
    # or, without the import: gymnasium.make("got_env.wrappers:got_env/GameOfThrones-v0")
"""

import gymnasium

from .observations import OBS_KINDS, AECObservationWrapper, ObservationTransform, normalize
from .shaping import PotentialShaping, PotentialShapingWrapper, make_shaping
from .single_agent import (
    ILLEGAL_ACTIONS,
    OUTCOMES,
    AgentFactory,
    SingleAgentEnv,
    SpecResolver,
    agent_specs,
)

ENV_ID = "got_env/GameOfThrones-v0"

# Registered once: importing the package again (or reloading it) must not warn that the id
# is overridden.
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="got_env.wrappers.single_agent:SingleAgentEnv")

__all__ = ["ENV_ID", "ILLEGAL_ACTIONS", "OBS_KINDS", "OUTCOMES", "AECObservationWrapper",
           "AgentFactory", "ObservationTransform", "PotentialShaping", "PotentialShapingWrapper",
           "SingleAgentEnv", "SpecResolver", "agent_specs", "make_shaping", "normalize"]
