"""Where the encoder and the codec find their compiled halves (``_board.pyx``, ``_mask.pyx``):
the switch they share with the compiled engine (``got_env._compiled.pure_python``), so that
``GOT_ENV_PURE_PYTHON`` turns the whole compiled core off."""

from __future__ import annotations

import importlib

from .._compiled import pure_python


def compiled_class(module: str, name: str) -> type | None:
    """Class ``name`` of the compiled module ``got_env.encoding.<module>``, or None when it was
    not built or ``GOT_ENV_PURE_PYTHON`` is set to anything but "" or "0" (the pure-Python path
    then)."""
    if pure_python():
        return None
    try:
        return getattr(importlib.import_module(f"{__package__}.{module}"), name)
    except ImportError:
        return None
