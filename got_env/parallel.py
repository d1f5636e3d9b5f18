"""A PettingZoo ``ParallelEnv`` view of the game, for tools that want one: the kit's
:class:`boardkit.parallel.KitParallelEnv` over AGoT's AEC env (:mod:`got_env.env`).

The game asks one house at a time, so a parallel step is one decision: every agent in play
observes, only the house whose decision is pending acts (``actions[acting]``, named in
``infos[agent]["acting"]`` and by its non-zero action mask); the other agents' actions are
ignored.

This module is laid out like PettingZoo's own parallel environments: ``parallel_env`` is the
parallel env and ``env`` is PettingZoo's round-robin AEC view of it (``parallel_to_aec``: every
house is asked once per cycle, only the acting house's answer counts), so that tools written for
such modules (``max_cycles_test(got_env.parallel)``, ``aec_to_parallel(got_env.parallel.env())``,
which gives back the ``parallel_env``) work. The turn-based AEC env is :func:`got_env.env`.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from boardkit.parallel import KitParallelEnv, round_robin

from .env import raw_env


class parallel_env(KitParallelEnv):  # noqa: N801  (PettingZoo's naming)
    metadata = {"name": "got_v0", "render_modes": raw_env.metadata["render_modes"],
                "is_parallelizable": True}
    seat_word = "house"

    def __init__(self, **options: Any):
        super().__init__(raw_env(**options))


def env(**options: Any) -> AECEnv:
    """PettingZoo's round-robin AEC view of :class:`parallel_env` (:func:`boardkit.parallel.
    round_robin`). The turn-based AEC env, which asks only the house to act, is
    :func:`got_env.env`."""
    return round_robin(parallel_env(**options))
