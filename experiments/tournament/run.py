"""Running a tournament: the games of the plan missing from the run folder, on the local
backend (worker processes, or this process) or as Ray tasks, each record appended to
games.jsonl as its game finishes, then every result recomputed from all of them."""

from __future__ import annotations

import concurrent.futures as cf
import functools
import json
import multiprocessing
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from agents import AgentSpec
from boardkit.vector_ray import init_ray

from ..ratings import agent_wins, as_number
from .config import Config
from .plan import GameFailed, GameSpec, make_plan, play_spec
from .records import GAMES_FILE, check_run_dir, match_games, read_games
from .report import compute_results, write_results


@dataclass
class RunReport:
    run_dir: Path
    planned: int
    reused: int        # games of the plan already in games.jsonl
    played: int        # games played by this run
    ignored: int       # records in games.jsonl outside the plan
    results: dict[str, Any]
    files: list[Path]


def run_games(cfg: Config, specs: list[GameSpec], workers: int,
              on_result: Callable[[dict[str, Any]], None]) -> None:
    """Play ``specs`` on ``cfg.backend``, each record to ``on_result`` as its game finishes:
    ``workers`` processes here (1: in this process), or Ray tasks, at most ``workers`` in flight
    (0: as many as Ray will run)."""
    agents = {a: cfg.agent_spec(a) for a in cfg.agent_names}
    replays = str(cfg.run_dir / "replays") if cfg.replays else None
    if cfg.backend == "ray":
        _run_ray_tasks(cfg.env, agents, specs, workers, on_result, replays, game=cfg.game,
                       time_seats=cfg.time_seats)
        return
    if workers <= 1:
        for spec in specs:
            on_result(play_spec(cfg.env, agents, spec, replays, game=cfg.game,
                                time_seats=cfg.time_seats))
        return
    ctx = multiprocessing.get_context("spawn")   # no fork of a process with threads (tqdm)
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
    try:
        futures = [pool.submit(play_spec, cfg.env, agents, s, replays, game=cfg.game,
                               time_seats=cfg.time_seats) for s in specs]
        for fut in cf.as_completed(futures):
            on_result(fut.result())
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


@functools.cache
def _remote_play_spec(ray: Any) -> Any:
    """:func:`play_spec` as a Ray remote function, made once per process (a new ``ray.remote``
    exports the function to the cluster again)."""
    return ray.remote(play_spec)


def _run_ray_tasks(env: dict[str, Any], agents: dict[str, AgentSpec], specs: list[GameSpec],
                   limit: int, on_result: Callable[[dict[str, Any]], None],
                   replays: str | None = None, *, game: str, time_seats: bool = False) -> None:
    """Each game a Ray remote task, its record to ``on_result`` as soon as it completes (so that
    an interrupted run keeps every finished game); at most ``limit`` tasks in flight (0: all at
    once, Ray queues them on its CPUs). A failed game raises GameFailed naming it, and the games
    not yet done are cancelled."""
    ray = init_ray()
    task = _remote_play_spec(ray)
    env_ref, agents_ref = ray.put(env), ray.put(agents)  # sent once, not once per game
    queue = list(reversed(specs))
    pending: dict[Any, GameSpec] = {}
    try:
        while queue or pending:
            while queue and (not limit or len(pending) < limit):
                spec = queue.pop()
                pending[task.remote(env_ref, agents_ref, spec, replays, game=game,
                                    time_seats=time_seats)] = spec
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                spec = pending.pop(ref)
                try:
                    record = ray.get(ref)
                except ray.exceptions.RayError as e:
                    cause = getattr(e, "cause", None)
                    if isinstance(cause, GameFailed):  # play_spec's own error: it names the game
                        raise GameFailed(str(cause)) from e
                    raise GameFailed(f"game {spec.game} of line-up {spec.lineup_index} "
                                     f"{list(spec.lineup)} (seed {spec.seed}) failed in Ray: "
                                     f"{type(e).__name__}: {e}") from e
                on_result(record)
    finally:
        for ref in pending:  # after an error or an interrupt: no game left running for nothing
            ray.cancel(ref)


def run_tournament(cfg: Config, *, progress: bool = True,
                   log: Callable[[str], None] = print) -> RunReport:
    """Play the games of ``cfg`` missing from its run folder, then recompute and write every
    result. Each finished game is appended to games.jsonl at once."""
    run_dir = cfg.run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    check_run_dir(cfg)
    games_path = run_dir / GAMES_FILE
    plan = make_plan(cfg)
    done, extra = match_games(read_games(games_path), plan, games_path)
    (run_dir / "config.json").write_text(json.dumps({**cfg.identity(), **cfg.as_dict()},
                                                    indent=2) + "\n")
    for note in cfg.notes:
        log(f"note: {note}")
    missing = [s for s in plan if s.key not in done]
    reused = len(plan) - len(missing)
    if cfg.backend == "ray":  # workers caps the games in flight; 0: Ray runs what it can
        workers = min(cfg.workers, len(missing))
        where = " as Ray tasks" + (f", at most {workers} at once" if workers else "")
    else:
        workers = min(cfg.workers or os.cpu_count() or 1, max(1, len(missing)))
        where = f" on {workers} worker(s)"
    log(f"tournament {cfg.name}: {len(cfg.lineups)} line-up(s) x {cfg.games} games = "
        f"{len(plan)} games; {reused} already in {games_path}, {len(missing)} to play"
        + (where if missing else ""))
    if extra:
        log(f"note: {extra} record(s) in {games_path} lie outside this plan and are left out")

    wins = {a: sum(agent_wins(rec, a) for rec in done.values()) for a in cfg.agent_names}
    bar = tqdm(total=len(plan), initial=reused, unit="game", desc=cfg.name,
               disable=not progress or not missing, dynamic_ncols=True)

    played = 0

    def on_result(rec: dict[str, Any]) -> None:
        nonlocal played
        with open(games_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")
            f.flush()
            os.fsync(f.fileno())
        done[(rec["lineup_index"], rec["game"])] = rec
        played += 1
        for a in wins:
            wins[a] += agent_wins(rec, a)
        bar.update(1)
        bar.set_postfix_str(" ".join(f"{a}:{as_number(w):g}" for a, w in wins.items()),
                            refresh=False)

    try:
        run_games(cfg, missing, workers, on_result)
    finally:
        bar.close()
    records = [done[s.key] for s in plan]
    results = compute_results(cfg, records)
    files = write_results(cfg, results)
    return RunReport(run_dir, len(plan), reused, played, extra, results, files)
