"""What action codecs share: :class:`Segment`, one action kind's block of indices in a space laid
out in named segments (AGoT's and War of the Ring's codecs), and :class:`IndexCodec`, the codec
of a game whose actions are already the indices 0..size-1 (Goofspiel's cards): the identity, with
a mask and names, so that such a game writes no codec of its own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Segment:
    """One action kind's block of indices: ``offset`` and the ranges of its arguments."""

    kind: str
    offset: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1


class IndexCodec:
    """Action ``i`` is index ``i``; ``name(i)`` is ``namer(i)``."""

    def __init__(self, size: int, namer: Callable[[int], str] = str):
        self.size = size
        self._namer = namer

    def encode(self, action: int) -> int:
        return int(action)

    def decode(self, index: int) -> int:
        return int(index)

    def mask(self, options: Sequence[int]) -> np.ndarray:
        """int8[size], 1 at the options."""
        m = np.zeros(self.size, np.int8)
        m[list(options)] = 1
        return m

    def name(self, index: int) -> str:
        return self._namer(int(index))
