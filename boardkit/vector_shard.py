"""The shards of the batched API (:mod:`boardkit.vector`): the games one worker (or the main
process, or a Ray actor) steps, the per-game buffers they write, what a step returns
(:class:`Batch`, :class:`Finished`) and the error protocol a shard answers in. Split from
``boardkit.vector``, which re-exports every name here."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import games as registry
from .decision import IllegalActionError
from .envs import make_env, record_of

__all__ = ["AgentFactory", "Batch", "Buffers", "Finished", "Shard",
           "VectorGamesError", "error_reply", "illegal_action_error", "observe_into",
           "rebuilds_infos", "replay", "seat_seed", "serve"]

#: Builds a worker-side seat's agent: ``factory(spec, env=env, seed=seed)`` (keywords, as
#: ``agents.make_agent`` takes them). It must pickle (a module-level function) to reach a
#: worker process; boardkit never imports ``agents`` itself (lint-imports forbids it).
AgentFactory = Callable[..., Any]


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent in worker-side seat ``seat`` (an index into ``possible_agents``)
    of the game whose seed is ``game_seed``: a function of the two only, so that a batch's
    worker-side play is reproducible and the same agents can be built outside it (tests compare
    a batch with the AEC loop this way). A ``SeedSequence`` keeps the seats' streams apart."""
    return int(np.random.SeedSequence([int(game_seed) % (1 << 63), int(seat)])
               .generate_state(1, np.uint32)[0])



def illegal_action_error(game: str) -> type[Exception]:
    """The exception class the batch raises for an illegal action in ``game``: the game's own
    ``illegal_action_error`` attribute, else the kit's
    :class:`~boardkit.decision.IllegalActionError` (every shipped game's: AGoT's
    ``got_env.engine.IllegalActionError`` is the kit's class)."""
    own = getattr(registry.get(game), "illegal_action_error", None)
    return own if own is not None else IllegalActionError


def rebuilds_infos(env: Any) -> bool:
    """Whether ``env`` rebuilds an acting agent's infos from two numbers, the pending decision's
    kind and its number of options (:meth:`boardkit.aec.KitEnv.turn_info`): an env on the kit
    whose game numbers its decision kinds (``numbered_kinds``, AGoT's). Then a worker sends
    those numbers through shared memory instead of the infos through its pipe."""
    return bool(getattr(env, "numbered_kinds", False)) and callable(getattr(env, "turn_info",
                                                                            None))


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
    record's own ``replay()`` (:class:`boardkit.records.GameRecord`, every kit env's, which
    also checks its content, outcome and digest), else a mapping of seed and actions: reset
    with its seed, then every action (an illegal one raises, as the env's ``step`` does)."""
    own = getattr(record, "replay", None)
    if own is not None:
        return own()
    env = make_env(game, **options)
    env.reset(seed=record["seed"])
    for action in record["actions"]:
        env.step(int(action))
    return env


def _seed_and_actions(record: Any) -> tuple[int, list[int]]:
    """A record's seed and actions, whether a :class:`boardkit.records.GameRecord` or a
    mapping."""
    if isinstance(record, dict):
        return int(record["seed"]), [int(a) for a in record["actions"]]
    return int(record.seed), [int(a) for a in record.actions]


class VectorGamesError(RuntimeError):
    """An error inside one game of a batch (other than an illegal action), with the game index,
    the action it was given and the worker's traceback, so that it can be replayed alone; or a
    worker (a Ray actor) that died, named with its exit code and the games it held, repeated
    by every call until ``reset`` or ``restore`` starts a fresh one."""


@dataclass
class Finished:
    """A game that ended (or was truncated) on this step, as it stood at its end.

    :ivar game: its index in the batch.
    :ivar record: :func:`boardkit.envs.record_of` the env: what replays it (a
        :class:`boardkit.records.GameRecord`: game, options, seed, actions, outcome, final
        digest and check).
    :ivar infos: every house's final infos (AGoT: ``outcome``, ``winner``, ``ranking``, and
        ``draw`` in a ruleset whose games can be drawn, ``ruleset="1e"``), by agent name.
    :ivar obs: float32 ``[H, F]``: ``observe(house)["observation"]`` of every house after the
        end, in ``possible_agents`` order (what ``last()`` shows each house at its dead step).
    :ivar rewards: float32 ``[H]``: the final rewards (the batch's ``rewards[game]``).
    :ivar truncated: True when ``max_steps`` cut the game short (no rewards are paid then).
    :ivar round: the game's :meth:`~boardkit.protocol.Game.round` at its end.
    :ivar standing: float ``[H]``: the game's :meth:`~boardkit.protocol.Game.standing` at its
        end, in ``possible_agents`` order (what a truncated game's learner may count it as).
    """

    game: int
    record: Any
    infos: dict[str, dict]
    obs: np.ndarray
    rewards: np.ndarray
    truncated: bool
    round: int = 0
    standing: np.ndarray | None = None


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
    #: int64[G]: decisions the worker-side seats played in each game during this call (0
    #: without ``worker_seats``), for throughput accounting: every one is in the records
    seat_moves: np.ndarray
    #: int64[G]: the round (:meth:`boardkit.protocol.Game.round`) of the state the acting
    #: house decides in, for a learner that discounts per round
    round: np.ndarray | None = None


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
                  "seat_moves": (np.int64, (num_games,)),
                  "round": (np.int64, (num_games,)),
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
    ROWS = ("obs", "mask", "agent", "rewards", "done", "truncated", "seat_moves", "round")

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
    :param game: the registry name of the game (required).
    :param seats: per game of the shard, the worker-side seats (seat index -> agent spec),
        played here by ``agent_factory``'s agents between the learner's decisions
        (docs/vector.md, "Worker-side seats"); None: the learner plays every seat."""

    def __init__(self, first: int, count: int, num_games: int, options: dict[str, Any],
                 buffers: Buffers, row: int | None = None, game: str | None = None,
                 seats: list[dict[int, Any]] | None = None,
                 agent_factory: AgentFactory | None = None):
        self.first, self.num_games = first, num_games
        self.game, self.options = game, dict(options)
        self.envs = [make_env(game, **options) for _ in range(count)]
        self._rules = registry.get(game)
        #: the env rebuilds the acting agent's infos from two numbers (``turn_info``): the
        #: rows carry them, else the infos travel themselves (:meth:`step`)
        self.numeric_infos = rebuilds_infos(self.envs[0])
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
        self.seat_moves = b.seat_moves[rows]
        self.round = b.round[rows]
        self.seats: list[dict[int, Any]] = [dict(row) for row in seats] if seats is not None \
            else [{} for _ in range(count)]
        if any(self.seats) and agent_factory is None:
            raise ValueError("worker seats need an agent_factory(spec, env=, seed=)")
        self.agent_factory = agent_factory
        #: per game, the agents of its worker-side seats, new for every game (seat_seed)
        self.seated: list[dict[int, Any]] = [{} for _ in range(count)]
        #: per game, the worker-side seats of the slot's next game (:meth:`seat_next`), taken
        #: up when that game starts; None: the next game keeps this one's seats
        self.upcoming: list[dict[int, Any] | None] = [None] * count

    def seat_next(self, rows: dict[int, dict[int, Any]]) -> None:
        """The worker-side seats (seat index -> agent spec) of the next game of each slot in
        ``rows`` (keyed by the shard's own index of the game): a league draws each game's
        opponents, and a game ends inside a step, so its successor's seats must be here
        before it ends."""
        if any(rows.values()) and self.agent_factory is None:
            raise ValueError("worker seats need an agent_factory(spec, env=, seed=)")
        for i, row in rows.items():
            self.upcoming[int(i)] = dict(row)

    def _take_upcoming(self, i: int) -> None:
        """Game ``i``'s new game starts: its announced seats become its seats."""
        row = self.upcoming[i]
        if row is not None:
            self.seats[i], self.upcoming[i] = row, None

    def reset(self, stream: tuple[list[int], list[int]]) -> list[dict]:
        """Start every game at its place in its seed stream, ``(first seeds, episodes)``: the
        main process keeps every game's place and sends it, so that a shard started afresh
        (after its worker died) carries on where the lost one was."""
        first, episodes = stream
        self.first_seeds, self.episodes = list(first), list(episodes)
        self.rewards[:] = 0
        self.done[:] = False
        self.truncated[:] = False
        self.seat_moves[:] = 0
        infos = []
        for i, env in enumerate(self.envs):
            env.reset(seed=self._seed(i))
            self._take_upcoming(i)
            self._seat_agents(i, env)
            try:
                if self._play_seats(i, env) is not None:
                    raise VectorGamesError(
                        f"game {self.first + i} ended before any decision of a learner seat: "
                        f"worker_seats must leave the learner a seat that acts")
            except _GameFailure:
                raise
            except Exception as e:
                raise _GameFailure(self.first + i, -1, e) from e
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
        self.seat_moves[:] = 0
        for i, (env, action) in enumerate(zip(self.envs, self.actions.tolist(), strict=True)):
            try:
                env.step(action)
                ended = self._ended(i, env)
                if self.seated[i] or self.seats[i]:
                    later = self._play_seats(i, env)
                    if later is not None and ended is not None:
                        raise VectorGamesError(
                            f"game {self.first + i} ended, and the next one too before any "
                            f"decision of a learner seat: worker_seats must leave the learner "
                            f"a seat that acts")
                    ended = ended or later
                if ended is not None:
                    done[i], cut[i] = True, ended.truncated
                    finished.append(ended)
                self._write_rows(i, env)
            except _GameFailure:
                raise
            except Exception as e:
                raise _GameFailure(self.first + i, action, e) from e
        self.done[:] = done
        self.truncated[:] = cut
        return finished

    def _ended(self, i: int, env: Any) -> Finished | None:
        """If game ``i`` just ended (or was cut short): its rewards row written, the game
        recorded, the slot's next game started (its worker-side agents new), and what ended."""
        sel = env.agent_selection
        truncated = env.truncations[sel]
        if not (env.terminations[sel] or truncated):
            return None
        row, index = self.rewards[i], self._index
        for a, r in env.rewards.items():
            row[index[a]] = r
        finished = self._finish(i, env, truncated)
        self.episodes[i] += 1
        env.reset(seed=self._seed(i))
        self._take_upcoming(i)
        self._seat_agents(i, env)
        return finished

    def _seat_agents(self, i: int, env: Any) -> None:
        """New agents for game ``i``'s worker-side seats, seeded by :func:`seat_seed` from the
        game's seed: a new agent per game is its reset, whatever the agent keeps between
        games, so that a game's play depends on its seed alone."""
        seats = self.seats[i]
        if not seats:
            self.seated[i] = {}
            return
        seed, make = self._seed(i), self.agent_factory
        assert make is not None
        self.seated[i] = {seat: make(spec, env=env, seed=seat_seed(seed, seat))
                          for seat, spec in seats.items()}

    def _play_seats(self, i: int, env: Any) -> Finished | None:
        """Play game ``i``'s worker-side seats (each agent's ``act`` on the AEC env's
        observation, mask and infos, as the AEC loop asks it) until a learner seat is to act;
        counted in ``seat_moves``. A game that ends meanwhile is recorded and the next started
        (:meth:`_ended`); then its first decisions are played too, and that game returned."""
        seated, index, moves = self.seated[i], self._index, 0
        finished = None
        while True:
            sel = env.agent_selection
            agent = seated.get(index[sel])
            if agent is None:
                break
            seen = env.observe(sel)
            action = int(agent.act(seen["observation"], seen["action_mask"], env.infos[sel]))
            try:
                env.step(action)
            except Exception as e:
                raise _GameFailure(self.first + i, action, e) from e
            moves += 1
            ended = self._ended(i, env)
            if ended is not None:
                if finished is not None:
                    raise VectorGamesError(
                        f"game {self.first + i} ended twice in one step before any decision "
                        f"of a learner seat: worker_seats must leave the learner a seat that "
                        f"acts")
                finished, seated = ended, self.seated[i]
        self.seat_moves[i] += moves
        return finished

    def records(self) -> list[Any]:
        return [record_of(env) for env in self.envs]

    def state(self) -> dict[str, list]:
        """What :meth:`restore` needs to carry on exactly: each game's record (options, seed,
        actions), its place in its seed stream, and its worker-side seats, this game's and the
        next one's (:meth:`seat_next`)."""
        return {"first_seeds": list(self.first_seeds), "episodes": list(self.episodes),
                "records": self.records(), "seats": [dict(row) for row in self.seats],
                "upcoming": [None if row is None else dict(row) for row in self.upcoming]}

    def restore(self, state: dict[str, list]) -> list[dict]:
        """Replay every game of a :meth:`state` (:func:`replay`; an AGoT record that does not
        replay raises ``boardkit.records.RecordError``) and write its rows, as after the step it was
        taken at (rewards and ends of that step are not kept: a state is taken between
        steps).

        A game with worker-side seats is replayed with its agents built anew (as at its
        start) and asked at each of their decisions, so that whatever they keep (a generator,
        a plan) is where it was; an agent that now chooses another action than the record's
        raises (it is not the agent that played it: another spec, or not reproducible from its
        seed)."""
        count = len(self.envs)
        self.first_seeds, self.episodes = list(state["first_seeds"]), list(state["episodes"])
        self.seats = [dict(row) for row in state.get("seats") or [{}] * count]
        self.upcoming = list(state.get("upcoming") or [None] * count)
        if any(self.seats) and self.agent_factory is None:
            raise ValueError("worker seats need an agent_factory(spec, env=, seed=)")
        envs = [self._replay_with_seats(i, record) if self.seats[i]
                else replay(self.game, record, self.options)
                for i, record in enumerate(state["records"])]
        self.envs = envs
        self.rewards[:] = 0
        self.done[:] = False
        self.truncated[:] = False
        return [self._write(i, env) for i, env in enumerate(envs)]

    def _seed(self, i: int) -> int:
        return self.first_seeds[i] + self.episodes[i] * self.num_games

    def _replay_with_seats(self, i: int, record: Any) -> Any:
        """Game ``i`` played again from ``record`` (its seed and actions), its worker-side
        agents built for it as at its start and asked at their own decisions."""
        seed, actions = _seed_and_actions(record)
        if seed != self._seed(i):
            raise ValueError(f"game {self.first + i}: the record's seed {seed} is not the "
                             f"slot's seed {self._seed(i)} at episode {self.episodes[i]}")
        env = make_env(self.game, **self.options)
        env.reset(seed=seed)
        self._seat_agents(i, env)
        seated, index = self.seated[i], self._index
        for step, action in enumerate(actions):
            sel = env.agent_selection
            agent = seated.get(index[sel])
            if agent is not None:
                seen = env.observe(sel)
                chosen = int(agent.act(seen["observation"], seen["action_mask"],
                                       env.infos[sel]))
                if chosen != int(action):
                    raise ValueError(
                        f"game {self.first + i}: its worker-side agent at seat {index[sel]} "
                        f"chose {chosen} at step {step}, the record {int(action)}: restore "
                        f"needs the agents that played it, reproducible from their seeds")
            env.step(int(action))
        return env

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
        self.round[i] = self._rules.round(env.game)
        if self.numeric_infos:
            d = self._rules.pending(env.game)
            self.decision[i], self.num_legal[i] = (int(d.kind), len(d.options)) if d else (0, 0)

    def _finish(self, i: int, env: Any, truncated: bool) -> Finished:
        return Finished(
            game=self.first + i, record=record_of(env),
            infos={a: dict(env.infos[a]) for a in self.agents},
            obs=np.stack([env.observe(a)["observation"] for a in self.agents]),
            rewards=self.rewards[i].copy(), truncated=bool(truncated),
            round=int(self._rules.round(env.game)),
            standing=self._standing(env.game))

    def _standing(self, state: Any) -> np.ndarray:
        """float64[H]: the game's standing of each house, in ``possible_agents`` order."""
        standing = np.asarray(self._rules.standing(state), dtype=np.float64)
        return standing[[self._rules.player_index(state, a) for a in self.agents]]


def _copy_info(env: Any) -> dict:
    """The acting agent's infos, a copy (lists too) that the env's next step cannot change."""
    return {k: list(v) if isinstance(v, list) else v
            for k, v in env.infos[env.agent_selection].items()}


def _acting_infos(env: Any, decision: np.ndarray, num_legal: np.ndarray) -> list[dict]:
    """Every game's acting house's infos from the numbers a shard wrote (``env``: any env of
    the batch's options): what ``env.infos[agent]`` holds for the house to act, built by the
    env's own :meth:`~boardkit.aec.KitEnv.turn_info`, so that the two cannot differ."""
    turn = env.turn_info
    return [turn(k, n) for k, n in zip(decision.tolist(), num_legal.tolist(), strict=True)]


class _GameFailure(Exception):
    """Carries an exception raised while stepping one game, with its index and action."""

    def __init__(self, game: int, action: int, error: BaseException):
        super().__init__(game, action, error)
        self.game, self.action, self.error = game, action, error


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
        if command == "seat_next":
            return ("ok", shard.seat_next(arg))
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
