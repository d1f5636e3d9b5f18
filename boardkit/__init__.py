"""The game-neutral kit below the games (DESIGN.md, "Two games, one kit"; docs/kit.md): the
:class:`Game` protocol the tools reach a game through, the registry of games by name, a plain
:class:`Decision` for games that need no more, and the PettingZoo AEC env base."""

from .decision import Decision, IllegalActionError, Kind
from .protocol import Action, Codec, Encoder, Game, Model

__all__ = ["Action", "Codec", "Decision", "Encoder", "Game", "IllegalActionError", "Kind",
           "Model"]
