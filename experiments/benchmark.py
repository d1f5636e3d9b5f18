"""Speed of got_env, measured so that the figures can be trusted and compared across runs.

Measured for every player count asked (3-6 by default), in one process, after a warm-up, in
several *interleaved* repeats (repeat r measures everything once before repeat r + 1 starts, so
that a slow spell of the machine touches every figure alike); each figure is the median over the
repeats, with their min and max:

* AEC: random masked play through PettingZoo's standard loop on the wrapped ``got_env.env``
  (``agent_iter``, ``last()`` with the observation and the mask at every step, a uniform action
  among the unmasked ones), in agent-steps/s and full games/s: the method of
  ``../shared/tools/aec_ratio.py`` (a new env per game, whole games until the time is up, dead
  steps counted), so that both give the same ratio;
* engine: random decisions/s of the rules alone (``engine.start_game``, ``pending``, ``apply``,
  a uniform choice among ``d.options`` with a numpy Generator);
* vector: decisions/s of :class:`got_env.vector.VectorGames` (observations and masks of every
  game, random masked actions; 128 games by default) with 0, 1 and 2 worker processes, and with
  2 and ``copy=False`` (the batch's arrays are views of the shared buffers, not copies);
* clone, encode, mask: microseconds per ``GameState.clone()``, ``encoder.encode(state, house)``
  and ``codec.mask(d.options)``, the median over states sampled from random games; encode twice:
  on unrelated states (the state's cached board dropped before each call) and "in play",
  right after each decision of a random game, as in the AEC loop;
* chess_v6 and connect_four_v3 through the same AEC loop (needs ``pettingzoo[classic]``), and
  the ratios of got_env's AEC agent-steps/s to theirs (one ratio per repeat, then the median);
  also the 2-worker batched decisions/s over chess_v6's agent-steps/s, the batched figure with
  the machine's speed of the moment factored out as far as one reference can.

    python -m experiments.benchmark                 # a few minutes; JSON under runs/benchmark/
    python -m experiments.benchmark --quick         # under a minute
    python -m experiments.benchmark --players 6 --seconds 3 --repeats 7
    python -m experiments.benchmark --ruleset 1e    # the 1st edition (3-5 players)

The JSON holds the machine, the versions, the load average before and after, the options, and
for every figure all repeats with the median, min and max (and the ratios' medians). The load
average is printed too: figures taken while other work runs on the machine (the worker-process
ones above all) are not comparable with those of an idle one.
"""

from __future__ import annotations

import argparse
import json
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

import got_env
from got_env import engine
from got_env.data import load_ruleset
from got_env.data.loader import RULESETS
from got_env.vector import VectorGames

PLAYERS = (3, 4, 5, 6)
#: The batched API's runs: (worker processes, copy). ``copy=False`` hands the learner views of
#: the shared buffers instead of copies (what a trainer with its own rollout storage uses).
VECTOR = ((0, True), (1, True), (2, True), (2, False))
CLASSIC = ("chess_v6", "connect_four_v3")


# -- the measurements -----------------------------------------------------------------------------
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


class VectorRun:
    """A :class:`VectorGames` kept running between measurements (its games go on where they
    were), so that worker start-up is paid once, outside the timings."""

    def __init__(self, num_games: int, num_players: int, num_workers: int, seed: int,
                 ruleset: str = "2e", copy: bool = True):
        t0 = time.perf_counter()
        self.games = VectorGames(num_games, num_players, seeds=seed, num_workers=num_workers,
                                 ruleset=ruleset, copy=copy)
        self.batch = self.games.reset()
        self.startup_s = time.perf_counter() - t0
        self.rng = np.random.default_rng(seed)

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


def micro_us(fn: Callable[[Sample], object], samples: list[Sample], calls: int = 5) -> float:
    """The median over ``samples`` of the microseconds one ``fn(sample)`` takes (the mean of
    ``calls`` calls on each, so that the clock's own cost stays out)."""
    times = []
    for s in samples:
        t0 = time.perf_counter_ns()
        for _ in range(calls):
            fn(s)
        times.append((time.perf_counter_ns() - t0) / calls / 1e3)
    return statistics.median(times)


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
            add(f"{_vector_name(w, copy)} decisions/s", "decisions/s", n, decisions)
            if w == 2 and chess is not None:  # the machine's speed of the moment, factored out
                add(f"{_vector_name(w, copy)} / chess_v6", "ratio to chess_v6 agent-steps/s",
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
                figs.add(f"{_vector_name(w, copy)} startup s", "s", n, vr.startup_s)
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


def _vector_name(workers: int, copy: bool) -> str:
    """The figures' name of a batched run: ``vector 2w`` (copies), ``vector 2w views``."""
    return f"vector {workers}w" + ("" if copy else " views")


# -- output ---------------------------------------------------------------------------------------
ROWS = [("AEC steps/s", "AEC agent-steps/s"), ("AEC games/s", "AEC games/s"),
        ("engine decisions/s", "engine decisions/s"), ("engine games/s", "engine games/s")] + [
    (f"{_vector_name(w, copy)} decisions/s",
     f"vector, {w} worker{'s' if w != 1 else ''}{'' if copy else ', copy=False'}: decisions/s")
    for w, copy in VECTOR] + [
    ("clone us", "state clone (us)"), ("encode us", "encode, unrelated states (us)"),
    ("encode in play us", "encode, one decision on (us)"), ("mask us", "mask (us)")] + [
    (f"AEC / {c}", f"AEC / {c} agent-steps/s") for c in CLASSIC] + [
    (f"{_vector_name(2, copy)} / chess_v6",
     f"vector, 2 workers{'' if copy else ', copy=False'} / chess_v6") for copy in (True, False)]


def _cell(f: Figure | None) -> str:
    if f is None or not f.repeats:
        return "-"
    s = f.summary()
    fmt = (lambda v: f"{v:.2f}") if s["median"] < 10 else (lambda v: f"{v:.0f}")
    return f"{fmt(s['median'])} ({fmt(s['min'])}-{fmt(s['max'])})"


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
            lines.append(f"{label:<38}" + "".join(f"{_cell(figs.get(key, n)):>{width}}"
                                                  for n in players))
    for c in CLASSIC:
        steps, games = figs.get(f"{c} steps/s", None), figs.get(f"{c} games/s", None)
        if steps is not None:
            lines.append(f"{c + ' agent-steps/s':<38}{_cell(steps):>{width}}    games/s "
                         f"{_cell(games)}")
    start = [figs.get(f"{_vector_name(w, c)} startup s", n) for w, c in VECTOR for n in players]
    start_s = [f.repeats[0] for f in start if f is not None and f.repeats]
    if start_s:
        lines.append(f"(vector start-up, outside the timings: {min(start_s):.2f}-"
                     f"{max(start_s):.2f} s; {result['options']['vector_games']} games)")
    load = result["load_average"]
    lines.append(f"machine: {result['machine']['processor']}, {result['machine']['cpus']} cpus; "
                 f"load average {load['before'][0]:.2f} before, {load['after'][0]:.2f} after; "
                 f"{result['wall_s']:.0f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.benchmark", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=None,
                   help="seconds per measurement (default 1.5; 0.3 with --quick)")
    p.add_argument("--repeats", type=int, default=None,
                   help="interleaved repeats (default 5; 3 with --quick)")
    p.add_argument("--ruleset", default="2e", choices=RULESETS,
                   help="2e (default) or 1e, the 1st edition")
    p.add_argument("--players", type=int, nargs="+", default=None, choices=PLAYERS,
                   help="player counts (default: every count of the ruleset: 3 4 5 6 in 2e, "
                   "3 4 5 in 1e)")
    p.add_argument("--games", type=int, default=128,
                   help="games of the vector API (default 128: a learner's batch, over which "
                   "a step's pipe round trips are spread)")
    p.add_argument("--states", type=int, default=None,
                   help="states sampled for clone/encode/mask (default 200; 60 with --quick)")
    p.add_argument("--quick", action="store_true", help="a short run (under a minute)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/benchmark"),
                   help="folder for the JSON (default runs/benchmark/)")
    args = p.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.3 if args.quick else 1.5)
    repeats = args.repeats if args.repeats is not None else (3 if args.quick else 5)
    states = args.states if args.states is not None else (60 if args.quick else 200)
    if seconds <= 0 or repeats < 1 or states < 1 or args.games < 1:
        p.error("--seconds, --repeats, --states and --games must be positive")
    counts = load_ruleset(args.ruleset).rules.player_counts
    players = sorted(set(args.players if args.players is not None else counts))
    if not set(players) <= set(counts):
        p.error(f"--players: ruleset {args.ruleset} is played by {list(counts)} players, got "
                f"{players}")
    result = run(players, seconds, repeats, args.games, states, args.seed, ruleset=args.ruleset)
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = args.out / f"benchmark-{stamp}.json"
    path.write_text(json.dumps(result, indent=1))
    print(table(result))
    print(f"written: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
