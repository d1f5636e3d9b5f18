"""War of the Ring (2 players: the Free Peoples and the Shadow) on the kit's Game protocol.

The 2nd edition is the default ruleset; the seed's 1st edition is ``ruleset="1e"``, the same
engine reading other data and named rule properties (``wotr_env/data/1e/rules.yaml``).

``wotr_env.env(ruleset="2e", max_turns=None, ...)`` is the PettingZoo AEC env (``raw_env``
unwrapped); ``boardkit.games.get("wotr")`` the kit's Game (:mod:`wotr_env.game`). docs/wotr.md
documents the env; docs/wotr-engine.md how the engine is built and where each rule lives.
"""

from __future__ import annotations

from .env import env, raw_env
from .parallel import parallel_env

__all__ = ["env", "parallel_env", "raw_env"]
