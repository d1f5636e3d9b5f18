"""A Game of Thrones' training hooks (its plugin's ``training`` piece, read by
experiments.training.game_hooks): the shaping potential of an AGoT
observation (castles held out of those that win, the supply level out of 6), the winner from
the game record's outcome, the v1 heuristic and the random agent as the league's and the
evaluation's baselines for the config's ruleset, the classes of a trainer checkpoint. These are
what the trainer did before it was game-neutral, moved here unchanged, so that AGoT runs give
the same numbers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from got_env.agents.heuristic import HeuristicAgent, HeuristicV2Agent
from got_env.engine import DEFAULTS
from got_env.engine import default_num_players as _default_num_players
from got_env.engine.decision import DecisionKind

#: The ``shaping`` keys of the config this game's potential reads.
SHAPING_KEYS = ("castles", "supply")
#: Besides the trainer's own: the heuristic agents in the seats (with their memory of the game)
#: and the decision kinds that memory holds.
RESUME_CLASSES = (HeuristicAgent, HeuristicV2Agent, DecisionKind)


def default_num_players(env_options: Mapping[str, Any]) -> int:
    return _default_num_players(dict(env_options))


def variant(env: Any) -> str:
    return str(env.ruleset.name)


def potential(shaping: Any, env: Any) -> Callable[[np.ndarray], float] | None:
    """Phi of a house's own observation (slot 0 is the observer): ``castles * castles_held /
    castles_to_win + supply * supply_level / 6``; None when both weights are 0."""
    if not (shaping.castles or shaping.supply):
        return None
    views = env.encoder.views(np.arange(env.encoder.size))
    vp, supply = int(views["victory_points"][0]), int(views["supply"][0])
    target = env.ruleset.setups[env.num_players].castles_to_win  # 1e spec 12: 8 at 3 players
    wc, ws = shaping.castles / target, shaping.supply / 6.0

    def phi(obs: np.ndarray) -> float:
        return float(wc * obs[vp] + ws * obs[supply])

    return phi


def winner(finished: Any, agents: list[str]) -> str | None:
    outcome = finished.record.outcome
    return outcome.get("winner") if outcome else None


def baseline(name: str, seed: int, env_options: Mapping[str, Any]) -> Any | None:
    """``heuristic``: the v1 heuristic for the options' ruleset (never one guessed from the
    observation); None for any other name (``random``: the kit's random agent)."""
    if name == "heuristic":
        return HeuristicAgent(seed=seed, ruleset=env_options.get("ruleset", DEFAULTS["ruleset"]))
    return None
