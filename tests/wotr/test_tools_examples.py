"""The RL libraries' examples (examples/, issue 28 item 5) on War of the Ring: each takes the game
(``--game wotr`` / ``game="wotr"``) and runs a short smoke test of it, skipping where its library
is not installed (as tests/test_example_*.py do for AGoT). Games are cut off at ``max_turns``
(the examples' short-game default for War of the Ring: 2), so they end truncated, with no
reward."""

from __future__ import annotations

import math

import numpy as np
import pytest
from example_helpers import load_example

SIDES = ["free_peoples", "shadow"]


def test_sb3_maskable_ppo_trains_saves_and_evaluates(tmp_path, capsys):
    pytest.importorskip("sb3_contrib", reason="pip install torch==2.13.0 -e '.[sb3]'")
    from sb3_contrib import MaskablePPO

    import wotr_env

    example = load_example("sb3_maskable_ppo")
    model_path = tmp_path / "model.zip"
    assert example.main(["--game", "wotr", "--steps", "128", "--seed", "0", "--n-steps", "64",
                         "--save", str(model_path)]) == 0
    out = capsys.readouterr().out
    assert "trained MaskablePPO for 128 steps" in out and '(wotr, {"max_turns": 2}' in out
    assert "evaluation game: " in out and "of 2 (truncated)" in out and "castles" not in out
    model = MaskablePPO.load(model_path, device="cpu")  # the env's spaces pickle
    assert model.action_space.n == wotr_env.raw_env().codec.size


def test_sb3_refuses_agots_shaping_for_wotr(capsys):
    pytest.importorskip("sb3_contrib", reason="pip install torch==2.13.0 -e '.[sb3]'")
    example = load_example("sb3_maskable_ppo")
    with pytest.raises(SystemExit) as e:
        example.main(["--game", "wotr", "--steps", "8", "--shaping"])
    assert e.value.code == 2 and "--game wotr" in capsys.readouterr().err


def test_tianshou_dqn_collects_and_updates():
    pytest.importorskip("tianshou", reason="pip install -e '.[tianshou]'")
    example = load_example("tianshou_dqn")
    out = example.run(steps=200, updates=2, seed=0, game="wotr")
    assert out["steps"] == 200 and out["buffer"] == 200 and out["episodes"] >= 2
    assert len(out["losses"]) == 2
    assert all(np.isfinite(loss["free_peoples/loss"]) for loss in out["losses"])
    env = example.make_env(game="wotr", max_turns=1)
    obs, info = env.reset(seed=0)
    raw = env.env.unwrapped
    assert obs["agent_id"] == raw.agent_selection and raw.game_name == "wotr"
    assert np.flatnonzero(obs["mask"]).tolist() == raw.legal_actions()


def test_torchrl_rollout_and_collector():
    pytest.importorskip("torchrl", reason="pip install -e '.[torchrl]'")
    example = load_example("torchrl_rollout")
    out = example.run(steps=200, seed=0, game="wotr", collector_frames=100)
    assert out["steps"] == 200 and out["collector_frames"] == 100
    assert out["groups"] == SIDES
    assert out["games_ended"] >= 2 and out["winners"] == 0  # truncated games pay nothing


def test_supersuit_vector_env_over_the_parallel_env():
    pytest.importorskip("supersuit", reason="pip install -e '.[supersuit]'")
    import wotr_env

    example = load_example("supersuit_vec_env")
    out = example.run(steps=200, num_games=2, seed=0, game="wotr")
    raw = wotr_env.raw_env()
    assert out["obs_shape"] == (4, 2 * (raw.encoder.size + raw.codec.size))  # 2 games x 2 sides
    assert out["observation_space"].high.max() == 1.0
    assert out["done_slots"] >= 4 and out["done_slots"] % 2 == 0  # both sides end together
    assert out["wins"] == 0  # truncated games pay nothing


def test_rllib_ppo_builds_and_trains_one_iteration():
    pytest.importorskip("ray.rllib", reason="pip install -e '.[rllib]'")
    import ray

    example = load_example("rllib_ppo")
    out = example.run(iterations=1, batch=100, game="wotr")
    assert out["iterations"] == 1 and out["env_steps"] >= 100
    assert math.isfinite(out["policy_loss"]) and math.isfinite(out["vf_loss"])
    assert not ray.is_initialized()
