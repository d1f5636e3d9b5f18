"""The one registry of games: name -> :class:`boardkit.plugin.GamePlugin`, so that a config's
``game: got`` or a checkpoint's game resolves to everything a tool needs of that game without
the tool importing the game package (the tools sit above every game, docs/layers.md).

A game is registered by its plugin (:func:`register`): a researcher's own game, a test's
stand-in, or one of the games shipped here, whose registration module (:data:`SHIPPED`:
``"got"`` -> ``got_env.plugin`` ...) is imported, and its ``PLUGIN`` registered, when the
registry is first asked for that name (so that listing the names imports no game).

The registry refuses what is not a game (a :class:`boardkit.plugin.PluginError` from the
plugin's own checks, or anything that is not a plugin) and a name already taken, unless the
caller replaces it on purpose (``replace=True``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from .plugin import GamePlugin, PluginError
from .protocol import Game

#: The games shipped in this repository: name -> the registration module defining ``PLUGIN``
#: (imported on the first lookup of the name).
SHIPPED: dict[str, str] = {"got": "got_env.plugin", "goofspiel": "goofspiel.plugin",
                           "wotr": "wotr_env.plugin"}

#: The game of a file saved before saved files named their game (a PPO checkpoint of format
#: ``got_env-ppo-1`` such as the shipped one, a trainer checkpoint's config, a tournament
#: folder's ``config.json``): A Game of Thrones, the only game then. Read by :func:`saved_game`
#: alone, the one conversion of such files; no tool takes it as a default.
GAME_BEFORE_THE_KEY = "got"

_registered: dict[str, GamePlugin] = {}


def saved_game(document: Mapping[str, Any]) -> Any:
    """The game a saved document names: its ``"game"``, or :data:`GAME_BEFORE_THE_KEY` for a
    document saved before saved files named their game (the caller checks the value, as it
    checks any game a file names)."""
    return document["game"] if "game" in document else GAME_BEFORE_THE_KEY


def register(plugin: GamePlugin, *, replace: bool = False) -> GamePlugin:
    """Make ``plugin``'s game known by its name. PluginError for anything but a
    :class:`GamePlugin`; ValueError for a name already registered by another plugin unless
    ``replace`` (a test's or a researcher's deliberate stand-in)."""
    if not isinstance(plugin, GamePlugin):
        raise PluginError(f"register() takes a boardkit.plugin.GamePlugin, got {plugin!r} "
                          f"(wrap the game: GamePlugin(game=..., make_env=..., "
                          f"check_invariants=..., variants=...))")
    held = _registered.get(plugin.name)
    if held is not None and held is not plugin and not replace:
        raise ValueError(f"game name {plugin.name!r} is already registered (by {held.game!r}); "
                         f"pass replace=True to replace it on purpose")
    _registered[plugin.name] = plugin
    return plugin


def unregister(name: str) -> None:
    """Forget the game ``name`` (a test's stand-in); KeyError if it is not registered."""
    del _registered[name]


def plugin(name: str) -> GamePlugin:
    """The plugin of the game named ``name``; KeyError naming the known games for any other
    name (or a non-string)."""
    try:
        if name not in _registered and name in SHIPPED:
            shipped = importlib.import_module(SHIPPED[name]).PLUGIN
            if shipped.name != name:
                raise PluginError(f"{SHIPPED[name]}.PLUGIN registers {shipped.name!r}, "
                                  f"not {name!r}")
            register(shipped)
        return _registered[name]
    except (KeyError, TypeError):
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(names())}") from None


def get(name: str) -> Game:
    """The rules of the game named ``name`` (:attr:`GamePlugin.game`)."""
    return plugin(name).game


def names() -> list[str]:
    """Every game name :func:`plugin` resolves (imports no game)."""
    return sorted({*SHIPPED, *_registered})


def plugins() -> list[GamePlugin]:
    """Every game's plugin, by name (imports every shipped game)."""
    return [plugin(n) for n in names()]


def agents() -> dict[str, Callable[..., Any]]:
    """The game-specific agents of every registered game, by their spec names (agents.REGISTRY
    adds them to the game-neutral ones); ValueError if two games give one name."""
    found: dict[str, Callable[..., Any]] = {}
    for p in plugins():
        for name, factory in p.agents.items():
            if name in found and found[name] is not factory:
                raise ValueError(f"agent name {name!r} is given by two games (the second: "
                                 f"{p.name!r})")
            found[name] = factory
    return found
