"""The benchmark of any game of the kit (``--game got``, ``--game goofspiel``): every figure
measured through what every game gives, so that a new game is benchmarked with no code of its
own:

* AEC: random masked play through the game's env as a user plays it (:func:`boardkit.envs.
  make_env`, in the kit's order-enforcing guard, as ``got_env.env()`` and ``goofspiel.env()``
  give it), agent-steps/s and games/s;
* engine: random decisions/s of the rules alone through the protocol (``new_state``,
  ``pending``, ``apply``, a uniform choice among ``d.options``);
* vector: decisions/s of ``VectorGames(game=...)`` with 0, 1 and 2 workers, and 2 with
  ``copy=False``;
* clone, encode, mask: microseconds per ``Game.clone``, ``encoder(state).encode(state,
  player)`` and ``codec(state).mask(d.options)`` on states sampled from random games, and
  encode right after each decision ("in play").

What the benchmark cannot know of a game comes from its plugin's optional ``benchmark`` piece
(:class:`boardkit.plugin.GamePlugin`; AGoT's is ``got_env.tools.benchmark``):
``default_players(env_options)``, the player counts measured when ``--players`` is not given
(else the options' own count), and ``forget_encoding(state)``, what a state caches of its
encoding, dropped before each "unrelated states" encode (else nothing).

The JSON's ``options`` name the game and its env options; ``players`` are the env's player
counts (``--players``: the ``num_players`` option).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

import numpy as np

from boardkit import games
from boardkit.envs import make_env
from boardkit.order import OrderEnforcing
from boardkit.vector import VectorGames

from . import common
from .common import BatchRun, Figures, in_play_us, micro_us, random_decisions, rules_rate


def wrapped_env(game: str, options: dict[str, Any]) -> Any:
    """The game's env as a user plays it: the raw env in the kit's order-enforcing guard (what
    every game's ``env()`` returns)."""
    return OrderEnforcing(make_env(game, **options))


def engine_rate(game: str, options: dict[str, Any], seconds: float,
                seed: int) -> tuple[float, float]:
    """(decisions/s, games/s) of the rules alone (:func:`.common.rules_rate`) through the
    protocol: ``new_state``, ``pending``, ``apply``."""
    rules = games.get(game)
    return rules_rate(lambda g: rules.new_state(g, options), rules.pending, rules.apply,
                      seconds, seed)


class KitVectorRun(BatchRun):
    """``VectorGames(game=...)`` kept running between measurements (:class:`BatchRun`)."""

    def __init__(self, game: str, options: dict[str, Any], num_games: int, num_workers: int,
                 seed: int, copy: bool = True):
        opts = dict(options)
        num_players = opts.pop("num_players", None)
        t0 = time.perf_counter()
        self.games = VectorGames(num_games, num_players, seeds=seed, num_workers=num_workers,
                                 copy=copy, game=game, **opts)
        self.batch = self.games.reset()
        self.startup_s = time.perf_counter() - t0
        self.rng = np.random.default_rng(seed)


@dataclass
class KitSample:
    """A state met in a random game, with the player to act and its options."""

    state: Any
    player: int
    options: tuple


def sample_states(game: str, options: dict[str, Any], count: int,
                  seed: int) -> list[KitSample]:
    """``count`` states spread over random games (every 7th decision, as many games as it
    takes), so that the micro timings see openings, middle games and late ones alike."""
    rules = games.get(game)
    play = random_decisions(lambda g: rules.new_state(g, options), rules.pending, rules.apply,
                            np.random.default_rng(seed))
    return list(islice((KitSample(rules.clone(state), d.player, tuple(d.options))
                        for state, d, k in play if k % 7 == 0), count))


def encode_in_play_us(game: str, options: dict[str, Any], count: int, seed: int) -> float:
    """The median microseconds of encoding the acting player's view right after each decision
    of random games (the AEC loop's case)."""
    rules = games.get(game)
    play = random_decisions(lambda g: rules.new_state(g, options), rules.pending, rules.apply,
                            np.random.default_rng(seed + 1))
    return in_play_us(play, rules.encoder, count)  # each game's encoder, as a user's env has


@dataclass(frozen=True)
class KitSubject:
    """``game`` with the env options of one player count, driven only through what every game
    gives (its env, the protocol, ``VectorGames(game=...)``): a :class:`~.common.Subject`, so
    that a new game is benchmarked by :mod:`.common`'s run with no code of its own."""

    game: str
    options: dict[str, Any]

    def new_env(self) -> Any:
        return wrapped_env(self.game, self.options)

    def engine_rate(self, seconds: float, seed: int) -> tuple[float, float]:
        return engine_rate(self.game, self.options, seconds, seed)

    def vector_run(self, num_games: int, workers: int, seed: int, copy: bool) -> KitVectorRun:
        return KitVectorRun(self.game, self.options, num_games, workers, seed, copy)

    def sample_states(self, count: int, seed: int) -> list[KitSample]:
        return sample_states(self.game, self.options, count, seed)

    def micro(self, samples: list[KitSample], seed: int) -> Iterator[tuple[str, float]]:
        rules = games.get(self.game)
        probe = samples[0].state  # the encoder and codec of the sampled states' setup
        encoder, codec = rules.encoder(probe), rules.codec(probe)
        forget = games.plugin(self.game).hook("benchmark", "forget_encoding")
        yield "clone us", micro_us(lambda s: rules.clone(s.state), samples)
        if forget is None:
            yield "encode us", micro_us(lambda s, e=encoder: e.encode(s.state, s.player),
                                        samples)
        else:
            yield "encode us", micro_us(lambda s, e=encoder: cold_encode(e, s, forget), samples)
        yield "encode in play us", encode_in_play_us(self.game, self.options, len(samples),
                                                     seed)
        yield "mask us", micro_us(lambda s, c=codec: c.mask(s.options), samples)


def cold_encode(encoder: Any, s: KitSample, forget: Callable[[Any], None]) -> object:
    """One encode of a state whose cached encoding was dropped first (``forget``, the game's
    ``forget_encoding`` hook): the cost for a state never encoded."""
    forget(s.state)
    return encoder.encode(s.state, s.player)


def subjects(game: str, configs: dict[int, dict[str, Any]]) -> dict[int, KitSubject]:
    """Player count -> its subject, from :func:`player_configs`' env options."""
    return {n: KitSubject(game, options) for n, options in configs.items()}


def one_repeat(figs: Figures | None, game: str, configs: dict[int, dict[str, Any]],
               seconds: float, seed: int, runs: dict[tuple[int, int, bool], KitVectorRun],
               samples: dict[int, list[KitSample]],
               classic: dict[str, Callable[[], Any]]) -> None:
    """Measure everything once (``figs=None``: a warm-up); ``configs``: player count -> the
    env options of that count. :func:`.common.one_repeat` under this module's signature."""
    common.one_repeat(figs, subjects(game, configs), seconds, seed, runs, samples, classic)


def player_configs(game: str, options: dict[str, Any],
                   players: list[int] | None) -> dict[int, dict[str, Any]]:
    """Player count -> env options: one entry per ``players`` (as ``num_players``); without
    them, one per count of the game's ``default_players`` hook (AGoT: every count of the
    ruleset), else the options as given, keyed by the player count of their env."""
    if not players:
        default = games.plugin(game).hook("benchmark", "default_players")
        players = list(default(options)) if default is not None else None
    if players:
        return {n: {**options, "num_players": n} for n in players}
    n = len(games.get(game).players(options))
    return {n: dict(options)}


def run(game: str, options: dict[str, Any], players: list[int] | None, seconds: float,
        repeats: int, num_games: int, num_states: int, seed: int = 0,
        log: Callable[[str], None] = print) -> dict[str, Any]:
    """The whole benchmark of ``game``; returns what the JSON holds, its options led by the
    game and its env options."""
    return common.run_benchmark(subjects(game, player_configs(game, options, players)),
                                {"game": game, "env": dict(options)}, seconds, repeats,
                                num_games, num_states, seed, log)


def table(result: dict[str, Any]) -> str:
    """The figures as text, one column per player count, under the game's line."""
    opts = result["options"]
    return common.table(result, f"game {opts['game']} {opts['env']}")
