"""ISMCTS against the heuristic agent: 3-player games, 1 ISMCTS seat vs 2 heuristic seats.

    python -m experiments.ismcts_vs_heuristic --games 30 --budget 50 --seed 0 --workers 2

Game ``i`` uses env seed ``seed + i`` and seats ISMCTS at house ``i % 3`` (stark, lannister,
baratheon in turn), so every house is played by ISMCTS equally often. Prints one line per game,
then the ISMCTS win rate with its 95% confidence interval (Wilson score) against the 1/3 share
of a seat, and the seconds per game (wall clock, all three agents' thinking included).

``--budget``: ISMCTS simulations per decision, at most ``--per-option`` per legal option
(``--seconds`` sets a time per decision instead). The defaults are the agent's: heuristic
rollouts to the end of the round, the heuristic's choice expanded first with progressive
widening, the heuristic as the model of the other houses' hidden choices in determinizations;
``--rollout random --prior none --model none --widening 0 --per-option 0`` is the plain search.
``--opponent random`` measures against the random agent.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import got_env
from agents import RandomAgent
from agents.ismcts import ISMCTSAgent
from experiments.ratings import wilson

NUM_PLAYERS = 3


def opponent(name: str, seed: int) -> Any:
    if name == "random":
        return RandomAgent(seed=seed)
    from agents.heuristic import HeuristicAgent

    return HeuristicAgent(seed=seed)


def play(args: tuple[int, int, dict[str, Any], str]) -> dict[str, Any]:
    """One game: (game index, env seed, ISMCTS options, opponent name) -> result."""
    index, seed, search, opp = args
    env = got_env.raw_env(num_players=NUM_PLAYERS)
    seat = index % NUM_PLAYERS
    agents = {house: ISMCTSAgent(env=env, seed=seed, **search) if i == seat
              else opponent(opp, seed * 10 + i) for i, house in enumerate(env.possible_agents)}
    env.reset(seed=seed)
    start = time.perf_counter()
    spent = 0.0
    me = env.possible_agents[seat]
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        t = time.perf_counter()
        action = agents[agent].act(obs["observation"], obs["action_mask"], info)
        if agent == me:
            spent += time.perf_counter() - t
        env.step(action)
    game = env.game
    winner = env.ruleset.houses[game.outcome.winner].id
    vp = game.victory_points()
    return {"index": index, "seed": seed, "house": me, "win": winner == me, "winner": winner,
            "reason": game.outcome.reason, "rounds": game.round,
            "castles": {h: int(vp[env.ruleset.house(h)]) for h in env.possible_agents},
            "seconds": time.perf_counter() - start, "ismcts_seconds": spent}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.ismcts_vs_heuristic",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--budget", type=int, default=50, help="simulations per decision (at most)")
    p.add_argument("--seconds", type=float, default=None,
                   help="seconds per decision (instead of --budget)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rollout", default="heuristic", help="'random' or an agent name")
    p.add_argument("--horizon", choices=("round", "game"), default="round")
    p.add_argument("--prior", default="heuristic",
                   help="agent name whose choice is expanded first ('none': random order)")
    p.add_argument("--model", default="heuristic",
                   help="agent name that re-makes hidden choices in determinizations "
                        "('none': uniformly random)")
    p.add_argument("--widening", type=float, default=1.0,
                   help="progressive widening constant (0: no widening)")
    p.add_argument("--per-option", type=int, default=4,
                   help="at most this many simulations per legal option (0: no such cap)")
    p.add_argument("--c", type=float, default=0.5, help="UCB1 exploration constant")
    p.add_argument("--opponent", choices=("heuristic", "random"), default="heuristic")
    p.add_argument("--workers", type=int, default=1, help="games played in parallel")
    args = p.parse_args(argv)
    if args.games < 1 or args.budget < 1 or args.workers < 1:
        p.error("--games, --budget and --workers must be positive")
    search = {"simulations": None if args.seconds else args.budget, "seconds": args.seconds,
              "rollout": args.rollout, "horizon": args.horizon,
              "prior": None if args.prior == "none" else args.prior,
              "model": None if args.model == "none" else args.model,
              "widening": args.widening or None, "per_option": args.per_option or None,
              "c": args.c}
    jobs = [(i, args.seed + i, search, args.opponent) for i in range(args.games)]
    budget = f"{args.seconds} s" if args.seconds else f"{args.budget} simulations"
    print(f"ISMCTS ({budget} per decision, {args.rollout} rollouts, horizon {args.horizon}, "
          f"prior {args.prior}, model {args.model}, widening {args.widening}, "
          f"per option {args.per_option}, c {args.c}) vs 2 x {args.opponent}, "
          f"{NUM_PLAYERS} players, {args.games} games")
    results = []
    with ProcessPoolExecutor(args.workers) as pool:
        for r in pool.map(play, jobs) if args.workers > 1 else map(play, jobs):
            results.append(r)
            castles = " ".join(f"{h}={n}" for h, n in r["castles"].items())
            print(f"game {r['index']:3d} seed {r['seed']:4d} ismcts={r['house']:<9} "
                  f"{'WIN ' if r['win'] else 'loss'} winner={r['winner']:<9} {r['reason']:<13} "
                  f"round {r['rounds']:2d}  {castles}  {r['seconds']:.1f} s "
                  f"(ismcts {r['ismcts_seconds']:.1f} s)", flush=True)
    wins = sum(r["win"] for r in results)
    n = len(results)
    lo, hi = wilson(wins, n)
    per_game = sum(r["seconds"] for r in results) / n
    mine = sum(r["ismcts_seconds"] for r in results) / n
    print(f"ISMCTS win rate {wins}/{n} = {wins / n:.3f}  95% CI [{lo:.3f}, {hi:.3f}]  "
          f"(seat share 0.333)")
    for house in sorted({r["house"] for r in results}):
        mine_h = [r for r in results if r["house"] == house]
        print(f"  as {house:<9} {sum(r['win'] for r in mine_h)}/{len(mine_h)}")
    longest = max(r["seconds"] for r in results)
    print(f"seconds per game {per_game:.1f} (longest {longest:.1f}; ISMCTS thinking {mine:.1f} "
          f"per game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
