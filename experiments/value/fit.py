"""The value network fitted on the training games' rows (:mod:`.split`), stopped early on the
validation games' loss, saved as a value checkpoint (:func:`agents.value.save_value`) with a
``fit.json`` beside the run's shards saying how it went.

The loss is the squared error of the sigmoid output against the seat's final share of the win
(what the report's explained variance measures). The input is standardised by the training
rows' mean and scale (a feature that never varies there is left unscaled). The weights kept are
the epoch's with the lowest validation loss; the held-out games are never read here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import numpy as np
import torch

from agents.devices import torch_device, torch_threads
from agents.value import ValueNet, save_value

from .config import ValueConfig
from .data import Rows, load_rows
from .split import TRAIN, VALIDATION, game_parts

#: Rows converted to float at a time (the stored observations are compact: uint8 for AGoT).
BLOCK = 4096
#: The smallest scale a feature is divided by: a feature that is almost always 0 in training
#: must not blow up the one row where it is not.
MIN_SCALE = 0.1


def standardisation(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows' mean and scale per feature (float64 sums over blocks, no full float copy)."""
    total = np.zeros(obs.shape[1])
    square = np.zeros(obs.shape[1])
    for at in range(0, len(obs), BLOCK):
        x = obs[at:at + BLOCK].astype(np.float64)
        total += x.sum(0)
        square += (x * x).sum(0)
    mean = total / len(obs)
    std = np.sqrt(np.maximum(square / len(obs) - mean * mean, 0.0))
    return mean, np.maximum(std, MIN_SCALE)


def mean_loss(net: ValueNet, rows: Rows, device: torch.device) -> float:
    """The mean squared error of ``net`` over ``rows``."""
    net.eval()
    total = 0.0
    with torch.no_grad():
        for at in range(0, len(rows), BLOCK):
            x = torch.as_tensor(rows.obs[at:at + BLOCK], dtype=torch.float32, device=device)
            y = torch.as_tensor(rows.targets[at:at + BLOCK], device=device)
            total += float(((net(x) - y) ** 2).sum())
    return total / max(len(rows), 1)


def train(net: ValueNet, train_rows: Rows, valid_rows: Rows, cfg: ValueConfig,
          device: torch.device, say: Callable[[str], None] | None = None) -> list[dict]:
    """Epochs of AdamW on ``train_rows`` until ``fit.patience`` epochs pass without a lower
    validation loss or ``fit.epochs`` are done; ``net`` ends with the best epoch's weights.
    The per-epoch losses (epoch 0: before any step)."""
    f = cfg.fit
    opt = torch.optim.AdamW(net.parameters(), lr=f.lr, weight_decay=f.weight_decay)
    gen = np.random.default_rng(f.seed)
    best = mean_loss(net, valid_rows, device)
    history = [{"epoch": 0, "train": mean_loss(net, train_rows, device), "validation": best}]
    best_state = {k: v.clone() for k, v in net.state_dict().items()}
    waited = 0
    for epoch in range(1, f.epochs + 1):
        net.train()
        order = gen.permutation(len(train_rows))
        total = 0.0
        for at in range(0, len(order), f.minibatch):
            rows = np.sort(order[at:at + f.minibatch])
            x = torch.as_tensor(train_rows.obs[rows], dtype=torch.float32, device=device)
            y = torch.as_tensor(train_rows.targets[rows], device=device)
            loss = ((net(x) - y) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(rows)
        valid = mean_loss(net, valid_rows, device)
        history.append({"epoch": epoch, "train": total / len(order), "validation": valid})
        if say is not None:
            say(f"fit: epoch {epoch}: train {total / len(order):.4f}, validation {valid:.4f}")
        if valid < best:
            best, waited = valid, 0
            best_state = {k: v.clone() for k, v in net.state_dict().items()}
        else:
            waited += 1
            if waited >= f.patience:
                break
    net.load_state_dict(best_state)
    return history


def fit(cfg: ValueConfig, say: Callable[[str], None] | None = None) -> dict:
    """Fit the value on the config's shards and save it (``checkpoint``); the fit's summary,
    also written to ``fit.json`` in the run folder."""
    device = torch_device(cfg.fit.device)
    torch.manual_seed(cfg.fit.seed)
    start = time.perf_counter()
    rows = load_rows(cfg)
    part = game_parts(rows.games, cfg.fit.validation, cfg.fit.holdout, cfg.fit.seed)
    train_rows = rows.take(np.flatnonzero(part == TRAIN))
    valid_rows = rows.take(np.flatnonzero(part == VALIDATION))
    if not len(train_rows) or not len(valid_rows):
        raise ValueError(f"fit: {cfg.data.games} games leave no training or no validation "
                         f"game (fit.validation {cfg.fit.validation}, fit.holdout "
                         f"{cfg.fit.holdout}): record more games")
    net = ValueNet(rows.obs.shape[1], cfg.fit.hidden)
    mean, scale = standardisation(train_rows.obs)
    net.mean.copy_(torch.as_tensor(mean, dtype=torch.float32))
    net.scale.copy_(torch.as_tensor(scale, dtype=torch.float32))
    net.to(device)
    with torch_threads(cfg.fit.threads):
        history = train(net, train_rows, valid_rows, cfg, device, say)
    path = save_value(cfg.checkpoint_path, net, cfg.game, cfg.as_dict())
    best = min(history, key=lambda h: h["validation"])
    summary = {"checkpoint": str(path), "games": cfg.data.games,
               "train_games": int(np.unique(train_rows.games).size),
               "validation_games": int(np.unique(valid_rows.games).size),
               "train_rows": len(train_rows), "validation_rows": len(valid_rows),
               "best_epoch": best["epoch"], "seconds": round(time.perf_counter() - start, 1),
               "device": cfg.fit.device, "history": history}
    cfg.run_dir.mkdir(parents=True, exist_ok=True)
    (cfg.run_dir / "fit.json").write_text(json.dumps(summary, indent=1) + "\n")
    if say is not None:
        say(f"fit: best epoch {best['epoch']} (validation {best['validation']:.4f}) of "
            f"{len(history) - 1}; {len(train_rows)} training rows of "
            f"{summary['train_games']} games; saved {path} "
            f"({summary['seconds']:.0f} s)")
    return summary
