"""A PettingZoo ``ParallelEnv`` view of AGoT, for tools that want one: the kit's
:class:`boardkit.parallel.KitParallelEnv` over the AEC env (:mod:`got_env.env`), asking one
house at a time (only the acting house's action counts), with ``env`` its round-robin AEC view
(:func:`boardkit.parallel.parallel_module`). The turn-based AEC env is :func:`got_env.env`.
"""

from __future__ import annotations

from boardkit.parallel import parallel_module

from .env import raw_env

parallel_env, env = parallel_module(raw_env, seat_word="house", module=__name__)
