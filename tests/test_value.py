"""The value tool (experiments.value, agents.value, docs/value.md): its shards resume to what
one run writes, its split is by game, its fit lowers the loss, its report's explained variance
is right on a hand-made example, its checkpoint refuses a file of another game, size or format,
and a device without CUDA is refused by name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
import yaml

from agents.devices import torch_device
from agents.ppo import CheckpointError
from agents.value import ValueNet, load_value, save_value
from boardkit import games
from experiments.value import __main__ as command
from experiments.value.config import ConfigError, ValueConfig, parse_config
from experiments.value.data import ROW_ARRAYS, Rows, collect, load_rows, shard_path
from experiments.value.fit import train
from experiments.value.report import (
    baseline_predictions,
    bucket_names,
    bucket_of,
    compare,
    explained_variance,
    r_squared,
    table,
    with_seat,
)
from experiments.value.split import HELD_OUT, TRAIN, VALIDATION, game_parts

TINY = Path(__file__).resolve().parents[1] / "configs" / "value" / "tiny.yaml"


def tiny(tmp_path: Path, **changes: Any) -> ValueConfig:
    raw = yaml.safe_load(TINY.read_text())
    raw["out"] = str(tmp_path)
    for key, value in changes.items():
        section, _, name = key.partition(".")
        if name:
            raw.setdefault(section, {})[name] = value
        else:
            raw[key] = value
    return parse_config(raw)


def same_rows(a: Rows, b: Rows) -> None:
    for key in ROW_ARRAYS:
        np.testing.assert_array_equal(getattr(a, key), getattr(b, key), err_msg=key)


# -- data ----------------------------------------------------------------------------------------


def test_shards_resumed_equal_one_run(tmp_path: Path) -> None:
    """2 games, then 2 more in the same folder (a resumed, extended run) = 4 games at once."""
    once = tiny(tmp_path / "once", **{"data.games": 4})
    assert collect(once) == 2
    parts = tiny(tmp_path / "parts", **{"data.games": 2})
    assert collect(parts) == 1
    more = tiny(tmp_path / "parts", **{"data.games": 4})
    assert collect(more) == 1          # only the missing shard
    assert collect(more) == 0          # nothing left to play
    rows = load_rows(once)
    same_rows(rows, load_rows(more))
    assert len(rows) == 4 * 2 * 3      # 4 games, 2 rounds, 3 seats
    assert sorted(set(rows.games)) == [0, 1, 2, 3]
    assert set(rows.rounds) == {1, 2}
    # every game's shares sum to 1 per round: the seats' final shares of one win
    for g in range(4):
        for r in (1, 2):
            here = (rows.games == g) & (rows.rounds == r)
            assert here.sum() == 3 and rows.targets[here].sum() == pytest.approx(1.0)
    # the baseline features are the castles each house holds (at least its home's)
    assert rows.features.shape == (len(rows), 1) and (rows.features >= 1).all()


def test_shard_folder_of_another_collection_refused(tmp_path: Path) -> None:
    collect(tiny(tmp_path, **{"data.games": 2}))
    other = tiny(tmp_path, **{"data.games": 2, "data.agents": ["heuristic_v1"]})
    with pytest.raises(ValueError, match="agents"):
        collect(other)


def test_missing_shard_named(tmp_path: Path) -> None:
    cfg = tiny(tmp_path, **{"data.games": 2})
    with pytest.raises(FileNotFoundError, match="shard_000000.npz"):
        load_rows(cfg)
    shard_path(cfg, 0).parent.mkdir(parents=True)
    shard_path(cfg, 0).write_bytes(b"not a shard")
    with pytest.raises(ValueError, match="shard_000000.npz"):
        load_rows(cfg)


def test_wotr_rows_per_turn(tmp_path: Path) -> None:
    """War of the Ring through the same code: both sides' rows at each turn's start, shares of
    one win, the side-signed features of its plugin piece."""
    cfg = parse_config({"game": "wotr", "name": "w", "out": str(tmp_path),
                        "env": {"ruleset": "2e", "max_turns": 2},
                        "data": {"games": 1, "chunk": 1, "first_seed": 750000}})
    collect(cfg)
    rows = load_rows(cfg)
    assert len(rows) == 4 and list(rows.rounds) == [1, 1, 2, 2]
    assert list(rows.players) == [0, 1, 0, 1]
    assert not rows.ended.any()        # cut at 2 turns: the shares are the standing's
    assert rows.targets[:2].sum() == pytest.approx(1.0)
    fp, shadow = rows.features[0], rows.features[1]
    assert fp[0] == 1 and shadow[0] == 0
    np.testing.assert_array_equal(fp[1:], -shadow[1:])


# -- split ---------------------------------------------------------------------------------------


def test_split_by_game_and_stable() -> None:
    game_of_row = np.repeat(np.arange(400), 7)
    part = game_parts(game_of_row, 0.1, 0.2, seed=5)
    for g in range(400):                # one part per game
        assert len(set(part[game_of_row == g])) == 1
    share = np.bincount(part[::7], minlength=3) / 400
    assert share[HELD_OUT] == pytest.approx(0.2, abs=0.06)
    assert share[VALIDATION] == pytest.approx(0.1, abs=0.05)
    assert share[TRAIN] == pytest.approx(0.7, abs=0.07)
    more = game_parts(np.repeat(np.arange(800), 7), 0.1, 0.2, seed=5)
    np.testing.assert_array_equal(more[:len(part)], part)   # more games: the first keep theirs
    assert not np.array_equal(game_parts(game_of_row, 0.1, 0.2, seed=6), part)


# -- fit -----------------------------------------------------------------------------------------


def synthetic(n: int, seed: int) -> Rows:
    """Rows whose target is a function of the first two observation entries."""
    gen = np.random.default_rng(seed)
    obs = gen.integers(0, 5, (n, 12)).astype(np.uint8)
    target = (obs[:, 0] > obs[:, 1]).astype(np.float32)
    return Rows(obs=obs, games=np.arange(n, dtype=np.int32) // 4,
                players=np.zeros(n, np.int8), rounds=np.ones(n, np.int16), targets=target,
                features=np.zeros((n, 1), np.float32), ended=np.ones(n, bool))


def test_fit_lowers_the_loss(tmp_path: Path) -> None:
    cfg = tiny(tmp_path, **{"fit.epochs": 15, "fit.patience": 15, "fit.lr": 0.01})
    torch.manual_seed(0)
    net = ValueNet(12, [16])
    history = train(net, synthetic(400, 1), synthetic(100, 2), cfg, torch.device("cpu"))
    assert history[-1]["train"] < 0.5 * history[0]["train"]
    assert min(h["validation"] for h in history) < 0.5 * history[0]["validation"]


def test_fit_keeps_the_best_validation_epoch(tmp_path: Path) -> None:
    """Early stopping: after ``patience`` epochs without a better validation loss the fit stops,
    with the best epoch's weights."""
    cfg = tiny(tmp_path, **{"fit.epochs": 50, "fit.patience": 2, "fit.lr": 0.05})
    torch.manual_seed(0)
    net = ValueNet(12, [16])
    valid = synthetic(60, 3)
    valid.targets[:] = 1 - valid.targets          # the opposite rule: validation only worsens
    history = train(net, synthetic(400, 1), valid, cfg, torch.device("cpu"))
    assert len(history) < 51
    best = min(h["validation"] for h in history)
    from experiments.value.fit import mean_loss
    assert mean_loss(net, valid, torch.device("cpu")) == pytest.approx(best, rel=1e-5)


def test_tiny_run_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """data, fit and report through the command; the checkpoint is a value of the game."""
    cfg = tiny(tmp_path, **{"data.games": 8, "checkpoint": str(tmp_path / "v.pt")})
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(cfg.as_dict() | {"fit": {**cfg.as_dict()["fit"],
                                                            "hidden": [8]}}))
    assert command.main(["all", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert "| all |" in out and "EV baseline" in out
    assert (tmp_path / "tiny" / "report.json").exists()
    value = load_value(tmp_path / "v.pt", game="got")
    rows = load_rows(cfg)
    v = value(rows.obs[:5])
    assert v.shape == (5,) and v.dtype == np.float32 and ((v >= 0) & (v <= 1)).all()


# -- report --------------------------------------------------------------------------------------


def test_explained_variance_by_hand() -> None:
    y = np.array([0.0, 1.0, 0.0, 1.0])
    assert explained_variance(y, np.array([0.25, 0.75, 0.25, 0.75])) == pytest.approx(0.75)
    assert r_squared(y, np.array([0.25, 0.75, 0.25, 0.75])) == pytest.approx(0.75)
    # a constant bias: EV does not see it, R² does (1 - 4 * 0.01 / 1)
    assert explained_variance(y, y + 0.1) == pytest.approx(1.0)
    assert r_squared(y, y + 0.1) == pytest.approx(0.96)
    assert explained_variance(y, np.full(4, 0.5)) == pytest.approx(0.0)
    assert np.isnan(explained_variance(np.ones(3), np.zeros(3)))


def test_baseline_fitted_per_round() -> None:
    """Round 1: share = castles / 4; round 2: share = 1 - castles / 4: one fit per round is
    exact, a single fit over both rounds would not be."""
    castles = np.array([1, 2, 3, 1, 2, 3], np.float32)
    rounds = np.array([1, 1, 1, 2, 2, 2], np.int16)
    target = np.where(rounds == 1, castles / 4, 1 - castles / 4).astype(np.float32)
    rows = Rows(obs=np.zeros((6, 1), np.uint8), games=np.arange(6, dtype=np.int32),
                players=np.zeros(6, np.int8), rounds=rounds, targets=target,
                features=castles[:, None], ended=np.ones(6, bool))
    keys = bucket_of(rounds, None)
    pred = baseline_predictions(rows, keys, rows, keys)
    np.testing.assert_allclose(pred, target, atol=1e-6)
    assert explained_variance(target, pred) == pytest.approx(1.0)


def test_round_buckets() -> None:
    rounds = np.array([1, 2, 3, 4, 5, 9, 12])
    keys = bucket_of(rounds, (1, 3, 5))
    assert list(keys) == [0, 0, 1, 1, 2, 2, 2]
    assert bucket_names(np.array([0, 1, 2]), (1, 3, 5), top=12) == ["1-2", "3-4", "5+"]
    assert bucket_names(np.array([3, 4]), None, top=4) == ["3", "4"]


def test_table_lines() -> None:
    cell = {"rows": 6, "games": 2, "ev_value": 0.5, "ev_baseline": 0.25, "r2_value": 0.4,
            "r2_baseline": 0.2, "ev_value_minus_baseline": 0.25,
            "ev_value_minus_baseline_95": [0.1, 0.4], "ev_baseline_seat": 0.3,
            "ev_value_minus_baseline_seat": 0.2, "ev_value_minus_baseline_seat_95": [0.0, 0.35]}
    text = table({"game": "got", "held_out_games": 2, "games": 8, "first_seed": 1,
                  "agents": ["heuristic_v2"], "truncated_games": 0,
                  "baseline_features": ["castles"],
                  "per_round": [{"rounds": "1", **cell}], "overall": cell})
    assert ("| 1 | 6 | 0.500 | 0.250 | 0.250 [0.100, 0.400] | 0.300 | 0.200 [0.000, 0.350] | "
            "0.400 | 0.200 |") in text
    assert "| all | 6 |" in text


def test_compare_and_seat_baseline() -> None:
    """The seat baseline sees what the castles do not: here the outcome is the seat alone."""
    rows = Rows(obs=np.zeros((8, 1), np.uint8), games=np.repeat(np.arange(4, dtype=np.int32), 2),
                players=np.tile(np.array([0, 1], np.int8), 4), rounds=np.ones(8, np.int16),
                targets=np.tile(np.array([1.0, 0.0], np.float32), 4),
                features=np.ones((8, 1), np.float32), ended=np.ones(8, bool))
    keys = bucket_of(rows.rounds, None)
    plain = baseline_predictions(rows, keys, rows, keys)
    seat = baseline_predictions(with_seat(rows, 2), keys, with_seat(rows, 2), keys)
    np.testing.assert_allclose(plain, 0.5)
    np.testing.assert_allclose(seat, rows.targets, atol=1e-6)
    y = rows.targets.astype(np.float64)
    f = compare(y, {"value": y + 0.1, "baseline": plain, "baseline_seat": seat},
                rows.games, seed=0)
    assert f["ev_value"] == pytest.approx(1.0) and f["r2_value"] == pytest.approx(0.96)
    assert f["ev_value_minus_baseline"] == pytest.approx(1.0)
    assert f["ev_value_minus_baseline_seat"] == pytest.approx(0.0)
    assert f["ev_value_minus_baseline_95"] == pytest.approx([1.0, 1.0])
    assert f["games"] == 4 and f["rows"] == 8


# -- the checkpoint ------------------------------------------------------------------------------


def saved(tmp_path: Path, game: str = "got", size: int = 10) -> Path:
    torch.manual_seed(0)
    return save_value(tmp_path / "v.pt", ValueNet(size, [4]), game, {"game": game})


def test_checkpoint_round_trip(tmp_path: Path) -> None:
    torch.manual_seed(0)
    net = ValueNet(10, [4, 3])
    net.mean.fill_(1.0)
    save_value(tmp_path / "v.pt", net, "got", {"name": "x"})
    value = load_value(tmp_path / "v.pt", game="got", obs_size=10)
    obs = np.random.default_rng(0).random((7, 10)).astype(np.float32)
    with torch.no_grad():
        want = net(torch.as_tensor(obs)).numpy()
    np.testing.assert_allclose(value(obs), want, rtol=1e-6)
    assert value.game == "got" and value.obs_size == 10 and value.config == {"name": "x"}
    with pytest.raises(ValueError, match=r"\[n, 10\]"):
        value(obs[:, :9])


def test_checkpoint_of_another_game_or_size_refused(tmp_path: Path) -> None:
    path = saved(tmp_path)
    with pytest.raises(CheckpointError, match=r"v\.pt.*'got', not 'wotr'"):
        load_value(path, game="wotr")
    with pytest.raises(CheckpointError, match=r"v\.pt.*size 10, not 11"):
        load_value(path, obs_size=11)


def test_corrupt_or_foreign_checkpoint_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"\x00garbage")
    with pytest.raises(CheckpointError, match="bad.pt"):
        load_value(bad)
    torch.save({"format": "got_env-ppo-1", "state_dict": {}}, tmp_path / "ppo.pt")
    with pytest.raises(CheckpointError, match=r"ppo\.pt: not a value checkpoint"):
        load_value(tmp_path / "ppo.pt")
    data = torch.load(saved(tmp_path), weights_only=True)
    data["hidden"] = [5]
    torch.save(data, tmp_path / "misfit.pt")
    with pytest.raises(CheckpointError, match="misfit.pt.*do not fit"):
        load_value(tmp_path / "misfit.pt")
    del data["obs_size"]
    torch.save(data, tmp_path / "short.pt")
    with pytest.raises(CheckpointError, match="short.pt.*without obs_size"):
        load_value(tmp_path / "short.pt")


# -- the device, the config ----------------------------------------------------------------------


def test_cuda_refused_when_absent(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ValueError, match="device: cuda.*use device: cpu"):
        torch_device("cuda")
    assert torch_device("cpu") == torch.device("cpu")
    with pytest.raises(ValueError, match="device: cuda"):
        load_value(saved(tmp_path), device="cuda")
    cfg = tiny(tmp_path, **{"fit.device": "cuda"})
    from experiments.value.fit import fit
    with pytest.raises(ValueError, match="device: cuda"):
        fit(cfg)


def test_config_refusals(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="value piece"):
        parse_config({"game": "goofspiel", "out": str(tmp_path)})
    with pytest.raises(ConfigError, match="evaluation seeds"):
        tiny(tmp_path, **{"data.first_seed": 899_999})
    with pytest.raises(ConfigError, match="multiple of data.chunk"):
        tiny(tmp_path, **{"data.games": 5})
    with pytest.raises(ConfigError, match="data.agents"):
        tiny(tmp_path, **{"data.agents": ["no_such_agent"]})
    with pytest.raises(ConfigError, match="fit.device"):
        tiny(tmp_path, **{"fit.device": "tpu"})
    with pytest.raises(ConfigError, match="report.buckets"):
        tiny(tmp_path, **{"report.buckets": [3, 1]})


def test_game_pieces_name_their_features() -> None:
    for name in ("got", "wotr"):
        piece = games.plugin(name)
        names = piece.hook("value", "BASELINE_FEATURES")
        assert names and piece.hook("value", "DEFAULT_AGENTS")
        state = piece.game.new_state(0, dict(piece.variants[next(iter(piece.variants))]))
        assert piece.hook("value", "baseline_features")(state, 0).shape == (len(names),)
