"""The tournament's command line, and the error and interrupt handling it shares with the
ladder's: a bad config is one line and exit 2, an interrupt or a failed game says where the
finished games are (a rerun resumes from them), never a traceback."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from ..config_files import ConfigError, exit_config_error
from ..config_model import BACKENDS
from .config import DEFAULT_CONFIG, load_config
from .plan import GameFailed
from .records import GAMES_FILE
from .report import format_table
from .run import run_tournament

Report = TypeVar("Report")


def run_or_exit(parser: argparse.ArgumentParser, run: Callable[[], Report],
                games_at: str) -> Report:
    """``run()``, or the command line's exit: 2 for a ConfigError (one line, as argparse), 130
    for an interrupt and 1 for a failed game, both naming ``games_at`` (where the finished games
    are kept)."""
    try:
        return run()
    except ConfigError as e:
        exit_config_error(parser, e)
    except KeyboardInterrupt:
        print(f"\ninterrupted: finished games are in {games_at}; rerun the same command to play "
              f"the rest", file=sys.stderr)
        raise SystemExit(130) from None
    except (GameFailed, BrokenProcessPool) as e:
        print(f"error: {e}\nfinished games are in {games_at}; rerun to resume", file=sys.stderr)
        raise SystemExit(1) from None


def main(argv: list[str] | None = None) -> int:
    from . import __doc__ as doc

    p = argparse.ArgumentParser(prog="python -m experiments.tournament", description=doc,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", default=str(DEFAULT_CONFIG), help="YAML config (default: "
                   "configs/tournament.yaml)")
    p.add_argument("--games", type=int, default=None, help="games per line-up (overrides the "
                   "config)")
    p.add_argument("--workers", type=int, default=None, help="worker processes, 0 = one per "
                   "CPU (overrides the config)")
    p.add_argument("--out", default=None, help="parent folder of the run folder (overrides "
                   "the config)")
    p.add_argument("--backend", choices=BACKENDS, default=None, help="local: worker processes "
                   "here; ray: each game a Ray task, needs the 'ray' extra (overrides the config)")
    p.add_argument("--name", default=None, help="run folder name (overrides the config)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    try:
        cfg = load_config(args.config, games=args.games, workers=args.workers, out=args.out,
                          name=args.name, backend=args.backend)
    except ConfigError as e:
        exit_config_error(p, e)
    start = time.perf_counter()
    report = run_or_exit(p, lambda: run_tournament(cfg, progress=not args.no_progress),
                         str(cfg.run_dir / GAMES_FILE))
    print(f"played {report.played} game(s) in {time.perf_counter() - start:.1f} s; results "
          f"from {report.results['games']} games:")
    print(format_table(report.results))
    print(f"written to {report.run_dir}: " + ", ".join(f.name for f in report.files))
    return 0
