"""AGoT's fixed, masked action space, declared as the kit's segments
(:class:`boardkit.codec.SegmentCodec`): one ``Discrete(N)`` index for every engine action.

The engine's actions are small tuples (``got_env.engine.decision.ACTION_KINDS``); each kind is a
segment, the product of its arguments' ranges::

    DONE[1] | CHOICE[choice] | AREA[area] | ORDER[area, token] | BID[power] | CARD[house card]
    | HOUSE[house] | TRACK[track] | MOVE[unit type, area] | UNIT[area, unit type]
    | MUSTER[unit type, area] | UPGRADE[unit type] | COUNT[n]

``encode(("order", 17, 3))`` gives the index, ``decode(i)`` the tuple, ``name(i)`` a readable name
such as ``ORDER[winterfell,march-special]``. N is fixed by the ruleset, whatever the player count.
What is AGoT's own: the arguments' ranges and words, and the compiled mask writer
(``_mask.pyx``: every argument is a number, so an index is arithmetic on the action).
"""

from __future__ import annotations

from boardkit.codec import Arg, MaskWriter, Segment, SegmentCodec

from ..data import TRACKS, UNIT_TYPES, Ruleset
from ..engine.decision import ACTION_KINDS, CHOICES
from ._compiled import compiled_class

MAX_BID = 20  # a house owns 20 power tokens: no bid can be higher
MAX_COUNT = 3  # ships in a port


def segments(ruleset: Ruleset) -> tuple[Segment, ...]:
    """Every action kind of ``ACTION_KINDS`` as a segment, its arguments by their role."""
    rs = ruleset
    args = {
        "choice": Arg.named(CHOICES),
        "area": Arg.named([a.id for a in rs.areas]),
        "order_token": Arg.named([t.id for t in rs.order_tokens]),
        "power": Arg(MAX_BID + 1),
        "house_card": Arg.named([c.id for c in rs.house_cards]),
        "house": Arg.named([h.id for h in rs.houses]),
        "track": Arg.named(TRACKS),
        "unit_type": Arg.named(UNIT_TYPES),
        "n": Arg(MAX_COUNT + 1),
    }
    return tuple(Segment(kind, tuple(args[role] for role in roles))
                 for kind, roles in ACTION_KINDS.items())


def build_codec(ruleset: Ruleset) -> SegmentCodec:
    """The ruleset's codec (``codec_for`` keeps one per ruleset)."""
    return SegmentCodec("AGoT", segments(ruleset), mask_writer=mask_writer)


def mask_writer(segments: tuple[Segment, ...], size: int) -> MaskWriter | None:
    """The compiled mask writer for these segments, or None (:func:`compiled_class`: not
    built, or ``GOT_ENV_PURE_PYTHON`` set): the codec's table look-up then."""
    writer = compiled_class("_mask", "MaskWriter")
    return None if writer is None else writer([(s.kind, s.offset, s.shape) for s in segments],
                                              size)
