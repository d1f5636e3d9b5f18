"""got_env: A Game of Thrones: The Board Game (2nd edition) as a PettingZoo AEC environment.

    import got_env
    env = got_env.env(num_players=4)
    env.reset(seed=0)
"""

__version__ = "0.1.0"  # the package's version (pyproject.toml reads it from here)

# _compiled: the compiled core's switch (GOT_ENV_PURE_PYTHON); wrappers registers
# got_env/GameOfThrones-v0 with gymnasium
from . import _compiled, wrappers  # noqa: F401
from .env import env, raw_env
from .parallel import parallel_env

__all__ = ["__version__", "env", "parallel_env", "raw_env"]
