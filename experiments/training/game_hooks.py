"""What the trainer reads from a game besides the protocol and its env, per game: the shaping
potential of an observation (and seat), who won a finished game, the baselines ``heuristic`` and
``random``, the classes a trainer checkpoint must store, the default player count. Every game
gets the kit's answers (no shaping; the winner from the final rewards; ``random`` a
:class:`agents.random_agent.RandomAgent`, ``heuristic`` the game's ``default_policy`` if it names
one, any other opponent an agent spec built by :func:`agents.make_agent`); a game whose answers
differ gives a module of its own as its plugin's ``training`` piece
(:class:`boardkit.plugin.GamePlugin`, loaded on first use), whose functions stand in for the
defaults, as the tournament's
:mod:`experiments.game_hooks` do.

AGoT's (:mod:`got_env.tools.training`) keeps its runs what they were before the trainer was
game-neutral: the potential from its castles and supply, the winner from its game record, its
v1 heuristic for the config's ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from boardkit import games

#: The opponents every game knows by these names (besides the league's current and snapshots).
BASELINES = ("heuristic", "random")


def _hook(game: str, name: str) -> Any:
    return games.plugin(game).hook("training", name)


def default_num_players(game: str, env_options: Mapping[str, Any]) -> int:
    """The player count of a game of these options that names none: the game's hook (AGoT:
    the ruleset's largest count), else the number of seats :meth:`Game.players` gives."""
    hook = _hook(game, "default_num_players")
    if hook is not None:
        return int(hook(env_options))
    return len(games.get(game).players(dict(env_options)))


def shaping_weights(game: str) -> tuple[str, ...]:
    """The ``shaping`` keys this game's potential reads (AGoT: castles, supply); () for a game
    without a shaping potential, whose config must leave them at 0."""
    return tuple(_hook(game, "SHAPING_KEYS") or ())


def potential(game: str, shaping: Any, env: Any) -> Callable[[np.ndarray, int], float] | None:
    """Phi of the deciding player's own observation and seat (potential-based shaping), or
    None: no shaping (every game without a hook; a game with every weight 0). A game's hook is
    ``seat_potential`` (War of the Ring: the sides gain from opposite things) or
    ``potential``, of the observation alone (AGoT: castles and supply, the same for every
    house)."""
    by_seat = _hook(game, "seat_potential")
    if by_seat is not None:
        return by_seat(shaping, env)
    hook = _hook(game, "potential")
    phi = hook(shaping, env) if hook is not None else None
    if phi is None:
        return None
    return lambda obs, seat: phi(obs)


def winner(game: str, finished: Any, agents: list[str]) -> str | None:
    """The agent that won a finished game of the batched API (a
    :class:`boardkit.vector_shard.Finished`), None for a draw or a truncated game: the game's hook,
    else the one agent whose final reward is the highest (the kit's rewards are shares of the
    win, :mod:`boardkit.aec`)."""
    hook = _hook(game, "winner")
    if hook is not None:
        return hook(finished, agents)
    if finished.truncated:
        return None
    rewards = np.asarray(finished.rewards)
    top = np.flatnonzero(rewards == rewards.max())
    return agents[int(top[0])] if len(top) == 1 else None


def baseline(game: str, name: str, seed: int, env_options: Mapping[str, Any]) -> Any | None:
    """The game's own agent for the opponent ``name`` (AGoT: ``heuristic`` and ``random`` as
    before), or None where the generic one is meant (:func:`opponent_spec`)."""
    hook = _hook(game, "baseline")
    return hook(name, seed, env_options) if hook is not None else None


def opponent_spec(game: str, name: str, specs: Mapping[str, Any]) -> Any:
    """The agent spec (:func:`agents.make_agent`) an opponent name stands for: the config's
    ``agents`` entry, ``random``, the game's ``default_policy`` for ``heuristic``, else the
    name itself (a registry name or ``module:Class``). ValueError for ``heuristic`` in a game
    that names no default policy."""
    if name in specs:
        return specs[name]
    if name == "heuristic":
        policy = getattr(games.get(game), "default_policy", None)
        if policy is None:
            raise ValueError(f"game {game!r} has no heuristic (no default_policy): name its "
                             f"opponents in the config's agents section")
        return policy
    return name


def resume_classes(game: str) -> tuple[type, ...]:
    """The classes of the game's objects a trainer checkpoint holds (AGoT: its game records,
    its heuristic, its decision kinds), for :class:`.plain.PlainCodec`."""
    return tuple(_hook(game, "RESUME_CLASSES") or ())


def variant(game: str, env: Any) -> str | None:
    """The rules variant a network is built for (AGoT: the ruleset's name), None for a game
    whose sizes come from its env alone."""
    hook = _hook(game, "variant")
    return hook(env) if hook is not None else None
