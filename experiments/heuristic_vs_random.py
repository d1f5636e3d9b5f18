"""The heuristic agent against random play: one heuristic seat, every other seat random.

    python -m experiments.heuristic_vs_random --games 200 --players 3 --seed 0

Game ``i`` uses env seed ``seed + i`` and seats the heuristic agent at house ``i % players`` (in
the data's house order: stark, lannister, baratheon, ...), so that it plays every house equally
often. Prints the heuristic's win rate with its 95% confidence interval (Wilson score) per house
and overall, with the castles it held at the end and the rounds played.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

import got_env
from agents import RandomAgent
from agents.heuristic import HeuristicAgent
from experiments.play import play_game
from experiments.ratings import wilson


@dataclass(frozen=True)
class Result:
    house: str
    won: bool
    castles: int
    rounds: int


def play_one(env: got_env.raw_env, seat: int, seed: int) -> Result:
    """One game with the heuristic at ``seat`` and random agents elsewhere."""
    houses = env.possible_agents
    agents = {h: HeuristicAgent(seed=seed) if i == seat else RandomAgent(seed=seed * 7 + i)
              for i, h in enumerate(houses)}
    play_game(env, agents, seed)
    game = env.game
    me = houses[seat]
    return Result(me, env.ruleset.houses[game.outcome.winner].id == me,
                  int(game.victory_points()[env.ruleset.house(me)]), int(game.round))


def run(games: int, players: int, seed: int, verbose: bool = False) -> list[Result]:
    env = got_env.raw_env(num_players=players)
    results = []
    for i in range(games):
        r = play_one(env, i % players, seed + i)
        results.append(r)
        if verbose:
            print(f"game {i:4d} seed {seed + i}: heuristic as {r.house:<10} "
                  f"{'won ' if r.won else 'lost'}  {r.castles} castles, {r.rounds} rounds")
    return results


def report(results: list[Result], players: int) -> str:
    lines = [f"heuristic vs {players - 1} random agents, {players}-player games "
             f"(a seat's fair share: {1 / players:.0%})"]
    houses = list(dict.fromkeys(r.house for r in results))
    for label, group in [(h, [r for r in results if r.house == h]) for h in houses] + \
            [("overall", results)]:
        n = len(group)
        wins = sum(r.won for r in group)
        lo, hi = wilson(wins, n)
        castles = sum(r.castles for r in group) / max(n, 1)
        rounds = sum(r.rounds for r in group) / max(n, 1)
        lines.append(f"  {label:<10} {wins:4d}/{n:<4d} wins  {wins / max(n, 1):6.1%}  "
                     f"95% CI [{lo:.1%}, {hi:.1%}]  castles {castles:.1f}  rounds {rounds:.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.heuristic_vs_random",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--players", type=int, default=3, choices=range(3, 7))
    p.add_argument("--seed", type=int, default=0, help="env seed of the first game")
    p.add_argument("--verbose", action="store_true", help="one line per game")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    start = time.perf_counter()
    results = run(args.games, args.players, args.seed, args.verbose)
    print(report(results, args.players))
    print(f"{args.games} games in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
