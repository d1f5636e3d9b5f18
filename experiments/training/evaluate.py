"""Evaluation: the learner at one seat against baseline agents, houses rotated, with a
confidence interval on its win rate.

The games of an evaluation are always the same (seeds from the config's seed), so that two
evaluations of a run differ by the policy only. Game ``i`` seats the learner at house
``i mod num_players``: every house is played equally often.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import torch

from agents.base import begin_game, end_game
from boardkit.vector import VectorGames

from ..ratings import wilson
from . import game_hooks
from .rollout import (
    Seat,
    SeatMaker,
    choose_actions,
    opponent_seat,
    prior_maker,
    worker_agent,
    worker_spec,
)

EVAL_SEED_OFFSET = 1_000_003  # evaluation games never share a seed with training games


@dataclass(frozen=True)
class Evaluation:
    """The learner's games against one opponent: ``wins`` (a shared win counts as its share
    where an evaluation scores it so, as the imitation's does), with a Wilson interval."""

    opponent: str
    wins: float
    games: int
    #: per game, in game order: whether the learner won it (what tests compare two ways of
    #: playing the same games by)
    won: tuple[bool, ...] = ()

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def __str__(self) -> str:
        lo, hi = self.interval
        return (f"vs {self.opponent}: {self.wins}/{self.games} = {self.rate:.1%} "
                f"(95% CI {lo:.1%}-{hi:.1%})")


def eval_num_players(env_options: Mapping[str, Any], game: str = "got") -> int:
    """The table size of the evaluation games: the options' ``num_players``, else the game's
    own default (AGoT: the ruleset's largest count), so that a 1e run without one evaluates
    5-player games as it trains them."""
    given = env_options.get("num_players")
    return int(given) if given is not None else game_hooks.default_num_players(game,
                                                                               env_options)


def evaluate(network: torch.nn.Module, opponent: str, games: int, env_options: dict[str, Any],
             seed: int, greedy: bool = False, workers: int = 0, game: str = "got",
             make_seat: SeatMaker | None = None, seats_in_workers: bool = False,
             specs: Mapping[str, Any] | None = None) -> Evaluation:
    """Play ``games`` games of ``game``, all in lockstep, the learner at one seat and
    ``opponent`` at the others (``make_seat``: how its seats are built, by default the game's
    baseline of that name); each game is played to its end once (a slot that finishes is not
    counted again).

    ``seats_in_workers``: the opponent's seats are played inside the batched API's shards
    (worker-side seats, issue 26 item 4), by the same agents with the same seeds
    (:func:`.rollout.worker_agent`, ``specs``: the config's ``agents``), so that this process
    only runs the learner's forward passes; a greedy evaluation plays the very same games, a
    sampled one the same policy on other draws (every row of a batch is then the learner's)."""
    if games == 0:
        return Evaluation(opponent, 0, 0)
    options = {k: v for k, v in env_options.items() if k != "num_players"}
    n = eval_num_players(env_options, game)
    base = seed + EVAL_SEED_OFFSET
    generator = torch.Generator().manual_seed(base)
    if make_seat is None:
        def make_seat(name: str, seed: int) -> Seat:
            return opponent_seat(name, seed, game, env_options)
    make_prior = prior_maker(network, make_seat)

    def learner(g: int) -> Seat:
        # the prior's seed: the one an opponent in the learner's place would get
        prior = make_prior(base + g * n + g % n) if make_prior is not None else None
        return Seat("learner", prior=prior)

    if seats_in_workers:
        worker_seats: list[dict[int, Any]] | None = [
            {h: worker_spec(game, opponent, base + g * n + h, env_options, specs)
             for h in range(n) if h != g % n} for g in range(games)]
        seats = [[learner(g) if h == g % n else Seat("learner") for h in range(n)]
                 for g in range(games)]
    else:
        worker_seats = None
        seats = [[learner(g) if h == g % n else make_seat(opponent, base + g * n + h)
                  for h in range(n)] for g in range(games)]
    for row in seats:
        for s in row:
            if s.agent is not None:
                begin_game(s.agent)
    network.eval()
    won, done = [False] * games, [False] * games
    with VectorGames(games, n, seeds=base, num_workers=workers, game=game,
                     worker_seats=worker_seats,
                     agent_factory=worker_agent if worker_seats else None, **options) as vec:
        batch = vec.reset()
        agents = vec.possible_agents
        while not all(done):
            actions, _, _ = choose_actions(batch, seats, network, None, generator, greedy)
            batch = vec.step(actions)
            for g, finished in enumerate(batch.finished):
                if finished is None or done[g]:
                    continue
                done[g] = True
                won[g] = game_hooks.winner(game, finished, agents) == agents[g % n]
                for h, s in enumerate(seats[g]):
                    for agent in (s.agent, s.prior):
                        if agent is not None:
                            end_game(agent, float(finished.rewards[h]),
                                     finished.infos[agents[h]])
    return Evaluation(opponent, sum(won), games, tuple(won))
