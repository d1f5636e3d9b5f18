"""A game's PettingZoo env by the game's registry name, so that a tool (a tournament, a ladder,
training) builds the env of whichever game its config names without importing that game's
package: ``make_env("goofspiel", num_players=2, num_cards=8)``.

The env is the game's own *raw* env (not order-enforcing wrapped: tools read its attributes,
``game``, ``codec``, ``possible_agents``). Where it comes from, first found:

1. the game's optional :meth:`EnvMaker.make_env` (a game that knows its env best),
2. :data:`KNOWN_ENVS`, the env factories of the games shipped here (``module:attribute``,
   imported on first use, as :data:`boardkit.games.KNOWN` is),
3. else :class:`boardkit.aec.KitEnv` over the game (a researcher's registered game gets an env
   with no code of its own); ``max_steps`` and ``render_mode`` go to the env, the other
   options to the game.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol, runtime_checkable

from . import games

#: The raw env factory of each game shipped in this repository: name -> ``module:attribute``.
KNOWN_ENVS: dict[str, str] = {"got": "got_env.env:raw_env", "goofspiel": "goofspiel.env:raw_env",
                              "wotr": "wotr_env.env:raw_env"}
#: The env of a game without one of its own, found as the known ones are (on first use, so that
#: pettingzoo is imported only then; and by name, since the kit's env takes its records from
#: :mod:`boardkit.records`, which replays them in the env made here).
KIT_ENV = "boardkit.aec:KitEnv"

@runtime_checkable
class EnvMaker(Protocol):
    """The optional member of :class:`boardkit.protocol.Game` that makes its env: ``options``
    as a config's ``env:`` mapping holds them (a bad one: TypeError or ValueError)."""

    def make_env(self, **options: Any) -> Any: ...


def make_env(name: str, **options: Any) -> Any:
    """The raw PettingZoo AEC env of the game ``name`` with ``options`` (module docstring);
    KeyError for an unknown game, TypeError or ValueError for a bad option."""
    game = games.get(name)
    if isinstance(game, EnvMaker):
        return game.make_env(**options)
    if name in KNOWN_ENVS:
        module, attribute = KNOWN_ENVS[name].split(":")
        return getattr(importlib.import_module(module), attribute)(**options)
    module, attribute = KIT_ENV.split(":")
    aec = importlib.import_module(module)
    env_kwargs = {k: options.pop(k) for k in aec.ENV_OPTIONS if k in options}
    return getattr(aec, attribute)(game, options, **env_kwargs)


def record_of(env: Any) -> Any:
    """What replays the game ``env`` plays: its ``record``
    (:class:`boardkit.records.GameRecord`, the one record format of every kit env)."""
    return env.record
