"""RLlib: examples/rllib_ppo.py runs (PPO with a masking RLModule on RLlib's PettingZooEnv,
built with RLlib's env checker on and trained one tiny iteration on a local Ray instance)."""

from __future__ import annotations

import math

import pytest
from example_helpers import load_example

pytest.importorskip("ray.rllib", reason="pip install -e '.[rllib]'")





def test_masked_ppo_builds_and_trains_one_iteration():
    import ray

    example = load_example("rllib_ppo")
    out = example.run(iterations=1, batch=200)
    assert out["iterations"] == 1 and out["env_steps"] >= 200
    assert math.isfinite(out["policy_loss"]) and math.isfinite(out["vf_loss"])
    assert not ray.is_initialized()  # the example shut down the Ray instance it started
