"""TorchRL: the AEC env through TorchRL's own ``PettingZooWrapper``, unmodified.

    pip install torch==2.13.0 -e '.[torchrl]'
    python examples/torchrl_rollout.py --steps 300
    python examples/torchrl_rollout.py --game wotr --steps 300      # War of the Ring's sides

``PettingZooWrapper(env, use_mask=True)`` takes the AEC env of any game on the kit as it is
(``OrderEnforcing(boardkit.envs.make_env(game, ...))``, which ``got_env.env(...)`` is), with its
numeric infos (AGoT's and War of the Ring's default format): the observation's
``action_mask`` becomes each group's ``action_mask`` entry (and masks the action spec), the
numeric infos become ``(group, "info", key)`` tensors, and ``(group, "mask")`` says which house
is to act (the AEC env asks one house at a time). Every house is its own group. This script rolls
out a random policy that samples among the legal actions, then collects a few batches with a
``Collector`` (``SyncDataCollector`` before torchrl 0.14): the two ways TorchRL training loops
read an env.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import torch
from tensordict import TensorDictBase
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import check_env_specs

from boardkit.envs import make_env as game_env
from boardkit.order import OrderEnforcing

try:  # torchrl >= 0.14 calls the single-process collector Collector
    from torchrl.collectors import Collector
except ImportError:  # older torchrl
    from torchrl.collectors import SyncDataCollector as Collector


#: the options of a short game of each game (several end within a smoke test); a game not
#: listed plays with its env's defaults
SHORT = {"got": {"num_players": 3, "max_rounds": 2}, "wotr": {"max_turns": 2}}


def make_env(num_players: int | None = None, seed: int = 0, game: str = "got",
             **options: Any) -> PettingZooWrapper:
    """The game's AEC env (by its registry name; the players default to :data:`SHORT`'s, AGoT's
    3) in TorchRL's PettingZoo wrapper (``use_mask=True``: the AEC env asks one house at a time,
    so the others are masked out of each step)."""
    players = num_players if num_players is not None else SHORT.get(game, {}).get("num_players")
    if players is not None:
        options["num_players"] = players
    return PettingZooWrapper(OrderEnforcing(game_env(game, **options)), use_mask=True,
                             seed=seed)


def masked_random_policy(env: PettingZooWrapper,
                         generator: torch.Generator) -> Callable[[TensorDictBase], TensorDictBase]:
    """A policy that samples, for every group, uniformly among the actions its ``action_mask``
    allows (the acting house's legal actions; the wrapper ignores the others' actions)."""

    def policy(td: TensorDictBase) -> TensorDictBase:
        for group in env.group_map:
            mask = td.get((group, "action_mask")).float()
            action = torch.multinomial(mask, 1, generator=generator).squeeze(-1)
            td.set((group, "action"), action)
        return td

    return policy


def run(steps: int = 300, num_players: int | None = None, seed: int = 0,
        collector_frames: int = 200, game: str = "got", **options: Any) -> dict[str, Any]:
    """Check the specs, roll out ``steps`` steps across game ends (auto-reset), collect
    ``collector_frames`` frames; returns what happened (steps, games ended, the number of +1
    rewards at those ends, one per game under the default zero-sum reward, frames collected)."""
    options = {**SHORT.get(game, {}), **options}  # short random games, so that several end
    if num_players is not None:
        options["num_players"] = num_players
    env = make_env(seed=seed, game=game, **options)
    check_env_specs(env, seed=seed)
    generator = torch.Generator().manual_seed(seed)
    policy = masked_random_policy(env, generator)
    rollout = env.rollout(steps, policy=policy, break_when_any_done=False)
    done = rollout.get(("next", "done")).squeeze(-1)
    groups = list(env.group_map)
    winners = sum(int((rollout.get(("next", g, "reward"))[done] == 1.0).sum()) for g in groups)
    collector = Collector(env, policy, frames_per_batch=collector_frames // 2,
                                  total_frames=collector_frames)
    frames = sum(batch.numel() for batch in collector)
    collector.shutdown()
    env.close()
    return {"steps": rollout.batch_size[0], "games_ended": int(done.sum()),
            "winners": winners, "collector_frames": frames,
            "groups": groups}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--players", type=int, default=None, help="AGoT: players (default 3)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--game", default="got", help="the game's registry name: got, wotr, ...")
    args = p.parse_args(argv)
    print(run(args.steps, args.players, args.seed, game=args.game))


if __name__ == "__main__":
    main()
