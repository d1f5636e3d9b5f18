"""What random departures from a prior agent cost: one seat plays heuristic_v2's choice resampled
from a softmax that gives it a bonus over the other legal actions, against two plain v2, 3 players.

    python -m experiments.prior_noise --games 90 --bonus 6 4.5 3
    python -m experiments.prior_noise --games 90 --bonus 8 5 3 --flat

The bonus is the residual network's at a zero output (``agents.ppo.prior_logits``: ``bonus +
log(legal - 1)``, the prior's choice at probability sigmoid(bonus) whatever the number of legal
actions), or with ``--flat`` the bonus alone (the prior followed less the more actions are
legal). It tells how much exploration a ``network.prior_bonus`` costs before any learning
(docs/training.md, "A prior agent"). Game ``g`` seats the resampled player at house ``g mod
3``, env seed 10,000 + g; each line prints its wins, its departures and its decisions.
"""

from __future__ import annotations

import argparse
from multiprocessing import Pool

import numpy as np

import got_env
from got_env.agents.heuristic import HeuristicV2Agent


def play(args: tuple[float | None, bool, int]) -> tuple[bool, int, int]:
    """Game ``g``: (the resampled seat won, its departures from v2's choice, its decisions);
    ``bonus`` None: plain v2 at every seat."""
    bonus, flat, g = args
    env = got_env.env(num_players=3, max_rounds=10)
    env.reset(seed=10_000 + g)
    me = env.possible_agents[g % 3]
    agents = {a: HeuristicV2Agent(seed=g * 7 + i) for i, a in enumerate(env.possible_agents)}
    rng = np.random.default_rng(g)
    departures = decisions = 0
    final: dict[str, float] = {}
    for name in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[name] = reward
            env.step(None)
            continue
        action = agents[name].act(obs["observation"], obs["action_mask"], info)
        if name == me and bonus is not None:
            legal = np.flatnonzero(obs["action_mask"])
            extra = bonus if flat else bonus + np.log(max(len(legal) - 1, 1))
            logits = np.where(legal == action, extra, 0.0)
            p = np.exp(logits - logits.max())
            choice = int(rng.choice(legal, p=p / p.sum()))
            decisions += 1
            departures += choice != action
            action = choice
        env.step(action)
    return final[me] == max(final.values()), departures, decisions


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.prior_noise",
                                description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=90, help="games per bonus (default 90)")
    p.add_argument("--bonus", type=float, nargs="+", default=[6.0, 4.5, 3.0])
    p.add_argument("--flat", action="store_true", help="the bonus alone, not + log(legal - 1)")
    p.add_argument("--baseline", action="store_true", help="first, plain v2 at every seat")
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        p.error("--games and --workers must be at least 1")
    bonuses: list[float | None] = [None, *args.bonus] if args.baseline else list(args.bonus)
    with Pool(args.workers) as pool:
        for bonus in bonuses:
            rows = pool.map(play, [(bonus, args.flat, g) for g in range(args.games)])
            wins, departures, decisions = (sum(r[i] for r in rows) for i in range(3))
            what = "plain v2" if bonus is None else f"bonus {bonus:g}" + (" flat" if args.flat
                                                                        else "")
            print(f"{what}: wins {wins}/{args.games}, departures {departures}/{decisions}",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
