"""A game's PettingZoo env by the game's registry name, so that a tool (a tournament, a ladder,
training) builds the env of whichever game its config names without importing that game's
package: ``make_env("goofspiel", num_players=2, num_cards=8)``.

The env is the one the game's plugin makes (:attr:`boardkit.plugin.GamePlugin.make_env`): the
game's own *raw* env (not order-enforcing wrapped: tools read its attributes, ``game``,
``codec``, ``possible_agents``), or for a game without an env of its own the kit's
:class:`boardkit.aec.KitEnv` over it (:func:`boardkit.aec.kit_env_factory`). This module
imports neither the env nor PettingZoo: records and tools name a game here before any env is
made.
"""

from __future__ import annotations

from typing import Any

from . import games


def make_env(name: str, **options: Any) -> Any:
    """The raw PettingZoo AEC env of the game ``name`` with ``options``; KeyError for an
    unknown game, TypeError or ValueError for a bad option."""
    return games.plugin(name).make_env(**options)


def record_of(env: Any) -> Any:
    """What replays the game ``env`` plays: its ``record``
    (:class:`boardkit.records.GameRecord`, the one record format of every kit env)."""
    return env.record
