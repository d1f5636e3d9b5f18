"""Running a suite: its planned games missing from the candidate's run folder, played by the
tournament's backends (:func:`experiments.tournament.run.run_games`), each record appended to
games.jsonl as it finishes; a folder of another suite or candidate refused, naming what
changed; then every figure recomputed from all the records."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from ..config_files import ConfigError
from ..tournament.records import GAMES_FILE, match_games, read_games
from ..tournament.run import run_games
from .config import SuiteConfig
from .plan import paired_plan
from .results import candidate_credit, suite_results, write_results

#: The suite's identity (:meth:`SuiteConfig.identity`) in the run folder.
SUITE_FILE = "suite.json"


@dataclass
class SuiteReport:
    run_dir: Path
    planned: int
    reused: int
    played: int
    results: dict[str, Any]
    files: list[Path]


def check_identity(cfg: SuiteConfig) -> None:
    """Refuse a run folder whose games were played for another suite or candidate, naming each
    key that changed."""
    saved = cfg.run_dir / SUITE_FILE
    games = cfg.run_dir / GAMES_FILE
    if not (saved.exists() and games.exists() and games.stat().st_size):
        return
    try:
        old = json.loads(saved.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ConfigError(f"{saved} cannot be read ({e}); delete the folder or use another "
                          f"--out") from None
    now = cfg.identity()
    diff = [k for k in now if old.get(k) != now[k]]
    if diff:
        detail = "; ".join(f"{k}: was {old.get(k)!r}, now {now[k]!r}" for k in diff)
        raise ConfigError(f"{cfg.run_dir} holds games of another suite or candidate ({detail}); "
                          f"use another --out or --label, or delete that folder")


def run_suite(cfg: SuiteConfig, *, first_seeds: int | None = None, progress: bool = True,
              log: Callable[[str], None] = print) -> SuiteReport:
    """Play the suite's games missing from its run folder (``first_seeds``: only those of the
    first that many seeds, the rest left for a later run), then write its figures from every
    game recorded."""
    run_dir = cfg.run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    check_identity(cfg)
    (run_dir / SUITE_FILE).write_text(json.dumps(cfg.identity(), indent=2) + "\n")
    games_path = run_dir / GAMES_FILE
    plan = paired_plan(cfg)
    done, _ = match_games(read_games(games_path), plan, games_path)
    upto = len(plan) if first_seeds is None else first_seeds * len(plan) // len(cfg.seeds)
    missing = [s for s in plan[:upto] if s.key not in done]
    workers = min(cfg.workers or os.cpu_count() or 1, max(1, len(missing)))
    log(f"suite {cfg.name}, candidate {cfg.label}: {len(cfg.lineups)} line-up(s) x "
        f"{len(cfg.seeds)} seeds x {cfg.num_players} seatings = {len(plan)} games; "
        f"{len(plan) - len(missing)} already in {games_path}, {len(missing)} to play"
        + (f" on {workers} worker(s)" if missing else ""))
    bar = tqdm(total=len(plan), initial=len(plan) - len(missing), unit="game", desc=cfg.label,
               disable=not progress or not missing, dynamic_ncols=True)
    wins = sum(float(candidate_credit(r)) for r in done.values())
    played = 0

    def on_result(rec: dict[str, Any]) -> None:
        nonlocal played, wins
        with open(games_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")
            f.flush()
            os.fsync(f.fileno())
        done[(rec["lineup_index"], rec["game"])] = rec
        played += 1
        wins += float(candidate_credit(rec))
        bar.update(1)
        bar.set_postfix_str(f"candidate wins {wins:g}", refresh=False)

    try:
        run_games(cfg.tournament, missing, workers, on_result)
    finally:
        bar.close()
    records = [done[s.key] for s in plan if s.key in done]
    results = suite_results(cfg, records)
    return SuiteReport(run_dir, len(plan), len(plan) - len(missing), played, results,
                       write_results(run_dir, results))
