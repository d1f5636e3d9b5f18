"""War of the Ring (2 players: the Free Peoples and the Shadow) on the kit's Game protocol.

The 2nd edition is the default ruleset; the seed's 1st edition is ``ruleset="1e"``, the same
engine reading other data and named rule properties (``wotr_env/data/1e/rules.yaml``).

What is here so far: the game's data (map, nations, setup, cards, characters, Hunt tiles) and its
validating loader, ``python -m wotr_env.data``. docs/wotr-engine.md says how the engine is built
and where each rule lives.
"""

from __future__ import annotations

__all__: list[str] = []
