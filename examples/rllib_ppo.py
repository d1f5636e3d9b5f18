"""RLlib: PPO with action masking on the AEC env, through RLlib's own ``PettingZooEnv``.

    pip install torch==2.13.0 -e '.[rllib]'
    python examples/rllib_ppo.py --iterations 1
    python examples/rllib_ppo.py --game wotr --iterations 1      # War of the Ring's sides

RLlib's default encoders do not take a ``Dict`` observation ("No default encoder config for obs
space=Dict(...)"), so the policy is :class:`MaskedPPOModule`: RLlib's PPO module built on the
``observation`` vector, with the logits of every action the ``action_mask`` forbids pushed to
-1e9 (the approach of RLlib's action-masking example, for the kit's key names). One module is
shared by every house (``policy_mapping_fn``); ``ray.rllib.env.wrappers.pettingzoo_env.
PettingZooEnv(env)`` wraps the turn-based AEC env of the game (any game on the kit, by its
registry name: ``OrderEnforcing(boardkit.envs.make_env(game, ...))``, which ``got_env.env(...)``
is), which gives each step's observation to the house to act only. RLlib's env checker steps
``action_space.sample()``: the kit's action spaces sample a legal action for the house to act, so
it passes. A local Ray instance, no remote env runners or learners (``num_env_runners=0``,
``num_learners=0``).
"""

from __future__ import annotations

import argparse
from typing import Any

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.ppo_torch_rl_module import PPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env

from boardkit.envs import make_env
from boardkit.order import OrderEnforcing

ENV_NAME = "kit_game"
MASKED = -1e9  # a logit that softmax turns into probability 0, without inf - inf = nan
#: the options of a short game of each game (several end within an iteration); a game not
#: listed plays with its env's defaults
SHORT = {"got": {"num_players": 3, "max_rounds": 2}, "wotr": {"max_turns": 2}}


def game_env(cfg: dict[str, Any]) -> PettingZooEnv:
    """The env RLlib builds from ``env_config``: ``game`` (a registry name, default got) and the
    game's options."""
    options = dict(cfg)
    return PettingZooEnv(OrderEnforcing(make_env(options.pop("game", "got"), **options)))


class MaskedPPOModule(PPOTorchRLModule):
    """RLlib's PPO torch module on ``obs["observation"]``, whose action logits are masked with
    ``obs["action_mask"]`` in every forward pass (inference, exploration, training), so that
    it never samples, nor learns the probability of, an illegal action."""

    def __init__(self, *, observation_space: Any = None, **kwargs: Any):
        # The networks are built for the feature vector; the module keeps the full Dict space.
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observation"], **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self.observation_space_with_mask

    @staticmethod
    def _split(batch: dict) -> tuple[Any, dict]:
        obs = batch[Columns.OBS]
        return obs["action_mask"], {**batch, Columns.OBS: obs["observation"]}

    @staticmethod
    def _masked(out: dict, mask: Any) -> dict:
        logits = out[Columns.ACTION_DIST_INPUTS]
        out[Columns.ACTION_DIST_INPUTS] = logits.masked_fill(mask == 0, MASKED)
        return out

    def _forward_inference(self, batch: dict, **kwargs: Any) -> dict:
        mask, batch = self._split(batch)
        return self._masked(super()._forward_inference(batch, **kwargs), mask)

    def _forward_exploration(self, batch: dict, **kwargs: Any) -> dict:
        mask, batch = self._split(batch)
        return self._masked(super()._forward_exploration(batch, **kwargs), mask)

    def _forward_train(self, batch: dict, **kwargs: Any) -> dict:
        mask, batch = self._split(batch)
        return self._masked(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict, embeddings: Any = None) -> Any:
        if isinstance(batch[Columns.OBS], dict):
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)


def make_config(num_players: int | None = None, batch: int = 200, hidden: int = 32,
                game: str = "got", **options: Any) -> PPOConfig:
    """A tiny PPO set-up: one shared masked module, sampling and learning in this process."""
    register_env(ENV_NAME, game_env)
    if num_players is not None:
        options["num_players"] = num_players
    elif "num_players" in SHORT.get(game, {}):  # AGoT: 3 players unless told
        options.setdefault("num_players", SHORT[game]["num_players"])
    module = RLModuleSpec(module_class=MaskedPPOModule,
                          model_config={"fcnet_hiddens": [hidden], "head_fcnet_hiddens": [hidden]})
    return (PPOConfig()
            .environment(ENV_NAME, env_config={"game": game, **options})
            .env_runners(num_env_runners=0, rollout_fragment_length=batch // 2)
            .learners(num_learners=0)
            .training(train_batch_size_per_learner=batch, minibatch_size=batch // 2,
                      num_epochs=1)
            .multi_agent(policies={"shared"},
                         policy_mapping_fn=lambda agent_id, *args, **kwargs: "shared")
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module})))


def run(iterations: int = 1, num_players: int | None = None, batch: int = 200,
        game: str = "got", **options: Any) -> dict[str, Any]:
    """Build PPO and train ``iterations`` iterations on a local Ray instance (started here if
    none is running, and shut down after); returns the env steps sampled and the last losses."""
    options = {**SHORT.get(game, {}), **options}  # short random games, so that several end
    if num_players is not None:
        options["num_players"] = num_players
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    algo = None
    try:
        algo = make_config(batch=batch, game=game, **options).build_algo()
        results = [algo.train() for _ in range(iterations)]
        last = results[-1]
        learner = last.get("learners", {}).get("shared", {})
        return {"iterations": len(results),
                "env_steps": int(last["env_runners"]["num_env_steps_sampled_lifetime"]),
                "policy_loss": float(learner["policy_loss"]),
                "vf_loss": float(learner["vf_loss"])}
    finally:
        if algo is not None:
            algo.stop()
        if started:
            ray.shutdown()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--iterations", type=int, default=1)
    p.add_argument("--players", type=int, default=None, help="AGoT: players (default 3)")
    p.add_argument("--batch", type=int, default=200)
    p.add_argument("--game", default="got", help="the game's registry name: got, wotr, ...")
    args = p.parse_args(argv)
    print(run(args.iterations, args.players, args.batch, game=args.game))


if __name__ == "__main__":
    main()
