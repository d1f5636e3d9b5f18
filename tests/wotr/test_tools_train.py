"""The kit's PPO trainer on War of the Ring (issue 28 item 4): a run paused and resumed gives the
network, counters and league of the run in one go (exact resume), writes its TensorBoard log,
and its ``agent.pt`` plays a War of the Ring game as an agent spec. The trainer has no War of the
Ring branch: the game comes through its registry name."""

from __future__ import annotations

from pathlib import Path

from train_helpers import paused_and_resumed

import wotr_env
from agents import make_agent


def _tiny(out: Path) -> dict:
    return {
        "game": "wotr", "name": "tiny", "out": str(out), "seed": 5, "updates": 3,
        "env": {"ruleset": "2e", "max_turns": 2},
        "network": {"kind": "mlp", "hidden": [16]},
        "rollout": {"num_games": 2, "steps": 24, "workers": 0},
        "ppo": {"epochs": 1, "minibatch": 16},
        "league": {"weights": {"current": 1, "snapshots": 1, "random": 1},
                   "snapshot_every": 1, "max_snapshots": 2},
        "eval": {"every": 3, "games": 2, "opponents": ["random"]},
        "checkpoint_every": 1, "tensorboard": True, "progress": False,
    }


def test_a_wotr_run_resumes_exactly_and_its_agent_plays(tmp_path: Path) -> None:
    straight, resumed = paused_and_resumed(_tiny, tmp_path, until=1)
    assert resumed.league.pool == straight.league.pool
    run = tmp_path / "b" / "tiny"
    assert any((run / "tensorboard").iterdir())
    agent = make_agent({"checkpoint": str(run / "agent.pt")}, seed=0)
    env = wotr_env.env(max_turns=1)
    env.reset(seed=2)
    for _ in env.agent_iter():
        obs, _reward, term, trunc, info = env.last()
        env.step(None if term or trunc else agent.act(obs["observation"], obs["action_mask"],
                                                      info))
    assert env.unwrapped.game.over
