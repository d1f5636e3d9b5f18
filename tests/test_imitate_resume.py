"""Issue 39 item 5 for the imitation: a fit paused between epochs and resumed by running the
same command again equals the fit in one go (weights, progress rows, summary), with and
without its saved dataset and with DAgger rounds after it; ``device`` (cpu as before, cuda
refused without a GPU)."""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path

import pytest
import torch
import yaml
from test_imitate import goofspiel_config

from agents.ppo import load_checkpoint
from experiments import imitate
from experiments.imitation.config import ConfigError, parse_config


def _weights(folder: Path) -> dict[str, torch.Tensor]:
    return load_checkpoint(folder / "agent.pt")[1]["state_dict"]


def _rows(folder: Path) -> list[dict[str, str]]:
    with open(folder / "progress.csv") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("changes", [
    {},                                                        # dataset.npz read back
    {"data": {"games": 12, "save": False}},                    # the games played again
    {"dagger": {"rounds": 1, "games": 4, "epochs": 2}},        # DAgger after the fit
])
def test_a_paused_and_resumed_fit_equals_the_fit_in_one_go(tmp_path: Path,
                                                           changes: dict) -> None:
    def config(name: str) -> dict:
        return goofspiel_config(tmp_path, name=name, train={
            "holdout": 0.25, "epochs": 4, "minibatch": 16, "lr": 0.01}, **changes)

    straight = imitate.run(parse_config(config("a")))
    paused = imitate.run(parse_config(config("b")), until=2)
    assert paused["paused_after"] == 2 and not (tmp_path / "b" / "agent.pt").exists()
    assert len(_rows(tmp_path / "b")) == 2
    resumed = imitate.run(parse_config(config("b")))             # the same command again
    a, b = _weights(tmp_path / "a"), _weights(tmp_path / "b")
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert _rows(tmp_path / "a") == _rows(tmp_path / "b")
    timeless = {k: v for k, v in straight.items() if not k.endswith("_s")}
    assert timeless == {k: v for k, v in resumed.items() if not k.endswith("_s")}


def test_a_fit_state_of_another_config_is_refused(tmp_path: Path) -> None:
    imitate.run(parse_config(goofspiel_config(tmp_path, data={"games": 8}, train={
        "epochs": 2})), until=1)
    with pytest.raises(ConfigError, match="another config left this fit state"):
        imitate.run(parse_config(goofspiel_config(tmp_path, data={"games": 8}, train={
            "epochs": 3})))


#: The small run below fitted by main at cec1573 (before ``device`` and the fit state): the
#: sha256 of its agent.pt's weights and its held-out accuracy.
RECORDED_FIT = ("72816eed49d20cd4", 0.5666666666666667)


@pytest.mark.parametrize("device", [{}, {"device": "cpu"}])
def test_device_cpu_fits_the_recorded_run(tmp_path: Path, device: dict) -> None:
    raw = {"game": "goofspiel", "name": "g", "out": str(tmp_path), "seed": 3,
           "teacher": "random", "env": {"num_players": 2, "num_cards": 5},
           "network": {"kind": "mlp", "hidden": [32]}, "data": {"games": 12, "save": False},
           "train": {"holdout": 0.25, "epochs": 3, "minibatch": 16, "lr": 0.01}, **device}
    summary = imitate.run(parse_config(raw))
    h = hashlib.sha256()
    for k, v in _weights(tmp_path / "g").items():
        h.update(k.encode())
        h.update(v.numpy().tobytes())
    assert (h.hexdigest()[:16], summary["heldout_accuracy"]) == RECORDED_FIT
    assert "device" not in yaml.safe_load((tmp_path / "g" / "config.yaml").read_text())


def test_device_cuda_is_refused_without_a_gpu(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ConfigError, match=r"device: 'cuda'.*is_available\(\) is False"):
        parse_config(goofspiel_config(tmp_path, device="cuda"))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_device_cuda_fits_on_the_gpu_and_gives_the_network_back_on_the_cpu(
        tmp_path: Path) -> None:
    summary = imitate.run(parse_config(goofspiel_config(tmp_path, device="cuda", train={
        "holdout": 0.25, "epochs": 15, "minibatch": 16, "lr": 0.01})))
    assert summary["heldout_accuracy"] >= 0.9
    assert all(v.device.type == "cpu" for v in _weights(tmp_path / "g").values())
