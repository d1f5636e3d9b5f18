"""The agent registry: every agent *kind* by its short name (``"random"``, ``"ismcts"``,
``"ppo"``, and each game plugin's own, such as AGoT's ``"heuristic_v2"``).

A kind is what a file may name. A checkpoint's ``agent`` key, a PPO network's ``prior``, the
opponents a trainer checkpoint seats: all of them are looked up here and nowhere else, so that
a file can choose among the agents this installation registered but never make a loader import
a module or run a file it names (``module:Class`` and ``path.py:Class`` come only from the
user's own config or command line: :class:`agents.AgentSpec`).

This module imports no agent: ``agents/__init__`` fills :data:`REGISTRY` with the game-neutral
kinds and the games' (it runs before any submodule of the package), so that the agents that
look kinds up themselves (IS-MCTS's rollout policies, PPO's prior) import this module and not
the package that imports them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

#: Kind name -> the agent's class or factory. Read at every lookup, so that an entry added at
#: run time (a test's monkeypatch, a researcher's own registration) is found.
REGISTRY: dict[str, Callable[..., Any]] = {}

#: Names that checkpoints written before kinds were used give in their ``agent`` key, and the
#: kind each stands for (a fixed table: the name is compared, never imported).
FORMER_NAMES: dict[str, str] = {"agents.ppo:PPOAgent": "ppo"}


class UnknownKindError(ValueError):
    """A name that is not a registered agent kind; the message names where it was read."""


def kind_of(name: Any, where: str) -> str:
    """``name`` as a registered kind (a former name translated); :class:`UnknownKindError`
    naming ``where`` (the key it was read from) and the registered kinds otherwise. Nothing is
    imported: a ``module:Class`` or ``path.py:Class`` is refused like any unknown name."""
    if isinstance(name, str):
        name = FORMER_NAMES.get(name, name)
        if name in REGISTRY:
            return name
    raise UnknownKindError(f"{where} names {name!r}, which is not a registered agent kind "
                           f"(registered: {sorted(REGISTRY)}); a file may name only those: "
                           f"give a module or file class in your own spec instead "
                           f"({{name: 'module:Class', checkpoint: ...}})")


def build_kind(name: str, where: str, *, env: Any = None, seed: int | None = None) -> Any:
    """A fresh agent of the registered kind ``name`` (checked by :func:`kind_of`), given
    ``env`` and ``seed`` where its factory names them."""
    factory = REGISTRY[kind_of(name, where)]
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin or C factory: no env or seed to give
        params = {}  # type: ignore[assignment]
    kwargs: dict[str, Any] = {}
    if "env" in params and env is not None:
        kwargs["env"] = env
    if "seed" in params and seed is not None:
        kwargs["seed"] = seed
    return factory(**kwargs)
