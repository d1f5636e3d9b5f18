"""The compiled core (optional): Cython extensions for the hot paths, each with a pure-Python
twin that stays the reference (README, "Speed"). pyproject.toml holds everything else.

The extensions are built by the normal ``pip install`` (Cython comes from the build
requirements). They are optional: without a C compiler the build says so and the package
installs without them, running the pure-Python paths (same results, slower).
"""

from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError:  # a build without Cython (pip --no-build-isolation in a bare venv)
    cythonize = None

EXTENSIONS = [Extension(f"got_env.encoding.{name}", [f"got_env/encoding/{name}.pyx"],
                        optional=True)
              for name in ("_board", "_mask")]  # the observation writer, the action mask

setup(ext_modules=cythonize(EXTENSIONS, language_level=3, quiet=True) if cythonize else [])
