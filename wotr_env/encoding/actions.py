"""War of the Ring's fixed, masked action space, declared as the kit's segments
(:class:`boardkit.codec.SegmentCodec`): one ``Discrete(N)`` index for every engine action.

The engine's actions are small tuples whose first item names their kind
(:mod:`wotr_env.engine.decision`); each kind is a segment, the product of its arguments' ranges
(``../shared/DECISIONS-wotr.md``, "Action space")::

    DONE[1] | CHOICE[choice] | COUNT[0..10] | DIE[face] | ACTION[die action] | RING[face, face]
    | REGION[region] | EDGE[directed border] | NATION[nation] | UNIT[nation, kind]
    | CASUALTY[nation, regular|downgrade|elite] | FIGURE[kind] | CHARACTER[character] | CARD[card]

``encode(("edge", a, b))`` gives the index, ``decode(i)`` the tuple, ``name(i)`` a readable name
such as ``EDGE[osgiliath>minas-tirith]`` or ``CARD[fp-strat-11-paths-of-the-woses]``. An edge
is a border crossed in one direction (232 borders, 464 edges): army moves and field attacks
cross a border, so every edge action is one of them. N is the same for both editions (they share
the map, the nations, the characters and the 96 cards). What is War of the Ring's own: a choice,
a die action and a casualty's kind are words in the engine's tuple, an edge two regions.
"""

from __future__ import annotations

import functools

from boardkit.codec import Arg, Segment, SegmentCodec

from ..data import Ruleset, load_ruleset
from ..engine.decision import CHOICES, DIE_ACTIONS, FACES

MAX_COUNT = 10  # the most Shadow dice (7 + three Minions), the most hits a round can take
KINDS = ("regular", "elite", "leader", "nazgul")  # a figure's kind: the state's last axis
CASUALTIES = ("regular", "downgrade", "elite")  # battle.casualties' KILL_REGULAR, ...


def edges(ruleset: Ruleset) -> tuple[tuple[int, int], ...]:
    """The directed borders, in region order: the EDGE segment's arguments."""
    board = ruleset.board
    return tuple((a, int(b)) for a in range(len(board.regions))
                 for b in sorted(board.neighbours[a]))


def segments(ruleset: Ruleset) -> tuple[Segment, ...]:
    """Every action kind as a segment, in index order."""
    board, cards = ruleset.board, ruleset.cards
    regions = [r.id for r in board.regions]
    nations = Arg.named([n.id for n in board.nations])
    kinds = Arg.named(KINDS)
    crossings = edges(ruleset)
    return (
        Segment("done"),
        Segment("choice", (Arg.named(CHOICES, values=CHOICES),)),
        Segment("count", (Arg(MAX_COUNT + 1),)),
        Segment("die", (Arg.named(FACES),)),
        Segment("action", (Arg.named(DIE_ACTIONS, values=DIE_ACTIONS),)),
        Segment("ring", (Arg.named(FACES), Arg.named(FACES)), sep=">"),
        Segment("region", (Arg.named(regions),)),
        Segment("edge", (Arg.named([f"{regions[a]}>{regions[b]}" for a, b in crossings],
                                   values=crossings),)),
        Segment("nation", (nations,)),
        Segment("unit", (nations, kinds)),
        Segment("casualty", (nations, Arg.named(CASUALTIES, values=CASUALTIES))),
        Segment("figure", (kinds,)),
        Segment("character", (Arg.named([c.id for c in cards.characters]),)),
        Segment("card", (Arg.named([e.id for e in cards.events]),)),
    )


def codec_for(ruleset: Ruleset | str) -> SegmentCodec:
    """The codec of a ruleset (or its name), built once per process."""
    return _codec(ruleset if isinstance(ruleset, str) else ruleset.name)


@functools.lru_cache(maxsize=4)
def _codec(name: str) -> SegmentCodec:
    return SegmentCodec("War of the Ring", segments(load_ruleset(name)), bare="[]")
