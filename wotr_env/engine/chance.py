"""Every random event of a game, drawn here: dice per side, Hunt tiles, companion draws, shuffles.

A scenario can script chance (``Chance.script``): each side's d6 rolls take the next scripted
values in order, and the next Hunt tiles and random companions are named, so that a position has
a known outcome and a test can assert the rulebook's. When a script runs out, the seeded
generator takes over. A scripted Hunt tile must be in the pool when it is drawn (else the script
is wrong: :class:`ScriptError`), so a script can never create a tile that the rules could not
have drawn.
"""

from __future__ import annotations

import copy
from collections import deque
from dataclasses import dataclass, field

import numpy as np


class ScriptError(ValueError):
    """A scripted draw that the position cannot give (a tile not in the pool, a roll not 1-6)."""


@dataclass
class Chance:
    """The game's generator and the scripted values still to come."""

    rng: np.random.Generator
    rolls: tuple[deque[int], deque[int]] = field(default_factory=lambda: (deque(), deque()))
    tiles: deque[int] = field(default_factory=deque)
    companions: deque[int] = field(default_factory=deque)

    def script(self, rolls: tuple[list[int], list[int]] = ([], []), tiles: list[int] = (),
               companions: list[int] = ()) -> None:
        """Queue scripted rolls per side (0 Free Peoples, 1 Shadow), tiles and companions."""
        for side, values in enumerate(rolls):
            for v in values:
                if not (isinstance(v, int) and 1 <= v <= 6):
                    raise ScriptError(f"a scripted roll must be 1-6, got {v!r}")
                self.rolls[side].append(v)
        self.tiles.extend(tiles)
        self.companions.extend(companions)

    def roll(self, side: int, n: int = 1) -> list[int]:
        """``n`` d6 rolled by ``side``: scripted values first, then the generator."""
        queue = self.rolls[side]
        return [queue.popleft() if queue else int(self.rng.integers(1, 7)) for _ in range(n)]

    def pick_tile(self, pool: list[int]) -> int:
        """The position in ``pool`` of the tile drawn at random (or the scripted tile)."""
        if self.tiles:
            tile = self.tiles.popleft()
            if tile not in pool:
                raise ScriptError(f"scripted Hunt tile {tile} is not in the pool {sorted(pool)}")
            return pool.index(tile)
        return int(self.rng.integers(len(pool)))

    def pick_companion(self, companions: list[int]) -> int:
        """The companion drawn at random from ``companions`` (or the scripted one)."""
        if self.companions:
            who = self.companions.popleft()
            if who not in companions:
                raise ScriptError(f"scripted companion {who} is not in the Fellowship")
            return who
        return companions[int(self.rng.integers(len(companions)))]

    def shuffle(self, items: list[int]) -> None:
        self.rng.shuffle(items)

    def clone(self) -> Chance:
        return Chance(copy.deepcopy(self.rng), (deque(self.rolls[0]), deque(self.rolls[1])),
                      deque(self.tiles), deque(self.companions))
