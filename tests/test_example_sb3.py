"""Smoke test of examples/sb3_maskable_ppo.py: MaskablePPO trains a few hundred steps on the
single-agent env, saves, reloads, and plays one evaluation game (seconds, CPU)."""

from __future__ import annotations

import pytest
from example_helpers import load_example

pytest.importorskip("sb3_contrib", reason="the sb3 extra is not installed: "
                                          "pip install torch==2.13.0 -e '.[sb3]'")





def test_maskable_ppo_trains_saves_and_evaluates(tmp_path, capsys):
    from sb3_contrib import MaskablePPO

    example = load_example("sb3_maskable_ppo")
    model_path = tmp_path / "model.zip"
    assert example.main(["--steps", "256", "--seed", "0", "--n-steps", "128",
                         "--shaping", "--save", str(model_path)]) == 0
    out = capsys.readouterr().out
    assert "trained MaskablePPO for 256 steps" in out
    assert "evaluation game:" in out and "ranked" in out
    model = MaskablePPO.load(model_path, device="cpu")  # the env's spaces pickle
    assert model.action_space.n == 1725
