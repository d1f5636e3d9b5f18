"""The rules engine: game state, setup and (in later steps) the functions that advance a game."""

from .options import DEFAULTS, OptionError, validate_options
from .setup import new_game
from .state import CardPlace, GameState, Phase

__all__ = ["DEFAULTS", "CardPlace", "GameState", "OptionError", "Phase", "new_game",
           "validate_options"]
