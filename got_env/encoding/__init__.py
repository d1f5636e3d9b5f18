"""The fixed action space (the kit's segment codec, AGoT's segments: :mod:`.actions`) and the
per-player observation tensors (the kit's layout, AGoT's pieces: :mod:`.observation`)."""

from boardkit.codec import SegmentCodec

from ..data import Ruleset
from .actions import build_codec
from .observation import ObservationEncoder, layout


def codec_for(ruleset: Ruleset) -> SegmentCodec:
    """The ruleset's action codec, built once (its tables take milliseconds; it is immutable)."""
    return ruleset.derived("codec", build_codec)


def encoder_for(ruleset: Ruleset) -> ObservationEncoder:
    """The ruleset's observation encoder, built once (its per-observer tables are immutable, and
    its cache of the last board is keyed on the state's content, so sharing it is safe)."""
    return ruleset.derived("encoder", ObservationEncoder)


__all__ = ["ObservationEncoder", "build_codec", "codec_for", "encoder_for", "layout"]
