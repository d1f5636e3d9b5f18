"""A Game of Thrones' benchmark (``python -m experiments.benchmark``, the default ``--game
got``): what it measures is described in :mod:`experiments.benchmark`; the measurements here
drive AGoT's engine, env, encoder and codec directly (``engine.start_game``, ``got_env.env``),
as they did before the benchmark took other games, so that figures of older commits and newer
ones measure the same work under the same JSON keys. Its own options (``--ruleset``, the
player counts of a ruleset) are :func:`player_counts` and :func:`run`'s ``ruleset``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

import numpy as np

import got_env
from boardkit.vector import VectorGames
from got_env import engine
from got_env.data import load_ruleset

from . import common
from .common import BatchRun, Figures, in_play_us, micro_us, random_decisions, rules_rate

PLAYERS = (3, 4, 5, 6)


# -- the measurements -----------------------------------------------------------------------------


def engine_rate(num_players: int, seconds: float, seed: int,
                ruleset: str = "2e") -> tuple[float, float]:
    """(decisions/s, games/s) of the rules alone (:func:`.common.rules_rate`) through AGoT's
    engine: ``engine.start_game``, ``pending``, ``apply``."""
    return rules_rate(lambda g: engine.start_game(num_players, seed=g,
                                                  options={"ruleset": ruleset}),
                      engine.pending, engine.apply, seconds, seed)


class VectorRun(BatchRun):
    """AGoT's :class:`VectorGames` of ``ruleset`` kept running between measurements
    (:class:`BatchRun`)."""

    def __init__(self, num_games: int, num_players: int, num_workers: int, seed: int,
                 ruleset: str = "2e", copy: bool = True):
        t0 = time.perf_counter()
        self.games = VectorGames(num_games, num_players, seeds=seed, num_workers=num_workers,
                                 ruleset=ruleset, copy=copy, game="got")
        self.batch = self.games.reset()
        self.startup_s = time.perf_counter() - t0
        self.rng = np.random.default_rng(seed)


@dataclass
class Sample:
    """A state met in a random game, with the house to act and its options."""

    state: engine.GameState
    house: int
    options: tuple


def sample_states(num_players: int, count: int, seed: int,
                  ruleset: str = "2e") -> list[Sample]:
    """``count`` states spread over random games (every 7th decision, as many games as it
    takes), so that the micro timings see openings, combats and late rounds alike."""
    rng = np.random.default_rng(seed)
    play = random_decisions(lambda g: engine.start_game(num_players, seed=g,
                                                        options={"ruleset": ruleset}),
                            engine.pending, engine.apply, rng)
    return list(islice((Sample(state.clone(), d.player, d.options)
                        for state, d, k in play if k % 7 == 0), count))


def cold_encode(encoder: Any, s: Sample) -> object:
    """One encode with the state's cached board dropped: the cost for a state whose board was
    never encoded (a search agent's fresh sample, a new game)."""
    s.state.__dict__.pop("_board_cache", None)
    return encoder.encode(s.state, s.house)


def encode_in_play_us(num_players: int, encoder: Any, count: int, seed: int) -> float:
    """The median microseconds of encoding the acting house's view right after each decision
    of random games: the AEC loop's case, where consecutive states differ by one decision.
    The games are of the encoder's ruleset."""
    rng = np.random.default_rng(seed + 1)
    ruleset = encoder.ruleset.name
    play = random_decisions(lambda g: engine.start_game(num_players, seed=g,
                                                        options={"ruleset": ruleset}),
                            engine.pending, engine.apply, rng)
    return in_play_us(play, lambda _state: encoder, count)


# -- the run ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgotSubject:
    """AGoT at ``num_players`` of ``ruleset``, driven directly (its engine, ``got_env.env``,
    its encoder and codec) as before the benchmark took other games: a
    :class:`~.common.Subject`, so that the run itself is :mod:`.common`'s."""

    num_players: int
    ruleset: str = "2e"

    def new_env(self) -> Any:
        return got_env.env(num_players=self.num_players, ruleset=self.ruleset)

    def engine_rate(self, seconds: float, seed: int) -> tuple[float, float]:
        return engine_rate(self.num_players, seconds, seed, self.ruleset)

    def vector_run(self, num_games: int, workers: int, seed: int, copy: bool) -> VectorRun:
        return VectorRun(num_games, self.num_players, workers, seed, self.ruleset, copy)

    def sample_states(self, count: int, seed: int) -> list[Sample]:
        return sample_states(self.num_players, count, seed, self.ruleset)

    def micro(self, samples: list[Sample], seed: int) -> Iterator[tuple[str, float]]:
        env = got_env.env(num_players=self.num_players, ruleset=self.ruleset).unwrapped
        encoder, codec = env.encoder, env.codec
        yield "clone us", micro_us(lambda s: s.state.clone(), samples)
        yield "encode us", micro_us(lambda s, e=encoder: cold_encode(e, s), samples)
        yield "encode in play us", encode_in_play_us(self.num_players, encoder, len(samples),
                                                     seed)
        yield "mask us", micro_us(lambda s, c=codec: c.mask(s.options), samples)


def one_repeat(figs: Figures | None, players: list[int], seconds: float, seed: int,
               runs: dict[tuple[int, int, bool], VectorRun], samples: dict[int, list[Sample]],
               classic: dict[str, Callable[[], Any]], ruleset: str = "2e") -> None:
    """Measure everything once (``figs=None``: a warm-up, nothing kept): :func:`.common.
    one_repeat` on AGoT's player counts, under the signature this module has always had."""
    common.one_repeat(figs, {n: AgotSubject(n, ruleset) for n in players}, seconds, seed, runs,
                      samples, classic)


def run(players: list[int], seconds: float, repeats: int, num_games: int, num_states: int,
        seed: int = 0, log: Callable[[str], None] = print,
        ruleset: str = "2e") -> dict[str, Any]:
    """The whole benchmark (games of ``ruleset``); returns what the JSON holds, its options
    led by the ruleset as they always were."""
    return common.run_benchmark({n: AgotSubject(n, ruleset) for n in players},
                                {"ruleset": ruleset}, seconds, repeats, num_games, num_states,
                                seed, log)


# -- output ---------------------------------------------------------------------------------------
def table(result: dict[str, Any]) -> str:
    """The figures as text: median (min-max) over the repeats, one column per player count,
    under the ruleset's line (2e for the JSON of commits before rulesets were recorded)."""
    return common.table(result, f"ruleset {result['options'].get('ruleset', '2e')}")


def player_counts(ruleset: str) -> tuple[int, ...]:
    """The player counts the ruleset is played by (2e: 3-6, 1e: 3-5)."""
    return tuple(load_ruleset(ruleset).rules.player_counts)
