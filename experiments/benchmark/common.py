"""What every game's benchmark shares (:mod:`experiments.benchmark`): the AEC loop's rate, the
batched API's random policy, the micro timings' clock, the figures' bookkeeping, PettingZoo's
classic games as the reference, and the machine and versions a JSON names."""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

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
            from pettingzoo.classic import chess_v6, connect_four_v3
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
        ("engine decisions/s", "engine decisions/s"), ("engine games/s", "engine games/s")] + [
    (f"{vector_name(w, copy)} decisions/s",
     f"vector, {w} worker{'s' if w != 1 else ''}{'' if copy else ', copy=False'}: decisions/s")
    for w, copy in VECTOR] + [
    ("clone us", "state clone (us)"), ("encode us", "encode, unrelated states (us)"),
    ("encode in play us", "encode, one decision on (us)"), ("mask us", "mask (us)")] + [
    (f"AEC / {c}", f"AEC / {c} agent-steps/s") for c in CLASSIC] + [
    (f"{vector_name(2, copy)} / chess_v6",
     f"vector, 2 workers{'' if copy else ', copy=False'} / chess_v6") for copy in (True, False)]
