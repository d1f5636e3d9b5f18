"""War of the Ring's rules engine: a state of numpy arrays, a stack of frames, one pending
decision (docs/wotr-engine.md).

``new_state(seed, ruleset)`` starts a game, ``apply(state, action)`` plays one option of
``state.pending``; every rule module is imported here so that its die actions and hooks are
registered before a game starts.
"""

from __future__ import annotations

from typing import Any

from boardkit.frames import apply as _apply

# The rule modules, each registering its die actions and hooks when imported (battle.attack
# brings in the battle package's steps, hunt its hunt_tiles and hunt_cards), then the cards.
from . import (  # noqa: F401
    abilities,
    armies,
    characters_entry,
    companions,
    drawing,
    events,
    hunt,
    minions,
    muster,
    politics,
)
from .battle import attack  # noqa: F401
from .cards import (  # noqa: F401
    combat_attacks,
    combat_hits,
    combat_kills,
    combat_rolls,
    fp_character,
    fp_character_armies,
    fp_character_moves,
    fp_character_table,
    fp_strategy,
    fp_strategy_army,
    fp_strategy_table,
    shadow_character,
    shadow_character_armies,
    shadow_character_nazgul,
    shadow_character_table,
    shadow_strategy,
    shadow_strategy_army,
    shadow_strategy_corsairs,
    shadow_strategy_table,
)
from .decision import WD, Action, Decision, IllegalActionError
from .scenario import ScenarioError, build
from .setup import is_over, new_state
from .state import FREE_PEOPLES, SHADOW, SIDE_NAMES, WotrState


def apply(state: WotrState, action: Action) -> None:
    """Play ``action`` (an option of ``state.pending``); an illegal one raises
    :class:`IllegalActionError` naming it and leaves the state unchanged."""
    _apply(state, action, is_over, lambda p: SIDE_NAMES[p])


def play(state: WotrState, *actions: Any) -> WotrState:
    """Apply ``actions`` in order (tests and scripts)."""
    for a in actions:
        apply(state, a)
    return state


__all__ = ["FREE_PEOPLES", "SHADOW", "WD", "Action", "Decision", "IllegalActionError",
           "ScenarioError", "WotrState", "apply", "build", "is_over", "new_state", "play"]
