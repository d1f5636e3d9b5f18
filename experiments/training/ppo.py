"""PPO self-play for any registered game, in one file read top to bottom (CleanRL's manner).

    python -m experiments.train --config configs/ppo_selfplay.yaml

The parts, in the order they run (docs/training.md walks through them):

1. **Config**: :class:`.config.TrainConfig`, one typed config read and checked before torch is
   imported (``experiments.train``); every run seeds Python's, numpy's and torch's generators
   from ``cfg.seed`` in :class:`Trainer`.
2. **Game hooks and network**: the trainer reaches its game through the kit (its env's seats
   and spaces, the batched API) and through two small functions, :func:`game_hook` (shaping,
   winner, baselines, what a checkpoint stores) and :func:`make_network` (the game's network,
   :mod:`agents.ppo`, which asks two questions: ``get_value`` and ``get_action_and_value``).
3. **League**: who sits at the other seats of each training game (:class:`League`).
4. **Seats**: who decides for one house of one game (:class:`Seat`): the learner, a snapshot,
   an agent, with its prior agent where the network names one.
5. **Rollout**: ``rollout.steps`` lockstep steps of ``rollout.num_games`` games in the batched
   API (:mod:`boardkit.vector`), the learner deciding for its seats with one forward pass, each
   snapshot with one, the agents one by one (:class:`Collector`). A prior agent's choice is
   passed to the network as its own tensor (``prior``, one action per decision) and stored with
   the decision, so that the update recomputes the very logits the decision was sampled from.
6. **Per-seat GAE**: advantages over each house's own chain of decisions, with a potential-based
   shaping reward where the game has one (:func:`house_advantages`).
7. **Update**: clipped objective, value loss, entropy bonus, optional KL to a reference policy,
   ``ppo.epochs`` epochs of minibatches (:func:`ppo_update`); then the observation normaliser
   takes in the rollout's observations.
8. **Evaluation**: the learner at one seat against an opponent, houses rotated, with a Wilson
   interval (:func:`evaluate`).
9. **Exact resume**: the whole trainer (network, optimiser, league, seats, streams, games in
   progress, random generators, counters) saved as plain data (format :data:`TRAINER_FORMAT`,
   :class:`.plain.PlainCodec`) and read with ``torch.load(weights_only=True)``: ``--resume``
   continues exactly where it stopped, giving the network an uninterrupted run gives.
10. **The trainer**: the loop (:class:`Trainer`): each update a rollout, its advantages, the
    update; every ``league.snapshot_every`` updates a snapshot, every ``eval.every`` an
    evaluation, every ``checkpoint_every`` a checkpoint.

The run folder ``<out>/<name>/`` holds ``config.yaml``, ``progress.csv`` (every figure per
update), ``tensorboard/``, ``curve.png``, ``checkpoints/last.pt`` (the trainer, for
``--resume``) and ``agent.pt`` (the network alone, what ``PPOAgent(checkpoint=...)`` plays).
An opponent agent of a class the checkpoint codec does not store (one built from an agent spec:
a PPO checkpoint, say) is saved as its name and seed and built again on ``--resume``, fresh.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
import yaml
from tqdm import tqdm

from agents import make_agent
from agents.base import begin_game, end_game
from agents.devices import torch_device
from agents.ppo import (
    NO_PRIOR,
    CheckpointError,
    UnsafeCheckpointError,
    build_network,
    check_prior_choice,
    load_checkpoint,
    read_torch_file,
    save_checkpoint,
)
from agents.random_agent import RandomAgent
from boardkit.envs import make_env
from boardkit.games import saved_game
from boardkit.records import GameRecord
from boardkit.rewards import end_rewards
from boardkit.vector import VectorGames, make_vector_games

from ..ratings import wilson
from . import game_hooks
from .config import LEAGUE_KINDS, LeagueConfig, PPOConfig, TrainConfig
from .logs import TrainingLog, plot_curve
from .plain import PlainCodec


# -- game hooks and the network factory --------------------------------------------------------
def game_hook(game: str, name: str) -> Callable[..., Any]:
    """The training hook ``name`` of ``game`` (:mod:`.game_hooks`: ``potential``, ``winner``,
    ``baseline``, ``opponent_spec``, ``variant``, ``resume_classes``,
    ``default_num_players``), its game already given: the one place this file reaches what is
    game-specific besides the env."""
    return functools.partial(getattr(game_hooks, name), game)


def make_network(cfg: TrainConfig, variant: str | None, obs_size: int,
                 num_actions: int) -> torch.nn.Module:
    """The network of ``cfg.network`` for the config's game (:func:`agents.ppo.build_network`:
    the game's own sizes and layouts where it has them, else the env's spaces)."""
    return build_network(cfg.network, variant, game=cfg.game, obs_size=obs_size,
                         num_actions=num_actions)


# -- league: who the learner plays -------------------------------------------------------------
@dataclass(frozen=True)
class Opponents:
    """One game's draw: its kind, and for ``"snapshots"`` the update the snapshot was taken at."""

    kind: str
    snapshot: int | None = None


class League:
    """Snapshots of the learner and the sampling weights of the opponent kinds.

    A snapshot dropped from the pool (beyond ``max_snapshots``) stays available to the games
    that drew it until :meth:`prune` is told no game uses it any more."""

    def __init__(self, cfg: LeagueConfig):
        self.cfg = cfg
        self.pool: list[int] = []                          # updates that can be drawn
        self.weights: dict[int, dict[str, torch.Tensor]] = {}  # update -> weights
        self._networks: dict[int, torch.nn.Module] = {}    # update -> built network

    def add_snapshot(self, update: int, network: torch.nn.Module) -> None:
        """Keep a frozen copy of the learner's weights (the oldest leaves the pool beyond the
        cap)."""
        self.weights[update] = {k: v.detach().cpu().clone()
                                for k, v in network.state_dict().items()}
        self.pool.append(update)
        del self.pool[:-self.cfg.max_snapshots]

    def draw(self, rng: np.random.Generator) -> Opponents:
        """The opponents of a new game; ``snapshots`` falls back to ``current`` until the first
        snapshot exists."""
        # the four kinds first, in their order, then the config's own opponents: a config of
        # the four alone draws exactly as before there were others
        kinds = (*LEAGUE_KINDS, *(k for k in self.cfg.weights if k not in LEAGUE_KINDS))
        weights = np.array([float(self.cfg.weights.get(k, 0.0)) for k in kinds])
        kind = kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]
        if kind == "snapshots":
            if not self.pool:
                return Opponents("current")
            return Opponents(kind, self.pool[int(rng.integers(len(self.pool)))])
        return Opponents(kind)

    def network(self, update: int, like: torch.nn.Module) -> torch.nn.Module:
        """The snapshot's network (built once, in eval mode, from a copy of ``like``)."""
        net = self._networks.get(update)
        if net is None:
            net = copy.deepcopy(like)
            net.load_state_dict(self.weights[update])
            net.eval()
            self._networks[update] = net
        return net

    def prune(self, in_use: set[int]) -> None:
        """Forget the snapshots that left the pool and that no game plays any more."""
        for update in list(self.weights):
            if update not in self.pool and update not in in_use:
                del self.weights[update]
                self._networks.pop(update, None)

    def state_dict(self) -> dict[str, Any]:
        return {"pool": list(self.pool), "weights": dict(self.weights)}

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        self.pool = [int(u) for u in state["pool"]]
        self.weights = {int(u): dict(w) for u, w in state["weights"].items()}
        self._networks = {}


# -- seats: who decides for each house ---------------------------------------------------------
@dataclass
class Seat:
    """Who decides for one house of one game: ``"learner"``, ``"snapshot"`` (``snapshot``: the
    update it was taken at), ``"agent"`` (``agent``: the object; ``opponent`` and ``seed``:
    what built it, so that a trainer checkpoint can build again an agent it cannot store) or
    ``"worker"`` (the agent ``opponent`` and ``seed`` build, played inside the batched API's
    shards: ``rollout.seats_in_workers``). ``prior``: a learner's or snapshot's prior agent, when
    the network names one (``network.prior``): it sees every decision of its house, and its
    choice is passed to the network (the ``prior`` tensor of :meth:`get_action_and_value`);
    ``prior_seed``: what built it, so that a checkpoint can build again a prior it cannot
    store."""

    kind: str
    snapshot: int | None = None
    agent: Any = None
    opponent: str | None = None
    seed: int | None = None
    prior: Any = None
    prior_seed: int | None = None


def opponent_seat(name: str, seed: int, game: str,
                  env_options: Mapping[str, Any] | None = None,
                  specs: Mapping[str, Any] | None = None, env: Any = None) -> Seat:
    """A seat played by the opponent ``name`` of a game of ``game`` with ``env_options``: the
    game's own baseline (AGoT: ``heuristic`` for the options' ruleset, ``random``), else the
    agent of its spec (the ``opponent_spec`` hook: the config's ``agents`` entry, a
    registry name, ``module:Class``) built by :func:`agents.make_agent` with ``env`` (an env of
    the config's game and options, not the live game: the trainer's games run in the batched
    API, so an opponent plays from its observation, mask and infos only) and ``seed``."""
    options = dict(env_options or {})
    specs = dict(specs or {})
    agent = game_hook(game, "baseline")(name, seed, options) if name not in specs else None
    if agent is None:
        agent = make_agent(game_hook(game, "opponent_spec")(name, specs), env=env, seed=seed)
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


#: Builds the seat of an opponent by its name and seed (:func:`opponent_seat` bound to a config).
SeatMaker = Callable[[str, int], Seat]


def seat_maker(cfg: TrainConfig, env: Any) -> SeatMaker:
    """:func:`opponent_seat` for the games of ``cfg`` (``env``: a probe env of them)."""
    def make(name: str, seed: int) -> Seat:
        return opponent_seat(name, seed, cfg.game, cfg.env, cfg.agents, env)

    return make


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


# -- rollout: the batched games stepped in lockstep --------------------------------------------
@torch.no_grad()
def choose_actions(batch: Any, seats: list[list[Seat]], network: torch.nn.Module,
                   league: League | None, generator: torch.Generator, greedy: bool = False
                   ) -> tuple[np.ndarray, dict[int, tuple[float, float]], np.ndarray]:
    """Every game's action; for the learner's games also ``{game: (log-prob, value)}``; and
    each game's prior choice (int64, :data:`~agents.ppo.NO_PRIOR` where no prior agent chose),
    which a stored decision keeps so that the update recomputes the same logits.

    The learner's seats are decided by one forward pass over all their games, each snapshot's
    by one pass of that snapshot, the agents one by one."""
    G = len(seats)
    actions = np.zeros(G, dtype=np.int64)
    prior = np.full(G, NO_PRIOR, dtype=np.int64)
    groups: dict[Any, list[int]] = {}
    for g in range(G):
        seat = seats[g][int(batch.agent[g])]
        if seat.kind == "worker":
            raise RuntimeError(f"game {g}: a worker-side seat ({seat.opponent}) is to act in "
                               f"the learner's batch: the batch and the seats disagree")
        if seat.kind == "agent":
            actions[g] = seat.agent.act(batch.obs[g], batch.mask[g], batch.infos[g])
            continue
        if seat.prior is not None:
            prior[g] = check_prior_choice(batch.mask[g], seat.prior.act(
                batch.obs[g], batch.mask[g], batch.infos[g]))
        groups.setdefault(seat.snapshot if seat.kind == "snapshot" else "learner",
                          []).append(g)
    learner: dict[int, tuple[float, float]] = {}
    for key, games in groups.items():
        net = network if key == "learner" else league.network(key, network)  # type: ignore
        chosen = torch.as_tensor(prior[games]) if net.prior is not None else None
        step = net.get_action_and_value(torch.as_tensor(batch.obs[games]),
                                        torch.as_tensor(batch.mask[games]), chosen,
                                        generator=generator, greedy=greedy)
        actions[games] = step.action.numpy()
        if key == "learner":
            learner = {g: (float(lp), float(v)) for g, lp, v in zip(
                games, step.logp.numpy(), step.value.numpy(), strict=True)}
    return actions, learner, prior


@dataclass
class Stream:
    """One game slot's steps since its oldest learner decision still waiting for a successor."""

    acting: list[int] = field(default_factory=list)     # deciding house, or -1 (an opponent)
    values: list[float] = field(default_factory=list)
    potentials: list[float] = field(default_factory=list)
    rewards: list[np.ndarray] = field(default_factory=list)
    dones: list[bool] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)        # the decision's id, -1 when trained/none
    #: the round (``Game.round``) of the state each step decides in (``ppo.discount_per:
    #: round``); at a step that ends a game, ``end_rounds`` holds its final state's round
    rounds: list[int] = field(default_factory=list)
    end_rounds: list[int] = field(default_factory=list)
    #: per step, float[H]: at a step that truncates a game, each house's bootstrap (the value
    #: of its final observation, ``ppo.truncation: value``), else zeros
    bootstrap: list[np.ndarray] = field(default_factory=list)

    def cut(self, first: int) -> Stream:
        """The steps from ``first`` on (a stream of an older checkpoint, without rounds or
        bootstraps, gets zeros: it discounts per decision and bootstraps nothing)."""
        n = len(self.acting)
        rounds = getattr(self, "rounds", None) or [0] * n
        ends = getattr(self, "end_rounds", None) or [0] * n
        boots = getattr(self, "bootstrap", None) or [np.zeros(len(r)) for r in self.rewards]
        return Stream(self.acting[first:], self.values[first:], self.potentials[first:],
                      self.rewards[first:], self.dones[first:], self.ids[first:],
                      rounds[first:], ends[first:], boots[first:])


@dataclass
class Rollout:
    """The decisions of one rollout to learn from, as arrays."""

    obs: np.ndarray
    mask: np.ndarray
    prior: np.ndarray       # the prior agent's choice at each decision, or NO_PRIOR
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
        self.potential = potential          # (observation, seat) -> Phi, or None: no shaping
        #: the env's reward scheme (``ppo.truncation: standing`` pays its rewards)
        self.reward_scheme = str(cfg.env.get("reward", "zero_sum"))
        self.make_seat: SeatMaker = make_seat or (lambda name, seed: opponent_seat(
            name, seed, cfg.game, cfg.env, cfg.agents))
        self.seats: list[list[Seat]] = []
        self.kinds: list[str] = []          # each game's league draw
        self.streams: list[Stream] = []
        #: id -> (observation, mask, prior choice, action, log-prob) of a decision waiting for
        #: its advantage
        self.pending: dict[int, tuple[np.ndarray, np.ndarray, int, int, float]] = {}
        self.next_id = 0
        self.rng = np.random.default_rng(cfg.seed)
        self.generator = torch.Generator().manual_seed(cfg.seed)
        self.in_workers = cfg.rollout.seats_in_workers
        #: the seat indices the learner may play against an opponent (None: every seat)
        self.learner_seats: list[int] | None = None
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
        mine = self.learner_seats
        me = int(self.rng.integers(n)) if mine is None else mine[int(self.rng.integers(len(mine)))]
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
            actions, learner, prior = choose_actions(batch, self.seats, network, league,
                                                     self.generator)
            acting = batch.agent.copy()
            obs = batch.obs
            rounds = batch.round.copy() if batch.round is not None else np.zeros(len(acting),
                                                                                 np.int64)
            t1 = time.perf_counter()
            new = games.step(actions)
            forward_s, games_s = forward_s + t1 - t0, games_s + time.perf_counter() - t1
            for g, stream in enumerate(self.streams):
                h = int(acting[g])
                if g in learner:
                    logp, value = learner[g]
                    self.pending[self.next_id] = (obs[g].copy(), batch.mask[g].copy(),
                                                  int(prior[g]), int(actions[g]), logp)
                    stream.acting.append(h)
                    stream.values.append(value)
                    stream.potentials.append(self.potential(obs[g], h)
                                             if self.potential is not None else 0.0)
                    stream.ids.append(self.next_id)
                    self.next_id += 1
                else:
                    stream.acting.append(-1)
                    stream.values.append(0.0)
                    stream.potentials.append(0.0)
                    stream.ids.append(-1)
                ended = new.finished[g] if new.done[g] else None
                stream.rewards.append(new.rewards[g] + self._standing_reward(ended))
                stream.dones.append(bool(new.done[g]))
                stream.rounds.append(int(rounds[g]))
                stream.end_rounds.append(int(ended.round) if ended is not None else 0)
                stream.bootstrap.append(self._bootstrap(ended, network))
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

    def _truncated(self, ended: Any, mode: str) -> bool:
        return ended is not None and ended.truncated and self.cfg.ppo.truncation == mode

    def _standing_reward(self, ended: Any) -> np.ndarray:
        """float32[H]: what a game truncated on this step pays each house under
        ``ppo.truncation: standing`` (:func:`standing_rewards`), else zeros."""
        if not self._truncated(ended, "standing"):
            return np.zeros(self.num_houses, np.float32)
        return standing_rewards(ended.standing, self.reward_scheme).astype(np.float32)

    @torch.no_grad()
    def _bootstrap(self, ended: Any, network: torch.nn.Module) -> np.ndarray:
        """float64[H]: under ``ppo.truncation: value``, the value of each house's final
        observation of a game truncated on this step, else zeros (the learner's network: an
        opponent's seat is never learnt from, so its entry is never read)."""
        if not self._truncated(ended, "value"):
            return np.zeros(self.num_houses)
        return network.get_value(torch.as_tensor(ended.obs)).double().numpy()

    def _finish(self, g: int, finished: Any, agents: list[str]) -> GameResult:
        kind = self.kinds[g]
        winner = game_hook(self.cfg.game, "winner")(finished, agents)
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
            s = s.cut(0)
            per_round = p.discount_per == "round"
            boot = (np.stack(s.bootstrap) if p.truncation == "value" else None)
            a = house_advantages(np.array(s.acting), np.array(s.values),
                                 np.stack(s.rewards), np.array(s.dones), p.gamma,
                                 p.gae_lambda, np.array(s.potentials) if shaped else None,
                                 rounds=np.array(s.rounds) if per_round else None,
                                 end_rounds=np.array(s.end_rounds) if per_round else None,
                                 bootstrap=boot)
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
            self.streams[k] = s.cut(first_open)
        picked.sort()
        data = [self.pending.pop(i) for i, *_ in picked]
        return Rollout(
            obs=(np.stack([d[0] for d in data]) if data
                 else np.zeros((0, self.obs_size), np.float32)),
            mask=np.stack([d[1] for d in data]) if data else np.zeros((0, 0), np.int8),
            prior=np.array([d[2] for d in data], dtype=np.int64),
            actions=np.array([d[3] for d in data], dtype=np.int64),
            logp=np.array([d[4] for d in data], dtype=np.float32),
            values=np.array([x[1] for x in picked], dtype=np.float32),
            advantages=np.array([x[2] for x in picked], dtype=np.float32),
            returns=np.array([x[3] for x in picked], dtype=np.float32),
            rewards=np.array([x[4] for x in picked], dtype=np.float32))


# -- per-seat GAE ------------------------------------------------------------------------------
def standing_rewards(standing: np.ndarray, scheme: str) -> np.ndarray:
    """float64[H]: the rewards the env's ``scheme`` (:func:`boardkit.rewards.end_rewards`) would
    pay if a truncated game had ended as the rules' ``standing`` ranks the houses (the top
    ones tied share first place): what ``ppo.truncation: standing`` counts its cut as."""
    standing = np.asarray(standing, dtype=np.float64)
    n = len(standing)
    order = sorted(range(n), key=lambda h: -standing[h])   # ties in seat order
    tied = int(np.sum(standing == standing.max()))
    places = end_rewards(scheme, n, tied)
    out = np.zeros(n)
    for place, h in enumerate(order):
        out[h] = places[place]
    return out


@dataclass
class Advantages:
    """Per step of the stream (meaningful where ``acting[t] >= 0``)."""

    advantages: np.ndarray   # float64[T]
    returns: np.ndarray      # float64[T]: advantage + value, the value target
    complete: np.ndarray     # bool[T]: reward and successor known
    rewards: np.ndarray      # float64[T]: the (shaped) reward of each transition


def house_advantages(acting: np.ndarray, values: np.ndarray, rewards: np.ndarray,
                     dones: np.ndarray, gamma: float, lam: float,
                     potentials: np.ndarray | None = None, *,
                     rounds: np.ndarray | None = None, end_rounds: np.ndarray | None = None,
                     bootstrap: np.ndarray | None = None) -> Advantages:
    """GAE for every learner decision of one stream of ``T`` steps.

    :param acting: int[T]: the house that decided at step ``t`` when it is a learner's decision
        (learnt from now or kept from the last rollout), else -1 (an opponent's decision).
    :param values: float[T]: the value estimate at each decision.
    :param rewards: float[T, H]: what each house received on step ``t`` (after its action).
    :param dones: bool[T]: the game ended on step ``t`` (the next step starts a new game).
    :param potentials: float[T] or None: the shaping potential of the deciding house's
        observation at step ``t``; the transition's reward becomes ``r + gamma * Phi(s') -
        Phi(s)`` with ``Phi = 0`` at the end of a game, which leaves the optimal policy alone.
    :param rounds: int[T] or None: the round of the state each step decides in. Given,
        ``gamma`` and ``lam`` apply per round (``ppo.discount_per: round``): the transition
        from a house's decision at ``t`` to its next one at ``u`` is discounted by ``gamma **
        (rounds[u] - rounds[t])`` (1 within a round), and the shaping's ``gamma`` likewise;
        None: per decision (every exponent 1), as before issue 39.
    :param end_rounds: int[T]: with ``rounds``, at a step that ends a game, the round of its
        final state (a bootstrap's exponent).
    :param bootstrap: float[T, H] or None: at a step that truncates a game, the value of each
        house's final observation (``ppo.truncation: value``), which the return of the house's
        last decision adds, discounted as a successor's value is; 0 elsewhere.
    """
    acting = np.asarray(acting)
    T = len(acting)
    values = np.asarray(values, dtype=np.float64)
    rewards = np.asarray(rewards, dtype=np.float64)
    dones = np.asarray(dones, dtype=bool)
    phi = np.zeros(T) if potentials is None else np.asarray(potentials, dtype=np.float64)
    successor = np.full(T, -1)      # the house's next decision, when no game end intervenes
    terminal = np.zeros(T, bool)
    complete = np.zeros(T, bool)
    reward = np.zeros(T)
    boot = np.zeros(T)              # what a decision that ends its game bootstraps from
    end_round = np.zeros(T)         # the round of the final state after it
    num_houses = rewards.shape[1] if rewards.ndim == 2 else 0
    open_step = [-1] * num_houses   # each house's decision waiting for its successor
    for t in range(T):
        h = int(acting[t])
        if h >= 0:
            prev = open_step[h]
            if prev >= 0:           # this decision completes the house's previous one
                successor[prev], complete[prev] = t, True
            open_step[h] = t
        for house in range(num_houses):  # rewards of step t go to each house's open decision
            if open_step[house] >= 0:
                reward[open_step[house]] += rewards[t, house]
        if dones[t]:
            for house in range(num_houses):
                s = open_step[house]
                if s >= 0:
                    terminal[s] = complete[s] = True
                    if bootstrap is not None:
                        boot[s] = bootstrap[t, house]
                    if end_rounds is not None:
                        end_round[s] = end_rounds[t]
                open_step[house] = -1
    # the discount of each transition: gamma per decision, or gamma ** (rounds elapsed)
    g: Any = gamma
    gl: Any = gamma * lam
    if rounds is not None:
        r = np.asarray(rounds, dtype=np.float64)
        nxt = np.where(terminal, end_round, r[np.maximum(successor, 0)])
        elapsed = np.where(complete, nxt - r, 0.0)
        if (elapsed < 0).any():
            raise ValueError("rounds: a house's later decision is in an earlier round")
        g, gl = gamma ** elapsed, (gamma * lam) ** elapsed
    shaped = reward.copy()
    if potentials is not None:
        next_phi = np.where(terminal | (successor < 0), 0.0, phi[np.maximum(successor, 0)])
        shaped = reward + g * next_phi - phi
    gt = np.broadcast_to(g, (T,))
    glt = np.broadcast_to(gl, (T,))
    adv = np.zeros(T)
    for t in range(T - 1, -1, -1):
        if acting[t] < 0 or not complete[t]:
            continue
        if terminal[t]:
            adv[t] = shaped[t] + (gt[t] * boot[t] if bootstrap is not None else 0.0) - values[t]
            continue
        u = successor[t]
        delta = shaped[t] + gt[t] * values[u] - values[t]
        adv[t] = delta + (glt[t] * adv[u] if complete[u] else 0.0)
    return Advantages(advantages=adv, returns=adv + values, complete=complete, rewards=shaped)


# -- update: PPO's clipped objective -----------------------------------------------------------
def ppo_update(network: torch.nn.Module, optimizer: torch.optim.Optimizer, rollout: Rollout,
               cfg: PPOConfig, generator: torch.Generator, *,
               reference: torch.nn.Module | None = None, kl_coef: float = 0.0,
               value_only: bool = False) -> dict[str, float]:
    """Train on the rollout; returns the mean losses and diagnostics of the last epoch.

    ``reference`` and ``kl_coef``: add ``kl_coef * KL(policy || reference)`` over the legal
    actions of each decision (masked actions have probability 0 under both, adding 0).
    ``value_only``: the loss is the value loss alone and only the value head's parameters are
    stepped (their gradients alone are kept)."""
    n = len(rollout.actions)
    if n == 0:
        return {}
    device = next(network.parameters()).device  # the batches go where the network is
    obs = torch.as_tensor(rollout.obs).to(device)
    mask = torch.as_tensor(rollout.mask).to(device)
    prior = torch.as_tensor(rollout.prior).to(device)
    actions = torch.as_tensor(rollout.actions).to(device)
    old_logp = torch.as_tensor(rollout.logp).to(device)
    returns = torch.as_tensor(rollout.returns).to(device)
    adv = torch.as_tensor(rollout.advantages).to(device)
    if cfg.normalize_advantages and n > 1:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    network.train()
    value_params = {id(p) for p in network.value_head.parameters()}
    use_kl = reference is not None and kl_coef > 0 and not value_only
    figures: dict[str, list[float]] = {}
    for _ in range(cfg.epochs):
        figures = {"policy_loss": [], "value_loss": [], "entropy": [], "approx_kl": [],
                   "clip_fraction": [], "kl_reference": []}
        order = torch.randperm(n, generator=generator)
        for start in range(0, n, cfg.minibatch):
            idx = order[start:start + cfg.minibatch].to(device)
            _, logp, entropy, value, logp_all = network.get_action_and_value(
                obs[idx], mask[idx], prior[idx], actions[idx])
            entropy = entropy.mean()
            log_ratio = logp - old_logp[idx]
            ratio = log_ratio.exp()
            a = adv[idx]
            policy_loss = -torch.min(ratio * a, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * a).mean()
            value_loss = 0.5 * (value - returns[idx]).pow(2).mean()
            if reference is not None:
                with torch.no_grad():
                    ref_logits, _ = reference(obs[idx], mask[idx], prior[idx])
                    ref_logp = torch.log_softmax(ref_logits, -1)
                kl_ref = (logp_all.exp() * (logp_all - ref_logp)).sum(-1).mean()
            else:
                kl_ref = torch.zeros(())
            if value_only:
                loss = cfg.value_coef * value_loss
            else:
                loss = policy_loss + cfg.value_coef * value_loss - cfg.entropy * entropy
                if use_kl:
                    loss = loss + kl_coef * kl_ref
            optimizer.zero_grad()
            loss.backward()
            if value_only:  # the trunk and the policy head keep their (imitated) weights
                for p in network.parameters():
                    if id(p) not in value_params:
                        p.grad = None
            torch.nn.utils.clip_grad_norm_(network.parameters(), cfg.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                figures["policy_loss"].append(float(policy_loss))
                figures["value_loss"].append(float(value_loss))
                figures["entropy"].append(float(entropy))
                figures["kl_reference"].append(float(kl_ref))
                figures["approx_kl"].append(float(((ratio - 1) - log_ratio).mean()))
                figures["clip_fraction"].append(float(((ratio - 1).abs() > cfg.clip)
                                                      .float().mean()))
    out = {k: float(np.mean(v)) for k, v in figures.items()
           if k != "kl_reference" or reference is not None}
    var = float(np.var(rollout.returns))
    out["explained_variance"] = (float(1 - np.var(rollout.returns - rollout.values) / var)
                                 if var > 0 else float("nan"))
    return out


# -- evaluation --------------------------------------------------------------------------------
EVAL_SEED_OFFSET = 1_000_003  # evaluation games never share a seed with training games


@dataclass(frozen=True)
class Evaluation:
    """The learner's games against one opponent: ``wins`` (a shared win counts as its share
    where an evaluation scores it so, as the imitation's does), with a Wilson interval."""

    opponent: str
    wins: float
    games: int
    #: per game, in game order: whether the learner won it (what tests compare two ways of
    #: playing the same games by)
    won: tuple[bool, ...] = ()

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def __str__(self) -> str:
        lo, hi = self.interval
        return (f"vs {self.opponent}: {self.wins}/{self.games} = {self.rate:.1%} "
                f"(95% CI {lo:.1%}-{hi:.1%})")


def eval_num_players(env_options: Mapping[str, Any], game: str) -> int:
    """The table size of the evaluation games: the options' ``num_players``, else the game's
    own default (AGoT: the ruleset's largest count), so that a 1e run without one evaluates
    5-player games as it trains them."""
    given = env_options.get("num_players")
    return int(given) if given is not None else game_hook(game, "default_num_players")(
        env_options)


def evaluate(network: torch.nn.Module, opponent: str, games: int, game: str,
             env_options: dict[str, Any], seed: int, greedy: bool = False, workers: int = 0,
             make_seat: SeatMaker | None = None, seats_in_workers: bool = False,
             specs: Mapping[str, Any] | None = None,
             learner_seats: list[int] | None = None) -> Evaluation:
    """Play ``games`` games of ``game``, all in lockstep, the learner at one seat and
    ``opponent`` at the others (``make_seat``: how its seats are built, by default the game's
    baseline of that name); each game is played to its end once (a slot that finishes is not
    counted again).

    ``seats_in_workers``: the opponent's seats are played inside the batched API's shards
    (worker-side seats, issue 26 item 4), by the same agents with the same seeds
    (:func:`.rollout.worker_agent`, ``specs``: the config's ``agents``), so that this process
    only runs the learner's forward passes; a greedy evaluation plays the very same games, a
    sampled one the same policy on other draws (every row of a batch is then the learner's).

    ``learner_seats``: the seats the learner plays, game ``g`` the ``g``-th of them in turn
    (``league.learner_seats``); None: every seat, game ``g`` seat ``g mod n``."""
    if games == 0:
        return Evaluation(opponent, 0, 0)
    options = {k: v for k, v in env_options.items() if k != "num_players"}
    n = eval_num_players(env_options, game)
    base = seed + EVAL_SEED_OFFSET
    generator = torch.Generator().manual_seed(base)
    if make_seat is None:
        def make_seat(name: str, seed: int) -> Seat:
            return opponent_seat(name, seed, game, env_options)
    make_prior = prior_maker(network, make_seat)

    def mine(g: int) -> int:
        return g % n if learner_seats is None else learner_seats[g % len(learner_seats)]

    def learner(g: int) -> Seat:
        # the prior's seed: the one an opponent in the learner's place would get
        prior = make_prior(base + g * n + mine(g)) if make_prior is not None else None
        return Seat("learner", prior=prior)

    if seats_in_workers:
        worker_seats: list[dict[int, Any]] | None = [
            {h: worker_spec(game, opponent, base + g * n + h, env_options, specs)
             for h in range(n) if h != mine(g)} for g in range(games)]
        seats = [[learner(g) if h == mine(g) else Seat("learner") for h in range(n)]
                 for g in range(games)]
    else:
        worker_seats = None
        seats = [[learner(g) if h == mine(g) else make_seat(opponent, base + g * n + h)
                  for h in range(n)] for g in range(games)]
    for row in seats:
        for s in row:
            if s.agent is not None:
                begin_game(s.agent)
    network.eval()
    won, done = [False] * games, [False] * games
    with VectorGames(games, n, seeds=base, num_workers=workers, game=game,
                     worker_seats=worker_seats,
                     agent_factory=worker_agent if worker_seats else None, **options) as vec:
        batch = vec.reset()
        agents = vec.possible_agents
        while not all(done):
            actions, _, _ = choose_actions(batch, seats, network, None, generator, greedy)
            batch = vec.step(actions)
            for g, finished in enumerate(batch.finished):
                if finished is None or done[g]:
                    continue
                done[g] = True
                won[g] = game_hook(game, "winner")(finished, agents) == agents[mine(g)]
                for h, s in enumerate(seats[g]):
                    for agent in (s.agent, s.prior):
                        if agent is not None:
                            end_game(agent, float(finished.rewards[h]),
                                     finished.infos[agents[h]])
    return Evaluation(opponent, sum(won), games, tuple(won))


# -- exact resume: the trainer checkpoint ------------------------------------------------------
#: The trainer checkpoint's format: 2 is plain data; 1 (before) pickled Python objects.
TRAINER_FORMAT = "got_env-train-2"
OLD_TRAINER_FORMATS = ("got_env-train-1",)
#: The classes a trainer checkpoint holds besides builtins, tensors and numpy data: the seats,
#: the streams, the random agents in the seats, the games in progress' records (the kit's one
#: format); a game's own (AGoT: its heuristic, its decision kinds) come from its hooks
#: (``resume_classes``).
RESUME_CLASSES = (Seat, Stream, RandomAgent, GameRecord)


def resume_codec(game: str) -> PlainCodec:
    """The codec of the trainer checkpoints of ``game``."""
    return PlainCodec((*RESUME_CLASSES, *game_hook(game, "resume_classes")()))


#: Where the classes an old (pickled) trainer checkpoint names come from: such a file is told
#: apart from a foreign one by them alone, without being unpickled.
OLD_FORMAT_MODULES = ("experiments.", "agents.", "got_env.", "numpy.")


class ResumeError(CheckpointError):
    """A trainer checkpoint that cannot be resumed (another format, or another config)."""


def read_trainer_state(path: Path, codec: PlainCodec) -> dict[str, Any]:
    """The decoded state in a trainer checkpoint, read as plain data only (``codec``: the
    classes of its game, :func:`resume_codec`)."""
    try:
        doc = read_torch_file(path, "trainer checkpoint")
    except UnsafeCheckpointError as e:
        if e.names and all(n.startswith(OLD_FORMAT_MODULES) for n in e.names):
            raise ResumeError(_old_format(path, e.names)) from None
        raise
    found = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
    if found in OLD_TRAINER_FORMATS:
        raise ResumeError(_old_format(path, []))
    if found != TRAINER_FORMAT:
        raise ResumeError(f"{path}: not a trainer checkpoint of format {TRAINER_FORMAT!r} "
                          f"(found {found!r})")
    try:
        return codec.decode(doc)
    except (ValueError, TypeError, KeyError) as e:
        raise ResumeError(f"{path}: a corrupt trainer checkpoint: {e}") from None


def _with_prior(decision: tuple) -> tuple:
    """A waiting decision as :class:`Collector` keeps it, (observation, mask, prior choice,
    action, log-prob), from a checkpoint of either layout: before the prior had its own
    tensor, a decision was (observation, mask, action, log-prob) with the prior's choice
    marked 2 in the mask."""
    if len(decision) == 5:
        return decision
    obs, mask, action, logp = decision
    marked = np.flatnonzero(mask == 2)
    prior = int(marked[0]) if len(marked) else NO_PRIOR
    return obs, np.minimum(mask, 1).astype(mask.dtype), prior, action, logp


def _short(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters, for a message about a checkpoint's data."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _old_format(path: Path, names: list[str]) -> str:
    held = f" ({', '.join(names)})" if names else ""
    return (f"{path}: a trainer checkpoint of the old format {OLD_TRAINER_FORMATS[-1]!r}, which "
            f"pickled Python objects{held}; this version reads plain data only (format "
            f"{TRAINER_FORMAT!r}) and cannot convert it safely: start the run again (its "
            f"agent.pt still plays)")


# -- the trainer: the loop, top to bottom ------------------------------------------------------
def observation_potential(cfg: TrainConfig, env: Any) -> Any:
    """Phi of a house's own observation, as ``cfg.shaping`` weighs it, for the config's game
    (AGoT: castles held out of those that win, the supply level out of 6); None: no shaping."""
    return game_hook(cfg.game, "potential")(cfg.shaping, env)


def prior_policy(network: torch.nn.Module) -> torch.nn.Module:
    """The policy of ``network``'s prior alone, frozen: a copy whose policy head outputs 0 for
    every action, so that its logits are the prior's bonus alone (:func:`agents.ppo.prior_logits`),
    the anchor of ``init.kl`` for a network with a prior and no ``init.checkpoint``."""
    reference = copy.deepcopy(network).eval()
    torch.nn.init.zeros_(reference.policy_head.weight)
    torch.nn.init.zeros_(reference.policy_head.bias)
    if hasattr(reference, "action_weight"):  # the board network's per-area scores
        torch.nn.init.zeros_(reference.action_weight)
    for p in reference.parameters():
        p.requires_grad_(False)
    return reference


class Trainer:
    """The training run of one config (see the module docstring)."""

    def __init__(self, cfg: TrainConfig, log: Any = print):
        self.cfg, self.log = cfg, log
        probe = make_env(cfg.game, **cfg.env)
        self.ruleset = game_hook(cfg.game, "variant")(probe)
        self.agents = list(probe.possible_agents)
        seat = self.agents[0]
        obs_size = int(probe.observation_space(seat)["observation"].shape[0])
        num_actions = int(probe.action_space(seat).n)
        torch.manual_seed(cfg.seed)
        self.network = make_network(cfg, self.ruleset, obs_size, num_actions)
        self.reference: torch.nn.Module | None = None
        self.init_sha256: str | None = None
        if cfg.init.checkpoint is not None:
            self._start_from(Path(cfg.init.checkpoint))
        elif cfg.init.kl > 0 and self.network.prior is not None:
            self.reference = prior_policy(self.network)
        #: the network the games are played with, on the CPU: the learner itself on a CPU run,
        #: else a copy of it, given its weights after every update (:meth:`_sync_actor`)
        self.device = torch_device(cfg.device)
        self.actor = self.network
        if self.device.type != "cpu":
            self.actor = copy.deepcopy(self.network).eval()
            self.network.to(self.device)
            if self.reference is not None:
                self.reference.to(self.device)
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=cfg.ppo.lr, eps=1e-5)
        self.league = League(cfg.league)
        self.make_seat = seat_maker(cfg, probe)
        self.codec = resume_codec(cfg.game)
        self.collector = Collector(cfg, len(self.agents), obs_size,
                                   observation_potential(cfg, probe), self.make_seat)
        self.collector.make_prior = prior_maker(self.network, self.make_seat)
        if cfg.league.learner_seats is not None:
            self.collector.learner_seats = [self.agents.index(a) for a in cfg.league.learner_seats]
        self.update = 0
        self.decisions = self.learner_decisions = self.games_played = 0
        self.wall_s = 0.0
        self.evaluations: list[dict[str, Any]] = []
        self.run_dir = cfg.run_dir
        self._games_state: dict[str, Any] | None = None
        self._update_generator = torch.Generator().manual_seed(cfg.seed + 1)

    def _start_from(self, path: Path) -> None:
        """Load ``init.checkpoint``'s network (it must be the config's network) and, for the KL
        term, keep a frozen copy of it as the reference policy."""
        try:
            start, _ = load_checkpoint(path, prior=self.cfg.network.get("prior"))
        except CheckpointError as e:
            raise ResumeError(f"init.checkpoint: {e}") from None
        if start.spec() != self.network.spec() or (start.obs_size, start.num_actions) != (
                self.network.obs_size, self.network.num_actions):
            raise ResumeError(f"init.checkpoint: {path} holds network {start.spec()} "
                              f"({start.obs_size} observations, {start.num_actions} actions); "
                              f"the config's network is {self.network.spec()}: make them equal")
        self.network.load_state_dict(start.state_dict())
        self.init_sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
        if self.cfg.init.kl > 0:
            self.reference = copy.deepcopy(self.network).eval()
            for p in self.reference.parameters():
                p.requires_grad_(False)

    # -- checkpoints ----------------------------------------------------------------------------
    def state_dict(self, games: Any) -> dict[str, Any]:
        c = self.collector
        return {
            "format": TRAINER_FORMAT, "config": self.cfg.as_dict(),
            "network": self.actor.state_dict(), "optimizer": self._optimizer_state(),
            "league": self.league.state_dict(),
            "collector": {"seats": self._storable(c.seats), "kinds": c.kinds,
                          "streams": c.streams,
                          "upcoming": [(self._storable([seats])[0], kind)
                                       for seats, kind in c.upcoming],
                          "pending": c.pending, "next_id": c.next_id,
                          "rng": c.rng.bit_generator.state,
                          "generator": c.generator.get_state()},
            "update_generator": self._update_generator.get_state(),
            **({"init_sha256": self.init_sha256} if self.init_sha256 is not None else {}),
            "counters": {"update": self.update, "decisions": self.decisions,
                         "learner_decisions": self.learner_decisions,
                         "games": self.games_played, "wall_s": self.wall_s},
            "evaluations": self.evaluations,
            "games": games.state(),
        }

    def load_state_dict(self, state: dict[str, Any], path: Path | None = None) -> None:
        """Continue from a :meth:`state_dict` (decoded; ``path``: its file, for messages)."""
        where = f"{path}: " if path is not None else ""
        if not isinstance(state, dict) or state.get("format") != TRAINER_FORMAT:
            raise ResumeError(f"{where}not a trainer checkpoint of format {TRAINER_FORMAT!r}")
        mine = {k: v for k, v in self.cfg.as_dict().items() if k not in ("updates", "out")}
        saved = {**state["config"], "game": saved_game(state["config"])}  # an older one: no key
        theirs = {k: v for k, v in saved.items() if k not in ("updates", "out")}
        if mine != theirs:
            diff = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
            raise ResumeError(f"{where}the checkpoint was trained with another config (differs "
                              f"in {diff}); only 'updates' and 'out' may change on --resume")
        # what the file's seats name is checked before anything is loaded or built
        s = state["collector"]
        self._check_opponents([*s["seats"], *(seats for seats, _ in s.get("upcoming", []))],
                              where)
        games_state = self._own_worker_seats(state["games"], where)
        self.network.load_state_dict(state["network"])
        self._sync_actor()
        self.optimizer.load_state_dict(state["optimizer"])  # (moved to the network's device)
        self.league.load_state_dict(state["league"])
        c = self.collector
        c.seats, c.kinds = self._rebuilt(s["seats"]), s["kinds"]
        c.streams = [stream.cut(0) for stream in s["streams"]]  # an older one: rounds added
        c.pending = {i: _with_prior(d) for i, d in s["pending"].items()}
        c.next_id = s["next_id"]
        c.upcoming = [(self._rebuilt([list(seats)])[0], str(kind))
                      for seats, kind in s.get("upcoming", [])]
        c.rng.bit_generator.state = s["rng"]
        c.generator.set_state(s["generator"])
        self._update_generator.set_state(state["update_generator"])
        if state.get("init_sha256") != self.init_sha256:
            raise ResumeError(f"{where}init.checkpoint is not the file this run started from "
                              f"(its sha256 differs): resume with the same file")
        k = state["counters"]
        self.update, self.decisions = k["update"], k["decisions"]
        self.learner_decisions, self.games_played = k["learner_decisions"], k["games"]
        self.wall_s = k["wall_s"]
        self.evaluations = state["evaluations"]
        self._games_state = games_state

    def _check_opponents(self, rows: list[list[Seat]], where: str) -> None:
        """Every agent seat of a checkpoint must name an opponent of this run's config (what
        :meth:`_rebuilt` builds comes from the user's config, never from the file):
        :class:`ResumeError` naming the opponent otherwise."""
        allowed = set(self.cfg.opponents)
        for row in rows:
            for seat in row:
                if getattr(seat, "kind", None) in ("agent", "worker") and not (
                        isinstance(seat.opponent, str) and seat.opponent in allowed):
                    raise ResumeError(f"{where}a seat of the checkpoint names opponent "
                                      f"{seat.opponent!r}, which this config's league.weights "
                                      f"and eval.opponents do not (known: {sorted(allowed)})")

    def _own_worker_seats(self, games: Any, where: str) -> Any:
        """The batched games' state (:meth:`boardkit.vector.VectorGames.state`) with every
        worker-side seat's spec made anew from this run's config (its game, env options and
        ``agents`` section), keeping only the checkpoint's opponent name (one of the config's)
        and seed: a spec read from the file never reaches an agent factory."""
        if not isinstance(games, dict):
            raise ResumeError(f"{where}a corrupt trainer checkpoint (its games' state is a "
                              f"{type(games).__name__})")
        allowed, cfg = set(self.cfg.opponents), self.cfg

        def own(spec: Any) -> tuple:
            name = spec[1] if isinstance(spec, (tuple, list)) and len(spec) == 5 else None
            seed = spec[2] if name is not None else None
            if not (isinstance(name, str) and name in allowed) or isinstance(seed, bool) \
                    or not isinstance(seed, int):
                raise ResumeError(f"{where}a worker seat of the checkpoint names "
                                  f"{_short(spec)}, not an opponent of this config with a seed "
                                  f"(known: {sorted(allowed)})")
            return worker_spec(cfg.game, name, seed, cfg.env, cfg.agents)

        def row(r: Any) -> dict[Any, tuple] | None:
            if r is None:
                return None
            if not isinstance(r, dict):
                raise ResumeError(f"{where}a corrupt trainer checkpoint (a worker seat row is "
                                  f"a {type(r).__name__})")
            return {h: own(spec) for h, spec in r.items()}

        out = dict(games)
        for key in ("seats", "upcoming"):
            if out.get(key) is not None:
                out[key] = [row(r) for r in out[key]]
        return out

    def _storable(self, seats: list[list[Seat]]) -> list[list[Seat]]:
        """The seats as a checkpoint holds them: an agent or prior of a class the codec does not
        store (one built from a spec) is left out, its name and seed kept to build it again
        (fresh: without its memory of the game in progress)."""
        classes = set(self.codec.classes.values())

        def storable(s: Seat) -> Seat:
            if s.agent is not None and type(s.agent) not in classes:
                s = dataclasses.replace(s, agent=None)
            if s.prior is not None and type(s.prior) not in classes:
                s = dataclasses.replace(s, prior=None)
            return s

        return [[storable(s) for s in row] for row in seats]

    def _rebuilt(self, seats: list[list[Seat]]) -> list[list[Seat]]:
        """The seats of a checkpoint, an agent left out by :meth:`_storable` built again."""
        out = []
        for row in seats:
            new = []
            for s in row:
                if s.kind == "agent" and s.agent is None:
                    s = self.make_seat(str(s.opponent), int(s.seed or 0))
                    begin_game(s.agent)
                elif s.prior_seed is not None and s.prior is None:  # a prior left out: fresh
                    make = self.collector.make_prior
                    s = dataclasses.replace(s, prior=make(s.prior_seed) if make else None)
                new.append(s)
            out.append(new)
        return out

    def _sync_actor(self) -> None:
        """The CPU copy the games are played with takes the learner's weights (a no-op on a
        CPU run, where it is the learner)."""
        if self.actor is not self.network:
            self.actor.load_state_dict(self.network.state_dict())

    def _optimizer_state(self) -> dict[str, Any]:
        """The optimiser's state with its tensors on the CPU (a checkpoint reads anywhere)."""
        state = self.optimizer.state_dict()
        if self.device.type == "cpu":
            return state
        return {"state": {k: {n: v.cpu() if torch.is_tensor(v) else v for n, v in s.items()}
                          for k, s in state["state"].items()},
                "param_groups": state["param_groups"]}

    def save(self, games: Any) -> Path:
        folder = self.run_dir / "checkpoints"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "last.pt"
        tmp = folder / "last.pt.tmp"
        torch.save(self.codec.encode(self.state_dict(games)), tmp)
        tmp.replace(path)  # never a half-written checkpoint under the real name
        return path

    def save_agent(self) -> Path:
        last = self.evaluations[-1] if self.evaluations else {}
        return save_checkpoint(self.run_dir / "agent.pt", self.actor, self.ruleset,
                               game=self.cfg.game, config=self.cfg.as_dict(), update=self.update,
                               decisions=self.decisions, evaluation=last)

    # -- the loop -------------------------------------------------------------------------------
    def learning_rate(self) -> float:
        p = self.cfg.ppo
        if p.lr_schedule == "constant":
            return p.lr
        frac = min(1.0, self.update / max(1, self.cfg.updates - 1))
        return p.lr * (1.0 - frac * (1.0 - p.lr_final_fraction))

    def run(self, progress: bool | None = None, until: int | None = None
            ) -> list[dict[str, Any]]:
        """Train up to ``cfg.updates`` updates, or pause after update ``until`` (checkpointed,
        for a later ``--resume``: a run paused and resumed gives the network an uninterrupted
        run gives); returns the evaluations."""
        stop = self.cfg.updates if until is None else min(until, self.cfg.updates)
        cfg = self.cfg
        self.run_dir.mkdir(parents=True, exist_ok=True)
        resumed = self._games_state is not None
        (self.run_dir / "config.yaml").write_text(yaml.safe_dump(cfg.as_dict(), sort_keys=False))
        log = TrainingLog(self.run_dir, cfg.tensorboard, resume=resumed,
                          opponents=cfg.opponents,
                          figures=("kl_reference",) if self.reference is not None else ())
        if resumed:
            log.truncate(self.update)
        options = {k: v for k, v in cfg.env.items() if k != "num_players"}
        workers = {"agent_factory": worker_agent} if cfg.rollout.seats_in_workers else {}
        games = make_vector_games(cfg.rollout.backend, game=cfg.game,
                                  num_games=cfg.rollout.num_games,
                                  num_players=cfg.num_players, seeds=cfg.seed,
                                  num_workers=cfg.rollout.workers, **workers, **options)
        bar = None
        if progress if progress is not None else cfg.progress:
            bar = tqdm(total=cfg.updates, initial=self.update, desc=cfg.name, unit="update",
                       dynamic_ncols=True)
        try:
            if resumed:
                batch = games.restore(self._games_state)
            else:
                batch = self.collector.start(games, self.league)
            while self.update < stop:
                batch = self._one_update(games, batch, log)
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix_str(self._postfix())
            self.save(games)
            self.save_agent()
        finally:
            if bar is not None:
                bar.close()
            log.close()
            games.close()
        plot_curve(log.path, self.run_dir / "curve.png",
                   f"{cfg.name}: {cfg.num_players} players, {self.update} updates")
        (self.run_dir / "summary.json").write_text(json.dumps(
            {"updates": self.update, "decisions": self.decisions, "games": self.games_played,
             "wall_s": round(self.wall_s, 1), "evaluations": self.evaluations}, indent=1))
        return self.evaluations

    def _one_update(self, games: Any, batch: Any, log: TrainingLog) -> Any:
        cfg = self.cfg
        t0 = time.perf_counter()
        lr = self.learning_rate()
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        batch, rollout, results, played = self.collector.collect(
            games, batch, self.actor, self.league, cfg.rollout.steps)
        t1 = time.perf_counter()
        figures = ppo_update(self.network, self.optimizer, rollout, cfg.ppo,
                             self._update_generator, reference=self.reference,
                             kl_coef=cfg.init.kl_coef(self.update),
                             value_only=self.update < cfg.init.value_warmup)
        if len(rollout.obs):
            self.network.normalizer.update(torch.as_tensor(rollout.obs).to(self.device))
        self._sync_actor()
        timing = {**self.collector.timing, "time_update_s": time.perf_counter() - t1}
        self.update += 1
        self.decisions += played
        self.learner_decisions += len(rollout.actions)
        self.games_played += len(results)
        if self.update % cfg.league.snapshot_every == 0:
            self.league.add_snapshot(self.update, self.actor)
        row: dict[str, Any] = {"update": self.update, "decisions": self.decisions,
                               "learner_decisions": self.learner_decisions,
                               "games": self.games_played, "lr": lr, **figures,
                               **_training_win_rates(results, cfg.opponents)}
        last = self.update == cfg.updates
        t2 = time.perf_counter()
        if self.update % cfg.eval.every == 0 or last:
            row.update(self._evaluate())
        timing["time_eval_s"] = time.perf_counter() - t2
        row.update({k: round(v, 3) for k, v in timing.items()})
        self.wall_s += time.perf_counter() - t0
        row["wall_s"] = round(self.wall_s, 2)
        row["decisions_per_s"] = round(self.decisions / max(self.wall_s, 1e-9), 1)
        log.write(row)
        if self.update % cfg.checkpoint_every == 0 or last:
            self.save(games)
            self.save_agent()
        return batch

    def _evaluate(self) -> dict[str, Any]:
        cfg = self.cfg
        row: dict[str, Any] = {}
        entry: dict[str, Any] = {"update": self.update, "decisions": self.decisions}
        for opponent in cfg.eval.opponents:
            e: Evaluation = evaluate(self.actor, opponent, cfg.eval.games, cfg.game, cfg.env,
                                     cfg.seed, cfg.eval.greedy, cfg.eval.workers,
                                     self.make_seat, cfg.eval.seats_in_workers, cfg.agents,
                                     self.collector.learner_seats)
            lo, hi = e.interval
            row.update({f"eval_{opponent}": e.rate, f"eval_{opponent}_lo": lo,
                        f"eval_{opponent}_hi": hi})
            entry[opponent] = {"wins": e.wins, "games": e.games, "rate": e.rate,
                               "ci95": [lo, hi]}
            if not cfg.progress:
                self.log(f"update {self.update}: {e}")
        self.evaluations.append(entry)
        return row

    def _postfix(self) -> str:
        if not self.evaluations:
            return ""
        e = self.evaluations[-1]
        parts = [f"{o} {e[o]['rate']:.0%}" for o in self.cfg.eval.opponents if o in e]
        return f"eval@{e['update']}: " + ", ".join(parts)


def _training_win_rates(results: list[GameResult], opponents: tuple[str, ...] = ()
                        ) -> dict[str, float]:
    out: dict[str, float] = {}
    base = ("random", "heuristic", "snapshots")
    for kind in (*base, *(o for o in opponents if o not in base)):
        won = [r.learner_won for r in results if r.opponents == kind]
        if won:
            out[f"train_win_{kind}"] = float(np.mean(won))
    return out


def load_trainer(cfg: TrainConfig, resume: str | Path | None) -> Trainer:
    """The trainer of ``cfg``, continuing from the trainer checkpoint ``resume`` if given. A
    file that is not a plain-data trainer checkpoint of this config raises
    :class:`~agents.ppo.CheckpointError` (:class:`ResumeError`) naming it."""
    trainer = Trainer(cfg)
    if resume is not None:
        path = Path(resume)
        state = read_trainer_state(path, trainer.codec)
        try:
            trainer.load_state_dict(state, path)
        except ResumeError:
            raise
        except (KeyError, TypeError, ValueError, RuntimeError) as e:  # a part missing or wrong
            raise ResumeError(f"{path}: a corrupt trainer checkpoint ({type(e).__name__}: "
                              f"{e})") from None
    return trainer
