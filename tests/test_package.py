"""The package's metadata, as a newcomer reaches it."""

import importlib.metadata

import got_env


def test_version_is_the_installed_distributions():
    # one place (got_env/__init__.py); pyproject.toml reads it from there
    assert got_env.__version__ == importlib.metadata.version("got_env")
    assert "__version__" in got_env.__all__
