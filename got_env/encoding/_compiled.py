"""Where the encoder and the codec find their compiled halves (``_board.pyx``, ``_mask.pyx``):
found as the engine's typed kernels are (``got_env._compiled.compiled_module``), with the one
switch, so that ``GOT_ENV_PURE_PYTHON`` turns the whole compiled core off."""

from __future__ import annotations

from .._compiled import compiled_module


def compiled_class(module: str, name: str) -> type | None:
    """Class ``name`` of the compiled module ``got_env.encoding.<module>``, or None when it was
    not built or ``GOT_ENV_PURE_PYTHON`` is set to anything but "" or "0" (the pure-Python path
    then)."""
    found = compiled_module(f"{__package__}.{module}")
    return None if found is None else getattr(found, name)
