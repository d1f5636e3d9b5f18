"""The fixed action space and the per-player observation tensors (DESIGN.md)."""

from .actions import ActionCodec
from .observation import ObservationEncoder, Piece, layout

__all__ = ["ActionCodec", "ObservationEncoder", "Piece", "layout"]
