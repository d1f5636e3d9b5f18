"""Goofspiel, a tiny second game on the kit (docs/kit.md): ``goofspiel.env(num_players=2,
num_cards=13)``, the PettingZoo AEC env, and :data:`GAME`, its :class:`boardkit.Game`."""

from .env import env, raw_env
from .game import GAME, Goofspiel
from .rules import OptionError

__all__ = ["GAME", "Goofspiel", "OptionError", "env", "raw_env"]
