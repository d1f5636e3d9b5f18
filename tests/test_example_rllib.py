"""RLlib: examples/rllib_ppo.py runs (PPO with a masking RLModule on RLlib's PettingZooEnv,
built with RLlib's env checker on and trained one tiny iteration on a local Ray instance)."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("ray.rllib", reason="pip install -e '.[rllib]'")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rllib_ppo.py"


def load_example() -> ModuleType:
    """The example script as a module (examples/ is not a package)."""
    spec = importlib.util.spec_from_file_location("rllib_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_masked_ppo_builds_and_trains_one_iteration():
    import ray

    example = load_example()
    out = example.run(iterations=1, batch=200)
    assert out["iterations"] == 1 and out["env_steps"] >= 200
    assert math.isfinite(out["policy_loss"]) and math.isfinite(out["vf_loss"])
    assert not ray.is_initialized()  # the example shut down the Ray instance it started
