"""The benchmark of any game of the kit other than AGoT (``--game goofspiel``): the same figures
as AGoT's (:mod:`.got`), measured only through what every game gives, so that a new game is
benchmarked with no code of its own:

* AEC: random masked play through the game's env (:func:`boardkit.envs.make_env`, wrapped in
  PettingZoo's order enforcing as ``got_env.env`` is), agent-steps/s and games/s;
* engine: random decisions/s of the rules alone through the protocol (``new_state``,
  ``pending``, ``apply``, a uniform choice among ``d.options``);
* vector: decisions/s of ``VectorGames(game=...)`` with 0, 1 and 2 workers, and 2 with
  ``copy=False``;
* clone, encode, mask: microseconds per ``Game.clone``, ``encoder(state).encode(state,
  player)`` and ``codec(state).mask(d.options)`` on states sampled from random games, and
  encode right after each decision ("in play").

The JSON has AGoT's keys (figures named alike), its ``options`` naming the game and its env
options; ``players`` are the env's player counts (``--players``: the ``num_players`` option).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardkit import games
from boardkit.envs import make_env
from boardkit.vector import VectorGames

from .common import (
    CLASSIC,
    ROWS,
    VECTOR,
    BatchRun,
    Figure,
    Figures,
    aec_rate,
    cell,
    classic_envs,
    machine_info,
    micro_us,
    vector_name,
    versions,
)


def wrapped_env(game: str, options: dict[str, Any]) -> Any:
    """The game's env as a user plays it: the raw env, order enforcing."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(make_env(game, **options))


def engine_rate(game: str, options: dict[str, Any], seconds: float,
                seed: int) -> tuple[float, float]:
    """(decisions/s, games/s) of the rules alone through the protocol: whole random games until
    ``seconds`` have passed (at least one), a uniform choice among the options."""
    rules = games.get(game)
    rng = np.random.default_rng(seed)
    decisions = played = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds or played < 1:
        state = rules.new_state(int(rng.integers(1 << 30)), options)
        while (d := rules.pending(state)) is not None:
            rules.apply(state, d.options[int(rng.integers(len(d.options)))])
            decisions += 1
        played += 1
    dt = time.perf_counter() - t0
    return decisions / dt, played / dt


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
    takes), as AGoT's benchmark samples them."""
    rules = games.get(game)
    rng = np.random.default_rng(seed)
    samples: list[KitSample] = []
    while len(samples) < count:
        state = rules.new_state(int(rng.integers(1 << 30)), options)
        k = 0
        while (d := rules.pending(state)) is not None and len(samples) < count:
            if k % 7 == 0:
                samples.append(KitSample(rules.clone(state), d.player, tuple(d.options)))
            rules.apply(state, d.options[int(rng.integers(len(d.options)))])
            k += 1
    return samples


def encode_in_play_us(game: str, options: dict[str, Any], count: int, seed: int) -> float:
    """The median microseconds of encoding the acting player's view right after each decision
    of random games (the AEC loop's case)."""
    rules = games.get(game)
    rng = np.random.default_rng(seed + 1)
    times: list[float] = []
    while len(times) < count:
        state = rules.new_state(int(rng.integers(1 << 30)), options)
        encoder = rules.encoder(state)
        while (d := rules.pending(state)) is not None and len(times) < count:
            t0 = time.perf_counter_ns()
            encoder.encode(state, d.player)
            times.append((time.perf_counter_ns() - t0) / 1e3)
            rules.apply(state, d.options[int(rng.integers(len(d.options)))])
    return statistics.median(times)


def one_repeat(figs: Figures | None, game: str, configs: dict[int, dict[str, Any]],
               seconds: float, seed: int, runs: dict[tuple[int, int, bool], KitVectorRun],
               samples: dict[int, list[KitSample]],
               classic: dict[str, Callable[[], Any]]) -> None:
    """Measure everything once (``figs=None``: a warm-up); ``configs``: player count -> the
    env options of that count."""
    rules = games.get(game)

    def add(name: str, unit: str, n: int | None, value: float) -> None:
        if figs is not None:
            figs.add(name, unit, n, value)

    for name, make in classic.items():
        steps, played = aec_rate(make, seconds, seed)
        add(f"{name} steps/s", "agent-steps/s", None, steps)
        add(f"{name} games/s", "games/s", None, played)
    for n, options in configs.items():
        steps, played = aec_rate(lambda o=options: wrapped_env(game, o), seconds, seed)
        add("AEC steps/s", "agent-steps/s", n, steps)
        add("AEC games/s", "games/s", n, played)
        for name in classic:
            ref = figs.get(f"{name} steps/s", None) if figs is not None else None
            if ref is not None:
                add(f"AEC / {name}", "ratio of agent-steps/s", n, steps / ref.repeats[-1])
        decisions, played = engine_rate(game, options, seconds, seed)
        add("engine decisions/s", "decisions/s", n, decisions)
        add("engine games/s", "games/s", n, played)
        chess = figs.get("chess_v6 steps/s", None) if figs is not None else None
        for w, copy in VECTOR:
            decisions, _ = runs[n, w, copy].rate(seconds)
            add(f"{vector_name(w, copy)} decisions/s", "decisions/s", n, decisions)
            if w == 2 and chess is not None:
                add(f"{vector_name(w, copy)} / chess_v6", "ratio to chess_v6 agent-steps/s",
                    n, decisions / chess.repeats[-1])
        probe = samples[n][0].state
        encoder, codec = rules.encoder(probe), rules.codec(probe)
        add("clone us", "us", n, micro_us(lambda s: rules.clone(s.state), samples[n]))
        add("encode us", "us", n, micro_us(lambda s, e=encoder: e.encode(s.state, s.player),
                                            samples[n]))
        add("encode in play us", "us", n,
            encode_in_play_us(game, options, len(samples[n]), seed))
        add("mask us", "us", n, micro_us(lambda s, c=codec: c.mask(s.options), samples[n]))


def player_configs(game: str, options: dict[str, Any],
                   players: list[int] | None) -> dict[int, dict[str, Any]]:
    """Player count -> env options: one entry per ``players`` (as ``num_players``), or the
    options as given, keyed by the player count of their env."""
    if players:
        return {n: {**options, "num_players": n} for n in players}
    n = len(games.get(game).players(options))
    return {n: dict(options)}


def run(game: str, options: dict[str, Any], players: list[int] | None, seconds: float,
        repeats: int, num_games: int, num_states: int, seed: int = 0,
        log: Callable[[str], None] = print) -> dict[str, Any]:
    """The whole benchmark of ``game``; returns what the JSON holds (AGoT's keys)."""
    load_before = os.getloadavg()
    t_start = time.perf_counter()
    configs = player_configs(game, options, players)
    classic = classic_envs()
    if not classic:
        log("(pettingzoo[classic] not installed: chess_v6 / connect_four_v3 and ratios skipped)")
    samples = {n: sample_states(game, o, num_states, seed + n) for n, o in configs.items()}
    runs: dict[tuple[int, int, bool], KitVectorRun] = {}
    figs = Figures()
    try:
        for n, o in configs.items():
            for w, copy in VECTOR:
                vr = runs[n, w, copy] = KitVectorRun(game, o, num_games, w, seed + 1000 * n,
                                                     copy)
                figs.add(f"{vector_name(w, copy)} startup s", "s", n, vr.startup_s)
        log(f"warm-up ({seconds / 4:.2f} s per measurement) ...")
        one_repeat(None, game, configs, seconds / 4, seed, runs, samples, classic)
        for r in range(repeats):
            t0 = time.perf_counter()
            one_repeat(figs, game, configs, seconds, seed + 1 + r, runs, samples, classic)
            log(f"repeat {r + 1}/{repeats}: {time.perf_counter() - t0:.0f} s")
    finally:
        for vr in runs.values():
            vr.close()
    counts = list(configs)
    return {
        "machine": machine_info(),
        "versions": versions(),
        "load_average": {"before": list(load_before), "after": list(os.getloadavg())},
        "options": {"game": game, "env": dict(options), "players": counts, "seconds": seconds,
                    "repeats": repeats, "vector_games": num_games,
                    "states_sampled": num_states, "seed": seed},
        "wall_s": time.perf_counter() - t_start,
        "figures": [f.summary() for f in figs.all.values()],
        "ratios": {f"AEC / {c}": {n: figs.all[f"AEC / {c}", n].summary()["median"]
                                  for n in counts if (f"AEC / {c}", n) in figs.all}
                   for c in classic},
    }


def table(result: dict[str, Any]) -> str:
    """The figures as text, one column per player count (the rows of AGoT's table)."""
    figs = Figures()
    for f in result["figures"]:
        figs.all[f["name"], f["players"]] = Figure(f["name"], f["unit"], f["players"],
                                                   f["repeats"])
    opts = result["options"]
    players, width = opts["players"], 24
    lines = [f"game {opts['game']} {opts['env']}",
             f"{'median (min-max) of ' + str(opts['repeats']) + ' repeats':<38}"
             + "".join(f"{f'{n} players':>{width}}" for n in players)]
    for key, label in ROWS:
        if any(figs.get(key, n) for n in players):
            lines.append(f"{label:<38}" + "".join(f"{cell(figs.get(key, n)):>{width}}"
                                                  for n in players))
    for c in CLASSIC:
        steps, played = figs.get(f"{c} steps/s", None), figs.get(f"{c} games/s", None)
        if steps is not None:
            lines.append(f"{c + ' agent-steps/s':<38}{cell(steps):>{width}}    games/s "
                         f"{cell(played)}")
    load = result["load_average"]
    lines.append(f"machine: {result['machine']['processor']}, {result['machine']['cpus']} cpus; "
                 f"load average {load['before'][0]:.2f} before, {load['after'][0]:.2f} after; "
                 f"{result['wall_s']:.0f} s")
    return "\n".join(lines)
