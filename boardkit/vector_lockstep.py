"""What every backend of the batched API shares (:class:`LockstepGames`): the checked options
and sizes, the seed streams, the action check, the error protocol and the batch. Split from
``boardkit.vector`` (which re-exports it); the backends are :class:`boardkit.vector.VectorGames`
and :class:`boardkit.vector_ray.RayVectorGames`."""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from . import games as registry
from .envs import make_env
from .vector_shard import (
    AgentFactory,
    Batch,
    Buffers,
    Finished,
    VectorGamesError,
    _failure,
    illegal_action_error,
)

__all__ = ["MAX_SEED", "LockstepGames", "WorkerSeats"]


_Games = TypeVar("_Games", bound="LockstepGames")

#: The largest first seed of a game (the range the envs draw their own seeds from).
MAX_SEED = 2**63 - 1

#: ``worker_seats``: one ``{seat: agent spec}`` for every game, one per game, or None; a seat
#: is an index into ``possible_agents`` or an agent name.
WorkerSeats = Mapping[Any, Any] | Sequence[Mapping[Any, Any] | None] | None


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
                 env_options: dict[str, Any], copy: bool = True, game: str | None = None,
                 worker_seats: WorkerSeats = None, agent_factory: AgentFactory | None = None):
        if not isinstance(copy, bool):
            raise ValueError(f"copy must be True or False, got {copy!r}")
        self.copy = copy
        if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
            raise ValueError(f"num_games must be a positive integer, got {num_games!r}")
        if isinstance(num_workers, bool) or not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError(f"num_workers must be a non-negative integer, got {num_workers!r}")
        self.num_games = num_games
        # refused before any env or worker is made (a game's seed stream must stay in range)
        self._seeds = self._first_seeds(seeds) if seeds is not None else None
        if not isinstance(game, str):
            raise TypeError(f"the batched games need game=, a registry name (boardkit.games), "
                            f"got {game!r}")
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
        #: per game, its worker-side seats (seat index -> agent spec): every other seat is the
        #: learner's, and every row of a batch is a learner seat's decision
        self.worker_seats: list[dict[int, Any]] = self._seat_table(worker_seats)
        if any(self.worker_seats) and not callable(agent_factory):
            raise ValueError(f"worker_seats need an agent_factory(spec, env=, seed=) that builds "
                             f"their agents (e.g. agents.make_agent), got {agent_factory!r}")
        self.agent_factory = agent_factory
        #: per game, the worker-side seats of the slot's next game (:meth:`seat_next`; None:
        #: the next game keeps this one's), and the games whose announcement the shards lack
        self._next_seats: list[dict[int, Any] | None] = [None] * num_games
        self._unsent: set[int] = set()

    def _seat_table(self, seats: WorkerSeats) -> list[dict[int, Any]]:
        """``worker_seats`` as one ``{seat index: spec}`` per game: one mapping for every game
        or a sequence of ``num_games`` (None or empty: no worker seat there); a seat is named
        by its index into ``possible_agents`` or by its agent name. A game must leave the
        learner at least one seat, or it would never stop for the learner."""
        if seats is None:
            return [{} for _ in range(self.num_games)]
        if isinstance(seats, Mapping):
            per_game: list[Any] = [seats] * self.num_games
        else:
            per_game = list(seats)
            if len(per_game) != self.num_games:
                raise ValueError(f"worker_seats must be one mapping (seat -> agent spec) or "
                                 f"{self.num_games} (one per game), got {len(per_game)}")
        return [self._seat_row(g, game_seats) for g, game_seats in enumerate(per_game)]

    def _seat_row(self, g: int, game_seats: Any) -> dict[int, Any]:
        """Game ``g``'s worker-side seats as ``{seat index: spec}`` (see :meth:`_seat_table`)."""
        if not game_seats:
            return {}
        if not isinstance(game_seats, Mapping):
            raise ValueError(f"worker_seats of game {g} must map seats to agent specs, got "
                             f"{game_seats!r}")
        names = {a: i for i, a in enumerate(self.possible_agents)}
        row: dict[int, Any] = {}
        for seat, spec in game_seats.items():
            if isinstance(seat, str) and seat in names:
                index = names[seat]
            elif isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) \
                    and 0 <= int(seat) < self.num_players:
                index = int(seat)
            else:
                raise ValueError(f"worker_seats of game {g}: {seat!r} is no seat of "
                                 f"{self.possible_agents} (an index or an agent name)")
            row[index] = spec
        if len(row) == self.num_players:
            raise ValueError(f"worker_seats of game {g} take every seat: the learner must "
                             f"keep at least one, or the game would never stop for it")
        return row

    def seat_next(self, game: int, seats: Mapping[Any, Any] | None) -> None:
        """Announce the worker-side seats (seat -> agent spec, as in ``worker_seats``; None or
        empty: none) of slot ``game``'s next game: the one that starts when the game now in
        that slot ends (inside a step) or at the next :meth:`reset`. A league that draws each
        game's opponents announces a game's successor as soon as that game starts
        (docs/vector.md, "Worker-side seats"). Sent to the shards with the next call."""
        self._check_open()
        if isinstance(game, bool) or not isinstance(game, (int, np.integer)) \
                or not 0 <= int(game) < self.num_games:
            raise ValueError(f"seat_next: game must be a slot index in 0..{self.num_games - 1},"
                             f" got {game!r}")
        row = self._seat_row(int(game), seats)
        if row and not callable(self.agent_factory):
            raise ValueError("seat_next: worker seats need the batch's agent_factory(spec, "
                             "env=, seed=), given to the constructor")
        if row and self.num_workers:
            try:
                pickle.dumps((self.agent_factory, row))
            except Exception as e:
                raise ValueError(f"seat_next: agent_factory and the specs must pickle to reach "
                                 f"the workers: {type(e).__name__}: {e}") from e
        self._next_seats[int(game)] = row
        self._unsent.add(int(game))

    def _send_seats(self) -> None:
        """Give the shards the announcements they lack (:meth:`seat_next`)."""
        if not self._unsent:
            return
        parts = [{g - a: self._next_seats[g] for g in sorted(self._unsent) if a <= g < b}
                 for a, b in self._ranges]
        self._seat_next_games(parts)
        self._unsent.clear()

    def _seats_taken(self, games: Iterable[int]) -> None:
        """These slots started their next game: their announced seats are theirs now."""
        for g in games:
            row = self._next_seats[g]
            if row is not None:
                self.worker_seats[g], self._next_seats[g] = row, None

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
        self._send_seats()
        infos = self._reset_games([(first[a:b], episodes[a:b]) for a, b in self._ranges])
        self._seats_taken(range(self.num_games))
        self._started, self._broken = True, False
        self._stream_first, self._episodes = list(first), episodes
        self._infos = infos
        return self._batch(infos, [None] * self.num_games)

    def step(self, actions: Sequence[int] | np.ndarray) -> Batch:
        """Play ``actions[g]`` (an action index the current ``mask[g]`` allows) in every game.
        A bad action raises :class:`IllegalActionError` naming the game, and no game moves."""
        self._check_ready()
        self._buffers.actions[:] = self._checked(actions)
        self._send_seats()
        return self._step_unchecked()

    def records(self) -> list[Any]:
        """The record of every game now in progress (slot order)."""
        self._check_ready()
        return self._records()

    def state(self) -> dict[str, Any]:
        """Every game in progress as data (records and seed streams), for :meth:`restore`: a
        trainer's checkpoint holds it, so that a resumed run plays on the very same games."""
        self._check_ready()
        self._send_seats()
        parts = self._states()
        return {"num_games": self.num_games, "options": dict(self.options),
                **{k: [x for part in parts for x in part[k]]
                   for k in ("first_seeds", "episodes", "records", "seats", "upcoming")}}

    def restore(self, state: dict[str, Any]) -> Batch:
        """Put every slot back where :meth:`state` found it (its game replayed from its record,
        its seed stream where it was) and return the batch to continue from. The number of
        games and the env options must be the ones of the state (any number of workers). A
        shard whose worker died is given a fresh one first. Games with worker-side seats are
        replayed with their agents asked at their decisions (:meth:`Shard.restore`), and the
        announced seats of the next games (:meth:`seat_next`) come back too."""
        self._check_open()
        if not isinstance(state, dict) or state.get("num_games") != self.num_games \
                or state.get("options") != self.options:
            found = (state.get("num_games"), state.get("options")) if isinstance(
                state, dict) else type(state).__name__
            raise ValueError(f"a state of {self.num_games} games with options {self.options} "
                             f"is needed to restore these games, got {found}")
        seats = [self._seat_row(g, row) for g, row in enumerate(
            state.get("seats") or [{}] * self.num_games)]
        upcoming = [None if row is None else self._seat_row(g, row) for g, row in enumerate(
            state.get("upcoming") or [None] * self.num_games)]
        if (any(seats) or any(upcoming)) and not callable(self.agent_factory):
            raise ValueError("the state has worker-side seats: restore it into a batch made "
                             "with an agent_factory(spec, env=, seed=)")
        parts = [{**{k: state[k][a:b] for k in ("first_seeds", "episodes", "records")},
                  "seats": seats[a:b], "upcoming": upcoming[a:b]} for a, b in self._ranges]
        self._restart_dead()
        self._unsent.clear()
        infos = self._restore_games(parts)
        self.worker_seats, self._next_seats = seats, upcoming
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

    def _seat_next_games(self, parts: list[dict[int, dict[int, Any] | None]]) -> None:
        """Each shard's announcements (:meth:`Shard.seat_next`, keyed by its own index)."""
        self._run("seat_next", parts)

    def _states(self) -> list[dict[str, list]]:
        """Each shard's :meth:`Shard.state`, in shard order."""
        raise NotImplementedError

    def _restore_games(self, parts: list[dict[str, list]]) -> list[dict]:
        """Each shard restored from its part (:meth:`Shard.restore`), rows written into
        ``_buffers``; the acting houses' infos."""
        raise NotImplementedError

    # -- internals ------------------------------------------------------------------------------
    def _first_seeds(self, seeds: int | Sequence[int]) -> list[int]:
        """Every game's first seed from ``seeds`` (an integer: ``seeds + g``; or one per game),
        each checked to lie in ``0..MAX_SEED`` before any game is touched: a ValueError naming
        the game and the range otherwise, and every game stays as it was."""
        if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, (bool, np.bool_)):
            first = [int(seeds) + g for g in range(self.num_games)]
        else:
            try:
                first = list(seeds)
            except TypeError:
                first = None
            if first is None or len(first) != self.num_games or not all(
                    isinstance(s, (int, np.integer)) and not isinstance(s, (bool, np.bool_))
                    for s in first):
                raise ValueError(f"seeds must be an integer or {self.num_games} integers (one "
                                 f"per game), got {seeds!r}")
            first = [int(s) for s in first]
        bad = [g for g, s in enumerate(first) if not 0 <= s <= MAX_SEED]
        if bad:
            raise ValueError(f"seeds must lie in 0..{MAX_SEED} (2**63 - 1), got {first[bad[0]]} "
                             f"for game {bad[0]}; no game was reset")
        return first

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
            for k in dead:  # a fresh shard has its games' seats, not the announcements
                a, b = self._ranges[k]
                self._unsent |= {g for g in range(a, b) if self._next_seats[g] is not None}
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
        self._seats_taken(f.game for f in finished if f is not None)
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
        rows = [b.agent, b.obs, b.mask, b.rewards, b.done, b.truncated, b.seat_moves, b.round]
        if self.copy:
            rows = [row.copy() for row in rows]
        else:  # the buffers themselves, read-only: the next step writes them again
            rows = [row.view() for row in rows]
            for row in rows:
                row.flags.writeable = False
        agent, obs, mask, rewards, done, truncated, seat_moves, rounds = rows
        return Batch(agent=agent, obs=obs, mask=mask, rewards=rewards, done=done,
                     truncated=truncated, infos=list(infos), finished=list(finished),
                     seat_moves=seat_moves, round=rounds)
