"""Rollouts: the learner, its league opponents and the batched games, stepped in lockstep.

Every game slot of the batched API (:mod:`boardkit.vector`, the config's game) has one *seat*
per house: the learner, a snapshot network, or an agent object (a baseline, or any agent spec,
:func:`opponent_seat`). At each lockstep step the
learner's seats are decided by one forward pass over all their games, each snapshot's seats by
one pass of that snapshot, and the agents one by one. The learner's decisions, with the
rewards every house received on every step, go into one *stream* per slot; at the end of the
rollout :func:`~experiments.training.advantages.house_advantages` turns each stream into
per-house advantages, and the decisions still waiting for their house's next decision are kept
for the next rollout.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from agents.base import begin_game, end_game
from agents.ppo import mark_prior

from . import game_hooks
from .advantages import house_advantages
from .config import TrainConfig
from .league import League, Opponents


@dataclass
class Seat:
    """Who decides for one house of one game: ``"learner"``, ``"snapshot"`` (``snapshot``: the
    update it was taken at), ``"agent"`` (``agent``: the object; ``opponent`` and ``seed``:
    what built it, so that a trainer checkpoint can build again an agent it cannot store) or
    ``"worker"`` (the agent ``opponent`` and ``seed`` build, played inside the batched API's
    shards: ``rollout.seats_in_workers``). ``prior``: a learner's or snapshot's prior agent, when
    the network names one (``network.prior``): it sees every decision of its house, and its
    choice is marked in the mask the network reads (:func:`agents.ppo.mark_prior`);
    ``prior_seed``: what built it, so that a checkpoint can build again a prior it cannot
    store."""

    kind: str
    snapshot: int | None = None
    agent: Any = None
    opponent: str | None = None
    seed: int | None = None
    prior: Any = None
    prior_seed: int | None = None


def opponent_seat(name: str, seed: int, game: str = "got",
                  env_options: Mapping[str, Any] | None = None,
                  specs: Mapping[str, Any] | None = None, env: Any = None) -> Seat:
    """A seat played by the opponent ``name`` of a game of ``game`` with ``env_options``: the
    game's own baseline (AGoT: ``heuristic`` for the options' ruleset, ``random``), else the
    agent of its spec (:func:`.game_hooks.opponent_spec`: the config's ``agents`` entry, a
    registry name, ``module:Class``) built by :func:`agents.make_agent` with ``env`` (an env of
    the config's game and options, not the live game: the trainer's games run in the batched
    API, so an opponent plays from its observation, mask and infos only) and ``seed``."""
    options = dict(env_options or {})
    specs = dict(specs or {})
    agent = game_hooks.baseline(game, name, seed, options) if name not in specs else None
    if agent is None:
        from agents import make_agent

        agent = make_agent(game_hooks.opponent_spec(game, name, specs), env=env, seed=seed)
    return Seat("agent", agent=agent, opponent=name, seed=seed)


def worker_agent(spec: tuple, env: Any = None, seed: int | None = None) -> Any:
    """The ``agent_factory`` of worker-side seats (:class:`boardkit.vector.VectorGames`): the
    agent :func:`opponent_seat` builds, from ``spec`` = ``(game, name, seed, env_options,
    specs)`` (plain data, so that it pickles to the workers; its own seed, not the batch's, so
    that the agent is the one an in-process seat would hold); ``env`` is the live game's env."""
    game, name, own_seed, env_options, specs = spec
    return opponent_seat(name, own_seed, game, env_options, specs, env=env).agent


def worker_spec(game: str, name: str, seed: int, env_options: Mapping[str, Any],
                specs: Mapping[str, Any] | None) -> tuple:
    """The plain spec :func:`worker_agent` builds a worker-side seat from (it pickles)."""
    return (game, name, seed, dict(env_options), dict(specs or {}))


def agent_seat(name: str, seed: int, ruleset: str = "2e") -> Seat:
    """A seat played by an AGoT baseline agent (``heuristic``, ``random``) for a game of
    ``ruleset`` (a heuristic plays the ruleset it is given, never one guessed from the
    observation)."""
    if name not in game_hooks.BASELINES:
        raise ValueError(f"no baseline agent named {name!r}")
    return opponent_seat(name, seed, "got", {"ruleset": ruleset})


#: Builds the seat of an opponent by its name and seed (:func:`opponent_seat` bound to a config).
SeatMaker = Callable[[str, int], Seat]


def seat_maker(cfg: TrainConfig, env: Any) -> SeatMaker:
    """:func:`opponent_seat` for the games of ``cfg`` (``env``: a probe env of them)."""
    def make(name: str, seed: int) -> Seat:
        return opponent_seat(name, seed, cfg.game, cfg.env, cfg.agents, env)

    return make


@torch.no_grad()
def policy_step(network: torch.nn.Module, obs: np.ndarray, mask: np.ndarray,
                generator: torch.Generator, greedy: bool = False
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(actions, log-probabilities, values) of a batch of observations, sampled from the masked
    policy (or its most probable actions)."""
    logits, value = network(torch.as_tensor(obs), torch.as_tensor(mask))
    logp_all = torch.log_softmax(logits, -1)
    if greedy:
        actions = logits.argmax(-1)
    else:
        actions = torch.multinomial(logp_all.exp(), 1, generator=generator).squeeze(-1)
    logp = logp_all.gather(-1, actions.unsqueeze(-1)).squeeze(-1)
    return actions.numpy(), logp.numpy(), value.numpy()


def choose_actions(batch: Any, seats: list[list[Seat]], network: torch.nn.Module,
                   league: League | None, generator: torch.Generator, greedy: bool = False
                   ) -> tuple[np.ndarray, dict[int, tuple[float, float]], np.ndarray]:
    """Every game's action; for the learner's games also ``{game: (log-prob, value)}``; and
    the masks the networks read (``batch.mask`` with each network seat's prior choice marked,
    :func:`agents.ppo.mark_prior`; ``batch.mask`` itself where no seat has a prior), which a
    stored decision keeps so that the update recomputes the same logits."""
    G = len(seats)
    actions = np.zeros(G, dtype=np.int64)
    groups: dict[Any, list[int]] = {}
    mask = batch.mask
    for g in range(G):
        seat = seats[g][int(batch.agent[g])]
        if seat.kind == "worker":
            raise RuntimeError(f"game {g}: a worker-side seat ({seat.opponent}) is to act in "
                               f"the learner's batch: the batch and the seats disagree")
        if seat.kind == "agent":
            actions[g] = seat.agent.act(batch.obs[g], batch.mask[g], batch.infos[g])
            continue
        if seat.prior is not None:
            if mask is batch.mask:
                mask = batch.mask.copy()
            mask[g] = mark_prior(batch.mask[g], seat.prior.act(batch.obs[g], batch.mask[g],
                                                               batch.infos[g]))
        groups.setdefault(seat.snapshot if seat.kind == "snapshot" else "learner",
                          []).append(g)
    learner: dict[int, tuple[float, float]] = {}
    for key, games in groups.items():
        net = network if key == "learner" else league.network(key, network)  # type: ignore
        a, logp, value = policy_step(net, batch.obs[games], mask[games], generator, greedy)
        actions[games] = a
        if key == "learner":
            learner = {g: (float(lp), float(v)) for g, lp, v in zip(games, logp, value,
                                                                      strict=True)}
    return actions, learner, mask


def prior_maker(network: torch.nn.Module, make_seat: SeatMaker
                ) -> Callable[[int], Any] | None:
    """seed -> a fresh prior agent of ``network`` (``network.prior``, built as an opponent of
    that name is, by ``make_seat``), or None when the network has no prior."""
    name = getattr(network, "prior", None)
    if name is None:
        return None

    def make(seed: int) -> Any:
        agent = make_seat(name, seed).agent
        begin_game(agent)
        return agent

    return make


@dataclass
class Stream:
    """One game slot's steps since its oldest learner decision still waiting for a successor."""

    acting: list[int] = field(default_factory=list)     # deciding house, or -1 (an opponent)
    values: list[float] = field(default_factory=list)
    potentials: list[float] = field(default_factory=list)
    rewards: list[np.ndarray] = field(default_factory=list)
    dones: list[bool] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)        # the decision's id, -1 when trained/none


@dataclass
class Rollout:
    """The decisions of one rollout to learn from, as arrays."""

    obs: np.ndarray
    mask: np.ndarray
    actions: np.ndarray
    logp: np.ndarray
    values: np.ndarray
    advantages: np.ndarray
    returns: np.ndarray
    rewards: np.ndarray     # the (shaped) reward of each transition


@dataclass
class GameResult:
    """A finished training game, seen from the learner: against whom, and did it win."""

    opponents: str
    learner_won: bool | None  # None in self-play (every seat is the learner)


class Collector:
    """Steps the batched games with the learner and its league; see the module docstring.

    Its whole state (seats, streams, decisions waiting, random generators) goes into the
    trainer's checkpoint as plain data (:mod:`.plain`), so that ``--resume`` continues
    exactly.

    With ``rollout.seats_in_workers`` the league's agent opponents are ``"worker"`` seats,
    played by the batched API's shards: each slot's next game is drawn one game ahead and
    announced to the batch (``seat_next``), since a game ends, and its successor's first
    opponent decisions are played, inside a step."""

    def __init__(self, cfg: TrainConfig, num_houses: int, obs_size: int, potential: Any,
                 make_seat: SeatMaker | None = None):
        self.cfg = cfg
        self.num_houses, self.obs_size = num_houses, obs_size
        self.potential = potential          # observation -> Phi, or None: no shaping
        self.make_seat: SeatMaker = make_seat or (lambda name, seed: opponent_seat(
            name, seed, cfg.game, cfg.env, cfg.agents))
        self.seats: list[list[Seat]] = []
        self.kinds: list[str] = []          # each game's league draw
        self.streams: list[Stream] = []
        self.pending: dict[int, tuple[np.ndarray, np.ndarray, int, float]] = {}
        self.next_id = 0
        self.rng = np.random.default_rng(cfg.seed)
        self.generator = torch.Generator().manual_seed(cfg.seed)
        self.in_workers = cfg.rollout.seats_in_workers
        #: per slot, the seats and league draw of its next game (``in_workers`` only)
        self.upcoming: list[tuple[list[Seat], str]] = []
        #: where the last :meth:`collect`'s time went (seconds; logs.TIMING's rollout part)
        self.timing: dict[str, float] = {}
        #: seed -> a prior agent for a network seat (``network.prior``), or None
        self.make_prior: Callable[[int], Any] | None = None

    def network_seat(self, kind: str, snapshot: int | None = None) -> Seat:
        """A seat the learner's network (or a snapshot of it) plays, with its own prior agent
        where the network has one (seeded from the collector's generator)."""
        if self.make_prior is None:
            return Seat(kind, snapshot=snapshot)
        seed = int(self.rng.integers(2**31))
        return Seat(kind, snapshot=snapshot, prior=self.make_prior(seed), prior_seed=seed)

    # -- seating -------------------------------------------------------------------------------
    def seat_game(self, league: League) -> tuple[list[Seat], str]:
        """Seats for a new game, drawn from the league."""
        draw: Opponents = league.draw(self.rng)
        n = self.num_houses
        if draw.kind == "current":
            return [self.network_seat("learner") for _ in range(n)], draw.kind
        me = int(self.rng.integers(n))
        seats = []
        for h in range(n):
            if h == me:
                seats.append(self.network_seat("learner"))
            elif draw.kind == "snapshots":
                seats.append(self.network_seat("snapshot", draw.snapshot))
            elif self.in_workers:
                seats.append(Seat("worker", opponent=draw.kind,
                                  seed=int(self.rng.integers(2**31))))
            else:
                seats.append(self.make_seat(draw.kind, int(self.rng.integers(2**31))))
        for s in seats:
            if s.agent is not None:
                begin_game(s.agent)
        return seats, draw.kind

    def worker_row(self, seats: list[Seat]) -> dict[int, tuple]:
        """The batched API's worker seats of a game: :func:`worker_agent`'s plain specs."""
        cfg = self.cfg
        return {h: worker_spec(cfg.game, s.opponent, s.seed, cfg.env, cfg.agents)
                for h, s in enumerate(seats) if s.kind == "worker"}

    def start(self, games: Any, league: League) -> Any:
        """Seat the first game of every slot (and, with worker seats, its successor) and
        reset ``games``; the first batch."""
        self.seats, self.kinds = [], []
        for _ in range(games.num_games):
            seats, kind = self.seat_game(league)
            self.seats.append(seats)
            self.kinds.append(kind)
        self.streams = [Stream() for _ in range(games.num_games)]
        if not self.in_workers:
            return games.reset()
        self.upcoming = [self.seat_game(league) for _ in range(games.num_games)]
        for g, seats in enumerate(self.seats):
            games.seat_next(g, self.worker_row(seats))
        batch = games.reset()
        for g, (seats, _) in enumerate(self.upcoming):
            games.seat_next(g, self.worker_row(seats))
        return batch

    def _next_game(self, g: int, games: Any, league: League) -> None:
        """Slot ``g``'s game ended: seat the next one (drawn ahead with worker seats)."""
        if not self.in_workers:
            self.seats[g], self.kinds[g] = self.seat_game(league)
            return
        self.seats[g], self.kinds[g] = self.upcoming[g]
        self.upcoming[g] = self.seat_game(league)
        games.seat_next(g, self.worker_row(self.upcoming[g][0]))

    def snapshots_in_use(self) -> set[int]:
        rows = [*self.seats, *(seats for seats, _ in self.upcoming)]
        return {s.snapshot for seats in rows for s in seats if s.snapshot is not None}

    # -- stepping ------------------------------------------------------------------------------
    def collect(self, games: Any, batch: Any, network: torch.nn.Module, league: League,
                steps: int) -> tuple[Any, Rollout, list[GameResult], int]:
        """Play ``steps`` lockstep steps; returns (the batch to continue from, the rollout to
        learn from, the games that finished, the number of decisions played)."""
        network.eval()
        results: list[GameResult] = []
        played = 0
        started = time.perf_counter()
        forward_s = games_s = 0.0
        for _ in range(steps):
            t0 = time.perf_counter()
            actions, learner, mask = choose_actions(batch, self.seats, network, league,
                                                    self.generator)
            acting = batch.agent.copy()
            obs = batch.obs
            t1 = time.perf_counter()
            new = games.step(actions)
            forward_s, games_s = forward_s + t1 - t0, games_s + time.perf_counter() - t1
            for g, stream in enumerate(self.streams):
                h = int(acting[g])
                if g in learner:
                    logp, value = learner[g]
                    self.pending[self.next_id] = (obs[g].copy(), mask[g].copy(),
                                                  int(actions[g]), logp)
                    stream.acting.append(h)
                    stream.values.append(value)
                    stream.potentials.append(self.potential(obs[g])
                                             if self.potential is not None else 0.0)
                    stream.ids.append(self.next_id)
                    self.next_id += 1
                else:
                    stream.acting.append(-1)
                    stream.values.append(0.0)
                    stream.potentials.append(0.0)
                    stream.ids.append(-1)
                stream.rewards.append(new.rewards[g].copy())
                stream.dones.append(bool(new.done[g]))
                if new.done[g]:
                    results.append(self._finish(g, new.finished[g], games.possible_agents))
                    self._next_game(g, games, league)
            played += len(self.streams) + int(new.seat_moves.sum())
            batch = new
        rollout = self._advantages()
        league.prune(self.snapshots_in_use())
        self.timing = {"time_forward_s": forward_s, "time_games_s": games_s,
                       "time_rollout_other_s": time.perf_counter() - started - forward_s
                       - games_s}
        return batch, rollout, results, played

    def _finish(self, g: int, finished: Any, agents: list[str]) -> GameResult:
        kind = self.kinds[g]
        winner = game_hooks.winner(self.cfg.game, finished, agents)
        won = None
        for h, seat in enumerate(self.seats[g]):
            for agent in (seat.agent, seat.prior):
                if agent is not None:
                    end_game(agent, float(finished.rewards[h]), finished.infos[agents[h]])
            if seat.kind == "learner" and kind != "current":
                won = winner == agents[h]
        return GameResult(kind, won)

    def _advantages(self) -> Rollout:
        """Turn the streams into the rollout; keep what is still waiting for a successor."""
        p = self.cfg.ppo
        shaped = self.potential is not None
        picked: list[tuple[int, float, float, float, float]] = []  # id, value, adv, ret, rew
        for k, s in enumerate(self.streams):
            if not s.acting:
                continue
            a = house_advantages(np.array(s.acting), np.array(s.values),
                                 np.stack(s.rewards), np.array(s.dones), p.gamma,
                                 p.gae_lambda, np.array(s.potentials) if shaped else None)
            first_open = len(s.acting)
            for t, (house, ident) in enumerate(zip(s.acting, s.ids, strict=True)):
                if house < 0:
                    continue
                if not a.complete[t]:
                    first_open = min(first_open, t)
                elif ident >= 0:
                    picked.append((ident, s.values[t], a.advantages[t], a.returns[t],
                                   a.rewards[t]))
                    s.ids[t] = -1                    # learnt from: kept only as a successor
            self.streams[k] = Stream(s.acting[first_open:], s.values[first_open:],
                                     s.potentials[first_open:], s.rewards[first_open:],
                                     s.dones[first_open:], s.ids[first_open:])
        picked.sort()
        data = [self.pending.pop(i) for i, *_ in picked]
        return Rollout(
            obs=(np.stack([d[0] for d in data]) if data
                 else np.zeros((0, self.obs_size), np.float32)),
            mask=np.stack([d[1] for d in data]) if data else np.zeros((0, 0), np.int8),
            actions=np.array([d[2] for d in data], dtype=np.int64),
            logp=np.array([d[3] for d in data], dtype=np.float32),
            values=np.array([x[1] for x in picked], dtype=np.float32),
            advantages=np.array([x[2] for x in picked], dtype=np.float32),
            returns=np.array([x[3] for x in picked], dtype=np.float32),
            rewards=np.array([x[4] for x in picked], dtype=np.float32))
