"""TorchRL: examples/torchrl_rollout.py runs (TorchRL's PettingZooWrapper on the env as it is,
a masked random rollout across game ends, a tiny collector)."""

from __future__ import annotations

import pytest
from example_helpers import load_example

pytest.importorskip("torchrl", reason="pip install -e '.[torchrl]'")

import got_env  # noqa: E402


def test_rollout_and_collector_run_with_masks_and_numeric_infos():
    example = load_example("torchrl_rollout")
    out = example.run(steps=300, seed=0)
    assert out["steps"] == 300 and out["collector_frames"] == 200
    assert out["groups"] == ["stark", "lannister", "baratheon"]
    assert out["games_ended"] >= 3
    assert out["winners"] == out["games_ended"]  # zero-sum: one +1 per finished game


def test_infos_reach_the_tensordict():
    example = load_example("torchrl_rollout")
    env = example.make_env(num_players=3, seed=1, max_rounds=1)
    td = env.reset()
    acting = env.agent_selection
    assert int(td[acting, "info", "decision"]) == int(env.unwrapped.game.pending.kind)
    assert bool(td[acting, "mask"]) and int(td[acting, "action_mask"].sum()) == len(
        env.unwrapped.legal_actions())


def test_text_infos_are_what_torchrl_refuses():
    """Why the numeric format is the default: TorchRL turns every info value into a tensor."""
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    with pytest.raises(TypeError, match="invalid data type 'str'"):
        PettingZooWrapper(got_env.env(num_players=3, info_format="text"), use_mask=True)
