"""The compiled core's one switch: where the engine and the encoder find their compiled halves.

The compiled core (``setup.py``: the observation writer and the action mask in
``got_env/encoding``, the engine's typed kernels in ``got_env/engine/_kernels.pyx``) is
optional, and each part has a pure-Python reference that gives the same results. Everything
asks for a compiled part here, so that one environment variable, ``GOT_ENV_PURE_PYTHON``, turns
the whole core off: for stepping through with a debugger, for coverage, and for the tests that
prove both paths give identical results.

Only the standard library is imported here (the lowest layer of got_env, beside ``data``).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def pure_python() -> bool:
    """Whether ``GOT_ENV_PURE_PYTHON`` asks for the pure-Python paths (anything but "" or "0")."""
    return os.environ.get("GOT_ENV_PURE_PYTHON", "") not in ("", "0")


def compiled_module(name: str) -> ModuleType | None:
    """The compiled module ``name`` (a ``.pyx`` of the compiled core, by its full name), or None
    when it was not built or :func:`pure_python` is asked for: its caller then runs its
    pure-Python reference."""
    if pure_python():
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def engine_kernels() -> ModuleType | None:
    """``got_env.engine._kernels`` (typed twins of the engine's hottest loops over the units
    array), or None (:func:`compiled_module`): the engine then runs its reference code for
    them. Asked once, when ``board`` and ``state`` are imported."""
    return compiled_module("got_env.engine._kernels")
