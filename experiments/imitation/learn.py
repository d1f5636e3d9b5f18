"""Fitting the PPO network to the teacher's decisions, and measuring how well it copies it.

The network is :func:`agents.ppo.build_network` of the config's spec, the very one the PPO
trainer builds, so that the PPO stage can start from ``agent.pt``. Its loss per decision is the
cross-entropy of the teacher's action under the masked logits (illegal actions have probability
0, so only the legal ones compete) plus ``value_coef`` times the squared error of the value
head against the acting player's win share. The observation normaliser's statistics are set
once from the training decisions, before the first step, and then kept: PPO continues them.

The network and its batches live on ``cfg.device`` while it is fitted (the games, DAgger's
and the evaluation's, are played on the CPU); every epoch can be saved (:class:`FitState`) and
a paused fit continues from it to the network the fit in one go gives.

The split is by game (:func:`split`): a held-out decision's position never shares a game with
a training one. Held-out accuracy is top-1 agreement with the teacher; chance is the mean of
1 / (legal actions) over the same decisions, what a uniform legal policy would score.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from agents import make_agent
from agents.base import begin_game, end_game
from agents.devices import torch_device, torch_threads
from agents.ppo import build_network
from boardkit.envs import make_env
from boardkit.outcome import win_shares
from experiments.training.ppo import Evaluation

from .config import ImitateConfig
from .data import GAME_SEED_STRIDE, collect, play_game
from .dataset import Dataset

#: Decisions per forward pass when only measuring (no gradient): bounds the float32 copy.
EVAL_BATCH = 2048
#: Evaluation game seeds start here past the data's: they never replay a recorded game.
EVAL_SEED_OFFSET = GAME_SEED_STRIDE // 2


@dataclass(frozen=True)
class Split:
    train: np.ndarray      #: row indices of the training decisions
    heldout: np.ndarray    #: row indices of the held-out decisions
    heldout_games: list[int]


def split(data: Dataset, holdout: float, seed: int) -> Split:
    """Hold out ``round(holdout * games)`` games (at least one, at most all but one), drawn by
    ``seed``; every decision of a held-out game is held out."""
    games = np.unique(data.games)
    n = min(max(1, round(holdout * len(games))), len(games) - 1)
    held = np.sort(np.random.default_rng(seed).choice(games, size=n, replace=False))
    is_held = np.isin(data.games, held)
    return Split(np.flatnonzero(~is_held), np.flatnonzero(is_held), held.tolist())


def _batch(data: Dataset, rows: np.ndarray, device: Any = None) -> tuple[torch.Tensor, ...]:
    obs = torch.as_tensor(data.obs[rows].astype(np.float32))
    mask = torch.as_tensor(data.unpacked_masks(rows))
    batch = (obs, mask, torch.as_tensor(data.actions[rows].astype(np.int64)),
             torch.as_tensor(data.values[rows]))
    return batch if device is None else tuple(x.to(device) for x in batch)


def _losses(network: torch.nn.Module, batch: tuple[torch.Tensor, ...]
            ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(policy cross-entropy, value MSE, number of correct top-1 actions) of a batch."""
    obs, mask, actions, values = batch
    logits, value = network(obs, mask)
    policy = F.cross_entropy(logits, actions)
    return policy, F.mse_loss(value, values), (logits.argmax(-1) == actions).sum()


@torch.no_grad()
def measure(network: torch.nn.Module, data: Dataset, rows: np.ndarray,
            value_coef: float) -> dict[str, float]:
    """Mean losses and top-1 accuracy of ``network`` over ``rows``, in batches."""
    network.eval()
    device = next(network.parameters()).device
    sums = np.zeros(3)
    for start in range(0, len(rows), EVAL_BATCH):
        part = rows[start:start + EVAL_BATCH]
        policy, value, correct = _losses(network, _batch(data, part, device))
        sums += [float(policy) * len(part), float(value) * len(part), float(correct)]
    n = max(len(rows), 1)
    policy, value, accuracy = sums / n
    return {"policy_loss": float(policy), "value_loss": float(value),
            "loss": float(policy + value_coef * value), "accuracy": float(accuracy)}


def chance_accuracy(data: Dataset, rows: np.ndarray) -> float:
    """The expected top-1 agreement of a uniform policy over the legal actions."""
    return float(np.mean(1.0 / data.legal_counts()[rows])) if len(rows) else 0.0


def new_network(cfg: ImitateConfig, data: Dataset, ruleset: str | None) -> torch.nn.Module:
    """The PPO trainer's network for the config's game, seeded from the run's seed."""
    torch.manual_seed(cfg.seed)
    return build_network(cfg.network, ruleset, game=cfg.game, obs_size=int(data.obs.shape[1]),
                         num_actions=data.num_actions)


@dataclass
class FitState:
    """A fit between two epochs, as plain data (``torch.load(weights_only=True)`` reads it):
    the network's and the optimiser's state, the shuffling generator's and torch's, the last
    epoch done, and the rows logged so far. ``run_config``: the run's config (a resumed run's
    must be equal)."""

    epoch: int
    network: dict[str, Any]
    optimizer: dict[str, Any]
    rng: dict[str, Any]
    torch_rng: torch.Tensor
    rows: list[dict[str, float]]

    def plain(self) -> dict[str, Any]:
        return {"epoch": self.epoch, "network": self.network, "optimizer": self.optimizer,
                "rng": self.rng, "torch_rng": self.torch_rng, "rows": self.rows}


def fit(cfg: ImitateConfig, data: Dataset, network: torch.nn.Module, parts: Split,
        log: Any = None, epochs: int | None = None, first_epoch: int = 1,
        dagger_round: int = 0, *, saved: FitState | None = None,
        save: Callable[[FitState], None] | None = None,
        until: int | None = None) -> list[dict[str, float]]:
    """Train ``network`` for ``cfg.train.epochs`` epochs of shuffled minibatches with Adam;
    one row per epoch (the training figures averaged over its steps, the held-out ones
    measured after it), each passed to ``log(row)`` as it is made. Runs on
    ``cfg.train.threads`` torch threads and gives the process its own count back after, so a
    later run in the same process (a test's PPO run beside a subprocess's) keeps its own.

    ``save``: called with the :class:`FitState` after every epoch; ``saved``: a state to go on
    from (its epochs are not trained again; the rows returned are all of them); ``until``:
    stop after that epoch (a pause: :meth:`FitState` saved, the rows so far returned).
    The network is fitted on ``cfg.device`` and given back on the CPU."""
    try:
        with torch_threads(cfg.train.threads):
            return _fit(cfg, data, network, parts, log, epochs, first_epoch, dagger_round,
                        saved, save, until)
    finally:
        network.cpu()


def _fit(cfg: ImitateConfig, data: Dataset, network: torch.nn.Module, parts: Split,
         log: Any, epochs: int | None, first_epoch: int, dagger_round: int,
         saved: FitState | None, save: Callable[[FitState], None] | None, until: int | None
         ) -> list[dict[str, float]]:
    t = cfg.train
    device = torch_device(cfg.device)
    torch.manual_seed(cfg.seed + dagger_round)
    rng = np.random.default_rng(cfg.seed + 1 + dagger_round)
    if dagger_round == 0 and saved is None:  # the normaliser: once, from the teacher's data
        for start in range(0, len(parts.train), EVAL_BATCH):
            rows = parts.train[start:start + EVAL_BATCH]
            network.normalizer.update(torch.as_tensor(data.obs[rows].astype(np.float32)))
    network.to(device)
    optimizer = torch.optim.Adam(network.parameters(), lr=t.lr)
    chance = chance_accuracy(data, parts.heldout)
    rows_out: list[dict[str, float]] = []
    start_epoch = first_epoch
    if saved is not None:
        network.load_state_dict(saved.network)
        optimizer.load_state_dict(saved.optimizer)
        rng.bit_generator.state = saved.rng
        torch.set_rng_state(saved.torch_rng)
        rows_out, start_epoch = list(saved.rows), saved.epoch + 1
    for epoch in range(start_epoch, first_epoch + (t.epochs if epochs is None else epochs)):
        network.train()
        order = rng.permutation(parts.train)
        sums, n = np.zeros(3), 0
        for start in range(0, len(order), t.minibatch):
            part = np.sort(order[start:start + t.minibatch])  # sorted: cheaper gathers
            policy, value, correct = _losses(network, _batch(data, part, device))
            loss = policy + t.value_coef * value
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(network.parameters(), t.max_grad_norm)
            optimizer.step()
            sums += [policy.item() * len(part), value.item() * len(part), correct.item()]
            n += len(part)
        held = measure(network, data, parts.heldout, t.value_coef)
        row = {"epoch": epoch, "train_policy_loss": float(sums[0] / n),
               "train_value_loss": float(sums[1] / n), "train_accuracy": float(sums[2] / n),
               **{f"heldout_{k}": v for k, v in held.items()}, "chance_accuracy": chance,
               "dagger_round": dagger_round, "train_decisions": len(parts.train)}
        rows_out.append(row)
        if log is not None:
            log(row)
        if save is not None:
            save(FitState(epoch, _on_cpu(network.state_dict()), _on_cpu(optimizer.state_dict()),
                          rng.bit_generator.state, torch.get_rng_state(), list(rows_out)))
        if until is not None and epoch >= until:
            break
    network.eval()
    return rows_out


def _on_cpu(state: Any) -> Any:
    """A state dict with every tensor on the CPU (the same tensors on a CPU run)."""
    if torch.is_tensor(state):
        return state.cpu()
    if isinstance(state, dict):
        return {k: _on_cpu(v) for k, v in state.items()}
    if isinstance(state, list):
        return [_on_cpu(v) for v in state]
    return state


def sampler(network: torch.nn.Module, seed: int) -> Any:
    """The network as a DAgger round's player: an action sampled from its masked policy."""
    generator = torch.Generator().manual_seed(seed)

    @torch.no_grad()
    def play(obs: np.ndarray, mask: np.ndarray) -> int:
        logits, _ = network(torch.as_tensor(obs, dtype=torch.float32)[None],
                            torch.as_tensor(mask)[None])
        return int(torch.multinomial(torch.softmax(logits, -1), 1, generator=generator))

    return play


def dagger_rounds(cfg: ImitateConfig, data: Dataset, network: torch.nn.Module, parts: Split,
                  log: Any = None) -> tuple[Dataset, Split, list[dict[str, float]]]:
    """``cfg.dagger.rounds`` DAgger rounds after the first fit (:class:`DaggerSection`): the
    grown dataset, its split (every new decision trains; the held-out games stay the
    teacher's own, so the accuracy stays comparable) and the rounds' epoch rows."""
    d, rows = cfg.dagger, []
    network.eval()
    for r in range(1, d.rounds + 1):
        first = cfg.data.games + (r - 1) * d.games
        new = collect(cfg, policy=sampler(network, cfg.seed * 7919 + r), games=d.games,
                      first=first)
        old = len(data)
        data = data.joined(new)
        parts = Split(np.concatenate([parts.train, np.arange(old, len(data))]),
                      parts.heldout, parts.heldout_games)
        rows += fit(cfg, data, network, parts, log, epochs=d.epochs,
                    first_epoch=cfg.train.epochs + (r - 1) * d.epochs + 1, dagger_round=r)
        network.eval()
    return data, parts, rows


@torch.no_grad()
def evaluate_against_teacher(cfg: ImitateConfig, network: torch.nn.Module) -> Evaluation:
    """The imitated policy in one seat against the teacher in every other, game ``i`` seating
    it at seat ``i mod n``, through the AEC env (not the batched evaluation of the PPO
    trainer: a teacher such as IS-MCTS searches the live env, which the batched API does not
    give an agent). Games from seeds the data never used."""
    env = make_env(cfg.game, **cfg.env)
    agents = list(env.possible_agents)
    n = len(agents)
    base = cfg.seed * GAME_SEED_STRIDE + EVAL_SEED_OFFSET
    teachers = {a: make_agent(cfg.teacher, env=env, seed=base + 7919 * (h + 1))
                for h, a in enumerate(agents)}
    network.eval()
    wins = 0.0
    for g in range(cfg.eval.games):
        learner = agents[g % n]
        env.reset(seed=base + g)
        generator = torch.Generator().manual_seed(base + g)
        for a, t in teachers.items():
            if a != learner:
                begin_game(t)

        def decide(agent: str, obs: np.ndarray, mask: np.ndarray, info: dict,
                   learner: str = learner, generator: torch.Generator = generator) -> int:
            if agent != learner:
                return int(teachers[agent].act(obs, mask, info))
            logits, _ = network(torch.as_tensor(obs, dtype=torch.float32)[None],
                                torch.as_tensor(mask)[None])
            return (int(logits.argmax(-1)) if cfg.eval.greedy else
                    int(torch.multinomial(torch.softmax(logits, -1), 1, generator=generator)))

        ended = play_game(env, decide)
        for a, t in teachers.items():
            if a != learner:
                end_game(t, ended.get(a, 0.0), env.infos.get(a, {}))
        shares = win_shares(env.rules.outcome(env.game))
        wins += float(shares[env.rules.player_index(env.game, learner)])
    return Evaluation(str(cfg.teacher), wins, cfg.eval.games)
