"""Where the encoder and the codec find their compiled halves (``_board.pyx``, ``_mask.pyx``):
one switch for both, so that ``GOT_ENV_PURE_PYTHON`` turns the whole compiled core off."""

from __future__ import annotations

import importlib
import os


def compiled_class(module: str, name: str) -> type | None:
    """Class ``name`` of the compiled module ``got_env.encoding.<module>``, or None when it was
    not built or ``GOT_ENV_PURE_PYTHON`` is set to anything but "" or "0" (the pure-Python path
    then)."""
    if os.environ.get("GOT_ENV_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        return getattr(importlib.import_module(f"{__package__}.{module}"), name)
    except ImportError:
        return None
