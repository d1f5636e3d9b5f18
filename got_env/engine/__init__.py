"""The rules engine: game state, setup and the functions that advance a game.

Typical use::

    from got_env import engine
    state = engine.start_game(num_players=4, seed=1)
    while (d := engine.pending(state)) is not None:
        engine.apply(state, d.options[0])
    print(state.outcome)
"""

from typing import Any

from . import abilities  # noqa: F401  (registers every house card's Ability and its steps)
from .decision import (
    ACTION_KINDS,
    CHOICES,
    DONE,
    NO,
    YES,
    Action,
    DecisionKind,
    IllegalActionError,
    choice,
)
from .game import apply, pending, start
from .options import (
    DEFAULTS,
    GameOptions,
    OptionError,
    default_num_players,
    game_options,
    validate_options,
)
from .setup import new_game
from .state import CardPlace, GameState, Outcome, Phase


def start_game(num_players: int | None = None, seed: int | None = None,
               options: dict[str, Any] | None = None) -> GameState:
    """A new game, run to its first decision (round 1, Planning phase); ``num_players`` None:
    the ruleset's largest player count (6 in 2e, 5 in 1e)."""
    return start(new_game(num_players, seed, options))


__all__ = [
    "ACTION_KINDS", "CHOICES", "DEFAULTS", "DONE", "NO", "YES", "Action", "CardPlace",
    "DecisionKind", "GameOptions", "GameState", "IllegalActionError", "OptionError", "Outcome",
    "Phase", "apply", "choice", "default_num_players", "game_options", "new_game", "pending",
    "start", "start_game", "validate_options",
]
