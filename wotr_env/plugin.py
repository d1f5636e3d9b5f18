"""War of the Ring as one plugin of the kit (:class:`boardkit.plugin.GamePlugin`, registered as
``"wotr"``): the rules (:mod:`wotr_env.game`), the env, the engine's invariants, the
heuristic (:mod:`wotr_env.agents`), the trainer's shaping, the value tool's baseline and the
plan search's piece (:mod:`wotr_env.tools`); every other tool's game-neutral default serves the
rest."""

from __future__ import annotations

import importlib
from typing import Any

from boardkit.plugin import GamePlugin

from .engine import invariants
from .env import raw_env
from .game import GAME


def check_invariants(state: Any) -> None:
    """The engine's invariants (:func:`wotr_env.engine.invariants.check`), as an error."""
    broken = invariants.check(state)
    assert not broken, "; ".join(broken)


def wotr_heuristic(env: Any = None, seed: int | None = None) -> Any:
    """:class:`wotr_env.agents.agent.WotrHeuristicAgent`, both sides (imported when asked for,
    so that registering the game loads no agent)."""
    from .agents.agent import WotrHeuristicAgent  # an agent, loaded only when one is asked for

    return WotrHeuristicAgent(env=env, seed=seed)


PLUGIN = GamePlugin(
    game=GAME,
    make_env=raw_env,
    check_invariants=check_invariants,
    variants={"2e": {"ruleset": "2e", "max_turns": 3}, "1e": {"ruleset": "1e", "max_turns": 3}},
    agents={"wotr_heuristic": wotr_heuristic},
    training=lambda: importlib.import_module(".tools.training", __package__),
    value=lambda: importlib.import_module(".tools.value", __package__),
    search=lambda: importlib.import_module(".tools.search", __package__),
)
