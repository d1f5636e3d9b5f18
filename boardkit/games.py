"""The registry of games by name, so that a config's ``game: got`` or an agent's default game
resolves without the tool importing the game package (the tools sit above every game and
reach one only through :class:`boardkit.protocol.Game`).

A game is found by its name: registered at run time (:func:`register`), or else one of the
:data:`KNOWN` games, whose module is imported on first use and holds the game as ``GAME``.
"""

from __future__ import annotations

import importlib

from .protocol import Game

#: The games shipped in this repository: name -> the module that defines ``GAME``.
KNOWN: dict[str, str] = {"got": "got_env.game", "goofspiel": "goofspiel.game",
                         "wotr": "wotr_env.game"}

_registered: dict[str, Game] = {}


def register(game: Game) -> None:
    """Make ``game`` known by its ``name`` (a researcher's own game, or a test's stand-in)."""
    _registered[game.name] = game


def get(name: str) -> Game:
    """The game named ``name``; KeyError naming the known games for any other name."""
    if name not in _registered and name in KNOWN:
        register(importlib.import_module(KNOWN[name]).GAME)
    try:
        return _registered[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: "
                       f"{', '.join(sorted({*KNOWN, *_registered}))}") from None


def names() -> list[str]:
    """Every game name :func:`get` resolves."""
    return sorted({*KNOWN, *_registered})
