"""War of the Ring's fixed action space (:mod:`.actions`) and observation (:mod:`.observation`):
what the env and the tools read the engine through."""

from .actions import ActionCodec, codec_for
from .observation import ObservationEncoder, encoder_for

__all__ = ["ActionCodec", "ObservationEncoder", "codec_for", "encoder_for"]
