"""The fixed, masked action space: one ``Discrete(N)`` index for every engine action.

The engine's actions are small tuples whose first item names their kind
(:mod:`wotr_env.engine.decision`); the codec lays them out in named segments, one per kind, each
the product of its arguments' ranges (``../shared/DECISIONS-wotr.md``, "Action space")::

    DONE[1] | CHOICE[choice] | COUNT[0..10] | DIE[face] | ACTION[die action] | RING[face, face]
    | REGION[region] | EDGE[directed border] | NATION[nation] | UNIT[nation, kind]
    | CASUALTY[nation, regular|downgrade|elite] | FIGURE[kind] | CHARACTER[character] | CARD[card]

``encode(("edge", a, b))`` gives the index, ``decode(i)`` the tuple, ``name(i)`` a readable name
such as ``EDGE[osgiliath>minas-tirith]`` or ``CARD[fp-strat-11-paths-of-the-woses]``. An edge
is a border crossed in one direction (232 borders, 464 edges): army moves and field attacks
cross a border, so every edge action is one of them. N is the same for both editions (they share
the map, the nations, the characters and the 96 cards).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from boardkit.codec import Segment

from ..data import Ruleset, load_ruleset
from ..engine.decision import CHOICES, DIE_ACTIONS, FACES, Action

MAX_COUNT = 10  # the most Shadow dice (7 + three Minions), the most hits a round can take
KINDS = ("regular", "elite", "leader", "nazgul")  # a figure's kind: the state's last axis
CASUALTIES = ("regular", "downgrade", "elite")  # battle_casualties' KILL_REGULAR, ...




class ActionCodec:
    """Index <-> action for one ruleset. Build once (:func:`codec_for`); immutable."""

    def __init__(self, ruleset: Ruleset):
        board, cards = ruleset.board, ruleset.cards
        self.ruleset_name = ruleset.name
        self._region_ids = tuple(r.id for r in board.regions)
        self._nation_ids = tuple(n.id for n in board.nations)
        self._character_ids = tuple(c.id for c in cards.characters)
        self._card_ids = tuple(e.id for e in cards.events)
        #: the directed borders, in region order: the EDGE segment's arguments
        self.edges: tuple[tuple[int, int], ...] = tuple(
            (a, int(b)) for a in range(len(board.regions)) for b in sorted(board.neighbours[a]))
        self._edge_index = {e: i for i, e in enumerate(self.edges)}
        shapes = {
            "done": (), "choice": (len(CHOICES),), "count": (MAX_COUNT + 1,),
            "die": (len(FACES),), "action": (len(DIE_ACTIONS),), "ring": (len(FACES), len(FACES)),
            "region": (len(self._region_ids),), "edge": (len(self.edges),),
            "nation": (len(self._nation_ids),), "unit": (len(self._nation_ids), len(KINDS)),
            "casualty": (len(self._nation_ids), len(CASUALTIES)), "figure": (len(KINDS),),
            "character": (len(self._character_ids),), "card": (len(self._card_ids),),
        }
        segments, offset = [], 0
        for kind, shape in shapes.items():
            seg = Segment(kind, offset, shape)
            segments.append(seg)
            offset += seg.size
        self.segments: tuple[Segment, ...] = tuple(segments)
        self._by_kind = {s.kind: s for s in segments}
        self.size = offset
        #: the engine action of every index, in index order (what the env's step looks up)
        self.actions: tuple[Action, ...] = tuple(self._decode(i) for i in range(self.size))
        self._index: dict[Action, int] = {a: i for i, a in enumerate(self.actions)}
        self._names = tuple(self._name(i) for i in range(self.size))

    # -- the protocol --------------------------------------------------------------------------
    def encode(self, action: Action) -> int:
        """The index of ``action``; ValueError naming it when it is no action of this space."""
        try:
            return self._index[action]
        except (KeyError, TypeError):
            raise ValueError(f"{action!r} is not an action of War of the Ring's action "
                             f"space") from None

    def decode(self, index: int) -> Action:
        """The action at ``index``; ValueError outside 0..size-1."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} is outside 0..{self.size - 1}")
        return self.actions[index]

    def mask(self, options: Sequence[Action], out: np.ndarray | None = None) -> np.ndarray:
        """int8[size]: 1 at the index of each option (written into ``out`` when given)."""
        if out is None:
            out = np.zeros(self.size, np.int8)
        else:
            out[...] = 0
        index = self._index
        out[[index[a] for a in options]] = 1
        return out

    def name(self, index: int) -> str:
        """A readable name: ``KIND[argument,...]`` with the data's ids."""
        self.decode(index)
        return self._names[index]

    def segment(self, kind: str) -> Segment:
        """The segment of an action kind (``"edge"``, ``"card"``...)."""
        return self._by_kind[kind]

    # -- the tables ----------------------------------------------------------------------------
    def _locate(self, index: int) -> tuple[Segment, tuple[int, ...]]:
        for seg in reversed(self.segments):
            if index >= seg.offset:
                rest = index - seg.offset
                return seg, tuple(int(x) for x in np.unravel_index(rest, seg.shape)) \
                    if seg.shape else ()
        raise AssertionError(index)

    def _decode(self, index: int) -> Action:
        seg, args = self._locate(index)
        kind = seg.kind
        if kind == "done":
            return ("done",)
        if kind == "choice":
            return ("choice", CHOICES[args[0]])
        if kind == "action":
            return ("action", DIE_ACTIONS[args[0]])
        if kind == "edge":
            return ("edge", *self.edges[args[0]])
        if kind == "casualty":
            return ("casualty", args[0], CASUALTIES[args[1]])
        return (kind, *args)

    def _name(self, index: int) -> str:
        seg, args = self._locate(index)
        words = {
            "done": lambda: [],
            "choice": lambda: [CHOICES[args[0]]],
            "count": lambda: [str(args[0])],
            "die": lambda: [FACES[args[0]]],
            "action": lambda: [DIE_ACTIONS[args[0]]],
            "ring": lambda: [f"{FACES[args[0]]}>{FACES[args[1]]}"],
            "region": lambda: [self._region_ids[args[0]]],
            "edge": lambda: ["{}>{}".format(*(self._region_ids[r] for r in self.edges[args[0]]))],
            "nation": lambda: [self._nation_ids[args[0]]],
            "unit": lambda: [self._nation_ids[args[0]], KINDS[args[1]]],
            "casualty": lambda: [self._nation_ids[args[0]], CASUALTIES[args[1]]],
            "figure": lambda: [KINDS[args[0]]],
            "character": lambda: [self._character_ids[args[0]]],
            "card": lambda: [self._card_ids[args[0]]],
        }[seg.kind]()
        return f"{seg.kind.upper()}[{','.join(words)}]"


def codec_for(ruleset: Ruleset | str) -> ActionCodec:
    """The codec of a ruleset (or its name), built once per process."""
    return _codec(ruleset if isinstance(ruleset, str) else ruleset.name)


@functools.lru_cache(maxsize=4)
def _codec(name: str) -> ActionCodec:
    return ActionCodec(load_ruleset(name))
