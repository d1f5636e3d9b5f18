"""The fixed action space and the per-player observation tensors (DESIGN.md)."""

from ..data import Ruleset
from .actions import ActionCodec
from .observation import ObservationEncoder, Piece, layout


def codec_for(ruleset: Ruleset) -> ActionCodec:
    """The ruleset's action codec, built once (its tables take milliseconds; it is immutable)."""
    codec = ruleset.__dict__.get("_codec")
    if codec is None:
        codec = ruleset.__dict__["_codec"] = ActionCodec(ruleset)
    return codec


def encoder_for(ruleset: Ruleset) -> ObservationEncoder:
    """The ruleset's observation encoder, built once (its per-observer tables are immutable, and
    its cache of the last board is keyed on the state's content, so sharing it is safe)."""
    encoder = ruleset.__dict__.get("_encoder")
    if encoder is None:
        encoder = ruleset.__dict__["_encoder"] = ObservationEncoder(ruleset)
    return encoder


__all__ = ["ActionCodec", "ObservationEncoder", "Piece", "codec_for", "encoder_for", "layout"]
