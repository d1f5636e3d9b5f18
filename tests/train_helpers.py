"""What the trainer's tests share: a run paused and resumed against the same run in one go."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import torch

from experiments.training.config import parse_config
from experiments.training.ppo import Trainer, load_trainer


def assert_same_network(a: Trainer, b: Trainer) -> None:
    """Every weight and buffer of the two trainers' networks equal, bit for bit."""
    for (k, v), w in zip(a.network.state_dict().items(), b.network.state_dict().values(),
                         strict=True):
        assert torch.equal(v, w), k


def paused_and_resumed(config: Callable[[Path], dict], tmp_path: Path, until: int = 2
                       ) -> tuple[Trainer, Trainer]:
    """(the run of ``config(tmp_path / "a")`` in one go, the run of ``config(tmp_path / "b")``
    paused after update ``until`` and resumed from its checkpoint), after asserting that both
    end with the same counters and the same network. ``config(folder)``: a raw config whose
    ``out`` is ``folder``, named ``tiny``."""
    straight = Trainer(parse_config(config(tmp_path / "a")))
    straight.run()
    Trainer(parse_config(config(tmp_path / "b"))).run(until=until)
    resumed = load_trainer(parse_config(config(tmp_path / "b")),
                           tmp_path / "b" / "tiny" / "checkpoints" / "last.pt")
    resumed.run()
    assert (resumed.update, resumed.decisions, resumed.learner_decisions,
            resumed.games_played) == (straight.update, straight.decisions,
                                      straight.learner_decisions, straight.games_played)
    assert_same_network(straight, resumed)
    return straight, resumed
