"""A Game of Thrones' benchmark (``python -m experiments.benchmark``, the default ``--game
got``): what it measures is described in :mod:`experiments.benchmark`; the measurements here
drive AGoT's engine, env, encoder and codec directly (``engine.start_game``, ``got_env.env``),
as they did before the benchmark took other games, so that figures of older commits and newer
ones measure the same work under the same JSON keys. Its own options (``--ruleset``, the
player counts of a ruleset) are :func:`player_counts` and :func:`run`'s ``ruleset``.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import got_env
from got_env import engine
from got_env.data import load_ruleset
from got_env.vector import VectorGames

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

PLAYERS = (3, 4, 5, 6)


# -- the measurements -----------------------------------------------------------------------------


def engine_rate(num_players: int, seconds: float, seed: int,
                ruleset: str = "2e") -> tuple[float, float]:
    """(decisions/s, games/s) of the rules alone: whole random games until ``seconds`` have
    passed (at least one), a uniform choice among the options with a numpy Generator."""
    rng = np.random.default_rng(seed)
    decisions = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds or games < 1:
        state = engine.start_game(num_players, seed=int(rng.integers(1 << 30)),
                                  options={"ruleset": ruleset})
        while (d := engine.pending(state)) is not None:
            engine.apply(state, d.options[int(rng.integers(len(d.options)))])
            decisions += 1
        games += 1
    dt = time.perf_counter() - t0
    return decisions / dt, games / dt


class VectorRun(BatchRun):
    """AGoT's :class:`VectorGames` of ``ruleset`` kept running between measurements
    (:class:`BatchRun`)."""

    def __init__(self, num_games: int, num_players: int, num_workers: int, seed: int,
                 ruleset: str = "2e", copy: bool = True):
        t0 = time.perf_counter()
        self.games = VectorGames(num_games, num_players, seeds=seed, num_workers=num_workers,
                                 ruleset=ruleset, copy=copy)
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
    samples: list[Sample] = []
    while len(samples) < count:
        state = engine.start_game(num_players, seed=int(rng.integers(1 << 30)),
                                  options={"ruleset": ruleset})
        k = 0
        while (d := engine.pending(state)) is not None and len(samples) < count:
            if k % 7 == 0:
                samples.append(Sample(state.clone(), d.player, d.options))
            engine.apply(state, d.options[int(rng.integers(len(d.options)))])
            k += 1
    return samples


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
    times: list[float] = []
    while len(times) < count:
        state = engine.start_game(num_players, seed=int(rng.integers(1 << 30)),
                                  options={"ruleset": encoder.ruleset.name})
        while (d := engine.pending(state)) is not None and len(times) < count:
            t0 = time.perf_counter_ns()
            encoder.encode(state, d.player)
            times.append((time.perf_counter_ns() - t0) / 1e3)
            engine.apply(state, d.options[int(rng.integers(len(d.options)))])
    return statistics.median(times)


# -- bookkeeping ----------------------------------------------------------------------------------


def one_repeat(figs: Figures | None, players: list[int], seconds: float, seed: int,
               runs: dict[tuple[int, int, bool], VectorRun], samples: dict[int, list[Sample]],
               classic: dict[str, Callable[[], Any]], ruleset: str = "2e") -> None:
    """Measure everything once (``figs=None``: a warm-up, nothing kept)."""
    def add(name: str, unit: str, n: int | None, value: float) -> None:
        if figs is not None:
            figs.add(name, unit, n, value)

    for name, make in classic.items():  # next to got_env's AEC figures, as aec_ratio.py does
        steps, games = aec_rate(make, seconds, seed)
        add(f"{name} steps/s", "agent-steps/s", None, steps)
        add(f"{name} games/s", "games/s", None, games)
    for n in players:
        steps, games = aec_rate(lambda n=n: got_env.env(num_players=n, ruleset=ruleset),
                                seconds, seed)
        add("AEC steps/s", "agent-steps/s", n, steps)
        add("AEC games/s", "games/s", n, games)
        for name in classic:
            chess = figs.get(f"{name} steps/s", None) if figs is not None else None
            if chess is not None:
                add(f"AEC / {name}", "ratio of agent-steps/s", n, steps / chess.repeats[-1])
        decisions, games = engine_rate(n, seconds, seed, ruleset)
        add("engine decisions/s", "decisions/s", n, decisions)
        add("engine games/s", "games/s", n, games)
        chess = figs.get("chess_v6 steps/s", None) if figs is not None else None
        for w, copy in VECTOR:
            decisions, _ = runs[n, w, copy].rate(seconds)
            add(f"{vector_name(w, copy)} decisions/s", "decisions/s", n, decisions)
            if w == 2 and chess is not None:  # the machine's speed of the moment, factored out
                add(f"{vector_name(w, copy)} / chess_v6", "ratio to chess_v6 agent-steps/s",
                    n, decisions / chess.repeats[-1])
        env = got_env.env(num_players=n, ruleset=ruleset).unwrapped
        encoder, codec = env.encoder, env.codec
        add("clone us", "us", n, micro_us(lambda s: s.state.clone(), samples[n]))
        add("encode us", "us", n, micro_us(lambda s, e=encoder: cold_encode(e, s), samples[n]))
        add("encode in play us", "us", n, encode_in_play_us(n, encoder, len(samples[n]), seed))
        add("mask us", "us", n, micro_us(lambda s, c=codec: c.mask(s.options), samples[n]))


def run(players: list[int], seconds: float, repeats: int, num_games: int, num_states: int,
        seed: int = 0, log: Callable[[str], None] = print,
        ruleset: str = "2e") -> dict[str, Any]:
    """The whole benchmark (games of ``ruleset``); returns what the JSON holds."""
    load_before = os.getloadavg()
    t_start = time.perf_counter()
    classic = classic_envs()
    if not classic:
        log("(pettingzoo[classic] not installed: chess_v6 / connect_four_v3 and ratios skipped)")
    samples = {n: sample_states(n, num_states, seed + n, ruleset) for n in players}
    runs: dict[tuple[int, int, bool], VectorRun] = {}
    figs = Figures()
    try:
        for n in players:
            for w, copy in VECTOR:
                vr = runs[n, w, copy] = VectorRun(num_games, n, w, seed + 1000 * n, ruleset, copy)
                figs.add(f"{vector_name(w, copy)} startup s", "s", n, vr.startup_s)
        log(f"warm-up ({seconds / 4:.2f} s per measurement) ...")
        one_repeat(None, players, seconds / 4, seed, runs, samples, classic, ruleset)
        for r in range(repeats):
            t0 = time.perf_counter()
            one_repeat(figs, players, seconds, seed + 1 + r, runs, samples, classic, ruleset)
            log(f"repeat {r + 1}/{repeats}: {time.perf_counter() - t0:.0f} s")
    finally:
        for vr in runs.values():
            vr.close()
    return {
        "machine": machine_info(),
        "versions": versions(),
        "load_average": {"before": list(load_before), "after": list(os.getloadavg())},
        "options": {"ruleset": ruleset, "players": players, "seconds": seconds,
                    "repeats": repeats,
                    "vector_games": num_games, "states_sampled": num_states, "seed": seed},
        "wall_s": time.perf_counter() - t_start,
        "figures": [f.summary() for f in figs.all.values()],
        "ratios": {f"AEC / {c}": {n: figs.all[f"AEC / {c}", n].summary()["median"]
                                  for n in players if (f"AEC / {c}", n) in figs.all}
                   for c in classic},
    }


# -- output ---------------------------------------------------------------------------------------
def table(result: dict[str, Any]) -> str:
    """The figures as text: median (min-max) over the repeats, one column per player count."""
    figs = Figures()
    for f in result["figures"]:
        figs.all[f["name"], f["players"]] = Figure(f["name"], f["unit"], f["players"],
                                                   f["repeats"])
    players = result["options"]["players"]
    width = 24
    ruleset = result["options"].get("ruleset", "2e")
    lines = [f"ruleset {ruleset}",
             f"{'median (min-max) of ' + str(result['options']['repeats']) + ' repeats':<38}"
             + "".join(f"{f'{n} players':>{width}}" for n in players)]
    for key, label in ROWS:
        if any(figs.get(key, n) for n in players):
            lines.append(f"{label:<38}" + "".join(f"{cell(figs.get(key, n)):>{width}}"
                                                  for n in players))
    for c in CLASSIC:
        steps, games = figs.get(f"{c} steps/s", None), figs.get(f"{c} games/s", None)
        if steps is not None:
            lines.append(f"{c + ' agent-steps/s':<38}{cell(steps):>{width}}    games/s "
                         f"{cell(games)}")
    start = [figs.get(f"{vector_name(w, c)} startup s", n) for w, c in VECTOR for n in players]
    start_s = [f.repeats[0] for f in start if f is not None and f.repeats]
    if start_s:
        lines.append(f"(vector start-up, outside the timings: {min(start_s):.2f}-"
                     f"{max(start_s):.2f} s; {result['options']['vector_games']} games)")
    load = result["load_average"]
    lines.append(f"machine: {result['machine']['processor']}, {result['machine']['cpus']} cpus; "
                 f"load average {load['before'][0]:.2f} before, {load['after'][0]:.2f} after; "
                 f"{result['wall_s']:.0f} s")
    return "\n".join(lines)


def player_counts(ruleset: str) -> tuple[int, ...]:
    """The player counts the ruleset is played by (2e: 3-6, 1e: 3-5)."""
    return tuple(load_ruleset(ruleset).rules.player_counts)
