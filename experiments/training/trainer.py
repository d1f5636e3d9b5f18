"""The trainer: one config's run of PPO self-play, checkpointed as plain data for exact resume.

What one update does (docs/training.md has the details and the reasons):

1. **Rollout**: ``rollout.steps`` lockstep steps of ``rollout.num_games`` games of the config's
   ``game`` in the batched API (:mod:`boardkit.vector`, worker processes or Ray actors), the
   learner deciding for its seats with one forward pass, its league opponents for theirs
   (:mod:`.rollout`).
2. **Advantages per house**: GAE over each house's own chain of decisions, with a
   potential-based shaping reward from its observation where the game has one (AGoT;
   :mod:`.advantages`).
3. **PPO**: clipped objective, value loss, entropy bonus, ``ppo.epochs`` epochs of
   minibatches; the learning rate follows ``ppo.lr_schedule`` (:mod:`.update`). Then the
   observation normaliser takes in the rollout's observations.
4. Every ``league.snapshot_every`` updates a snapshot joins the league; every ``eval.every``
   an evaluation against random and heuristic play (win rates, 95% Wilson intervals); every
   ``checkpoint_every`` a checkpoint.

The run folder ``<out>/<name>/`` holds ``config.yaml``, ``progress.csv`` (every figure per
update), ``tensorboard/``, ``curve.png``, ``checkpoints/last.pt`` (the whole trainer: network,
optimiser, normaliser, league, collector, games in progress, random generators, counters:
``--resume`` continues exactly where it stopped, giving the same network as an uninterrupted
run) and ``agent.pt`` (the network alone, what ``PPOAgent(checkpoint=...)`` plays).

``last.pt`` is plain data (format :data:`TRAINER_FORMAT`): the seats, agents, streams and game
records in it are encoded by :class:`.plain.PlainCodec`, so that ``--resume`` reads it with
``torch.load(weights_only=True)`` and a crafted file cannot run code. An opponent agent of a
class the codec does not store (one built from an agent spec: a PPO checkpoint, say) is saved as
its name and seed and built again on ``--resume``, fresh.

The trainer reaches its game only through the kit: the env of ``boardkit.envs.make_env(game,
**env)`` (its seats, its observation and action spaces), the batched API of that game, and
the per-game hooks of :mod:`.game_hooks` (AGoT's shaping, winner and baselines); the network
through :func:`agents.ppo.build_network` for that game.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
import yaml

from agents.base import begin_game
from agents.ppo import (
    CheckpointError,
    UnsafeCheckpointError,
    build_network,
    load_checkpoint,
    read_torch_file,
    save_checkpoint,
)
from agents.random_agent import RandomAgent
from boardkit.envs import make_env
from boardkit.records import GameRecord
from boardkit.vector import make_vector_games

from . import game_hooks
from .config import TrainConfig
from .evaluate import Evaluation, evaluate
from .league import League
from .logs import TrainingLog, plot_curve
from .plain import PlainCodec
from .rollout import (
    Collector,
    GameResult,
    Seat,
    Stream,
    prior_maker,
    seat_maker,
    worker_agent,
)
from .update import ppo_update

#: The trainer checkpoint's format: 2 is plain data; 1 (before) pickled Python objects.
TRAINER_FORMAT = "got_env-train-2"
OLD_TRAINER_FORMATS = ("got_env-train-1",)
#: The classes a trainer checkpoint holds besides builtins, tensors and numpy data: the seats,
#: the streams, the random agents in the seats, the game records of the games in progress (the
#: kit's, every game's); a game's own (AGoT: its heuristic, its decision kinds) come from its
#: hooks (:func:`.game_hooks.resume_classes`).
RESUME_CLASSES = (Seat, Stream, RandomAgent, GameRecord)


def resume_codec(game: str) -> PlainCodec:
    """The codec of the trainer checkpoints of ``game``."""
    return PlainCodec((*RESUME_CLASSES, *game_hooks.resume_classes(game)))


#: AGoT's codec (the classes every trainer checkpoint held before the trainer was game-neutral).
CODEC = resume_codec("got")
#: Where the classes an old (pickled) trainer checkpoint names come from: such a file is told
#: apart from a foreign one by them alone, without being unpickled.
OLD_FORMAT_MODULES = ("experiments.", "agents.", "got_env.", "numpy.")


class ResumeError(CheckpointError):
    """A trainer checkpoint that cannot be resumed (another format, or another config)."""


def observation_potential(cfg: TrainConfig, env: Any) -> Any:
    """Phi of a house's own observation, as ``cfg.shaping`` weighs it, for the config's game
    (AGoT: castles held out of those that win, the supply level out of 6); None: no shaping."""
    return game_hooks.potential(cfg.game, cfg.shaping, env)


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
        self.ruleset = game_hooks.variant(cfg.game, probe)
        self.agents = list(probe.possible_agents)
        seat = self.agents[0]
        obs_size = int(probe.observation_space(seat)["observation"].shape[0])
        num_actions = int(probe.action_space(seat).n)
        torch.manual_seed(cfg.seed)
        self.network = build_network(cfg.network, self.ruleset, game=cfg.game,
                                     obs_size=obs_size, num_actions=num_actions)
        self.reference: torch.nn.Module | None = None
        self.init_sha256: str | None = None
        if cfg.init.checkpoint is not None:
            self._start_from(Path(cfg.init.checkpoint))
        elif cfg.init.kl > 0 and self.network.prior is not None:
            self.reference = prior_policy(self.network)
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=cfg.ppo.lr, eps=1e-5)
        self.league = League(cfg.league)
        self.make_seat = seat_maker(cfg, probe)
        self.codec = resume_codec(cfg.game)
        self.collector = Collector(cfg, len(self.agents), obs_size,
                                   observation_potential(cfg, probe), self.make_seat)
        self.collector.make_prior = prior_maker(self.network, self.make_seat)
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
            start, _ = load_checkpoint(path)
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
            "network": self.network.state_dict(), "optimizer": self.optimizer.state_dict(),
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
        theirs = {k: v for k, v in state["config"].items() if k not in ("updates", "out")}
        if mine != theirs:
            diff = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
            raise ResumeError(f"{where}the checkpoint was trained with another config (differs "
                              f"in {diff}); only 'updates' and 'out' may change on --resume")
        self.network.load_state_dict(state["network"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.league.load_state_dict(state["league"])
        c, s = self.collector, state["collector"]
        c.seats, c.kinds, c.streams = self._rebuilt(s["seats"]), s["kinds"], s["streams"]
        c.pending, c.next_id = s["pending"], s["next_id"]
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
        self._games_state = state["games"]

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
        return save_checkpoint(self.run_dir / "agent.pt", self.network, self.ruleset,
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
            from tqdm import tqdm
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
            games, batch, self.network, self.league, cfg.rollout.steps)
        t1 = time.perf_counter()
        figures = ppo_update(self.network, self.optimizer, rollout, cfg.ppo,
                             self._update_generator, reference=self.reference,
                             kl_coef=cfg.init.kl_coef(self.update),
                             value_only=self.update < cfg.init.value_warmup)
        if len(rollout.obs):
            self.network.normalizer.update(torch.as_tensor(rollout.obs))
        timing = {**self.collector.timing, "time_update_s": time.perf_counter() - t1}
        self.update += 1
        self.decisions += played
        self.learner_decisions += len(rollout.actions)
        self.games_played += len(results)
        if self.update % cfg.league.snapshot_every == 0:
            self.league.add_snapshot(self.update, self.network)
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
            e: Evaluation = evaluate(self.network, opponent, cfg.eval.games, cfg.env, cfg.seed,
                                     cfg.eval.greedy, cfg.eval.workers, cfg.game,
                                     self.make_seat, cfg.eval.seats_in_workers, cfg.agents)
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


def read_trainer_state(path: Path, codec: PlainCodec = CODEC) -> dict[str, Any]:
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


def _old_format(path: Path, names: list[str]) -> str:
    held = f" ({', '.join(names)})" if names else ""
    return (f"{path}: a trainer checkpoint of the old format {OLD_TRAINER_FORMATS[-1]!r}, which "
            f"pickled Python objects{held}; this version reads plain data only (format "
            f"{TRAINER_FORMAT!r}) and cannot convert it safely: start the run again (its "
            f"agent.pt still plays)")
