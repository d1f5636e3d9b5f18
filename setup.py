"""The compiled core (optional): Cython extensions for the hot paths, each with a pure-Python
twin that stays the reference (docs/speed.md): the observation writer and the action mask
(``got_env/encoding/_board.pyx``, ``_mask.pyx``) and the typed twins of the engine's hottest
loops (``got_env/engine/_kernels.pyx``). pyproject.toml holds everything else.

The extensions are built by the normal ``pip install`` (Cython comes from the build
requirements). They are optional: when one does not compile (no C compiler), the build says so
and the package installs without it, running the pure-Python path (same results, slower).
"""

import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:
    from Cython.Build import cythonize
except ImportError:  # a build without Cython (pip --no-build-isolation in a bare venv)
    cythonize = None

EXTENSIONS = [Extension(f"got_env.encoding.{name}", [f"got_env/encoding/{name}.pyx"])
              for name in ("_board", "_mask")]  # the observation writer, the action mask
EXTENSIONS.append(Extension("got_env.engine._kernels", ["got_env/engine/_kernels.pyx"]))


class OptionalBuildExt(build_ext):
    """build_ext that skips an extension it cannot compile, with a warning, instead of failing
    the install (``Extension(optional=True)`` does not survive ``cythonize``), and compiles in
    parallel."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001 (any compiler failure: the pure path remains)
            print(f"warning: got_env's compiled core {ext.name} was not built ({error}); the "
                  f"pure-Python path will be used (same results, slower)")


# annotation_typing=False: a .pyx's Python hints stay documentation (its C types are declared
# with cdef), as they were when these modules were first measured and tested
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}
setup(ext_modules=cythonize(EXTENSIONS, compiler_directives=DIRECTIVES, quiet=True,
                            nthreads=os.cpu_count() or 1) if cythonize else [],
      cmdclass={"build_ext": OptionalBuildExt})
