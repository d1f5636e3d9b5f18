"""The kit's observation layout: named pieces, laid one after the other in one float32 buffer.

A game declares its observation as data, a list of :class:`Piece` (name, shape, the highest
value it can take, what it holds), and :class:`Layout` gives what every encoder and tool needs
from it: each piece's offset and slice, named views into a vector, the bounds (``high``) of the
observation space, which piece an index lies in, and :meth:`Layout.describe`, the table each
game's docs show (tests check the docs against it).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Piece:
    """One named part of the vector: ``shape`` values, each in ``[0, high]``; ``doc`` says what
    it holds (a column of :meth:`Layout.describe`)."""

    name: str
    shape: tuple[int, ...]
    high: float = 1.0
    doc: str = ""

    def __post_init__(self) -> None:
        shape = tuple(self.shape)
        if not all(isinstance(n, (int, np.integer)) and n >= 0 for n in shape):
            raise ValueError(f"piece {self.name!r}: a shape of sizes >= 0, got {self.shape!r}")
        if not (math.isfinite(self.high) and self.high >= 0):
            raise ValueError(f"piece {self.name!r}: high must be finite and >= 0, "
                             f"got {self.high!r}")
        object.__setattr__(self, "shape", tuple(int(n) for n in shape))

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class Layout:
    """Pieces in order, one buffer: ``size`` values. Immutable; build once per ruleset.

    ``offsets[name]`` and ``slices[name]`` locate a piece (plain dicts, read in encoders' hot
    paths); ``high`` is the float32 upper bound of every value (the lower is 0)."""

    def __init__(self, pieces: Iterable[Piece]):
        self.pieces: tuple[Piece, ...] = tuple(pieces)
        self.offsets: dict[str, int] = {}
        self.slices: dict[str, slice] = {}
        at = 0
        for p in self.pieces:
            if p.name in self.offsets:
                raise ValueError(f"two pieces named {p.name!r} in the layout")
            self.offsets[p.name] = at
            self.slices[p.name] = slice(at, at + p.size)
            at += p.size
        self.size = at
        self._by_name = {p.name: p for p in self.pieces}
        self._starts = np.array([self.offsets[p.name] for p in self.pieces], dtype=np.int64)
        high = np.concatenate([np.full(p.size, p.high, np.float32) for p in self.pieces]) \
            if self.pieces else np.zeros(0, np.float32)
        high.flags.writeable = False
        self.high: np.ndarray = high

    def __iter__(self) -> Iterator[Piece]:
        return iter(self.pieces)

    def __len__(self) -> int:
        return len(self.pieces)

    def __getitem__(self, name: str) -> Piece:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no piece {name!r} in the layout") from None

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named, shaped views into a vector of this layout (no copy)."""
        if vector.shape[-1:] != (self.size,):
            raise ValueError(f"a vector of {self.size} values expected, got shape "
                             f"{vector.shape}")
        return {p.name: vector[self.slices[p.name]].reshape(p.shape) for p in self.pieces}

    def piece_at(self, index: int) -> Piece:
        """The piece that index ``index`` of the vector lies in."""
        if not 0 <= index < self.size:
            raise IndexError(f"index {index} outside the layout's 0..{self.size - 1}")
        # the last piece starting at or before it (empty pieces share their offset)
        i = int(np.searchsorted(self._starts, index, side="right")) - 1
        while self.pieces[i].size == 0:
            i -= 1
        return self.pieces[i]

    def describe(self) -> str:
        """The layout as a Markdown table (piece, offset, shape, high, what it holds): the
        table of each game's observation in its docs."""
        rows = ["| piece | offset | shape | high | holds |", "|---|---|---|---|---|"]
        rows += [f"| {p.name} | {self.offsets[p.name]} | {p.shape} | {p.high:g} | {p.doc} |"
                 for p in self.pieces]
        return "\n".join(rows) + "\n"
