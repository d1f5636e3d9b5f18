"""Wrappers of War of the Ring for RL libraries: :class:`SingleAgentEnv`, one side learning as a
``gymnasium.Env`` (the kit's, :mod:`boardkit.single_agent`), registered as
``wotr_env/WarOfTheRing-v0`` when this package is imported.

    import gymnasium, wotr_env.wrappers
    env = gymnasium.make("wotr_env/WarOfTheRing-v0", max_turns=4, opponents="random")
    # or, without the import: gymnasium.make("wotr_env.wrappers:wotr_env/WarOfTheRing-v0")
"""

import gymnasium

from .single_agent import SingleAgentEnv, agent_specs

ENV_ID = "wotr_env/WarOfTheRing-v0"

# Registered once: importing the package again must not warn that the id is overridden.
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="wotr_env.wrappers.single_agent:SingleAgentEnv")

__all__ = ["ENV_ID", "SingleAgentEnv", "agent_specs"]
