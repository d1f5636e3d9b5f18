"""The fixed, masked action space: one ``Discrete(N)`` index for every engine action.

The engine's actions are small tuples (``got_env.engine.decision.ACTION_KINDS``); the codec lays
them out in named segments, one per action kind, each the product of its arguments' ranges::

    DONE[1] | CHOICE[choice] | AREA[area] | ORDER[area, token] | BID[power] | CARD[house card]
    | HOUSE[house] | TRACK[track] | MOVE[unit type, area] | UNIT[area, unit type]
    | MUSTER[unit type, area] | UPGRADE[unit type] | COUNT[n]

``encode(("order", 17, 3))`` gives the index, ``decode(i)`` the tuple, ``name(i)`` a readable name
such as ``ORDER[winterfell,march-special]``. N is fixed by the ruleset, whatever the player count.
"""

from __future__ import annotations

import numpy as np

from boardkit.codec import Segment

from ..data import TRACKS, UNIT_TYPES, Ruleset
from ..engine.decision import ACTION_KINDS, CHOICES, Action
from ._compiled import compiled_class

MAX_BID = 20  # a house owns 20 power tokens: no bid can be higher
MAX_COUNT = 3  # ships in a port




class ActionCodec:
    """Index <-> action for one ruleset. Build once (``ActionCodec(ruleset)``); immutable."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        ranges = {
            "choice": len(CHOICES),
            "area": ruleset.num_areas,
            "order_token": len(ruleset.order_tokens),
            "power": MAX_BID + 1,
            "house_card": len(ruleset.house_cards),
            "house": ruleset.num_houses,
            "track": len(TRACKS),
            "unit_type": len(UNIT_TYPES),
            "n": MAX_COUNT + 1,
        }
        segments, offset = [], 0
        for kind, args in ACTION_KINDS.items():
            seg = Segment(kind, offset, tuple(ranges[a] for a in args))
            segments.append(seg)
            offset += seg.size
        self.segments: tuple[Segment, ...] = tuple(segments)
        self._by_kind = {s.kind: s for s in segments}
        self.size = offset
        self._starts = np.array([s.offset for s in segments])
        # index <-> action tuple for every index, as tables: decoding and masks run every step
        #: the engine action of every index, in index order (``decode`` without its check)
        self.actions: tuple[Action, ...] = tuple(self._decode(i) for i in range(self.size))
        self._index = {a: i for i, a in enumerate(self.actions)}
        self._writer = _mask_writer(self.segments, self.size)

    def __getstate__(self) -> dict:
        """Pickled without the compiled mask writer (a C object); rebuilt on unpickling."""
        state = self.__dict__.copy()
        state["_writer"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._writer = _mask_writer(self.segments, self.size)

    @property
    def compiled(self) -> bool:
        """Whether masks are written by the compiled writer (``_mask.pyx``)."""
        return self._writer is not None

    def segment(self, kind: str) -> Segment:
        return self._by_kind[kind]

    def encode(self, action: Action) -> int:
        """The index of an engine action; raises ValueError for a malformed one."""
        seg = self._by_kind.get(action[0]) if action else None
        if seg is None or len(action) - 1 != len(seg.shape):
            raise ValueError(f"not an action of this space: {action!r}")
        if not seg.shape:
            return seg.offset
        index = 0
        for v, n in zip(action[1:], seg.shape, strict=True):
            if not 0 <= v < n:
                raise ValueError(f"argument {v} out of range 0..{n - 1} in {action!r}")
            index = index * n + int(v)
        return seg.offset + index

    def decode(self, index: int) -> Action:
        """The engine action at ``index``; raises ValueError outside 0..size-1."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} outside 0..{self.size - 1}")
        return self.actions[index]

    def _decode(self, index: int) -> Action:
        seg = self.segments[int(np.searchsorted(self._starts, index, side="right")) - 1]
        if not seg.shape:
            return (seg.kind,)
        args = np.unravel_index(index - seg.offset, seg.shape)
        return (seg.kind, *(int(a) for a in args))

    def name(self, index: int) -> str:
        """A readable name, e.g. ``MOVE[knight,the-reach]``."""
        action = self.decode(index)
        kind, args = action[0], action[1:]
        if not args:
            return kind.upper()
        labels = [self._label(role, v) for role, v in zip(ACTION_KINDS[kind], args, strict=True)]
        return f"{kind.upper()}[{','.join(labels)}]"

    def _label(self, role: str, value: int) -> str:
        rs = self.ruleset
        table = {
            "choice": CHOICES,
            "area": [a.id for a in rs.areas],
            "order_token": [t.id for t in rs.order_tokens],
            "house_card": [c.id for c in rs.house_cards],
            "house": [h.id for h in rs.houses],
            "track": TRACKS,
            "unit_type": UNIT_TYPES,
        }.get(role)
        return table[value] if table is not None else str(value)

    def indices(self, options: tuple[Action, ...]) -> np.ndarray:
        """The indices of ``options``, in their order (a table look-up per option; an action
        outside this space raises ValueError naming it)."""
        table = self._index
        try:
            return np.array([table[a] for a in options], dtype=np.intp)
        except (KeyError, TypeError):
            for a in options:
                self.encode(a)  # raises the error that names the bad action
            raise

    def mask(self, options: tuple[Action, ...], out: np.ndarray | None = None) -> np.ndarray:
        """int8[size]: 1 exactly at the legal actions; written into ``out`` (an int8 vector of
        this size, a batch's row) when given, else a new vector."""
        m = np.empty(self.size, dtype=np.int8) if out is None else out
        if self._writer is not None and self._writer.write(m, options):
            return m
        m[...] = 0
        m[self.indices(options)] = 1
        return m


def _mask_writer(segments: tuple[Segment, ...], size: int) -> object | None:
    """The compiled mask writer for these segments, or None (:func:`compiled_class`: not
    built, or ``GOT_ENV_PURE_PYTHON`` set): the table look-up then."""
    writer = compiled_class("_mask", "MaskWriter")
    return None if writer is None else writer([(s.kind, s.offset, s.shape) for s in segments],
                                              size)
