"""Tianshou: examples/tianshou_dqn.py runs (Tianshou's PettingZooEnv on the env as it is, a
masked DQN house against masked random houses, collection and a few gradient steps)."""

from __future__ import annotations

import numpy as np
import pytest
from example_helpers import load_example

pytest.importorskip("tianshou", reason="pip install -e '.[tianshou]'")





def test_dqn_collects_and_updates():
    example = load_example("tianshou_dqn")
    out = example.run(steps=300, updates=3, seed=0)
    assert out["steps"] == 300 and out["buffer"] == 300
    assert out["episodes"] >= 2
    assert len(out["losses"]) == 3
    assert all(np.isfinite(loss["stark/loss"]) for loss in out["losses"])


def test_wrapped_env_gives_the_acting_house_and_its_mask():
    example = load_example("tianshou_dqn")
    env = example.make_env(num_players=3, max_rounds=1)
    obs, info = env.reset(seed=0)
    raw = env.env.unwrapped
    assert obs["agent_id"] == raw.agent_selection
    assert np.flatnonzero(obs["mask"]).tolist() == raw.legal_actions()
    obs, rewards, term, trunc, info = env.step(raw.legal_actions()[0])
    assert info["decision"] == int(raw.game.pending.kind) and len(rewards) == 3
