"""A PettingZoo ``ParallelEnv`` view of the game, for tools that want one: the kit's
:class:`boardkit.parallel.KitParallelEnv` over War of the Ring's AEC env (:mod:`wotr_env.env`).

The game asks one side at a time, so a parallel step is one decision: every agent in play
observes, only the side whose decision is pending acts (``actions[acting]``, named in
``infos[agent]["acting"]`` and by its non-zero action mask); the other agents' actions are
ignored.

This module is laid out like PettingZoo's own parallel environments: ``parallel_env`` is the
parallel env and ``env`` is PettingZoo's round-robin AEC view of it (``parallel_to_aec``: every
side is asked once per cycle, only the acting side's answer counts), so that tools written for
such modules (``max_cycles_test(wotr_env.parallel)``, ``aec_to_parallel(wotr_env.parallel.env())``,
which gives back the ``parallel_env``) work. The turn-based AEC env is :func:`wotr_env.env`.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from boardkit.parallel import KitParallelEnv, round_robin

from .env import raw_env


class parallel_env(KitParallelEnv):  # noqa: N801  (PettingZoo's naming)
    metadata = {"name": "wotr_v0", "render_modes": raw_env.metadata["render_modes"],
                "is_parallelizable": True}
    seat_word = "side"

    def __init__(self, **options: Any):
        super().__init__(raw_env(**options))


def env(**options: Any) -> AECEnv:
    """PettingZoo's round-robin AEC view of :class:`parallel_env` (:func:`boardkit.parallel.
    round_robin`). The turn-based AEC env, which asks only the side to act, is
    :func:`wotr_env.env`."""
    return round_robin(parallel_env(**options))
