"""The fixed evaluation suite: one candidate agent against a fixed line-up of opponents, on deal
seeds set in the config file, each seed played once with the candidate in every seat (paired
seatings), so that seat and deal luck cancel between candidates; win rates with 95% Wilson
intervals per line-up and per seat (docs/evaluation.md).

    python -m experiments.evaluate --config configs/eval/agot_v2.yaml --candidate heuristic_v2
    python -m experiments.evaluate --config configs/eval/agot_v2.yaml \\
        --candidate '{checkpoint: runs/pipeline/run0/agent.pt}' --workers 2
    python -m experiments.evaluate --config configs/eval/wotr_heuristic.yaml --candidate random

Config (YAML)::

    game: got                        # the game's registry name
    name: agot_v2                    # run folders <out>/<name>/<candidate label>
    out: runs/eval
    env: {num_players: 3}            # the game's env options (not max_steps / render_mode)
    candidate: heuristic_v2          # the default candidate; --candidate SPEC replaces it
    opponents:                       # name -> agent spec (docs/agents.md)
      heuristic_v2: heuristic_v2
    lineups:                         # line-up name -> its opponents, num_players - 1 of them
      v2: [heuristic_v2, heuristic_v2]
    seeds: {first: 900000, count: 100}   # deal seeds, inside 900,000..999,999 (EVAL_SEEDS)
    # min_games: 300                 # fewer games a line-up (seeds x seats) is refused
    workers: 1                       # worker processes; 0 = one per CPU

An agent spec (``--candidate`` too) is a registry name (``random``, ``heuristic_v2``,
``wotr_heuristic``), ``module:Class``, or a mapping (``{checkpoint: path}``, ``{name: ismcts,
kwargs: {simulations: 20}}``), as the tournament reads it. The candidate's run folder is
named by ``--label``, else its registry name, its checkpoint's folder and stem, or a digest of
its spec.

The games are the tournament's (experiments.tournament: the same worker processes, records and
``games.jsonl``); each finished game is appended at once, so an interrupted run resumes: the same
command plays only the missing games (``--seeds N``: only those of the first N seeds this time).
A folder whose games were played with another game, env, candidate, opponents, line-ups, seeds
or checkpoint contents is refused, naming what changed. Written: ``results.json`` and
``results.md`` (the markdown table) beside ``games.jsonl``.

Exit codes: a bad config is one line and 2; an interrupt 130 and a failed game 1 (naming where
the finished games are).
"""

from __future__ import annotations

import argparse
import sys
import time

from .config_files import ConfigError, exit_config_error
from .evaluation.config import load_suite, parse_candidate
from .evaluation.results import markdown_table
from .evaluation.run import run_suite
from .tournament.cli import run_or_exit
from .tournament.records import GAMES_FILE


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.evaluate", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", required=True, help="the suite's YAML file (configs/eval/)")
    p.add_argument("--candidate", default=None, metavar="SPEC", help="the agent evaluated "
                   "(replaces the config's): heuristic_v2, random, '{checkpoint: path}', ...")
    p.add_argument("--label", default=None, help="the candidate's run folder name")
    p.add_argument("--workers", type=int, default=None, help="worker processes, 0 = one per "
                   "CPU (overrides the config)")
    p.add_argument("--out", default=None, help="parent of the suite's folder (overrides the "
                   "config)")
    p.add_argument("--seeds", type=int, default=None, metavar="N", help="play only the games "
                   "of the first N seeds this run (a rerun plays the rest)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    try:
        if args.seeds is not None and args.seeds < 1:
            raise ConfigError(f"--seeds must be >= 1, got {args.seeds}")
        candidate = None if args.candidate is None else parse_candidate(args.candidate)
        cfg = load_suite(args.config, candidate=candidate, label=args.label,
                         workers=args.workers, out=args.out)
    except ConfigError as e:
        exit_config_error(p, e)
    start = time.perf_counter()
    report = run_or_exit(p, lambda: run_suite(cfg, first_seeds=args.seeds,
                                              progress=not args.no_progress),
                         str(cfg.run_dir / GAMES_FILE))
    print(f"played {report.played} game(s) in {time.perf_counter() - start:.1f} s\n")
    print(markdown_table(report.results))
    print(f"\nwritten to {report.run_dir}: " + ", ".join(f.name for f in report.files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
