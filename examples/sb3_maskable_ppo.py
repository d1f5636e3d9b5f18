"""Train sb3-contrib's MaskablePPO on one seat of a game, then play one evaluation game.

    pip install torch==2.13.0 -e '.[sb3]'
    python examples/sb3_maskable_ppo.py --steps 2048 --seed 0
    python examples/sb3_maskable_ppo.py --game wotr --steps 2048      # War of the Ring

The learner is the game's single-agent env (A Game of Thrones:
:class:`got_env.wrappers.SingleAgentEnv`; War of the Ring: :class:`wotr_env.wrappers.
SingleAgentEnv`, the kit's :mod:`boardkit.single_agent`): its seat rotates every game, the other
seats are played by the ``--opponents`` agents inside ``step``, with normalized observations
(every feature in [0, 1]) and the legal-action mask given to MaskablePPO through the env's
``action_masks()``, so that the policy only ever samples legal actions. A few hundred steps are a
smoke test, not training: a policy that beats the heuristic takes millions of steps.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

#: each game's single-agent env (``module:Class``) and the options of a short game, so that
#: episodes end within a smoke test's budget (``--option`` and the AGoT flags override them)
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "got": ("got_env.wrappers:SingleAgentEnv", {"num_players": 3, "max_rounds": 2}),
    "wotr": ("wotr_env.wrappers:SingleAgentEnv", {"max_turns": 2}),
}


def env_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's short-game options, then ``--players``, ``--max-rounds`` and ``--option``."""
    options = dict(GAMES[args.game][1])
    if args.players is not None:
        options["num_players"] = args.players
    if args.max_rounds is not None:
        options["max_rounds"] = args.max_rounds
    for item in args.option:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    return options


def make_env(args: argparse.Namespace) -> Any:
    """The training and evaluation env of ``--game``: short games, normalized observations,
    readable end infos."""
    module, _, name = GAMES[args.game][0].partition(":")
    cls = getattr(importlib.import_module(module), name)
    extra = {"shaping": {"gamma": args.gamma}} if args.shaping else {}
    return cls(opponents=args.opponents, obs="normalized", info_strings=True,
               **env_options(args), **extra)


def evaluate(model: object, env: Any, seed: int) -> dict[str, Any]:
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
            "rank": info["rank"] + 1, "castles": info.get("castles"),
            "outcome": info["outcome_name"]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=512, help="training timesteps (decisions)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--game", default="got", choices=sorted(GAMES),
                   help="the game: got (A Game of Thrones, default) or wotr (War of the Ring)")
    p.add_argument("--players", type=int, default=None, help="AGoT: players (default 3)")
    p.add_argument("--max-rounds", type=int, default=None, help="AGoT: rounds (default 2)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an env option, e.g. max_turns=3 (War of the Ring's default: 2); "
                   "repeatable, the value read as JSON where it is")
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

    try:
        env = make_env(args)  # MaskablePPO seeds its resets with --seed
    except (TypeError, ValueError) as e:  # an option the game's env does not take
        p.error(f"--game {args.game}: {e}")
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=64, n_epochs=4,
                        gamma=args.gamma, seed=args.seed, device="cpu", verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    elapsed = time.perf_counter() - start
    print(f"trained MaskablePPO for {model.num_timesteps} steps in {elapsed:.1f} s "
          f"({args.game}, {json.dumps(env_options(args))}, opponents {args.opponents})")
    if args.save:
        path = Path(args.save)
        model.save(path)
        print(f"model saved to {path}")
    result = evaluate(model, make_env(args), seed=args.seed + 1)
    castles = "" if result["castles"] is None else f", {result['castles']} castles"
    print(f"evaluation game: {result['house']} ranked {result['rank']} of "
          f"{len(env.aec.possible_agents)} ({result['outcome']}){castles}, reward "
          f"{result['reward']:+.3f} over {result['decisions']} decisions")
    return 0 if np.isfinite(result["reward"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
