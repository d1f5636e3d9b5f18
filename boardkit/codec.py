"""The kit's action codecs: :class:`SegmentCodec`, the one codec of every game whose actions are
small tuples ``(kind, argument, ...)`` (AGoT, War of the Ring), and :class:`IndexCodec`, the
codec of a game whose actions are already the indices 0..size-1 (Goofspiel's cards).

A game declares its action space as data, one :class:`Segment` per action kind, each argument
an :class:`Arg` (how many values, their words in names, and, where the engine's tuple holds
something other than the value's number, what it holds)::

    SegmentCodec("War of the Ring", [
        Segment("done"),
        Segment("choice", (Arg.named(CHOICES, values=CHOICES),)),
        Segment("ring", (Arg.named(FACES), Arg.named(FACES)), sep=">"),
        ...])

and the codec lays the segments out one after the other, each the product of its arguments'
ranges (the first argument varies slowest), so that ``encode``, ``decode``, ``mask`` and
``name`` are one implementation for every game. Only a game's faster mask writer (AGoT's
compiled ``_mask.pyx``) stays with the game, handed in as ``mask_writer``.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

Action = tuple[Any, ...]


@dataclass(frozen=True)
class Arg:
    """One argument of an action kind: ``size`` values. ``labels[i]``: value i's word in
    names (default ``str(i)``); ``values[i]``: what the engine's action tuple holds for value i
    (default i itself; a tuple is spliced in: War of the Ring's edge holds two regions)."""

    size: int
    labels: tuple[str, ...] | None = None
    values: tuple[Any, ...] | None = None

    def __post_init__(self) -> None:
        if self.size < 0:
            raise ValueError(f"an argument's size must be >= 0, got {self.size}")
        for field in ("labels", "values"):
            given = getattr(self, field)
            if given is not None:
                object.__setattr__(self, field, tuple(given))
                if len(given) != self.size:
                    raise ValueError(f"an argument of {self.size} values has {len(given)} "
                                     f"{field}")

    @classmethod
    def named(cls, labels: Sequence[str], values: Sequence[Any] | None = None) -> Arg:
        """An argument whose values are named by ``labels`` (one a value)."""
        return cls(len(labels), tuple(labels), None if values is None else tuple(values))

    def label(self, i: int) -> str:
        return str(i) if self.labels is None else self.labels[i]

    def value(self, i: int) -> tuple[Any, ...]:
        """What value ``i`` puts in the action tuple (a tuple: one item, or several)."""
        if self.values is None:
            return (i,)
        v = self.values[i]
        return v if isinstance(v, tuple) else (v,)


@dataclass(frozen=True)
class Segment:
    """One action kind's block of indices: its arguments, and (set by the codec that lays it
    out) its first index ``offset``. ``sep`` joins the arguments' words in a name."""

    kind: str
    args: tuple[Arg, ...] = ()
    sep: str = ","
    offset: int = 0

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(a.size for a in self.args)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.args else 1

    @property
    def plain(self) -> bool:
        """Whether every argument is its value's number (an index is then computable from the
        action by arithmetic alone: a compiled mask writer's case)."""
        return all(a.values is None for a in self.args)


class MaskWriter(Protocol):
    """A game's faster mask: ``write(out, options)`` zeroes ``out`` and sets the options'
    indices, or returns False (``out`` then half-written) for an option it cannot place, so
    that the codec's own path names it."""

    def write(self, out: np.ndarray, options: Sequence[Action]) -> bool: ...


class SegmentCodec:
    """Index <-> action for an action space laid out in named segments. Build once per ruleset
    (its tables take milliseconds); immutable.

    ``game`` names the space in errors; ``bare``: the name of an argument-less action after its
    kind (AGoT ``DONE``: ""; War of the Ring ``DONE[]``: "[]"); ``mask_writer(segments, size)``:
    builds the game's compiled mask writer (for plain segments: :attr:`Segment.plain`), or gives
    None (the table look-up then); it must be picklable (a module-level function): the writer
    itself, a C object, is rebuilt after unpickling."""

    def __init__(self, game: str, segments: Sequence[Segment], *, bare: str = "",
                 mask_writer: Callable[[tuple[Segment, ...], int], MaskWriter | None]
                 | None = None):
        self.game = game
        placed, offset = [], 0
        for seg in segments:
            placed.append(dataclasses.replace(seg, offset=offset))
            offset += placed[-1].size
        self.segments: tuple[Segment, ...] = tuple(placed)
        self._by_kind = {s.kind: s for s in self.segments}
        if len(self._by_kind) != len(self.segments):
            raise ValueError(f"{game}: two segments of one kind in {[s.kind for s in segments]}")
        self.size = offset
        actions: list[Action] = []
        names: list[str] = []
        for seg in self.segments:
            upper = seg.kind.upper()
            for values in itertools.product(*(range(a.size) for a in seg.args)):
                pairs = tuple(zip(seg.args, values, strict=True))
                actions.append((seg.kind, *itertools.chain.from_iterable(
                    a.value(v) for a, v in pairs)))
                words = seg.sep.join(a.label(v) for a, v in pairs)
                names.append(f"{upper}[{words}]" if seg.args else upper + bare)
        #: the engine action of every index, in index order (``decode`` without its check)
        self.actions: tuple[Action, ...] = tuple(actions)
        self._names = tuple(names)
        self._index: dict[Action, int] = {a: i for i, a in enumerate(self.actions)}
        if len(self._index) != self.size:
            raise ValueError(f"{game}: two indices decode to one action")
        self._mask_writer = mask_writer
        self._writer = self._build_writer()

    def _build_writer(self) -> MaskWriter | None:
        return None if self._mask_writer is None else self._mask_writer(self.segments, self.size)

    def __getstate__(self) -> dict:
        """Pickled without the compiled mask writer (a C object); rebuilt on unpickling."""
        state = self.__dict__.copy()
        state["_writer"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._writer = self._build_writer()

    @property
    def compiled(self) -> bool:
        """Whether masks are written by the game's compiled writer."""
        return self._writer is not None

    def segment(self, kind: str) -> Segment:
        """The segment of an action kind (``"area"``, ``"edge"``...)."""
        return self._by_kind[kind]

    # -- the protocol ----------------------------------------------------------------------------
    def encode(self, action: Action) -> int:
        """The index of an engine action; ValueError naming it when it is none of this space."""
        try:
            return self._index[action]
        except (KeyError, TypeError):
            raise ValueError(self._why_not(action)) from None

    def decode(self, index: int) -> Action:
        """The engine action at ``index``; ValueError outside 0..size-1."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} is outside 0..{self.size - 1}")
        return self.actions[index]

    def name(self, index: int) -> str:
        """A readable name: ``KIND[word,...]`` with the data's ids, e.g.
        ``MOVE[knight,the-reach]``."""
        self.decode(index)
        return self._names[index]

    def indices(self, options: Sequence[Action]) -> np.ndarray:
        """The indices of ``options``, in their order (a table look-up per option; an action
        outside this space raises ValueError naming it)."""
        table = self._index
        try:
            return np.array([table[a] for a in options], dtype=np.intp)
        except (KeyError, TypeError):
            for a in options:
                self.encode(a)  # raises the error that names the bad action
            raise

    def mask(self, options: Sequence[Action], out: np.ndarray | None = None) -> np.ndarray:
        """int8[size]: 1 exactly at the legal actions; written into ``out`` (an int8 vector of
        this size, a batch's row) when given, else a new vector."""
        writer = self._writer
        if writer is not None:
            m = np.empty(self.size, dtype=np.int8) if out is None else out
            if writer.write(m, options):
                return m
            m[...] = 0
        elif out is None:
            m = np.zeros(self.size, np.int8)
        else:
            m = out
            m[...] = 0
        m[self.indices(options)] = 1
        return m

    def describe(self) -> str:
        """The segments as a Markdown table (kind, offset, size, the first index's name): the
        table of each game's action space in its docs."""
        rows = ["| segment | offset | size | first name |", "|---|---|---|---|"]
        rows += [f"| {s.kind.upper()} | {s.offset} | {s.size} | {self._names[s.offset]} |"
                 for s in self.segments if s.size]
        return "\n".join(rows) + "\n"

    def _why_not(self, action: Any) -> str:
        """Why ``action`` is not an action of this space, in words."""
        head = f"not an action of {self.game}'s action space: {action!r}"
        seg = self._by_kind.get(action[0]) if isinstance(action, tuple) and action else None
        if seg is None or not seg.plain or len(action) != len(seg.args) + 1:
            return head
        for v, arg in zip(action[1:], seg.args, strict=True):
            if not (isinstance(v, (int, np.integer)) and 0 <= v < arg.size):
                return f"{head} (argument {v!r} outside 0..{arg.size - 1})"
        return head


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
