"""Batched self-play of AGoT games on Ray actors: the kit's :mod:`boardkit.vector_ray`
(docs/vector.md, "Ray backend") under the names this package has always given it, so that
``from got_env.vector_ray import RayVectorGames`` keeps working with the same batches
(``game="got"`` by default). ``ray`` is still imported only when a ``RayVectorGames`` is built.
"""

from __future__ import annotations

from boardkit.vector_ray import RAY_MISSING, RayVectorGames, import_ray, init_ray

__all__ = ["RAY_MISSING", "RayVectorGames", "import_ray", "init_ray"]
