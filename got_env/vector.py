"""Batched self-play of AGoT games: the kit's batched API (:mod:`boardkit.vector`, docs/vector.md)
under the names this package has always given it, so that ``from got_env.vector import
VectorGames`` keeps working and gives the very same batches.

The machinery moved to the game-neutral kit (issue 25): a batch builds each game's env through
:func:`boardkit.envs.make_env` (``game="got"`` by default, so every AGoT call reads as before),
reads its sizes and players from the env's spaces and ``possible_agents``, and keeps each
finished game's record as the env gives it (:func:`boardkit.envs.record_of`: the kit's
``GameRecord``). Nothing of AGoT is left here but these names; an illegal action in an AGoT
batch still raises :class:`got_env.engine.IllegalActionError` (the kit's class itself).
"""

from __future__ import annotations

from boardkit.vector import (
    BACKENDS,
    Batch,
    Buffers,
    Finished,
    LockstepGames,
    Shard,
    VectorGames,
    VectorGamesError,
    error_reply,
    make_vector_games,
    serve,
)

__all__ = ["BACKENDS", "Batch", "Finished", "VectorGames", "VectorGamesError",
           "make_vector_games",
           # the shard API a backend builds on (got_env.vector_ray: shards in Ray actors)
           "Buffers", "LockstepGames", "Shard", "error_reply", "serve"]
