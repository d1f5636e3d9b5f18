"""What every game's benchmark shares (:mod:`experiments.benchmark`): the AEC loop's rate, the
batched API's random policy, the micro timings' clock, the figures' bookkeeping, PettingZoo's
classic games as the reference, the machine and versions a JSON names, and the whole run around
a game's :class:`Subject` (the repeats, the result document, the table), so that AGoT's
benchmark (:mod:`.got`) and every other game's (:mod:`.kit`) measure, record and print alike
and differ only in what they drive and in their options."""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from itertools import islice
from pathlib import Path
from typing import Any, Protocol

import numpy as np

#: The batched API's runs: (worker processes, copy). ``copy=False`` hands the learner views of
#: the shared buffers instead of copies (what a trainer with its own rollout storage uses).
VECTOR = ((0, True), (1, True), (2, True), (2, False))


CLASSIC = ("chess_v6", "connect_four_v3")


def aec_rate(make: Callable[[], Any], seconds: float, seed: int) -> tuple[float, float]:
    """(agent-steps/s, games/s) of random masked play through the AEC loop: whole games, each in
    a new env, until ``seconds`` have passed (at least one game); every ``step`` counts, the
    dead steps at the end included. The method of ``../shared/tools/aec_ratio.py``."""
    rng = np.random.default_rng(seed)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds or games < 1:
        env = make()
        env.reset(seed=int(rng.integers(1 << 30)))
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if (term or trunc)
                     else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        games += 1
    dt = time.perf_counter() - t0
    return steps / dt, games / dt


class BatchRun:
    """A batched API (:class:`boardkit.vector.VectorGames`, set as ``games`` with its first
    ``batch`` by a subclass) kept running between measurements (its games go on where they
    were), so that worker start-up is paid once, outside the timings."""

    games: Any
    batch: Any
    rng: np.random.Generator
    startup_s: float

    def rate(self, seconds: float) -> tuple[float, float]:
        """(decisions/s, finished games/s) over at least ``seconds`` of lockstep random masked
        play: one decision per game per step, with every game's observation and mask."""
        steps = finished = 0
        g = self.games.num_games
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds or steps < 1:
            self.batch = self.games.step(uniform_legal(self.batch.mask, self.rng))
            steps += 1
            finished += int(self.batch.done.sum())
        dt = time.perf_counter() - t0
        return steps * g / dt, finished / dt

    def close(self) -> None:
        self.games.close()


def uniform_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row of ``mask`` (int8 [G, N]), uniform among its legal ones: the k-th
    legal index of each row for a uniform k, from one scan of the mask (``nonzero``), since
    drawing a random number for every action of every game would cost more than a worker's
    whole step (the main process's time is time the workers wait in lockstep)."""
    legal = np.flatnonzero(mask.view(np.bool_))  # 10x faster than int8's 2-d nonzero()
    rows = legal // mask.shape[1]
    counts = np.bincount(rows, minlength=len(mask))
    if not counts.all():
        raise ValueError(f"game {int(np.argmin(counts))} has no legal action")
    starts = np.cumsum(counts) - counts
    return legal[starts + (rng.random(len(mask)) * counts).astype(np.int64)] % mask.shape[1]


def rules_rate(start: Callable[[int], Any], pending: Callable[[Any], Any],
               apply: Callable[[Any, Any], object], seconds: float,
               seed: int) -> tuple[float, float]:
    """(decisions/s, games/s) of the rules alone: whole random games (``start(seed)`` with a
    seed from a numpy Generator, then ``pending`` and ``apply`` with a uniform choice among the
    options) until ``seconds`` have passed (at least one). Written out rather than on
    :func:`random_decisions`, whose generator's own cost would be timed with the rules'."""
    rng = np.random.default_rng(seed)
    decisions = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds or games < 1:
        state = start(int(rng.integers(1 << 30)))
        while (d := pending(state)) is not None:
            apply(state, d.options[int(rng.integers(len(d.options)))])
            decisions += 1
        games += 1
    dt = time.perf_counter() - t0
    return decisions / dt, games / dt


def random_decisions(start: Callable[[int], Any], pending: Callable[[Any], Any],
                     apply: Callable[[Any, Any], object],
                     rng: np.random.Generator) -> Iterator[tuple[Any, Any, int]]:
    """(state, pending decision, its index in the game) of every decision of random games, one
    game after another (``start(seed)`` with a seed from ``rng``, a uniform choice among the
    options), without end: the sampling and the "in play" timing of every game walk the same
    games this way. The decision is applied only when the next one is asked for, so that what
    is done with a state at a yield sees it before the decision."""
    while True:
        state = start(int(rng.integers(1 << 30)))
        k = 0
        while (d := pending(state)) is not None:
            yield state, d, k
            apply(state, d.options[int(rng.integers(len(d.options)))])
            k += 1


def in_play_us(play: Iterator[tuple[Any, Any, int]], encoder_of: Callable[[Any], Any],
               count: int) -> float:
    """The median microseconds of encoding the acting player's view at each of the first
    ``count`` decisions of ``play`` (:func:`random_decisions`): the AEC loop's case, where
    consecutive states differ by one decision. ``encoder_of(state)`` is asked at each game's
    first decision, outside the timing (a game whose encoder depends on its setup gets its
    own)."""
    times: list[float] = []
    encoder: Any = None
    for state, d, k in islice(play, count):
        if k == 0:
            encoder = encoder_of(state)
        t0 = time.perf_counter_ns()
        encoder.encode(state, d.player)
        times.append((time.perf_counter_ns() - t0) / 1e3)
    return statistics.median(times)


def micro_us(fn: Callable[[Any], object], samples: list[Any], calls: int = 5) -> float:
    """The median over ``samples`` of the microseconds one ``fn(sample)`` takes (the mean of
    ``calls`` calls on each, so that the clock's own cost stays out)."""
    times = []
    for s in samples:
        t0 = time.perf_counter_ns()
        for _ in range(calls):
            fn(s)
        times.append((time.perf_counter_ns() - t0) / calls / 1e3)
    return statistics.median(times)


@dataclass
class Figure:
    """One measured quantity: every repeat, and their median, min and max."""

    name: str
    unit: str
    players: int | None
    repeats: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        r = self.repeats
        return {**asdict(self), "median": statistics.median(r) if r else None,
                "min": min(r) if r else None, "max": max(r) if r else None}


class Figures:
    """The figures of a run, by (name, players), in the order they were first met."""

    def __init__(self) -> None:
        self.all: dict[tuple[str, int | None], Figure] = {}

    def add(self, name: str, unit: str, players: int | None, value: float) -> None:
        key = (name, players)
        if key not in self.all:
            self.all[key] = Figure(name, unit, players)
        self.all[key].repeats.append(float(value))

    def get(self, name: str, players: int | None) -> Figure | None:
        return self.all.get((name, players))


def classic_envs() -> dict[str, Callable[[], Any]]:
    """PettingZoo's chess and connect four, when ``pettingzoo[classic]`` is installed."""
    try:
        with warnings.catch_warnings():  # PettingZoo's notice about its older creation API
            warnings.simplefilter("ignore", DeprecationWarning)
            from pettingzoo.classic import chess_v6, connect_four_v3  # optional: [classic]
    except ImportError:
        return {}
    return {"chess_v6": chess_v6.env, "connect_four_v3": connect_four_v3.env}


def machine_info() -> dict[str, Any]:
    return {"platform": platform.platform(), "machine": platform.machine(),
            "processor": platform.processor() or _cpu_model(), "cpus": os.cpu_count(),
            "affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else None, "python": sys.version.split()[0],
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for pkg in ("got_env", "numpy", "pettingzoo", "gymnasium", "chess"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = None
    try:
        here = Path(__file__).resolve().parent
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True,
                                text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=here, capture_output=True,
                               text=True, timeout=10).stdout.strip()
        out["git_commit"] = (commit + ("+dirty" if dirty else "")) if commit else None
    except (OSError, subprocess.SubprocessError):
        out["git_commit"] = None
    return out


def vector_name(workers: int, copy: bool) -> str:
    """The figures' name of a batched run: ``vector 2w`` (copies), ``vector 2w views``."""
    return f"vector {workers}w" + ("" if copy else " views")


def cell(f: Figure | None) -> str:
    if f is None or not f.repeats:
        return "-"
    s = f.summary()
    fmt = (lambda v: f"{v:.2f}") if s["median"] < 10 else (lambda v: f"{v:.0f}")
    return f"{fmt(s['median'])} ({fmt(s['min'])}-{fmt(s['max'])})"


#: The table's rows: figure name -> label (AGoT's table and every other game's).
ROWS = [("AEC steps/s", "AEC agent-steps/s"), ("AEC games/s", "AEC games/s"),
        ("engine decisions/s", "engine decisions/s"), ("engine games/s", "engine games/s"),
        ("engine decisions/game", "decisions per random game")] + [
    (f"{vector_name(w, copy)} decisions/s",
     f"vector, {w} worker{'s' if w != 1 else ''}{'' if copy else ', copy=False'}: decisions/s")
    for w, copy in VECTOR] + [
    ("clone us", "state clone (us)"), ("encode us", "encode, unrelated states (us)"),
    ("encode in play us", "encode, one decision on (us)"), ("mask us", "mask (us)")] + [
    (f"AEC / {c}", f"AEC / {c} agent-steps/s") for c in CLASSIC] + [
    (f"{vector_name(2, copy)} / chess_v6",
     f"vector, 2 workers{'' if copy else ', copy=False'} / chess_v6") for copy in (True, False)]



# -- the run, whatever the game -------------------------------------------------------------------


class Subject(Protocol):
    """One player count of one game, as the measurements drive it: what :mod:`.got` and
    :mod:`.kit` each give (AGoT's engine and env directly, or the kit's protocol), so that the
    repeats, the figures' names and their order are written once, in :func:`one_repeat`."""

    def new_env(self) -> Any:
        """A new AEC env, as a user plays it (one per game of :func:`aec_rate`)."""
        ...

    def engine_rate(self, seconds: float, seed: int) -> tuple[float, float]:
        """(decisions/s, games/s) of the rules alone."""
        ...

    def vector_run(self, num_games: int, workers: int, seed: int, copy: bool) -> BatchRun:
        """The batched API of ``num_games`` games, started (its start-up timed)."""
        ...

    def sample_states(self, count: int, seed: int) -> list[Any]:
        """The states the micro timings run on, drawn once before the repeats."""
        ...

    def micro(self, samples: list[Any], seed: int) -> Iterator[tuple[str, float]]:
        """(figure name, microseconds) of ``clone us``, ``encode us``, ``encode in play us``
        and ``mask us`` in that order, each measured as it is yielded."""
        ...


def one_repeat(figs: Figures | None, subjects: Mapping[int, Subject], seconds: float,
               seed: int, runs: Mapping[tuple[int, int, bool], BatchRun],
               samples: Mapping[int, list[Any]], classic: Mapping[str, Callable[[], Any]]) -> None:
    """Measure everything once (``figs=None``: a warm-up, nothing kept); ``subjects``: player
    count -> what is measured at that count. The classic games first, so that each ratio
    divides by the reference of the same repeat."""
    def add(name: str, unit: str, n: int | None, value: float) -> None:
        if figs is not None:
            figs.add(name, unit, n, value)

    for name, make in classic.items():  # next to the game's AEC figures, as aec_ratio.py does
        steps, games = aec_rate(make, seconds, seed)
        add(f"{name} steps/s", "agent-steps/s", None, steps)
        add(f"{name} games/s", "games/s", None, games)
    for n, subject in subjects.items():
        steps, games = aec_rate(subject.new_env, seconds, seed)
        add("AEC steps/s", "agent-steps/s", n, steps)
        add("AEC games/s", "games/s", n, games)
        for name in classic:
            ref = figs.get(f"{name} steps/s", None) if figs is not None else None
            if ref is not None:
                add(f"AEC / {name}", "ratio of agent-steps/s", n, steps / ref.repeats[-1])
        decisions, games = subject.engine_rate(seconds, seed)
        add("engine decisions/s", "decisions/s", n, decisions)
        add("engine games/s", "games/s", n, games)
        add("engine decisions/game", "decisions/game", n, decisions / games)  # whole games
        chess = figs.get("chess_v6 steps/s", None) if figs is not None else None
        for w, copy in VECTOR:
            decisions, _ = runs[n, w, copy].rate(seconds)
            add(f"{vector_name(w, copy)} decisions/s", "decisions/s", n, decisions)
            if w == 2 and chess is not None:  # the machine's speed of the moment, factored out
                add(f"{vector_name(w, copy)} / chess_v6", "ratio to chess_v6 agent-steps/s",
                    n, decisions / chess.repeats[-1])
        for name, us in subject.micro(samples[n], seed):
            add(name, "us", n, us)


def run_benchmark(subjects: Mapping[int, Subject], game_options: dict[str, Any],
                  seconds: float, repeats: int, num_games: int, num_states: int, seed: int,
                  log: Callable[[str], None] = print) -> dict[str, Any]:
    """The whole benchmark of ``subjects`` (player count -> subject): the batched runs started
    once, a warm-up, then ``repeats`` interleaved repeats; returns what the JSON holds, its
    ``options`` the game's own (``game_options``, first) and the run's."""
    load_before = os.getloadavg()
    t_start = time.perf_counter()
    classic = classic_envs()
    if not classic:
        log("(pettingzoo[classic] not installed: chess_v6 / connect_four_v3 and ratios skipped)")
    samples = {n: s.sample_states(num_states, seed + n) for n, s in subjects.items()}
    runs: dict[tuple[int, int, bool], BatchRun] = {}
    figs = Figures()
    try:
        for n, subject in subjects.items():
            for w, copy in VECTOR:
                vr = runs[n, w, copy] = subject.vector_run(num_games, w, seed + 1000 * n, copy)
                figs.add(f"{vector_name(w, copy)} startup s", "s", n, vr.startup_s)
        log(f"warm-up ({seconds / 4:.2f} s per measurement) ...")
        one_repeat(None, subjects, seconds / 4, seed, runs, samples, classic)
        for r in range(repeats):
            t0 = time.perf_counter()
            one_repeat(figs, subjects, seconds, seed + 1 + r, runs, samples, classic)
            log(f"repeat {r + 1}/{repeats}: {time.perf_counter() - t0:.0f} s")
    finally:
        for vr in runs.values():
            vr.close()
    options = {**game_options, "players": list(subjects), "seconds": seconds,
               "repeats": repeats, "vector_games": num_games, "states_sampled": num_states,
               "seed": seed}
    return result_document(figs, classic, options, load_before, t_start)


def result_document(figs: Figures, classic: Mapping[str, Any], options: dict[str, Any],
                    load_before: tuple[float, float, float], t_start: float) -> dict[str, Any]:
    """The JSON of a run, under the keys every game's JSON has had (so that older files and
    newer ones read alike): the machine, the versions, the load average before and now, the
    ``options`` (``players`` among them), the wall time since ``t_start``, every figure and
    the median ratio of the AEC rate to each classic game's, by player count."""
    players = options["players"]
    return {
        "machine": machine_info(),
        "versions": versions(),
        "load_average": {"before": list(load_before), "after": list(os.getloadavg())},
        "options": options,
        "wall_s": time.perf_counter() - t_start,
        "figures": [f.summary() for f in figs.all.values()],
        "ratios": {f"AEC / {c}": {n: figs.all[f"AEC / {c}", n].summary()["median"]
                                  for n in players if (f"AEC / {c}", n) in figs.all}
                   for c in classic},
    }


def table(result: dict[str, Any], header: str) -> str:
    """The figures of a result document as text: ``header`` (the game's own line), then the
    median (min-max) over the repeats of each of :data:`ROWS`, one column per player count,
    the classic games, the batched runs' start-up (outside the timings), the machine and its
    load."""
    figs = Figures()
    for f in result["figures"]:
        figs.all[f["name"], f["players"]] = Figure(f["name"], f["unit"], f["players"],
                                                   f["repeats"])
    opts = result["options"]
    players, width = opts["players"], 24
    lines = [header,
             f"{'median (min-max) of ' + str(opts['repeats']) + ' repeats':<38}"
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
                     f"{max(start_s):.2f} s; {opts['vector_games']} games)")
    load = result["load_average"]
    lines.append(f"machine: {result['machine']['processor']}, {result['machine']['cpus']} cpus; "
                 f"load average {load['before'][0]:.2f} before, {load['after'][0]:.2f} after; "
                 f"{result['wall_s']:.0f} s")
    return "\n".join(lines)
