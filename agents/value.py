"""A learned value: a seat's observation in, its expected share of the win out (γ = 1: the
share it ends the game with, whatever the number of decisions before), fitted by
``python -m experiments.value`` (docs/value.md) and loaded here by any tool or agent
(:func:`load_value`), so that a search can score its rollouts' last positions by it.

The checkpoint is plain data (tensors and builtins, read with ``torch.load(weights_only=True)``):
``format`` (:data:`VALUE_FORMAT`), ``game`` (its registry name), ``obs_size``, ``hidden``
(the layer widths), ``state_dict`` (the MLP's weights, with the input's mean and scale) and
``config`` (the value config that fitted it, plain data). A file for another game or
observation size is refused by :func:`load_value` naming both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.devices import torch_device
from agents.ppo import CheckpointError, read_torch_file

#: What a value checkpoint says it is (a PPO checkpoint or another file is refused).
VALUE_FORMAT = "boardkit-value-1"
#: Where a value may be fitted (``device:`` of the value config; :mod:`agents.devices`).
DEVICES = ("cpu", "cuda")
#: The keys every value checkpoint holds.
VALUE_KEYS = ("format", "game", "obs_size", "hidden", "state_dict", "config")


class ValueNet(nn.Module):
    """An MLP from an observation to one logit; the value is its sigmoid (a share of the win
    lies in [0, 1]). The input is standardised by the training rows' mean and scale, kept as
    buffers so that they travel in the state dict."""

    def __init__(self, obs_size: int, hidden: Sequence[int]):
        super().__init__()
        self.register_buffer("mean", torch.zeros(obs_size))
        self.register_buffer("scale", torch.ones(obs_size))
        layers: list[nn.Module] = []
        width = obs_size
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        layers.append(nn.Linear(width, 1))
        self.body = nn.Sequential(*layers)

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        return self.body((obs - self.mean) / self.scale).squeeze(-1)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.logits(obs))


class ValueFunction:
    """A loaded value: ``value(observations)`` with float ``[n, obs_size]`` observations (one
    seat's each, as the game's env gives them) returns float32 ``[n]``: each seat's expected
    share of the win, in [0, 1]."""

    def __init__(self, net: ValueNet, game: str, obs_size: int, config: Mapping[str, Any],
                 device: str = "cpu"):
        self.net = net.to(torch_device(device)).eval()
        self.game, self.obs_size, self.config = game, obs_size, dict(config)
        self.device = device

    def __call__(self, observations: np.ndarray) -> np.ndarray:
        obs = np.asarray(observations)
        if obs.ndim != 2 or obs.shape[1] != self.obs_size:
            raise ValueError(f"value of {self.game}: observations must be [n, {self.obs_size}]"
                             f", got shape {list(obs.shape)}")
        with torch.no_grad():
            x = torch.as_tensor(obs, dtype=torch.float32, device=self.net.mean.device)
            return self.net(x).cpu().numpy().astype(np.float32)


def save_value(path: str | Path, net: ValueNet, game: str, config: Mapping[str, Any]) -> Path:
    """Write ``net`` as a value checkpoint (its weights on the CPU) for ``game``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    hidden = [m.out_features for m in net.body if isinstance(m, nn.Linear)][:-1]
    state = {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}
    torch.save({"format": VALUE_FORMAT, "game": game, "obs_size": int(net.mean.shape[0]),
                "hidden": hidden, "state_dict": state, "config": dict(config)}, path)
    return path


def load_value(path: str | Path, game: str | None = None, obs_size: int | None = None,
               device: str = "cpu") -> ValueFunction:
    """The value a :func:`save_value` file holds. ``game`` / ``obs_size`` given: a file for
    another game or observation size is refused (:class:`agents.ppo.CheckpointError`, naming
    the file and both); so is a file of another format or a corrupt one."""
    path = Path(path)
    data = read_torch_file(path, "value checkpoint")
    if not isinstance(data, dict) or data.get("format") != VALUE_FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise CheckpointError(f"{path}: not a value checkpoint (format {found!r}, expected "
                              f"{VALUE_FORMAT!r})")
    missing = [k for k in VALUE_KEYS if k not in data]
    if missing:
        raise CheckpointError(f"{path}: a value checkpoint without {', '.join(missing)}")
    if game is not None and data["game"] != game:
        raise CheckpointError(f"{path}: a value of game {data['game']!r}, not {game!r}")
    if obs_size is not None and int(data["obs_size"]) != int(obs_size):
        raise CheckpointError(f"{path}: a value of observations of size {data['obs_size']}, "
                              f"not {obs_size}")
    net = ValueNet(int(data["obs_size"]), [int(h) for h in data["hidden"]])
    try:
        net.load_state_dict(data["state_dict"])
    except (RuntimeError, TypeError, AttributeError) as e:  # torch's words: missing or misshapen
        raise CheckpointError(f"{path}: its weights do not fit its hidden sizes "
                              f"{data['hidden']}: {str(e).splitlines()[0]}") from None
    return ValueFunction(net, str(data["game"]), int(data["obs_size"]), data["config"], device)
