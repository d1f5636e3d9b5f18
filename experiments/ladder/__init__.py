"""The strength ladder in one command: every pair of rungs (agents) plays a tournament match,
and the ladder's tables, ratings and plots come from all of their games.

    python -m experiments.ladder --config configs/ladder.yaml
    python -m experiments.ladder --config configs/ladder.yaml --games 6 --workers 2
    python -m experiments.ladder --config configs/ladder.yaml --only random,heuristic_v2

Config (YAML)::

    game: got                    # the game's registry name (boardkit.games): got (the
    #                            # default), goofspiel
    name: ladder                 # run folder <out>/<name> (default: the config file's name)
    out: runs/ladder
    env: {num_players: 3, max_rounds: 10}      # options of the game's env (got_env.raw_env;
    #                            # goofspiel.raw_env: num_players, num_cards)
    rungs:                       # rung name -> agent spec (docs/agents.md), in ladder order
      random: random
      heuristic_v2: heuristic_v2
      ismcts: {name: ismcts, kwargs: {simulations: 32, rollout: heuristic_v2}, games: 12}
      ppo: {name: ppo, optional: true}
    pairs:                       # per-pair games, over the rungs' own `games`
      - {rungs: [heuristic_v2, ismcts], games: 30}
    games: 60                    # games per line-up of a match
    seed: 0
    workers: 0                   # worker processes of each match; 0 = one per CPU
    backend: local               # or ray (experiments.tournament)

A rung mapping may hold three keys of the ladder's besides the spec: ``games`` (games per
line-up of its matches; with two such rungs the smaller), ``optional: true`` (the rung is skipped,
with a note, when a file it needs is missing) and ``requires`` (those files: a path or a list;
by default the spec's checkpoint, or for ``ppo`` the shipped checkpoint). Every other rung must
build: an unknown agent, bad kwargs or an unknown rollout policy fail before any game, naming the
rung. ``--games`` sets every match's games per line-up (over ``pairs`` and rung ``games``). A
config that cannot be read (missing, not UTF-8, not YAML) or holds a bad value stops before any
game with one line naming the file and the key, and exit code 2.

The game: as in the tournament (experiments.tournament), everything game-specific comes through
its registry name: the env from :func:`boardkit.envs.make_env`, the seats ("houses" in the
tables: AGoT's houses, Goofspiel's ``player_<i>``) from its ``possible_agents``, the results
from the game hooks (:mod:`experiments.game_hooks`), which also give the
round limit of the length histograms and the endings the tables count (AGoT: seven castles,
last round; another game: the reasons its games recorded). configs/goofspiel_ladder.yaml is a
Goofspiel ladder.

Matches: rungs A and B (A earlier in the config) play the line-ups [A, B, B] and [B, A, A] (with
3 players), ``games`` games each, as one tournament (experiments.tournament) in
``<run folder>/matches/A__B/``, with that module's house rotation, seeds, parallel games,
backends and resumable games.jsonl: a rerun plays only the missing games of each match, then
recomputes everything. The match's seed derives from the ladder's seed and the two rung names.

Outputs (run folder): ``ladder.json`` (everything), ``pairwise.csv`` (row rung alone against the
column rung: win rate, 95 % Wilson interval, score = win rate / (1/num_players)), ``rungs.csv``
(per rung and per rung at each house: win rate, interval, score, castles, rank; openskill rating
over every game of the ladder, the ladder's order), ``lengths.csv`` (final round: mean, median,
range, games per round; endings: seven castles or last round; seconds per game; per match and
all), ``ladder.md`` (the tables in Markdown) and ``ratings.png``, ``pairwise.png``,
``lengths.png``. See docs/ladder.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import game_hooks
from ..config_files import exit_config_error
from ..config_model import BACKENDS
from ..tournament.cli import run_or_exit
from ..tournament.plan import make_plan
from ..tournament.records import GAMES_FILE, match_games, read_games
from ..tournament.run import run_tournament
from .config import (
    DEFAULT_CONFIG,
    MATCHES_DIR,
    ConfigError,
    LadderConfig,
    Match,
    load_config,
)
from .report import markdown, write_outputs
from .stats import ladder_results

__all__ = ["LadderReport", "main", "match_records", "run_ladder"]


@dataclass
class LadderReport:
    run_dir: Path
    planned: int
    reused: int
    played: int
    seconds: float          # wall time of the games played by this run
    results: dict[str, Any]
    files: list[Path]


def match_records(match: Match) -> list[dict[str, Any]]:
    """The match's recorded games, in its plan order (every game of the plan must be there)."""
    tcfg = match.tournament
    path = tcfg.run_dir / GAMES_FILE
    plan = make_plan(tcfg)
    done, _ = match_games(read_games(path), plan, path)
    return [done[s.key] for s in plan if s.key in done]


def run_ladder(cfg: LadderConfig, *, progress: bool = True, log: Callable[[str], None] = print,
               footer: str = "") -> LadderReport:
    """Play every match's missing games (one tournament each), then compute and write the
    ladder's results from all of their games."""
    cfg.run_dir.mkdir(parents=True, exist_ok=True)
    (cfg.run_dir / "config.json").write_text(json.dumps(cfg.as_dict(), indent=2) + "\n")
    for rung, why in cfg.skipped:
        log(f"note: rung {rung}: {why}")
    for note in cfg.notes:
        log(f"note: {note}")
    planned = reused = played = 0
    start = time.perf_counter()
    for i, m in enumerate(cfg.matches, 1):
        log(f"match {i}/{len(cfg.matches)}: {m.a} vs {m.b}, {m.games} games per line-up")
        rep = run_tournament(m.tournament, progress=progress,
                               log=lambda s: None if s.startswith("note:") else log(s))
        planned, reused, played = planned + rep.planned, reused + rep.reused, played + rep.played
    seconds = time.perf_counter() - start
    matches = [(m.name, m.a, m.b, match_records(m)) for m in cfg.matches]
    results = ladder_results(cfg.name, cfg.rung_names, cfg.houses, cfg.max_rounds, matches,
                             tuple(game_hooks.endings(cfg.game)))
    files = write_outputs(cfg, results, footer.format(seconds=seconds, played=played))
    return LadderReport(cfg.run_dir, planned, reused, played, seconds, results, files)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.ladder", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", default=str(DEFAULT_CONFIG),
                   help="YAML config (default: configs/ladder.yaml)")
    p.add_argument("--games", type=int, default=None,
                   help="games per line-up of every match (over the config's)")
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes, 0 = one per CPU (over the config's)")
    p.add_argument("--out", default=None, help="parent of the run folder (over the config's)")
    p.add_argument("--name", default=None, help="run folder name (over the config's)")
    p.add_argument("--backend", choices=BACKENDS, default=None,
                   help="local: worker processes here; ray: each game a Ray task")
    p.add_argument("--only", default=None,
                   help="comma-separated rungs: play and summarise only the matches among them")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    args = p.parse_args(argv)
    only = None if args.only is None else [s.strip() for s in args.only.split(",") if s.strip()]
    try:
        cfg = load_config(args.config, games=args.games, workers=args.workers, out=args.out,
                          name=args.name, backend=args.backend, only=only)
    except ConfigError as e:
        exit_config_error(p, e)
    cmd = "python -m experiments.ladder " + " ".join(sys.argv[1:] if argv is None else argv)
    footer = f"`{cmd.strip()}`: {{played}} games played in {{seconds:.0f}} s by the last run"
    report = run_or_exit(p, lambda: run_ladder(cfg, progress=not args.no_progress,
                                               footer=footer),
                         f"{cfg.run_dir}/{MATCHES_DIR}/*/{GAMES_FILE}")
    print(f"\nladder {cfg.name}: {report.planned} games ({report.reused} already played, "
          f"{report.played} played in {report.seconds:.1f} s)\n")
    print(markdown(cfg, report.results))
    print(f"written to {report.run_dir}: " + ", ".join(f.name for f in report.files))
    return 0
