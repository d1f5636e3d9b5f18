"""The fixed action space and the per-player observation tensors (DESIGN.md)."""

from ..data import Ruleset
from .actions import ActionCodec
from .observation import ObservationEncoder, Piece, layout


def codec_for(ruleset: Ruleset) -> ActionCodec:
    """The ruleset's action codec, built once (its tables take milliseconds; it is immutable)."""
    return ruleset.derived("codec", ActionCodec)


def encoder_for(ruleset: Ruleset) -> ObservationEncoder:
    """The ruleset's observation encoder, built once (its per-observer tables are immutable, and
    its cache of the last board is keyed on the state's content, so sharing it is safe)."""
    return ruleset.derived("encoder", ObservationEncoder)


__all__ = ["ActionCodec", "ObservationEncoder", "Piece", "codec_for", "encoder_for", "layout"]
