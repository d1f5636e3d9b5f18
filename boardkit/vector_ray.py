"""Batched self-play on Ray actors: :class:`RayVectorGames`, the API of
:class:`boardkit.vector.VectorGames` with each shard of games stepped by a Ray actor, so that the
games of one batch can spread over the cores of a Ray cluster instead of one machine's worker
processes (docs/vector.md, "Ray backend").

    from boardkit.vector_ray import RayVectorGames
    with RayVectorGames(256, num_players=6, seeds=0, num_workers=8, max_rounds=10) as games:
        batch = games.reset()
        batch = games.step(policy(batch.obs, batch.mask))

It is the same mechanism, not a copy: every actor holds a :class:`boardkit.vector_shard.Shard` (the
games, their seed streams and auto-reset), the main process checks the actions against the masks
before any game moves and builds the :class:`~boardkit.vector_shard.Batch` as ``VectorGames`` does,
and errors come back in the workers' form (an illegal action stays an ``IllegalActionError``,
anything else is a ``VectorGamesError`` with the actor's traceback). So the same seeds and actions
give the same batches as ``VectorGames`` with any number of workers (``tests/test_vector_ray.py``).
An actor that dies (``ray.kill``, its node lost) is handled as a dead worker process: a
``VectorGamesError`` naming the actor and its games, repeated by every call until ``reset()`` or
``restore()`` makes a new actor for it. Only, an actor cannot be seen dead without a round trip, so
the call that finds it has been sent to the other actors too, and their games may have moved.

What differs is the transport: an actor shares no memory with the main process, so it keeps its
own buffers for its games only and returns their rows (observations, masks, acting houses,
rewards, done, truncated) with the infos and finished games from every call; the main process
writes them into its copy of the whole batch. Every call goes to all actors at once and is
gathered in shard order.

``ray`` is imported only when a ``RayVectorGames`` is built (it is the optional ``ray`` extra:
``pip install -e '.[ray]'``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any

from .vector_lockstep import LockstepGames, WorkerSeats
from .vector_shard import AgentFactory, Buffers, Finished, Shard, error_reply, serve

__all__ = ["RayVectorGames", "import_ray", "init_ray"]

RAY_MISSING = ("Ray is not installed; the Ray backend needs the 'ray' extra: "
               "pip install -e '.[ray]'")


def import_ray() -> Any:
    """The ``ray`` module, or an ImportError saying which extra to install: Ray is optional,
    so every use of it goes through here rather than a module-level import."""
    try:
        import ray  # optional and heavy (the 'ray' extra): only when a RayVectorGames is built
    except ImportError as e:
        raise ImportError(RAY_MISSING) from e
    return ray


def init_ray(address: str | None = None) -> Any:
    """``ray``, connected: the running connection if this process already has one (whoever
    called ``ray.init`` owns its settings), else ``ray.init(address)``: with None a new local
    instance (or the cluster ``RAY_ADDRESS`` names, as ray itself decides), with an address
    that cluster. No dashboard and no worker output on this terminal: a trainer's or a
    tournament's progress is what it prints."""
    ray = import_ray()
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    return ray


class _ShardActor:
    """One shard of a batch inside a Ray actor: a :class:`Shard` on the actor's own buffers
    (``count`` rows). Every call answers in :func:`boardkit.vector_shard.serve`'s form;
    ``reset`` and ``step`` add the rows they wrote, since the main process cannot see the
    actor's memory."""

    def __init__(self, first: int, count: int, num_games: int, options: dict[str, Any],
                 shape: tuple[int, int, int], game: str,
                 seats: list[dict[int, Any]] | None = None,
                 agent_factory: AgentFactory | None = None):
        self._error: tuple | None = None
        try:
            self._buffers = Buffers(count, *shape)
            self._shard = Shard(first, count, num_games, options, self._buffers, row=0,
                                game=game, seats=seats, agent_factory=agent_factory)
        except Exception as e:  # reported by ready(), in the workers' form, not as a dead actor
            self._error = error_reply(e)

    def ready(self) -> tuple:
        """``("ok", None)`` once the games are built, else why they could not be."""
        return self._error or ("ok", None)

    def call(self, command: str, arg: Any) -> tuple:
        if self._error is not None:
            return self._error
        reply = serve(self._shard, command, arg)
        if reply[0] == "ok" and command in ("reset", "step", "restore"):
            return ("ok", (reply[1], self._buffers.rows()))
        return reply


@functools.cache
def _actor_class(ray: Any) -> Any:
    """The Ray actor class of :class:`_ShardActor`, made once per process (each ``ray.remote``
    of a class would export it to the cluster again). Default resources: an actor takes one
    CPU to be placed and none while it lives, so more actors than CPUs still all start."""
    return ray.remote(_ShardActor)


def _own_arrays(finished: Finished) -> Finished:
    """``finished`` with its arrays copied: Ray hands back read-only views of its object store,
    which would both differ from the local backend's writable arrays and pin that memory for as
    long as the learner keeps the game."""
    return dataclasses.replace(finished, obs=finished.obs.copy(),
                               rewards=finished.rewards.copy())


class RayVectorGames(LockstepGames):
    """``num_games`` games of ``num_players`` stepped in lockstep by Ray actors; the API and the
    results of :class:`boardkit.vector.VectorGames` (see its module docstring for the batches,
    seeds and errors).

    :param seeds: as for ``VectorGames``: an integer, one integer per game, or None.
    :param num_workers: the number of actors, each stepping a contiguous shard of the games;
        0 (the default): one per CPU that Ray reports for the cluster
        (``ray.cluster_resources()["CPU"]``); at most one per game either way.
    :param ray_address: the cluster to connect to when this process is not connected to Ray
        yet; None starts a local instance (Ray's own default CPUs). An existing connection is
        used as it is, and :meth:`close` never shuts Ray down: whoever started it owns it.
    :param copy: as :class:`boardkit.vector.VectorGames`'s (False: the batch's arrays are
        read-only views that the next call overwrites).
    :param game: the registry name of the game, as for ``VectorGames``.
    :param worker_seats: as for ``VectorGames``: the seats each actor plays itself with
        ``agent_factory``'s agents (docs/vector.md, "Worker-side seats").
    :param agent_factory: as for ``VectorGames``; it and the specs travel to the actors
        (Ray's pickling: a module-level function such as ``agents.make_agent``).
    :param env_options: any option of the game's env (AGoT's :class:`got_env.raw_env`), the
        same for every game; checked here, before Ray is started or any actor is.
    """

    _WORKER = "Ray actor"

    def __init__(self, num_games: int, num_players: int | None = None,
                 seeds: int | Sequence[int] | None = None, num_workers: int = 0,
                 ray_address: str | None = None, copy: bool = True, game: str | None = None,
                 worker_seats: WorkerSeats = None, agent_factory: AgentFactory | None = None,
                 **env_options: Any):
        self._actors: list[Any] = []
        ray = import_ray()  # first: without ray nothing else is worth checking
        super().__init__(num_games, num_players, seeds, num_workers, env_options, copy, game,
                         worker_seats, agent_factory)
        self._ray = init_ray(ray_address)
        if self.num_workers == 0:
            cpus = int(ray.cluster_resources().get("CPU", 1))
            self.num_workers = max(1, min(cpus, num_games))
        self._buffers = Buffers(*self._shape)  # the main process's copy of every game's rows
        self._ranges = self._split(num_games, self.num_workers)
        try:
            self._actors = [self._new_actor(k) for k in range(self.num_workers)]
            self._gather([a.ready.remote() for a in self._actors])
        except BaseException:
            self.close()
            raise

    def _new_actor(self, k: int) -> Any:
        """A new actor for shard ``k``; its ``ready`` says once its games are built."""
        first, end = self._ranges[k]
        return _actor_class(self._ray).remote(first, end - first, self.num_games, self.options,
                                              self._shape[1:], self.game,
                                              self.worker_seats[first:end], self.agent_factory)

    # -- the backend's part ---------------------------------------------------------------------
    def _stop(self) -> None:
        """Kill the actors (idempotent). Ray itself keeps running."""
        actors, self._actors = self._actors, []
        for actor in actors:
            _kill(self._ray, actor)

    def _restart(self, shards: list[int]) -> None:
        for k in shards:
            _kill(self._ray, self._actors[k])  # a call Ray could not deliver: it may still live
            self._actors[k] = self._new_actor(k)
        self._gather([self._actors[k].ready.remote() for k in shards], shards)

    def _reset_games(self, streams: list[tuple[list[int], list[int]]]) -> list[dict]:
        parts = self._rows(self._run("reset", streams))
        return [i for part in parts for i in part]

    def _step_games(self) -> tuple[list[dict], list[Finished | None]]:
        actions = self._buffers.actions
        parts = self._rows(self._run("step", [actions[a:b].copy() for a, b in self._ranges]))
        return ([i for part in parts for i in part[0]],
                [f and _own_arrays(f) for part in parts for f in part[1]])

    def _records(self) -> list[Any]:
        return [r for part in self._run("records", [None] * len(self._actors)) for r in part]

    def _states(self) -> list[dict[str, list]]:
        return self._run("state", [None] * len(self._actors))

    def _restore_games(self, parts: list[dict[str, list]]) -> list[dict]:
        return [i for part in self._rows(self._run("restore", parts)) for i in part]

    def _run(self, command: str, args: list) -> list:
        """``command`` to every actor at once (``args[k]`` to actor k), so that they work in
        parallel; their results in shard order."""
        return self._gather([actor.call.remote(command, arg)
                             for actor, arg in zip(self._actors, args, strict=True)])

    def _rows(self, parts: list[tuple[Any, dict]]) -> list[Any]:
        """Write each shard's returned rows into the batch's buffers; the results without them."""
        for (first, _), (_, rows) in zip(self._ranges, parts, strict=True):
            self._buffers.put_rows(first, rows)
        return [result for result, _ in parts]

    def _gather(self, refs: list[Any], shards: Sequence[int] | None = None) -> list:
        """Every actor's reply (``refs[i]``: the one of shard ``shards[i]``, every shard by
        default; waiting for all, in order), then :meth:`_collect`'s results. An actor that
        died (or a call Ray could not deliver) is reported with its games, and replaced by the
        next reset or restore. Unlike a worker process, an actor cannot be seen dead before a
        call without a round trip, so the other actors' games may have moved on that call."""
        ray, replies = self._ray, []
        for k, ref in zip(range(len(refs)) if shards is None else shards, refs, strict=True):
            try:
                replies.append(ray.get(ref))
            except ray.exceptions.RayError as e:
                dead = isinstance(e, ray.exceptions.RayActorError)
                summary = str(e).strip().splitlines()[0] if str(e).strip() else ""
                replies.append(self._lost_reply(
                    k, f"{'died' if dead else 'failed'} ({type(e).__name__}: {summary}) "
                       f"{self._MID_CALL.format(self._WORKER)}"))
        return self._collect(replies)


def _kill(ray: Any, actor: Any) -> None:
    """Kill an actor if it still lives."""
    try:
        ray.kill(actor)
    except Exception:  # already dead, or Ray shut down by its owner: nothing to stop
        pass
