"""Tianshou: one house learns with masked DQN against random houses, through Tianshou's own
``PettingZooEnv``.

    pip install torch==2.13.0 -e '.[tianshou]'
    python examples/tianshou_dqn.py --steps 400 --updates 5

``tianshou.env.pettingzoo_env.PettingZooEnv(got_env.env(...))`` takes the AEC env as it is: each
step's observation is ``{"agent_id", "obs", "mask"}`` for the house to act (the AEC env asks one
house at a time, so the same house may come several times in a row), and
``MultiAgentOffPolicyAlgorithm`` hands each transition to that house's algorithm. Tianshou's DQN
reads ``mask`` (illegal actions get Q = -inf, exploration draws among legal ones); the other
houses play ``MARLRandomDiscreteMaskedOffPolicyAlgorithm`` (uniform among legal actions). The
numeric infos are stacked into the replay buffer like any array. Written for Tianshou 2.x
(``Algorithm`` / ``Policy`` split).
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
import torch
from tianshou.algorithm import (
    DQN,
    MARLRandomDiscreteMaskedOffPolicyAlgorithm,
    MultiAgentOffPolicyAlgorithm,
)
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.utils.net.common import Net
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode

import got_env


def make_env(num_players: int = 3, **options: Any) -> PettingZooEnv:
    """got_env's AEC env in Tianshou's PettingZoo wrapper."""
    return PettingZooEnv(got_env.env(num_players=num_players, **options))


def make_algorithm(env: PettingZooEnv, hidden: int = 64,
                   lr: float = 1e-3) -> MultiAgentOffPolicyAlgorithm:
    """DQN for the first house, masked random play for the others."""
    features = env.observation_space["observation"].shape
    net = Net(state_shape=features, action_shape=env.action_space.n, hidden_sizes=[hidden])
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                     eps_training=0.2, eps_inference=0.0)
    learner = DQN(policy=policy, optim=AdamOptimizerFactory(lr=lr), gamma=0.99,
                  n_step_return_horizon=1, target_update_freq=100)
    others = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
              for _ in env.agents[1:]]
    return MultiAgentOffPolicyAlgorithm(algorithms=[learner, *others], env=env)


def run(steps: int = 400, updates: int = 5, num_players: int = 3, num_envs: int = 2,
        seed: int = 0, **options: Any) -> dict[str, Any]:
    """Collect ``steps`` env steps over ``num_envs`` games into a replay buffer, then take
    ``updates`` DQN gradient steps on the learner's transitions; returns the counts and the
    last loss."""
    options.setdefault("max_rounds", 2)  # short random games, so that several end
    np.random.seed(seed)
    torch.manual_seed(seed)
    algorithm = make_algorithm(make_env(num_players, **options))
    envs = DummyVectorEnv([lambda: make_env(num_players, **options) for _ in range(num_envs)])
    envs.seed(seed)
    collector = Collector[CollectStats](algorithm, envs,
                                        VectorReplayBuffer(10 * steps, num_envs),
                                        exploration_noise=True)
    collector.reset()
    with policy_within_training_step(algorithm.policy), torch_train_mode(algorithm, False):
        stats = collector.collect(n_step=steps)
    losses = []
    with policy_within_training_step(algorithm.policy), torch_train_mode(algorithm):
        for _ in range(updates):
            result = algorithm.update(buffer=collector.buffer, sample_size=32)
            losses.append(result.get_loss_stats_dict())
    envs.close()
    return {"steps": stats.n_collected_steps, "episodes": stats.n_collected_episodes,
            "buffer": len(collector.buffer), "losses": losses}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=400)
    p.add_argument("--updates", type=int, default=5)
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    print(run(args.steps, args.updates, args.players, seed=args.seed))


if __name__ == "__main__":
    main()
