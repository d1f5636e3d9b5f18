"""War of the Ring's single-agent Gymnasium env: the kit's :class:`boardkit.single_agent.
SingleAgentEnv` for ``game="wotr"`` (one side learns, the other is played by policies inside
``step``), with opponents named by agent spec (``"random"``, ``"wotr_heuristic"``, a mapping
with ``name``; docs/agents.md), read by :func:`agent_specs`.

    import gymnasium, wotr_env.wrappers
    env = gymnasium.make("wotr_env/WarOfTheRing-v0", seat="free_peoples", max_turns=4,
                         opponents="random", obs="normalized")

``seat``: ``"free_peoples"``, ``"shadow"`` or None (the side rotates every game); the other
arguments are the kit's (``obs``, ``illegal_action``, ``info_strings``, ...) and the AEC env's
options (``ruleset``, ``max_turns``, ``reward``, ``max_steps``, ``info_format``).
"""

from __future__ import annotations

import functools
from typing import Any

from boardkit.single_agent import AgentFactory, SpecResolver
from boardkit.single_agent import SingleAgentEnv as KitSingleAgentEnv

from ..env import raw_env

GAME = "wotr"


def agent_specs(spec: object) -> AgentFactory:
    """Agent specs read by ``agents.AgentSpec`` (every script's reader), checked now and built
    afresh each game with the game's env and seed. The one import of the agents layer from
    wotr_env, made when a spec is given, and exempted by name in the layers contract (as
    AGoT's single-agent env does, docs/layers.md "Exemptions")."""
    import agents  # the agents layer, above this one: the exempted import (docs/layers.md)

    return functools.partial(_build_spec, agents.AgentSpec.parse(spec).check())


def _build_spec(spec: Any, seat: str, env: Any, seed: int) -> Any:
    del seat
    return spec.build(env=env, seed=seed)


class SingleAgentEnv(KitSingleAgentEnv):
    """One side of War of the Ring learning against policies (module docstring)."""

    metadata = {"render_modes": list(raw_env.metadata["render_modes"]), "render_fps": 1}

    def __init__(self, seat: str | None = None, opponents: object = "random",
                 spec_resolver: SpecResolver = agent_specs, **options: Any):
        super().__init__(GAME, seat=seat, opponents=opponents, spec_resolver=spec_resolver,
                         **options)


__all__ = ["GAME", "SingleAgentEnv", "agent_specs"]
