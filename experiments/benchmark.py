"""Speed of random masked play through the AEC API, with the observation and the mask built at
every step, as an RL training loop would see it. Compared, in the same run, with PettingZoo's
chess_v6 and connect_four_v3 (needs the optional extra: pip install 'pettingzoo[classic]').

    python -m experiments.benchmark --games 5
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

import got_env


def run_games(make_env: Any, games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` random masked games; returns (agent steps, seconds)."""
    rng = np.random.default_rng(seed)
    steps, start = 0, time.perf_counter()
    for g in range(games):
        env = make_env()
        env.reset(seed=seed + g)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            steps += 1
        env.close()
    return steps, time.perf_counter() - start


def clone_time(num_players: int, repeats: int = 200) -> float:
    env = got_env.raw_env(num_players=num_players)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):  # a mid-game position
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    start = time.perf_counter()
    for _ in range(repeats):
        env.clone()
    return (time.perf_counter() - start) / repeats


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.benchmark", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=5, help="games per player count")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    print(f"{'env':<22} {'games':>5} {'agent-steps':>11} {'steps/s':>9} {'games/s':>8}")
    for n in (3, 4, 5, 6):
        steps, secs = run_games(lambda n=n: got_env.env(num_players=n), args.games, args.seed)
        print(f"{f'got_env {n}p':<22} {args.games:>5} {steps:>11} {steps / secs:>9.0f} "
              f"{args.games / secs:>8.2f}")
    try:
        from pettingzoo.classic import chess_v6, connect_four_v3
    except ImportError:
        print("(pettingzoo[classic] not installed: chess_v6 / connect_four_v3 skipped)")
    else:
        for name, mod in (("chess_v6", chess_v6), ("connect_four_v3", connect_four_v3)):
            steps, secs = run_games(mod.env, args.games, args.seed)
            print(f"{name:<22} {args.games:>5} {steps:>11} {steps / secs:>9.0f} "
                  f"{args.games / secs:>8.2f}")
    for n in (3, 6):
        print(f"clone of a {n}-player mid-game env: {clone_time(n) * 1e6:.0f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
