"""Tianshou: one house learns with masked DQN against random houses, through Tianshou's own
``PettingZooEnv``.

    pip install torch==2.13.0 -e '.[tianshou]'
    python examples/tianshou_dqn.py --steps 400 --updates 5
    python examples/tianshou_dqn.py --game wotr --steps 400       # War of the Ring's sides

``tianshou.env.pettingzoo_env.PettingZooEnv(env)`` takes the AEC env of any game on the kit as it
is (``OrderEnforcing(boardkit.envs.make_env(game, ...))``, which ``got_env.env(...)`` is): each
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

from boardkit.envs import make_env as game_env
from boardkit.order import OrderEnforcing

#: the options of a short game of each game (several end within a smoke test); a game not
#: listed plays with its env's defaults
SHORT = {"got": {"num_players": 3, "max_rounds": 2}, "wotr": {"max_turns": 2}}


def make_env(num_players: int | None = None, game: str = "got", **options: Any) -> PettingZooEnv:
    """The game's AEC env (by its registry name; the players default to :data:`SHORT`'s, AGoT's
    3) in Tianshou's PettingZoo wrapper."""
    players = num_players if num_players is not None else SHORT.get(game, {}).get("num_players")
    if players is not None:
        options["num_players"] = players
    return PettingZooEnv(OrderEnforcing(game_env(game, **options)))


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


def run(steps: int = 400, updates: int = 5, num_players: int | None = None, num_envs: int = 2,
        seed: int = 0, game: str = "got", **options: Any) -> dict[str, Any]:
    """Collect ``steps`` env steps over ``num_envs`` games into a replay buffer, then take
    ``updates`` DQN gradient steps on the learner's transitions; returns the counts and the
    last loss."""
    options = {**SHORT.get(game, {}), **options}  # short random games, so that several end
    if num_players is not None:
        options["num_players"] = num_players
    np.random.seed(seed)
    torch.manual_seed(seed)
    algorithm = make_algorithm(make_env(game=game, **options))
    envs = DummyVectorEnv([lambda: make_env(game=game, **options) for _ in range(num_envs)])
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
    p.add_argument("--players", type=int, default=None, help="AGoT: players (default 3)")
    p.add_argument("--game", default="got", help="the game's registry name: got, wotr, ...")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    print(run(args.steps, args.updates, args.players, seed=args.seed, game=args.game))


if __name__ == "__main__":
    main()
