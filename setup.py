"""The compiled core (optional): Cython extensions for the hot paths, each with a pure-Python
twin that stays the reference (docs/speed.md): the observation writer, the action mask and
the typed twins of the engine's hottest loops (``.pyx``), and the rules engine's hot modules
compiled from their own ``.py`` sources, with
the hash of each source written beside its build (``got_env/_compiled.py`` runs the source when
they differ). pyproject.toml holds everything else.

The extensions are built by the normal ``pip install`` (Cython comes from the build
requirements). They are optional: when one does not compile (no C compiler), the build says so
and the package installs without it, running the pure-Python path (same results, slower).
"""

import importlib.util
import os
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:
    from Cython.Build import cythonize
except ImportError:  # a build without Cython (pip --no-build-isolation in a bare venv)
    cythonize = None

HERE = Path(__file__).parent
# got_env/_compiled.py (standard library only) loaded by its path, for ENGINE_MODULES, STAMP and
# source_hash (the stamps the loader compares):
# the package itself is not importable here (its dependencies are not in the build environment)
_spec = importlib.util.spec_from_file_location("_got_env_compiled",
                                               HERE / "got_env" / "_compiled.py")
_loader = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_loader)
ENGINE_MODULES, STAMP = _loader.ENGINE_MODULES, _loader.STAMP

EXTENSIONS = [Extension(f"got_env.encoding.{name}", [f"got_env/encoding/{name}.pyx"])
              for name in ("_board", "_mask")]  # the observation writer, the action mask
# the rules engine's hot modules, compiled from their own .py sources as they are, and the
# typed twins of its hottest loops (got_env/engine/_kernels.pyx)
EXTENSIONS += [Extension(f"got_env.engine.{name}", [f"got_env/engine/{name}.py"])
               for name in ENGINE_MODULES]
EXTENSIONS.append(Extension("got_env.engine._kernels", ["got_env/engine/_kernels.pyx"]))


class OptionalBuildExt(build_ext):
    """build_ext that skips an extension it cannot compile, with a warning, instead of failing
    the install (``Extension(optional=True)`` does not survive ``cythonize``); compiles in
    parallel; and writes beside each compiled engine module, wherever it is put (the build
    folder, and the source tree for an editable install), the hash of the source it compiled."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1
        self._built: set[str] = set()

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001 (any compiler failure: the pure path remains)
            print(f"warning: got_env's compiled core {ext.name} was not built ({error}); the "
                  f"pure-Python path will be used (same results, slower)")
            return
        self._built.add(ext.name)
        _stamp(ext, Path(self.get_ext_fullpath(ext.name)).parent)

    def copy_extensions_to_source(self) -> None:
        """An in-place build (an editable install) copies the extensions it built, and their
        stamps, into the source tree."""
        every, self.extensions = self.extensions, [e for e in self.extensions
                                                   if e.name in self._built]
        try:
            super().copy_extensions_to_source()
        finally:
            built, self.extensions = self.extensions, every
        for ext in built:
            _stamp(ext, HERE.joinpath(*ext.name.split(".")[:-1]))


def _stamp(ext: Extension, folder: Path) -> None:
    """For a compiled engine module: ``<name>.compiled-from`` in ``folder``, its source's hash."""
    package, _, name = ext.name.rpartition(".")
    if package == "got_env.engine" and name in ENGINE_MODULES:
        source = HERE / "got_env" / "engine" / f"{name}.py"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}{STAMP}").write_text(_loader.source_hash(source) + "\n")


# annotation_typing=False: the engine's type hints are documentation, not C types (an ``int``
# hint would refuse numpy integers)
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}
setup(ext_modules=cythonize(EXTENSIONS, compiler_directives=DIRECTIVES, quiet=True,
                            nthreads=os.cpu_count() or 1) if cythonize else [],
      cmdclass={"build_ext": OptionalBuildExt})
