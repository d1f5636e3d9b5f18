"""What the PPO networks (:mod:`agents.ppo`) know of A Game of Thrones: the observation and
action sizes of a ruleset, the per-area layout the ``"structured"`` and ``"board"`` networks are
built on
(:class:`got_env.wrappers.observations.ObservationTransform`), and the check that an env plays
the ruleset a checkpoint was trained for. AGoT's plugin (:mod:`got_env.plugin`) names this module
as its ``network``; a game without one gets the flat MLP, sized from its
env (the checkpoint keeps the sizes)."""

from __future__ import annotations

from typing import Any

import numpy as np

from got_env.data import load_ruleset
from got_env.encoding import codec_for, encoder_for
from got_env.engine.decision import ACTION_KINDS
from got_env.wrappers.observations import ObservationTransform

#: The variant a checkpoint without one was trained for (every checkpoint before the 1e rules).
DEFAULT_VARIANT = "2e"


def sizes(variant: str) -> tuple[int, int]:
    """(observation size, action count) of the ruleset ``variant``."""
    rs = load_ruleset(variant)
    return encoder_for(rs).size, codec_for(rs).size


def structured_layout(variant: str) -> dict[str, np.ndarray]:
    """The keyword arguments of :class:`agents.ppo.StructuredPolicy` this ruleset fixes: which
    columns of the observation are each area's, which are global, which areas are adjacent."""
    t = ObservationTransform("structured", load_ruleset(variant))
    return {"area_index": t.area_index, "global_index": t.global_index,
            "adjacency": t.adjacency}


def board_layout(variant: str) -> dict[str, np.ndarray]:
    """The keyword arguments of :class:`agents.ppo.BoardPolicy`: the structured layout and the
    area each action names (its first argument of role ``area`` in the engine's closed action
    vocabulary, ``ACTION_KINDS``: the order's area, the March's destination, the muster's or
    the chosen unit's area; -1 for an action naming none)."""
    codec = codec_for(load_ruleset(variant))
    area = np.full(codec.size, -1, dtype=np.int64)
    for i, action in enumerate(codec.actions):
        roles = ACTION_KINDS[action[0]]
        if "area" in roles:
            area[i] = action[1 + roles.index("area")]
    return {**structured_layout(variant), "action_area": area}


def env_variant(env: Any) -> str | None:
    """The ruleset an AGoT env plays (its ``ruleset.name``), None for anything else (an agent
    spec being checked passes a stand-in)."""
    name = getattr(getattr(env, "ruleset", None), "name", None)
    return name if isinstance(name, str) else None


def check_env(checkpoint: Any, variant: str, net: Any, env: Any, error: type[Exception]) -> None:
    """Raise ``error`` when ``env`` plays another ruleset, or has other observation or action
    sizes, than the network ``net`` was trained for (``variant``)."""
    name = env_variant(env)
    if name is None:
        return
    found = sizes(name)
    if name != variant or found != (net.obs_size, net.num_actions):
        raise error(
            f"{checkpoint}: trained for ruleset {variant!r} (observations of "
            f"{net.obs_size}, {net.num_actions} actions); this game is ruleset {name!r} "
            f"(observations of {found[0]}, {found[1]} actions): train a checkpoint for "
            f"{name!r} (experiments.train with env ruleset: {name})")
