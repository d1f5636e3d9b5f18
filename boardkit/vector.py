"""Batched self-play for any game of the kit: many games stepped in lockstep, for a learner that
does one forward pass for all of them (docs/vector.md).

    from boardkit.vector import VectorGames
    with VectorGames(64, num_players=6, seeds=0, num_workers=2, game="got") as games:
        batch = games.reset()
        while training:
            actions = policy(batch.obs, batch.mask)        # int[G], one per game
            batch = games.step(actions)
            # batch.rewards[g, h]: what house h received on this step of game g

Every game is the raw env of the game the registry names (``game=``, required, built by
:func:`boardkit.envs.make_env`: the AEC env itself, not a copy of its logic), so a game played
here is, step for step, the game the AEC env plays with the same seed and actions:
the same acting house, observation, mask, rewards, terminations, truncations and infos
(``tests/test_vector.py`` plays both and compares). A batch holds, for game ``g``:

* ``agent[g]``: the acting house, as an index into :attr:`VectorGames.possible_agents`;
* ``obs[g]`` (float32 ``[F]``) and ``mask[g]`` (int8 ``[N]``): ``env.observe(agent)``, what
  ``last()`` gives the acting house in PettingZoo's loop;
* ``infos[g]``: that house's infos (``decision``, ``num_legal``);
* ``rewards[g, h]`` (float32): what house ``h`` received on this step (``env.rewards``). The env
  pays at the end of the game, to every house at once, so the row of a finished game holds every
  house's final reward: summing a house's column between its turns gives exactly what ``last()``
  reports to it in the AEC loop (its cumulative reward);
* ``done[g]`` (terminated or truncated) and ``truncated[g]`` (``max_steps`` reached);
* ``finished[g]``: a :class:`Finished` when ``done[g]``, else None: the finished game's record
  (:func:`boardkit.envs.record_of`: its ``GameRecord``), the final infos of every house (AGoT's
  ``outcome``, ``winner``, ``ranking``), every house's final observation (for bootstrapping a
  truncated game), rewards, round and standing;
* ``round[g]`` (int64): the round (``Game.round``) of the acting house's state;
* ``seat_moves[g]`` (int64): the decisions game ``g``'s worker-side seats played during this
  call (below; 0 without them), for throughput accounting.

``worker_seats`` (with ``agent_factory``, e.g. ``agents.make_agent``) hands some seats to agents
that the shards run themselves (docs/vector.md, "Worker-side seats"): after the learner's action
a shard plays those seats' decisions until a learner seat is to act again, so every row of every
batch is a learner seat's decision, the batch keeps its ``G`` rows, and a baseline opponent
(AGoT's heuristic) runs in the workers, not in the learner's process. The records hold every
action, those of the worker-side seats too.

Any env option goes to every game, ``ruleset="1e"`` included (the 1st edition: the observation
and action sizes, ``observation_size`` and ``action_size``, are then the 1e ones). The sizes and
the players come from the env alone: its ``observation_space(agent)["observation"]``, its
``action_space(agent).n`` and its ``possible_agents``.

A finished game is reset at once (auto-reset): the same batch already holds the new game's first
acting house, observation and mask, while ``rewards``, ``done`` and ``finished`` still describe
the game that ended. Seeds are per game: game ``g``'s ``k``-th game since the last reset that set
seeds is played with seed ``first[g] + k * num_games``, where ``first[g]`` is ``seeds + g`` for an
integer ``seeds``, or ``seeds[g]`` for a sequence. With an integer, no two games or episodes share
a seed; ``seeds=None`` draws the integer from fresh entropy (records still replay exactly, since
they store their seed).

``num_workers=k > 0`` splits the games into ``k`` contiguous shards, each stepped by its own worker
process (``multiprocessing``, ``spawn`` by default, so it is safe beside threads such as torch's);
observations, masks, rewards, actions, the acting houses, ``done`` and ``truncated`` travel through
shared memory, and so do the acting houses' infos, as two numbers per game (the pending decision's
kind and its number of legal actions) from which the main process rebuilds them with the env's own
:meth:`~boardkit.aec.KitEnv.turn_info`, where the game's decision kinds are numbers (the env's
``numbered_kinds``: AGoT's; the workers of any other env send the infos themselves). A step's
pipe carries only the command and, back, the games that finished (:class:`Finished`, with their
records); a reset or a restore sends the infos themselves.
Results do not depend on ``k``. ``close()`` stops the workers; the object is also a context manager.
``step`` checks every action against the current masks before any game moves: a bad one raises the
game's IllegalActionError (:func:`illegal_action_error`) naming the game index, the action, the
pending decision and the house (in the AEC env's words), and no game changes. Any error inside a
worker comes back as an exception naming the game index and the action (the worker's traceback
attached); the batch must then be ``reset``. A worker that died (killed, out of memory) raises a
:class:`VectorGamesError` naming it, its exit code and its games: found before a call is sent (each
call first checks every worker's exit status, one non-blocking ``waitpid`` each), no game moves;
found during one, the other workers' replies are read first. Every later call raises the same error
until ``reset()`` or ``restore()``, which start a fresh worker for each dead one (same start
method), after which the batches are the ones a fresh ``VectorGames`` with the same seeds gives.
After ``close()`` every call but ``close`` says the games are closed, in-process ones too.

:class:`boardkit.vector_ray.RayVectorGames` is the same API with each shard stepped by a Ray actor
(the same :class:`Shard`, seeds, checks and errors, hence the same batches);
:func:`make_vector_games` picks the backend by name, for a trainer whose config names it.

The code is in three modules, each name imported from the module that defines it:
:mod:`boardkit.vector_shard` (the games a worker steps: :class:`~boardkit.vector_shard.Shard`,
``Buffers``, ``Batch``, ``Finished``, ``VectorGamesError``, the error protocol, ``seat_seed``,
``replay``), :mod:`boardkit.vector_lockstep` (``LockstepGames``, what every backend shares) and
this one (the worker processes' backend: :class:`VectorGames`, :func:`make_vector_games`).
"""
from __future__ import annotations

import math
import multiprocessing as mp
import os
import pickle
import time
from collections.abc import Sequence
from typing import Any

from .backends import BACKENDS
from .vector_lockstep import LockstepGames, WorkerSeats
from .vector_ray import RayVectorGames
from .vector_shard import (
    AgentFactory,
    Buffers,
    Finished,
    Shard,
    _acting_infos,
    _failure,
    _GameFailure,
    error_reply,
    rebuilds_infos,
    serve,
)

__all__ = ["VectorGames", "make_vector_games"]


#: Gives the core to any other runnable process while a worker busy-waits (``time.sleep(0)``
#: where the OS has no ``sched_yield``).
_yield = getattr(os, "sched_yield", lambda: time.sleep(0))


def _next_command(conn: Any, spin_s: float) -> tuple[tuple, float]:
    """The next command from the pipe and how long it took to come (seconds), busy-waiting for
    it up to ``spin_s`` seconds (yielding the core to any other runnable process at each poll)
    before blocking. A lockstep worker is idle between its reply and the next step's command
    (the other shard finishing, the learner's policy), long enough for a blocked process's core
    to go to sleep: on this project's 2-core VM, waking the second worker's core then took
    0.6-1.1 ms of every 9-11 ms step (docs/vector.md, "Speed")."""
    start = time.perf_counter()
    if spin_s > 0:
        deadline = start + spin_s
        while not conn.poll() and time.perf_counter() < deadline:
            _yield()
    message = conn.recv()
    return message, time.perf_counter() - start


class _Commands:
    """A worker's commands, each awaited with :func:`_next_command`, busy-waiting up to
    ``spin_s`` only while the last one came within ``spin_s``: a learner whose policy takes
    longer than that between steps would find the cores taken by workers spinning for nothing
    (a PPO run of ``configs/ppo_selfplay.yaml`` was 4-10% slower with them), so there the
    workers block at once, as with ``spin_s=0``, until a command comes quickly again."""

    def __init__(self, conn: Any, spin_s: float):
        self.conn, self.spin_s = conn, spin_s
        self.spinning = spin_s > 0

    def next(self) -> tuple:
        message, waited = _next_command(self.conn, self.spin_s if self.spinning else 0.0)
        self.spinning = self.spin_s > 0 and waited <= self.spin_s
        return message


def _worker(conn: Any, first: int, count: int, num_games: int, options: dict[str, Any],
            buffers: Buffers, spin_s: float, game: str,
            seats: list[dict[int, Any]] | None = None,
            agent_factory: AgentFactory | None = None) -> None:
    """A worker process: one shard, driven by commands from the pipe (:class:`_Commands`)
    until ``close``. Every reply is ``("ok", result)`` or ``("error", game, action, type name,
    message, traceback)``."""
    shard = None
    try:
        shard = Shard(first, count, num_games, options, buffers, game=game, seats=seats,
                      agent_factory=agent_factory)
        conn.send(("ok", None))
    except Exception as e:  # an option the env refuses: reported, not hung on
        conn.send(error_reply(e))
        return
    commands = _Commands(conn, spin_s)
    while True:
        try:
            command, arg = commands.next()
        except (EOFError, KeyboardInterrupt):
            return
        if command == "close":
            conn.send(("ok", None))
            return
        conn.send(serve(shard, command, arg))


class VectorGames(LockstepGames):
    """``num_games`` games of ``num_players`` stepped in lockstep (see the module docstring).

    :param num_players: None (default): the ruleset's largest count, as the env (6 in 2e, 5 in
        1e).
    :param seeds: an integer (game ``g`` starts with ``seeds + g``), one integer per game, or
        None (fresh entropy); later games of each slot follow ``first + k * num_games``.
    :param num_workers: 0 steps every game in this process; ``k > 0`` splits them over ``k``
        worker processes (at most one per game).
    :param start_method: the multiprocessing start method of the workers: ``"spawn"`` (the
        default: safe beside threads such as torch's), ``"fork"`` (starts faster) or
        ``"forkserver"``; a worker that died is restarted (by ``reset`` or ``restore``) the
        same way.
    :param copy: True (default): a batch's arrays are copies, valid for good. False: they are
        read-only views of the buffers the games write, overwritten by the next ``step`` or
        ``reset`` (Gymnasium's ``AsyncVectorEnv(copy=False)``): for a learner that copies the
        observations into its own rollout storage anyway, one copy of every observation fewer
        per step.
    :param spin_s: how long (seconds) a worker busy-waits for the next command, yielding its
        core to any other runnable process, before it blocks (default 0.005). Between its
        reply and the next step a worker waits for the other shards and for the learner's
        policy; a core left idle that long can sleep, and waking it costs a fraction of a
        millisecond per step (docs/vector.md, "Speed"). A worker spins only while its last
        wait was at most ``spin_s``, so a learner whose policy takes longer keeps its cores.
        0: never busy-wait.
    :param game: the registry name of the game (:mod:`boardkit.games`); every game of the batch
        is its env, :func:`boardkit.envs.make_env` (``game``, ``**env_options``).
    :param worker_seats: the seats the workers play themselves (docs/vector.md, "Worker-side
        seats"): one mapping ``{seat: agent spec}`` for every game, or one per game (None: none
        there); a seat is an index into ``possible_agents`` or an agent name. Each game's
        worker-side agents are built by ``agent_factory`` for every new game, seeded by
        :func:`seat_seed` from the game's seed, and asked in the shard between the learner's
        decisions, so every row of a batch is a learner seat's decision and baseline opponents
        cost the learner's process nothing. None (default): the learner plays every seat.
    :param agent_factory: ``factory(spec, env=env, seed=seed) -> agent`` (``agents.make_agent``;
        boardkit cannot import it), picklable for worker processes (a module-level function).
    :param env_options: any option of the game's env (AGoT's :class:`got_env.raw_env`:
        ``max_rounds``, ``reward``, ``max_steps``, ...), the same for every game; checked here,
        before a worker starts.
    """

    #: The worker processes' names: ``<this>-vector-<first game>`` (AGoT's as they always were).
    def __init__(self, num_games: int, num_players: int | None = None,
                 seeds: int | Sequence[int] | None = None, num_workers: int = 0,
                 start_method: str = "spawn", copy: bool = True, spin_s: float = 0.005,
                 game: str | None = None, worker_seats: WorkerSeats = None,
                 agent_factory: AgentFactory | None = None, **env_options: Any):
        if isinstance(spin_s, bool) or not isinstance(spin_s, int | float) \
                or not math.isfinite(spin_s) or spin_s < 0:
            raise ValueError(f"spin_s must be a non-negative number of seconds, got {spin_s!r}")
        self.spin_s = float(spin_s)
        self._conns: list[Any] = []
        self._procs: list[Any] = []
        self._shard: Shard | None = None
        self.start_method = start_method
        super().__init__(num_games, num_players, seeds, num_workers, env_options, copy, game,
                         worker_seats, agent_factory)
        #: whether the rows carry the acting agents' infos as numbers (``Shard.numeric_infos``)
        self._numeric_infos = rebuilds_infos(self._probe)
        if self.num_workers == 0:
            self._buffers = Buffers(*self._shape)
            self._ranges = [(0, num_games)]
            self._shard = Shard(0, num_games, num_games, self.options, self._buffers,
                                game=self.game, seats=self.worker_seats,
                                agent_factory=self.agent_factory)
            return
        if any(self.worker_seats):  # say so here, not as a worker's obscure death
            try:
                pickle.dumps((self.agent_factory, self.worker_seats))
            except Exception as e:
                raise ValueError(f"agent_factory and the worker_seats' specs must pickle to "
                                 f"reach the worker processes (a module-level function such "
                                 f"as agents.make_agent): {type(e).__name__}: {e}") from e
        self._ctx = mp.get_context(start_method)
        self._buffers = Buffers(*self._shape, ctx=self._ctx)
        self._ranges = self._split(num_games, self.num_workers)
        try:
            for k in range(self.num_workers):
                conn, proc = self._start_worker(k)
                self._conns.append(conn)
                self._procs.append(proc)
            self._gather(range(self.num_workers))  # each built its games, or says why not
        except BaseException:
            self.close()
            raise

    def _start_worker(self, k: int) -> tuple[Any, Any]:
        """Start a worker for shard ``k`` (a fresh process of the batch's start method, on the
        same shared buffers); its pipe and process. It reports once its games are built."""
        first, end = self._ranges[k]
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=_worker, daemon=True,
                                 name=f"{self.game}-vector-{first}",
                                 args=(child, first, end - first, self.num_games, self.options,
                                       self._buffers, self.spin_s, self.game,
                                       self.worker_seats[first:end], self.agent_factory))
        proc.start()
        child.close()  # the worker holds the only other end: its death is an EOF here
        return parent, proc

    # -- the backend's part ---------------------------------------------------------------------
    def _stop(self) -> None:
        for conn in self._conns:
            _send(conn, ("close", None))  # a dead worker's pipe is broken: nothing to stop
        for conn, proc in zip(self._conns, self._procs, strict=True):
            try:
                if conn.poll(5):
                    conn.recv()
            except (OSError, EOFError, ValueError):
                pass
            _end(proc)
            conn.close()
        self._conns, self._procs = [], []

    def _dead_shards(self) -> set[int]:
        """Those known to be dead and those whose worker has exited since."""
        return self._dead | set(self._exited())

    def _restart(self, shards: list[int]) -> None:
        for k in shards:
            self._conns[k].close()
            _end(self._procs[k])
            self._conns[k], self._procs[k] = self._start_worker(k)
        self._gather(shards)

    def _reset_games(self, streams: list[tuple[list[int], list[int]]]) -> list[dict]:
        if self._shard is not None:
            try:
                return self._shard.reset(streams[0])
            except _GameFailure as f:  # a worker-side seat's error, as a worker reports it
                self._broken = True
                raise _failure(*error_reply(f.error, f.game, f.action)[1:],
                               illegal=self._illegal) from f.error
        return [i for part in self._run("reset", streams) for i in part]

    def _step_games(self) -> tuple[list[dict], list[Finished | None]]:
        if self._shard is not None:
            try:
                return self._shard.step()
            except _GameFailure as f:
                self._broken = True
                raise _failure(*error_reply(f.error, f.game, f.action)[1:],
                               illegal=self._illegal) from f.error
        if not self._numeric_infos:  # the infos themselves come back with the finished games
            parts = self._run("step", [None] * self.num_workers)
            return ([i for part in parts for i in part[0]],
                    [f for part in parts for f in part[1]])
        finished: list[Finished | None] = [None] * self.num_games
        for part in self._run("advance", [None] * self.num_workers):
            for f in part:
                finished[f.game] = f
        b = self._buffers
        return _acting_infos(self._probe, b.decision, b.num_legal), finished

    def _seat_next_games(self, parts: list[dict[int, dict[int, Any] | None]]) -> None:
        if self._shard is not None:
            self._shard.seat_next(parts[0])
            return
        self._run("seat_next", parts)

    def _records(self) -> list[Any]:
        if self._shard is not None:
            return self._shard.records()
        return [r for part in self._run("records", [None] * self.num_workers) for r in part]

    def _states(self) -> list[dict[str, list]]:
        if self._shard is not None:
            return [self._shard.state()]
        return self._run("state", [None] * self.num_workers)

    def _restore_games(self, parts: list[dict[str, list]]) -> list[dict]:
        if self._shard is not None:
            return self._shard.restore(parts[0])
        return [i for part in self._run("restore", parts) for i in part]

    def _exited(self) -> list[int]:
        """The workers that have exited: ``exitcode`` is one non-blocking ``waitpid`` each, a
        few microseconds per step, not a round trip through the pipes."""
        return [k for k, proc in enumerate(self._procs) if proc.exitcode is not None]

    def _run(self, command: str, args: list) -> list:
        """Send ``command`` to every worker (``args[k]`` to worker k) at once, so that they
        work in parallel, then gather their replies in worker order. A worker found dead first
        fails the call before anything is sent, so that no game moves; one that dies after is
        reported once every other worker's reply is read, so that none stays in a pipe."""
        exited = self._exited()
        if exited:
            self._collect([self._lost_reply(k, f"{self._died(k)}, found before a call was sent "
                                               f"(no game moved)") for k in exited])
        unsent = [k for k, (conn, arg) in enumerate(zip(self._conns, args, strict=True))
                  if not _send(conn, (command, arg))]
        return self._gather(unsent=unsent)

    def _gather(self, workers: Sequence[int] | None = None, unsent: Sequence[int] = ()) -> list:
        """One reply from each worker that was sent a command (``None``: a call to every one,
        but ``unsent``, those whose pipe was broken), or from the ``workers`` just started,
        then :meth:`_collect`'s results (or its error). A dead worker's pipe reads as EOF (it
        held the only other end), so no read waits on it forever."""
        starting = workers is not None
        why = "while starting" if starting else self._MID_CALL.format(self._WORKER)
        replies = []
        for k in workers if starting else range(len(self._conns)):
            try:
                if k in unsent:
                    raise EOFError
                replies.append(self._conns[k].recv())
            except (EOFError, ConnectionError):  # not any OSError: a TimeoutError is no death
                replies.append(self._lost_reply(k, f"{self._died(k, starting)} {why}"))
            except BaseException as e:  # Ctrl-C, an alarm: the rest of the replies are unread
                self._interrupted(e, [j for j in (workers if starting else
                                                  range(len(self._conns))) if j >= k])
                raise
        return self._collect(replies)

    def _interrupted(self, error: BaseException, unread: list[int]) -> None:
        """A call stopped (Ctrl-C, an alarm) before every reply was read: the workers whose
        reply is unread are out of step with this process, so the batch is broken as if they
        had died (every call says so) and reset() or restore() replace them."""
        self._dead.update(unread)
        first, end = self._ranges[unread[0]][0], self._ranges[unread[-1]][1]
        self._lost = (f"a call was interrupted ({type(error).__name__}) before {self._WORKER}s "
                      f"{unread} (games {first}..{end - 1}) answered. The batch is broken: call "
                      f"reset() or restore(), which start a fresh {self._WORKER} for each")
        self._broken = True

    def _died(self, k: int, starting: bool = False) -> str:
        """How worker ``k`` ended, for the error: its exit code (-9: SIGKILL), and for one that
        died while starting under ``spawn`` (or ``forkserver``), the likely cause."""
        proc = self._procs[k]
        proc.join(timeout=1)
        why = f"died (exit code {proc.exitcode})"
        if starting and self.start_method != "fork":
            why += (f" (with the {self.start_method!r} start method the main module must be "
                    f"importable and keep its work under if __name__ == '__main__')")
        return why


def _send(conn: Any, message: tuple) -> bool:
    """Send a command to a worker; False if its pipe is broken (it died since the check) or
    closed."""
    try:
        conn.send(message)
    except (ConnectionError, ValueError):
        return False
    return True


def _end(proc: Any) -> None:
    """Wait for a worker process to exit; terminate it if it does not, and kill it if even
    that fails (a stopped process ignores SIGTERM, and would hang the interpreter's exit)."""
    proc.join(timeout=5)
    for stop in (proc.terminate, proc.kill):
        if not proc.is_alive():
            return
        stop()
        proc.join(timeout=5)


def make_vector_games(backend: str = "local", **kwargs: Any) -> VectorGames | RayVectorGames:
    """The batched games of ``backend``: ``"local"`` (:class:`VectorGames`: this process or
    worker processes) or ``"ray"`` (:class:`boardkit.vector_ray.RayVectorGames`: Ray actors);
    ``kwargs`` go to its constructor (``num_games``, ``num_players``, ``seeds``, ``num_workers``,
    ``game``, env options, and ``ray_address`` for Ray). Both give the same batches for the
    same seeds and actions, so a trainer's config can switch between them without changing its
    results."""
    if backend == "local":
        return VectorGames(**kwargs)
    if backend == "ray":
        return RayVectorGames(**kwargs)
    raise ValueError(f"backend must be one of {list(BACKENDS)}, got {backend!r}")
