"""War of the Ring's fixed action space (the kit's segment codec, its segments: :mod:`.actions`)
and observation (the kit's layout, its pieces: :mod:`.observation`): what the env and the tools
read the engine through."""

from .actions import codec_for
from .observation import ObservationEncoder, encoder_for

__all__ = ["ObservationEncoder", "codec_for", "encoder_for"]
