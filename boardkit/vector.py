"""Batched self-play for any game of the kit: many games stepped in lockstep, for a learner that
does one forward pass for all of them (docs/vector.md).

    from boardkit.vector import VectorGames          # or got_env.vector: the same classes
    with VectorGames(64, num_players=6, seeds=0, num_workers=2) as games:   # game="got"
        batch = games.reset()
        while training:
            actions = policy(batch.obs, batch.mask)        # int[G], one per game
            batch = games.step(actions)
            # batch.rewards[g, h]: what house h received on this step of game g

Every game is the raw env of the game the registry names (``game="got"`` by default, built by
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
  (:func:`boardkit.envs.record_of`: AGoT's ``GameRecord``), the final infos of every house (AGoT's
  ``outcome``, ``winner``, ``ranking``), every house's final observation (for bootstrapping a
  truncated game) and rewards.

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
template (``_turn_info``, an optional env member: AGoT's env has it; the workers of an env without
it send the infos themselves). A step's pipe carries only the command and, back, the games that
finished (:class:`Finished`, with their records); a reset or a restore sends the infos themselves.
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
"""

from __future__ import annotations

import importlib
import math
import multiprocessing as mp
import os
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from . import games as registry
from .decision import IllegalActionError
from .envs import make_env, record_of

if TYPE_CHECKING:
    from .vector_ray import RayVectorGames

__all__ = ["BACKENDS", "Batch", "Finished", "VectorGames", "VectorGamesError",
           "make_vector_games",
           # the shard API a backend builds on (boardkit.vector_ray: shards in Ray actors)
           "Buffers", "LockstepGames", "Shard", "error_reply", "serve",
           "illegal_action_error", "observe_into", "replay"]

#: The names :func:`make_vector_games` takes: games in this machine's processes, or Ray actors.
BACKENDS = ("local", "ray")

#: The exception class each game shipped here raises for an illegal action, when it is not the
#: kit's own (``module:attribute``, imported on first use, as :data:`boardkit.envs.KNOWN_ENVS`):
#: AGoT keeps its own copy (docs/kit.md), and a batch of AGoT games raises the class its AEC env
#: raises, so that one ``except`` catches either.
KNOWN_ILLEGAL_ERRORS: dict[str, str] = {"got": "got_env.engine:IllegalActionError"}


def illegal_action_error(game: str) -> type[Exception]:
    """The exception class the batch raises for an illegal action in ``game``: the game's own
    ``illegal_action_error`` attribute, else :data:`KNOWN_ILLEGAL_ERRORS`, else the kit's
    :class:`~boardkit.decision.IllegalActionError`."""
    own = getattr(registry.get(game), "illegal_action_error", None)
    if own is not None:
        return own
    if game in KNOWN_ILLEGAL_ERRORS:
        module, attribute = KNOWN_ILLEGAL_ERRORS[game].split(":")
        return getattr(importlib.import_module(module), attribute)
    return IllegalActionError


def observe_into(env: Any, agent: str, obs: np.ndarray, mask: np.ndarray) -> None:
    """``env.observe(agent)`` written into a game's rows: through the env's own
    ``observe_into(agent, obs, mask)`` where it has one (AGoT's encodes straight into the
    shared buffer), else copied from ``observe``."""
    own = getattr(env, "observe_into", None)
    if own is not None:
        own(agent, obs, mask)
        return
    seen = env.observe(agent)
    obs[...] = seen["observation"]
    mask[...] = seen["action_mask"]


def replay(game: str, record: Any, options: dict[str, Any]) -> Any:
    """A new env of ``game`` (env ``options``) with ``record``'s game played through: the
    record's own ``replay()`` where it has one (AGoT's ``GameRecord``, which also checks its
    digest), else a :meth:`boardkit.aec.KitEnv.record` mapping: reset with its seed, then every
    action (an illegal one raises, as the env's ``step`` does)."""
    own = getattr(record, "replay", None)
    if own is not None:
        return own()
    env = make_env(game, **options)
    env.reset(seed=record["seed"])
    for action in record["actions"]:
        env.step(int(action))
    return env


class VectorGamesError(RuntimeError):
    """An error inside one game of a batch (other than an illegal action), with the game index,
    the action it was given and the worker's traceback, so that it can be replayed alone; or a
    worker (a Ray actor) that died, named with its exit code and the games it held, repeated
    by every call until ``reset`` or ``restore`` starts a fresh one."""


@dataclass
class Finished:
    """A game that ended (or was truncated) on this step, as it stood at its end.

    :ivar game: its index in the batch.
    :ivar record: :func:`boardkit.envs.record_of` the env: what replays it (AGoT: a
        ``GameRecord``, with options, seed, actions, outcome and final digest; a
        :class:`~boardkit.aec.KitEnv`: seed, options and actions).
    :ivar infos: every house's final infos (AGoT: ``outcome``, ``winner``, ``ranking``, and
        ``draw`` in a ruleset whose games can be drawn, ``ruleset="1e"``), by agent name.
    :ivar obs: float32 ``[H, F]``: ``observe(house)["observation"]`` of every house after the
        end, in ``possible_agents`` order (what ``last()`` shows each house at its dead step).
    :ivar rewards: float32 ``[H]``: the final rewards (the batch's ``rewards[game]``).
    :ivar truncated: True when ``max_steps`` cut the game short (no rewards are paid then).
    """

    game: int
    record: Any
    infos: dict[str, dict]
    obs: np.ndarray
    rewards: np.ndarray
    truncated: bool


@dataclass
class Batch:
    """One lockstep step of every game (see the module docstring for each field's meaning).
    The arrays are copies, valid after the next step, unless the games were made with
    ``copy=False`` (then read-only views that the next step overwrites)."""

    agent: np.ndarray  # int64[G]: acting house, index into possible_agents
    obs: np.ndarray  # float32[G, F]: its observation
    mask: np.ndarray  # int8[G, N]: its action mask
    rewards: np.ndarray  # float32[G, H]: what every house received on this step
    done: np.ndarray  # bool[G]: the game ended or was truncated on this step (then reset)
    truncated: np.ndarray  # bool[G]: it was cut short by max_steps
    infos: list[dict]  # the acting house's infos, per game
    finished: list[Finished | None]  # per game: the game that ended on this step, else None


class Buffers:
    """The per-game arrays a shard writes and the main process reads (and the actions it
    writes), carved out of one block: a shared ``RawArray`` when workers are used, so that
    observations never go through a pipe, else plain memory."""

    def __init__(self, num_games: int, num_houses: int, obs_size: int, mask_size: int,
                 ctx: Any = None, raw: Any = None):
        self.shape = (num_games, num_houses, obs_size, mask_size)
        layout = {"obs": (np.float32, (num_games, obs_size)),
                  "rewards": (np.float32, (num_games, num_houses)),
                  "actions": (np.int64, (num_games,)),
                  "agent": (np.int64, (num_games,)),
                  "decision": (np.int64, (num_games,)),
                  "num_legal": (np.int64, (num_games,)),
                  "mask": (np.int8, (num_games, mask_size)),
                  "done": (np.bool_, (num_games,)),
                  "truncated": (np.bool_, (num_games,))}
        offsets, total = {}, 0
        for name, (dtype, shape) in layout.items():
            offsets[name] = total
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            total += (size + 63) // 64 * 64  # each array on its own cache lines
        if raw is None:
            raw = ctx.RawArray("B", total) if ctx is not None else bytearray(total)
        self.raw = raw
        memory = np.frombuffer(raw, dtype=np.uint8, count=total)
        for name, (dtype, shape) in layout.items():
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            view = memory[offsets[name]:offsets[name] + size].view(dtype).reshape(shape)
            setattr(self, name, view)

    def __reduce__(self) -> tuple:  # to a worker: the same shared block, not a copy
        return (Buffers, (*self.shape, None, self.raw))

    #: The per-game arrays a step writes (``actions`` is the one the main process writes).
    #: ``decision`` and ``num_legal`` (the acting house's infos as numbers) are written too, for
    #: the main process of worker processes; a shard that returns its rows (a Ray actor) returns
    #: the infos themselves instead.
    ROWS = ("obs", "mask", "agent", "rewards", "done", "truncated")

    def rows(self) -> dict[str, np.ndarray]:
        """Every game's rows of the arrays a step writes: what a shard that shares no memory
        with the main process (a Ray actor) sends back after each call."""
        return {name: getattr(self, name) for name in self.ROWS}

    def put_rows(self, first: int, rows: dict[str, np.ndarray]) -> None:
        """Write a shard's :meth:`rows` as the rows of games ``first ..``."""
        for name, value in rows.items():
            getattr(self, name)[first:first + len(value)] = value


class Shard:
    """Games ``first .. first + count - 1`` of a batch, each the raw env of ``game``
    (:func:`boardkit.envs.make_env`); writes their rows of the buffers. Runs in the main process
    (``num_workers=0``), in a worker or in a Ray actor.

    :param row: the buffers' row of game ``first``: ``first`` itself when the buffers hold the
        whole batch (in-process, shared memory), 0 for a shard's own buffers (a Ray actor).
    :param game: the registry name of the game (``"got"``: A Game of Thrones)."""

    def __init__(self, first: int, count: int, num_games: int, options: dict[str, Any],
                 buffers: Buffers, row: int | None = None, game: str = "got"):
        self.first, self.num_games = first, num_games
        self.game, self.options = game, dict(options)
        self.envs = [make_env(game, **options) for _ in range(count)]
        self._rules = registry.get(game)
        #: the env rebuilds the acting agent's infos from two numbers (``_turn_info``): the
        #: rows carry them, else the infos travel themselves (:meth:`step`)
        self.numeric_infos = hasattr(self.envs[0], "_turn_info")
        self.agents = list(self.envs[0].possible_agents)
        self._index = {a: i for i, a in enumerate(self.agents)}
        row = first if row is None else row
        rows = slice(row, row + count)
        b = buffers
        self.obs, self.mask, self.agent = b.obs[rows], b.mask[rows], b.agent[rows]
        self.rewards, self.done, self.truncated = b.rewards[rows], b.done[rows], b.truncated[rows]
        self.actions = b.actions[rows]
        self.decision, self.num_legal = b.decision[rows], b.num_legal[rows]
        self.first_seeds = [0] * count
        self.episodes = [0] * count

    def reset(self, stream: tuple[list[int], list[int]]) -> list[dict]:
        """Start every game at its place in its seed stream, ``(first seeds, episodes)``: the
        main process keeps every game's place and sends it, so that a shard started afresh
        (after its worker died) carries on where the lost one was."""
        first, episodes = stream
        self.first_seeds, self.episodes = list(first), list(episodes)
        self.rewards[:] = 0
        self.done[:] = False
        self.truncated[:] = False
        infos = []
        for i, env in enumerate(self.envs):
            env.reset(seed=self._seed(i))
            infos.append(self._write(i, env))
        return infos

    def step(self, actions: np.ndarray | None = None) -> tuple[list[dict], list[Finished | None]]:
        """Play ``actions[i]`` in every game (given here, or already in the shared buffer);
        a finished game is recorded and reset. The acting houses' infos and, per game, the
        game that finished (else None)."""
        ended = {f.game - self.first: f for f in self.advance(actions)}
        infos = _acting_infos(self.envs[0], self.decision, self.num_legal) \
            if self.numeric_infos else [_copy_info(env) for env in self.envs]
        return infos, [ended.get(i) for i in range(len(self.envs))]

    def advance(self, actions: np.ndarray | None = None) -> list[Finished]:
        """:meth:`step` that returns only the games that finished: the rows it writes hold the
        rest, the acting houses' infos as numbers (``decision``, ``num_legal``) included, so
        that a worker sends next to nothing through its pipe."""
        if actions is not None:
            self.actions[:] = actions
        finished: list[Finished] = []
        count = len(self.envs)
        done, cut = [False] * count, [False] * count
        self.rewards[:] = 0  # only a game that ends pays: every other game's rewards are 0.0
        for i, (env, action) in enumerate(zip(self.envs, self.actions.tolist(), strict=True)):
            try:
                env.step(action)
                sel = env.agent_selection
                truncated = env.truncations[sel]
                if env.terminations[sel] or truncated:
                    done[i], cut[i] = True, truncated
                    row, index = self.rewards[i], self._index
                    for a, r in env.rewards.items():
                        row[index[a]] = r
                    finished.append(self._finish(i, env, truncated))
                    self.episodes[i] += 1
                    env.reset(seed=self._seed(i))
                self._write_rows(i, env)
            except Exception as e:
                raise _GameFailure(self.first + i, action, e) from e
        self.done[:] = done
        self.truncated[:] = cut
        return finished

    def records(self) -> list[Any]:
        return [record_of(env) for env in self.envs]

    def state(self) -> dict[str, list]:
        """What :meth:`restore` needs to carry on exactly: each game's record (options, seed,
        actions) and its place in its seed stream."""
        return {"first_seeds": list(self.first_seeds), "episodes": list(self.episodes),
                "records": self.records()}

    def restore(self, state: dict[str, list]) -> list[dict]:
        """Replay every game of a :meth:`state` (:func:`replay`; an AGoT record that does not
        replay raises ``got_env.RecordError``) and write its rows, as after the step it was
        taken at (rewards and ends of that step are not kept: a state is taken between
        steps)."""
        envs = [replay(self.game, record, self.options) for record in state["records"]]
        self.envs = envs
        self.first_seeds, self.episodes = list(state["first_seeds"]), list(state["episodes"])
        self.rewards[:] = 0
        self.done[:] = False
        self.truncated[:] = False
        return [self._write(i, env) for i, env in enumerate(envs)]

    def _seed(self, i: int) -> int:
        return self.first_seeds[i] + self.episodes[i] * self.num_games

    def _write(self, i: int, env: Any) -> dict:
        """Game ``i``'s rows; its acting house's infos (a copy)."""
        self._write_rows(i, env)
        return _copy_info(env)

    def _write_rows(self, i: int, env: Any) -> None:
        """Game ``i``'s rows: the acting house, its observation and mask, and, for an env with
        numeric infos, its infos as numbers (the pending decision's kind, through the game's
        ``pending``, and its number of options; 0 once the game is over)."""
        agent = env.agent_selection
        observe_into(env, agent, self.obs[i], self.mask[i])
        self.agent[i] = self._index[agent]
        if self.numeric_infos:
            d = self._rules.pending(env.game)
            self.decision[i], self.num_legal[i] = (int(d.kind), len(d.options)) if d else (0, 0)

    def _finish(self, i: int, env: Any, truncated: bool) -> Finished:
        return Finished(
            game=self.first + i, record=record_of(env),
            infos={a: dict(env.infos[a]) for a in self.agents},
            obs=np.stack([env.observe(a)["observation"] for a in self.agents]),
            rewards=self.rewards[i].copy(), truncated=bool(truncated))


def _copy_info(env: Any) -> dict:
    """The acting agent's infos, a copy (lists too) that the env's next step cannot change."""
    return {k: list(v) if isinstance(v, list) else v
            for k, v in env.infos[env.agent_selection].items()}


def _acting_infos(env: Any, decision: np.ndarray, num_legal: np.ndarray) -> list[dict]:
    """Every game's acting house's infos from the numbers a shard wrote (``env``: any env of
    the batch's options): what ``env.infos[agent]`` holds for the house to act, built by the
    env's own ``_turn_info``, so that the two cannot differ."""
    turn = env._turn_info
    return [turn(k, n) for k, n in zip(decision.tolist(), num_legal.tolist(), strict=True)]


class _GameFailure(Exception):
    """Carries an exception raised while stepping one game, with its index and action."""

    def __init__(self, game: int, action: int, error: BaseException):
        super().__init__(game, action, error)
        self.game, self.action, self.error = game, action, error


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
            buffers: Buffers, spin_s: float, game: str = "got") -> None:
    """A worker process: one shard, driven by commands from the pipe (:class:`_Commands`)
    until ``close``. Every reply is ``("ok", result)`` or ``("error", game, action, type name,
    message, traceback)``."""
    shard = None
    try:
        shard = Shard(first, count, num_games, options, buffers, game=game)
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


def serve(shard: Shard, command: str, arg: Any) -> tuple:
    """Run one command on a shard (in a worker or a Ray actor): ``("ok", result)``, or
    ``("error", game, action, type name, message, traceback)`` for :func:`_failure`, so that an
    error travels as plain data and the caller raises it once every shard has answered."""
    try:
        if command == "advance":
            return ("ok", shard.advance(arg))
        if command == "step":
            return ("ok", shard.step(arg))
        if command == "reset":
            return ("ok", shard.reset(arg))
        if command == "records":
            return ("ok", shard.records())
        if command == "state":
            return ("ok", shard.state())
        if command == "restore":
            return ("ok", shard.restore(arg))
        raise ValueError(f"unknown command {command!r}")
    except _GameFailure as f:
        return error_reply(f.error, f.game, f.action)
    except Exception as e:
        return error_reply(e)


def error_reply(error: BaseException, game: int | None = None,
                 action: int | None = None) -> tuple:
    """An error as a shard's reply: plain data (the traceback as text), since the exception
    itself may not survive the trip to the main process."""
    return ("error", game, action, type(error).__name__, str(error),
            "".join(traceback.format_exception(error)))


def _failure(game: int | None, action: int | None, kind: str, message: str,
             trace: str, illegal: type[Exception] = IllegalActionError) -> Exception:
    """The exception the main process raises for an error in a game: an illegal action stays an
    IllegalActionError (``illegal``: the game's class, :func:`illegal_action_error`); anything
    else is a VectorGamesError with the worker's traceback."""
    where = f"game {game}: action {action}: " if game is not None else ""
    if kind == illegal.__name__:
        return illegal(f"{where}{message}")
    worker = f"\n--- in the worker ---\n{trace}" if trace else ""
    return VectorGamesError(f"{where}{kind}: {message}{worker}")


_Games = TypeVar("_Games", bound="LockstepGames")


class LockstepGames:
    """What every backend of the batched API shares: the checked options and sizes, the seed
    streams, the action check, the error protocol and the batch built from ``_buffers`` (the main
    process's copy of every game's rows). A backend builds its shards and implements
    ``_reset_games``, ``_step_games``, ``_records``, ``_states``, ``_restore_games``, ``_stop``
    and ``_restart`` (a dead worker's shard given a fresh one); one mechanism, so
    that the backends cannot drift apart (their batches are compared in the tests)."""

    _buffers: Buffers
    #: What steps one shard, for messages (``worker 1 (games 4..7) died``).
    _WORKER = "worker"
    #: How a shard's worker that died while it had a command ended the call, for messages.
    _MID_CALL = "during a call (the other {}s' games may have moved)"
    #: ``(first, end)`` of each shard's games, in shard order (contiguous, ``end`` exclusive).
    _ranges: list[tuple[int, int]]

    def __init__(self, num_games: int, num_players: int | None,
                 seeds: int | Sequence[int] | None, num_workers: int,
                 env_options: dict[str, Any], copy: bool = True, game: str = "got"):
        if not isinstance(copy, bool):
            raise ValueError(f"copy must be True or False, got {copy!r}")
        self.copy = copy
        if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
            raise ValueError(f"num_games must be a positive integer, got {num_games!r}")
        if isinstance(num_workers, bool) or not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError(f"num_workers must be a non-negative integer, got {num_workers!r}")
        self.num_games = num_games
        self.game = game
        self._rules = registry.get(game)  # KeyError for a game the registry does not know
        self._illegal = illegal_action_error(game)
        # a bad option raises here (AGoT: OptionError); None players: the game's default
        players = {} if num_players is None else {"num_players": num_players}
        probe = make_env(game, **env_options, **players)
        self.possible_agents: list[str] = list(probe.possible_agents)
        self.num_players = len(self.possible_agents)
        self.options = {**env_options, "num_players": self.num_players}
        seat = self.possible_agents[0]
        #: the game's codec and encoder where its env shows them (AGoT's, a KitEnv's)
        self.codec: Any = getattr(probe, "codec", None)
        self.encoder: Any = getattr(probe, "encoder", None)
        self._probe = probe  # builds the acting houses' infos from the shards' numbers
        self.observation_size = int(probe.observation_space(seat)["observation"].shape[0])
        self.action_size = int(probe.action_space(seat).n)
        self._kinds: type | None | bool = False  # _decision_name's kinds, looked up on first use
        self._seeds = self._first_seeds(seeds) if seeds is not None else None
        # Every game's place in its seed stream (first seed, games finished since), kept here
        # rather than only in the shards, so that a shard started afresh carries on from it.
        self._stream_first: list[int] = []
        self._episodes: list[int] = []
        self._started = False
        self._broken = False
        self._closed = False
        self._dead: set[int] = set()  # shards whose worker died, restarted by reset/restore
        self._lost: str | None = None  # why, for every call until then (VectorGamesError)
        self._infos: list[dict] = [{} for _ in range(num_games)]
        self.num_workers = min(num_workers, num_games)

    @property
    def _shape(self) -> tuple[int, int, int, int]:
        """The ``Buffers`` shape of the whole batch."""
        return (self.num_games, self.num_players, self.observation_size, self.action_size)

    @staticmethod
    def _split(num_games: int, shards: int) -> list[tuple[int, int]]:
        """``shards`` contiguous ranges of games as equal as can be (``end`` exclusive)."""
        bounds = np.linspace(0, num_games, shards + 1).round().astype(int)
        return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]

    # -- API ------------------------------------------------------------------------------------
    def reset(self, seeds: int | Sequence[int] | None = None) -> Batch:
        """Start a new game in every slot and return the first batch. ``seeds`` as in the
        constructor; None continues each slot's seed stream (the first reset uses the
        constructor's seeds, or fresh entropy). A shard whose worker died is given a fresh one
        first, which carries on from the seed streams as the batch last showed them."""
        self._check_open()
        if seeds is not None:
            first, episodes = self._first_seeds(seeds), [0] * self.num_games
        elif not self._started:
            first = self._seeds
            if first is None:
                base = int(np.random.SeedSequence().entropy % (1 << 62))
                first = [base + g for g in range(self.num_games)]
            episodes = [0] * self.num_games
        else:
            first, episodes = self._stream_first, [k + 1 for k in self._episodes]
        self._restart_dead()
        infos = self._reset_games([(first[a:b], episodes[a:b]) for a, b in self._ranges])
        self._started, self._broken = True, False
        self._stream_first, self._episodes = list(first), episodes
        self._infos = infos
        return self._batch(infos, [None] * self.num_games)

    def step(self, actions: Sequence[int] | np.ndarray) -> Batch:
        """Play ``actions[g]`` (an action index the current ``mask[g]`` allows) in every game.
        A bad action raises :class:`IllegalActionError` naming the game, and no game moves."""
        self._check_ready()
        self._buffers.actions[:] = self._checked(actions)
        return self._step_unchecked()

    def records(self) -> list[Any]:
        """The record of every game now in progress (slot order)."""
        self._check_ready()
        return self._records()

    def state(self) -> dict[str, Any]:
        """Every game in progress as data (records and seed streams), for :meth:`restore`: a
        trainer's checkpoint holds it, so that a resumed run plays on the very same games."""
        self._check_ready()
        parts = self._states()
        return {"num_games": self.num_games, "options": dict(self.options),
                **{k: [x for part in parts for x in part[k]]
                   for k in ("first_seeds", "episodes", "records")}}

    def restore(self, state: dict[str, Any]) -> Batch:
        """Put every slot back where :meth:`state` found it (its game replayed from its record,
        its seed stream where it was) and return the batch to continue from. The number of
        games and the env options must be the ones of the state (any number of workers). A
        shard whose worker died is given a fresh one first."""
        self._check_open()
        if not isinstance(state, dict) or state.get("num_games") != self.num_games \
                or state.get("options") != self.options:
            found = (state.get("num_games"), state.get("options")) if isinstance(
                state, dict) else type(state).__name__
            raise ValueError(f"a state of {self.num_games} games with options {self.options} "
                             f"is needed to restore these games, got {found}")
        parts = [{k: state[k][a:b] for k in ("first_seeds", "episodes", "records")}
                 for a, b in self._ranges]
        self._restart_dead()
        infos = self._restore_games(parts)
        self._started, self._broken = True, False
        self._stream_first, self._episodes = list(state["first_seeds"]), list(state["episodes"])
        self._infos = infos
        return self._batch(infos, [None] * self.num_games)

    def close(self) -> None:
        """Stop the shards (idempotent); every later call but ``close`` says the games are
        closed, in-process ones too (which could otherwise play on)."""
        self._closed = True
        self._stop()

    def __enter__(self: _Games) -> _Games:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown, or a constructor that failed half-way
            pass

    # -- a backend's part -----------------------------------------------------------------------
    def _stop(self) -> None:
        """Stop the shards' workers (idempotent; also after a constructor that failed)."""
        raise NotImplementedError

    def _restart(self, shards: list[int]) -> None:
        """Replace these shards' dead workers with fresh ones, their games built (not reset)."""
        raise NotImplementedError

    def _dead_shards(self) -> set[int]:
        """The shards whose worker is known to have died."""
        return set(self._dead)

    def _reset_games(self, streams: list[tuple[list[int], list[int]]]) -> list[dict]:
        """Reset every game (each shard's part of the seed streams, :meth:`Shard.reset`),
        write the rows into ``_buffers``; the acting houses' infos."""
        raise NotImplementedError

    def _step_games(self) -> tuple[list[dict], list[Finished | None]]:
        """Step every game with ``_buffers.actions``, write the rows into ``_buffers``; the
        acting houses' infos and the finished games."""
        raise NotImplementedError

    def _records(self) -> list[Any]:
        raise NotImplementedError

    def _states(self) -> list[dict[str, list]]:
        """Each shard's :meth:`Shard.state`, in shard order."""
        raise NotImplementedError

    def _restore_games(self, parts: list[dict[str, list]]) -> list[dict]:
        """Each shard restored from its part (:meth:`Shard.restore`), rows written into
        ``_buffers``; the acting houses' infos."""
        raise NotImplementedError

    # -- internals ------------------------------------------------------------------------------
    def _first_seeds(self, seeds: int | Sequence[int]) -> list[int]:
        if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, (bool, np.bool_)):
            return [int(seeds) + g for g in range(self.num_games)]
        seeds = list(seeds)
        if len(seeds) != self.num_games or not all(
                isinstance(s, (int, np.integer)) and not isinstance(s, (bool, np.bool_))
                for s in seeds):
            raise ValueError(f"seeds must be an integer or {self.num_games} integers (one per "
                             f"game), got {seeds!r}")
        return [int(s) for s in seeds]

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"this {type(self).__name__} is closed (close() was called); "
                               f"make a new one to play on")

    def _check_ready(self) -> None:
        self._check_open()
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self._lost is not None:  # the same error for every call until reset or restore
            raise VectorGamesError(self._lost)
        if self._broken:
            raise RuntimeError("a game failed during the last step; call reset() to go on")

    def _restart_dead(self) -> None:
        """Give every shard whose worker died a fresh one (for reset and restore, which set
        every game anew), so that the batch is whole again."""
        dead = sorted(self._dead_shards())
        if dead:
            self._restart(dead)
        self._dead.clear()
        self._lost = None

    def _lost_reply(self, shard: int, why: str) -> tuple:
        """The reply that stands for a shard whose worker died (:meth:`_collect` raises it)."""
        first, end = self._ranges[shard]
        return ("lost", shard, f"{self._WORKER} {shard} (games {first}..{end - 1}) {why}")

    def _checked(self, actions: Sequence[int] | np.ndarray) -> np.ndarray:
        """The actions as int64[G], or IllegalActionError naming the first bad game: integers
        only (as the AEC env), inside the action space, allowed by that game's mask."""
        a = np.asarray(actions)
        if a.shape != (self.num_games,):
            raise self._illegal(f"actions must have shape ({self.num_games},), one per game; "
                                     f"got shape {a.shape}")
        if a.dtype.kind not in "iu":
            raise self._illegal(f"actions must be integers (action indices), got dtype "
                                     f"{a.dtype}")
        outside = np.flatnonzero((a < 0) | (a >= self.action_size))
        if len(outside):
            g = int(outside[0])
            raise self._illegal(
                f"game {g}: action {int(a[g])} for agent {self._agent_of(g)} is outside the "
                f"action space: expected an integer in 0..{self.action_size - 1}")
        a = a.astype(np.int64)
        illegal = np.flatnonzero(self._buffers.mask[np.arange(self.num_games), a] == 0)
        if len(illegal):
            g = int(illegal[0])
            raise self._illegal(
                f"game {g}: action {int(a[g])} ({self._action_name(int(a[g]))}) is not legal "
                f"for {self._decision_name(self._infos[g])} of {self._agent_of(g)}; the action "
                f"mask lists the legal ones")
        return a

    def _action_name(self, action: int) -> str:
        """The env's name of an action index (``action_name``), for messages."""
        name = getattr(self._probe, "action_name", None)
        return name(action) if name is not None else str(action)

    def _decision_name(self, info: dict) -> str:
        """The pending decision as the AEC env names it in its IllegalActionError (its kind's
        ``label``, e.g. AGoT's ``D-20 PLACE_ORDERS``), from the acting house's infos: a
        number in a numeric format (a kind of the game's numbered kinds, :meth:`_kind_type`),
        already the label otherwise."""
        decision = info.get("decision")
        kinds = self._kind_type() if isinstance(decision, int) else None
        if kinds is not None:
            try:
                return kinds(decision).label
            except ValueError:  # not a kind (0: none pending): shown as it is
                pass
        return str(decision)

    def _kind_type(self) -> type | None:
        """The class of the game's decision kinds when they are numbered (AGoT's
        ``DecisionKind``, an IntEnum), through the protocol: the kind of the pending decision
        of a new game (once, on the first message that needs it); None when they are not."""
        if self._kinds is False:
            env = make_env(self.game, **self.options)
            env.reset(seed=0)
            d = self._rules.pending(env.game)
            kinds = type(d.kind) if d is not None else None
            self._kinds = kinds if kinds is not None and issubclass(kinds, int) else None
        return self._kinds  # type: ignore[return-value]

    def _agent_of(self, g: int) -> str:
        return self.possible_agents[int(self._buffers.agent[g])]

    def _step_unchecked(self) -> Batch:
        """Step every game with the actions already in the buffer (checked by ``step``)."""
        infos, finished = self._step_games()
        self._infos = infos
        episodes = self._episodes
        for f in finished:
            if f is not None:
                episodes[f.game] += 1
        return self._batch(infos, finished)

    def _collect(self, replies: list[tuple]) -> list:
        """The results of one reply per shard (:func:`serve`'s form, or :meth:`_lost_reply`'s
        for a shard whose worker died); the first error is raised once all are in (so that
        every shard has answered and stays in step), and marks the batch broken until the next
        reset. A dead worker's error wins, and every call until reset or restore repeats it:
        its games are gone, and the other shards' may have moved."""
        results, error, lost = [], None, []
        for reply in replies:
            if reply[0] == "ok":
                results.append(reply[1])
            elif reply[0] == "lost":
                self._dead.add(reply[1])
                lost.append(reply[2])
            else:
                error = error or _failure(*reply[1:], illegal=self._illegal)
        if lost:
            self._lost = (f"{'; '.join(lost)}. The batch is broken: call reset() or restore(), "
                          f"which start a fresh {self._WORKER} for every dead one")
            error = VectorGamesError(self._lost)
        if error is not None:
            self._broken = True
            raise error
        return results

    def _batch(self, infos: list[dict], finished: list[Finished | None]) -> Batch:
        b = self._buffers
        rows = [b.agent, b.obs, b.mask, b.rewards, b.done, b.truncated]
        if self.copy:
            rows = [row.copy() for row in rows]
        else:  # the buffers themselves, read-only: the next step writes them again
            rows = [row.view() for row in rows]
            for row in rows:
                row.flags.writeable = False
        agent, obs, mask, rewards, done, truncated = rows
        return Batch(agent=agent, obs=obs, mask=mask, rewards=rewards, done=done,
                     truncated=truncated, infos=list(infos), finished=list(finished))


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
    :param env_options: any option of the game's env (AGoT's :class:`got_env.raw_env`:
        ``max_rounds``, ``reward``, ``max_steps``, ...), the same for every game; checked here,
        before a worker starts.
    """

    #: The worker processes' names: ``<this>-vector-<first game>`` (AGoT's as they always were).
    _PROCESS = "got_env"

    def __init__(self, num_games: int, num_players: int | None = None,
                 seeds: int | Sequence[int] | None = None, num_workers: int = 0,
                 start_method: str = "spawn", copy: bool = True, spin_s: float = 0.005,
                 game: str = "got", **env_options: Any):
        if isinstance(spin_s, bool) or not isinstance(spin_s, int | float) \
                or not math.isfinite(spin_s) or spin_s < 0:
            raise ValueError(f"spin_s must be a non-negative number of seconds, got {spin_s!r}")
        self.spin_s = float(spin_s)
        self._conns: list[Any] = []
        self._procs: list[Any] = []
        self._shard: Shard | None = None
        self.start_method = start_method
        super().__init__(num_games, num_players, seeds, num_workers, env_options, copy, game)
        if game != "got":
            self._PROCESS = game
        #: whether the rows carry the acting agents' infos as numbers (``Shard.numeric_infos``)
        self._numeric_infos = hasattr(self._probe, "_turn_info")
        if self.num_workers == 0:
            self._buffers = Buffers(*self._shape)
            self._ranges = [(0, num_games)]
            self._shard = Shard(0, num_games, num_games, self.options, self._buffers,
                                game=self.game)
            return
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
                                 name=f"{self._PROCESS}-vector-{first}",
                                 args=(child, first, end - first, self.num_games, self.options,
                                       self._buffers, self.spin_s, self.game))
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
            return self._shard.reset(streams[0])
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
        from .vector_ray import RayVectorGames

        return RayVectorGames(**kwargs)
    raise ValueError(f"backend must be one of {list(BACKENDS)}, got {backend!r}")
