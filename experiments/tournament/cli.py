"""A round-robin tournament between agents: line-ups of agents play N games each, houses rotated,
in parallel worker processes or Ray tasks; win rates, castles, ranks and openskill ratings per
agent and house.

    python -m experiments.tournament --config configs/tournament.yaml
    python -m experiments.tournament --config configs/tournament.yaml --games 30 --workers 8
    python -m experiments.tournament --config configs/tournament.yaml --backend ray
    python -m experiments.tournament --config configs/ismcts_vs_heuristic.yaml --workers 2
    python -m experiments.tournament --config configs/goofspiel_tournament.yaml

Config (YAML)::

    game: got                    # the game's registry name (boardkit.games): got (the
    #                            # default), goofspiel
    name: heuristic_vs_random    # run folder <out>/<name> (default: the config file's name)
    out: runs/tournament         # parent of the run folder
    env: {num_players: 3, max_rounds: 10, tides_of_battle: false}  # options of the game's env
    #                            # (got_env.raw_env; ruleset: 1e for the 1st edition, 3-5
    #                            # players; goofspiel.raw_env: num_players, num_cards)
    agents:                      # name -> agent spec (docs/agents.md)
      random: random             # a registry name: random, heuristic, ismcts
      heuristic: {type: heuristic}          # the older mapping form (type or name, flat kwargs)
      mcts: {name: ismcts, kwargs: {simulations: 20}}
      mine: my_pkg.my_agents:GreedyAgent    # any importable module, or path/to/file.py:Class
      ppo: {name: my_pkg.ppo:PPOAgent, checkpoint: runs/ppo/last.pt}
    lineups:                     # each: num_players agent names, one per seat (repeats allowed)
      - [heuristic, random, random]
    # round_robin: true          # instead of lineups: every combination of the agents (or of
    #                            # the listed names), with repetition only where fewer than seats
    games: 30                    # games per line-up
    seed: 0                      # every game's seed and agents' seeds derive from it
    workers: 0                   # parallel processes; 0 = one per CPU
    backend: local               # local: a process pool here; ray: each game a Ray task
    # replays: true              # also <run folder>/replays/game-<lineup>-<game>.html per game
    #                            # played (experiments.replay, docs/replay.md)

The game: everything game-specific comes through its registry name: the env from
:func:`boardkit.envs.make_env`, the seats ("houses" in the records and tables: AGoT's houses,
Goofspiel's ``player_<i>``) from its ``possible_agents``, the result (ranking, draw, the final
score recorded as ``castles``: AGoT's castles and strongholds, Goofspiel's points) from
:mod:`.game_hooks` (the protocol's outcome, or the game's own hook module), so that one
tournament serves every game of the kit (docs/kit.md).

A config that cannot be read (missing, not UTF-8, not YAML) or holds a bad value stops before any
game with one line naming the file and the key, and exit code 2.

Backends: ``local`` plays the games in ``workers`` processes of this machine (in this process for
``workers: 1``). ``ray`` (the ``ray`` extra: ``pip install -e '.[ray]'``) submits each game as a
Ray remote task (``play_spec``, one CPU each) and records every game as it completes; ``workers``
then caps the games in flight (0: no cap, Ray spreads them over every CPU of its cluster). Ray is
started locally unless this process is already connected or ``RAY_ADDRESS`` names a cluster
(whose workers must be able to import this project and the agents' modules). A game plays the
same either way (its seeds come from the plan), so both backends write the same records, bar the
``seconds`` each took, and a run folder can be resumed with either.

Houses: in game g of a line-up, seat i plays house ``houses[(i + g) % num_players]``, so over
``num_players`` games every agent of a line-up plays every house. Agents are built fresh for each
game from their spec (``agents.make_agent``); an agent whose constructor (or ``from_checkpoint``)
takes ``env`` gets the game's raw env and one that takes ``seed`` (not fixed in the config) gets a
seed derived from the game's. Every spec is checked before the first game (its module imported,
its class found, its kwargs bound, its checkpoint found); worker processes import the agent's
module themselves, so it must be importable there: on ``sys.path`` (which spawned workers inherit
from the main process) or given as a file path.

Draws (1e spec 12: the 1st edition's tie-breaks can leave houses equal): the record of a drawn
game has ``draw`` (the houses sharing it), each of its k houses is credited 1/k of a win in every
table and ranks first for the ratings (:mod:`experiments.ratings`).

Run folder: ``games.jsonl`` (one line per finished game, appended as games finish),
``config.json`` (the effective config), ``results.json``, ``results.csv``, ``win_rates.png``,
``ratings.png``, ``houses.png``. A rerun with the same config plays only the games missing from
``games.jsonl`` (so an interrupted tournament resumes; a larger ``--games`` extends one), then
recomputes every result from ``games.jsonl``. A run folder whose games were played with other env
options, agent specs (compared in their canonical form, so ``random`` and ``{type: random}`` are
the same agent), seed or checkpoint contents (SHA-256 of each checkpoint file) is refused.

Exit codes: a bad config is one line and 2; an interrupt (130) or a failed game (1) says where
the finished games are (a rerun resumes from them), never a traceback. The ladder's command
line shares this handling (:func:`run_or_exit`).
"""

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
    p = argparse.ArgumentParser(prog="python -m experiments.tournament", description=__doc__,
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
