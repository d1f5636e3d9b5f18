"""Train sb3-contrib's MaskablePPO on one house of the game, then play one evaluation game.

    pip install torch==2.13.0 -e '.[sb3]'
    python examples/sb3_maskable_ppo.py --steps 2048 --seed 0

The learner is :class:`got_env.wrappers.SingleAgentEnv` (its house rotates every game, the other
houses are played by the ``--opponents`` agents inside ``step``), with normalized observations
(every feature in [0, 1]) and the legal-action mask given to MaskablePPO through the env's
``action_masks()``, so that the policy only ever samples legal actions. A few hundred steps are a
smoke test, not training: a policy that beats the heuristic takes millions of steps.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from got_env.wrappers import OUTCOMES, SingleAgentEnv


def make_env(args: argparse.Namespace) -> SingleAgentEnv:
    """The training and evaluation env: short games (``--max-rounds``) so that episodes end
    within a smoke test's budget."""
    return SingleAgentEnv(num_players=args.players, max_rounds=args.max_rounds,
                          opponents=args.opponents, obs="normalized",
                          shaping={"gamma": args.gamma} if args.shaping else None)


def evaluate(model: object, env: SingleAgentEnv, seed: int) -> dict[str, float]:
    """One game with the deterministic (most likely legal) action at every decision."""
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        obs, reward, terminated, truncated, info = env.step(int(action))
        total += reward
        steps += 1
        if info["illegal_action"]:  # cannot happen with masks: say so loudly if it does
            raise RuntimeError("the masked policy chose an illegal action")
        if terminated or truncated:
            break
    return {"house": env.learner, "reward": total, "decisions": steps,
            "rank": info["rank"] + 1, "castles": info["castles"],
            "outcome": OUTCOMES[info["outcome"] - 1]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=512, help="training timesteps (decisions)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--max-rounds", type=int, default=2)
    p.add_argument("--opponents", default="random", help="an agent name, e.g. heuristic")
    p.add_argument("--n-steps", type=int, default=128, help="rollout length per update")
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--shaping", action="store_true",
                   help="potential-based shaping (castles and supply), with the same gamma")
    p.add_argument("--save", default=None, help="save the trained model to this .zip")
    args = p.parse_args(argv)
    if args.steps < 1:
        p.error(f"--steps must be positive, got {args.steps}")

    from sb3_contrib import MaskablePPO

    env = make_env(args)  # MaskablePPO seeds its resets with --seed
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=64, n_epochs=4,
                        gamma=args.gamma, seed=args.seed, device="cpu", verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    elapsed = time.perf_counter() - start
    print(f"trained MaskablePPO for {model.num_timesteps} steps in {elapsed:.1f} s "
          f"({args.players} players, {args.max_rounds} rounds, opponents {args.opponents})")
    if args.save:
        path = Path(args.save)
        model.save(path)
        print(f"model saved to {path}")
    result = evaluate(model, make_env(args), seed=args.seed + 1)
    print(f"evaluation game: {result['house']} ranked {result['rank']} of {args.players} "
          f"({result['outcome']}), {result['castles']} castles, reward "
          f"{result['reward']:+.3f} over {result['decisions']} decisions")
    return 0 if np.isfinite(result["reward"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
