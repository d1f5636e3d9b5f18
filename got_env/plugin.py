"""A Game of Thrones as one plugin of the kit (:class:`boardkit.plugin.GamePlugin`, registered
as ``"got"``): the rules (:mod:`got_env.game`), the env, the engine's invariants, the heuristics
(:mod:`got_env.agents.heuristic`), and the tools' pieces of its own: the PPO network's sizes
(:mod:`got_env.agents.networks`), the trainer's, the tournament's, the benchmark's and the value
tool's hooks, the terminal and replay views (:mod:`got_env.tools`). Heavy pieces (torch, rich)
are loaded when a tool asks."""

from __future__ import annotations

import importlib
from types import ModuleType

from boardkit.plugin import GamePlugin

from .agents.heuristic import HeuristicAgent, HeuristicV2Agent
from .engine.invariants import check
from .env import raw_env
from .game import GAME


def _loader(module: str) -> ModuleType:
    return importlib.import_module(module, __package__)


PLUGIN = GamePlugin(
    game=GAME,
    make_env=raw_env,
    check_invariants=check,
    # every edition at its smallest and largest count (the boards and the setups differ)
    variants={"2e-3p": {"ruleset": "2e", "num_players": 3, "max_rounds": 3},
              "2e-6p": {"ruleset": "2e", "num_players": 6, "max_rounds": 2},
              "1e-3p": {"ruleset": "1e", "num_players": 3, "max_rounds": 3},
              "1e-5p": {"ruleset": "1e", "num_players": 5, "max_rounds": 2}},
    agents={"heuristic": HeuristicAgent,      # v1 (configs and the shipped PPO results use it)
            "heuristic_v1": HeuristicAgent,   # the same, by its version
            "heuristic_v2": HeuristicV2Agent},  # issue 13: threats, defence, Raven swaps
    network=lambda: _loader(".agents.networks"),
    training=lambda: _loader(".tools.training"),
    tournament=lambda: _loader(".tools.tournament"),
    terminal_view=lambda: _loader(".tools.terminal"),
    replay_view=lambda: _loader(".tools.replay"),
    benchmark=lambda: _loader(".tools.benchmark"),
    value=lambda: _loader(".tools.value"),
    search=lambda: _loader(".tools.search"),
)
