"""The compiled core's one switch, and the loader that keeps a compiled rules engine honest.

The build (``setup.py``) compiles the hot engine modules (``ENGINE_MODULES``) with Cython from
their own ``.py`` sources, unchanged: the same code, run by C instead of the interpreter (about
1.15x on the rules alone). An extension module would shadow its ``.py`` for good, so that a rule
edited in an editable install would silently not run until rebuilt; to prevent that, the build
writes beside each compiled module the SHA-256 of the source it compiled (``<name>.compiled-from``),
and the finder installed here loads the ``.py`` instead whenever the two differ (with a warning),
or whenever ``GOT_ENV_PURE_PYTHON`` is set: the pure-Python path, for stepping through the rules
with a debugger, for coverage, and for the tests that prove both paths give identical results.

Only the standard library is imported here, and importing it installs the finder:
``got_env/__init__.py`` imports it first, before any engine module.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from types import ModuleType

#: The engine modules the build compiles (the rest run as Python: set-up, scenarios, checks).
ENGINE_MODULES = ("action_phase", "bidding", "board", "cards", "combat", "consolidate",
                  "decision", "flow", "marches", "mustering", "planning", "raids", "state",
                  "supply", "support", "tracks", "victory", "westeros", "wildlings")
#: The suffix of the file the build writes beside a compiled engine module: its source's hash.
STAMP = ".compiled-from"
ENGINE_DIR = Path(__file__).parent / "engine"
_PREFIX = "got_env.engine."


def pure_python() -> bool:
    """Whether ``GOT_ENV_PURE_PYTHON`` asks for the pure-Python paths (anything but "" or "0")."""
    return os.environ.get("GOT_ENV_PURE_PYTHON", "") not in ("", "0")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_instead(directory: Path, name: str) -> Path | None:
    """The ``.py`` to load for module ``name`` of ``directory`` instead of its compiled build,
    or None to import it as usual (its compiled build when there is one, else its ``.py``): the
    source when pure Python is asked for, or when the build compiled another version of it."""
    stamp = directory / f"{name}{STAMP}"
    if not stamp.is_file():
        return None  # never compiled: the usual import finds the .py
    source = directory / f"{name}.py"
    if pure_python():
        return source
    if source_hash(source) != stamp.read_text().strip():
        warnings.warn(f"got_env.engine.{name} was compiled from another version of "
                      f"{source.name}; running the source instead (reinstall, e.g. "
                      f"`pip install -e .`, to compile it again)", RuntimeWarning, stacklevel=2)
        return source
    return None


class _EngineFinder(importlib.abc.MetaPathFinder):
    """Finds ``got_env.engine.<name>`` as its source when :func:`source_instead` says so, and
    leaves every other import to the usual finders."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        name = fullname[len(_PREFIX):]
        if not fullname.startswith(_PREFIX) or "." in name:
            return None
        source = source_instead(ENGINE_DIR, name)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def install_engine_finder() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _EngineFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _EngineFinder())


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
    return compiled_module(_PREFIX + "_kernels")


def compiled_engine_modules() -> list[str]:
    """The engine modules imported so far that run compiled (their extension module loaded)."""
    out = []
    for name in ENGINE_MODULES:
        module = sys.modules.get(_PREFIX + name)
        if module is not None and not str(getattr(module, "__file__", "")).endswith(".py"):
            out.append(name)
    return out


install_engine_finder()
