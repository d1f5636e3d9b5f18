"""Speed of any game of the kit (``--game``), measured so that the figures can be trusted and
compared across runs.

Measured for every player count asked (by default the game's: AGoT's every count of its ruleset,
3-6 in 2e), in one process, after a warm-up, in several *interleaved* repeats (repeat r measures
everything once before repeat r + 1 starts, so that a slow spell of the machine touches every
figure alike); each figure is the median over the repeats, with their min and max:

* AEC: random masked play through PettingZoo's standard loop on the game's env as a user plays
  it (``got_env.env()``: the raw env in the kit's order-enforcing guard; ``agent_iter``,
  ``last()`` with the observation and the mask at every step, a uniform action among the
  unmasked ones), in agent-steps/s and full games/s: the method of
  ``../shared/tools/aec_ratio.py`` (a new env per game, whole games until the time is up, dead
  steps counted), so that both give the same ratio;
* engine: random decisions/s of the rules alone through the game's protocol (``new_state``,
  ``pending``, ``apply``, a uniform choice among ``d.options`` with a numpy Generator), whole
  games/s, and the decisions per random game (the two over the same whole games);
* vector: decisions/s of :class:`boardkit.vector.VectorGames` (observations and masks of every
  game, random masked actions; 128 games by default) with 0, 1 and 2 worker processes, and with
  2 and ``copy=False`` (the batch's arrays are views of the shared buffers, not copies);
* clone, encode, mask: microseconds per ``clone``, ``encoder.encode(state, player)`` and
  ``codec.mask(d.options)``, the median over states sampled from random games; encode twice:
  on unrelated states (what the state caches of its encoding dropped before each call, by the
  game's ``forget_encoding`` hook: AGoT's board) and "in play", right after each decision of a
  random game, as in the AEC loop;
* chess_v6 and connect_four_v3 through the same AEC loop (needs ``pettingzoo[classic]``), and
  the ratios of the game's AEC agent-steps/s to theirs (one ratio per repeat, then the median);
  also the 2-worker batched decisions/s over chess_v6's agent-steps/s, the batched figure with
  the machine's speed of the moment factored out as far as one reference can.

    python -m experiments.benchmark --game got          # minutes; JSON in runs/benchmark/
    python -m experiments.benchmark --game got --quick  # under a minute
    python -m experiments.benchmark --game got --players 6 --seconds 3 --repeats 7
    python -m experiments.benchmark --game got --option ruleset=1e   # the 1st edition
    python -m experiments.benchmark --game goofspiel --option num_cards=8 --players 2 3
    python -m experiments.benchmark --game wotr --quick # War of the Ring, whole games

Every game is measured alike (:mod:`.kit`), through what every game gives: its env
(``boardkit.envs.make_env``, with the ``--option`` values), the protocol and
``VectorGames(game=...)``; what the benchmark cannot know of a game (the player counts measured
by default, a cache to drop before a cold encode) comes from its plugin's optional ``benchmark``
piece (:class:`boardkit.plugin.GamePlugin`). :mod:`.common` holds the measuring, the figures
and the table.

The JSON holds the machine, the versions, the load average before and after, the options (the
game, its env options, the player counts and the run's), and for every figure all repeats with
the median, min and max (and the ratios' medians). The load average is printed too: figures
taken while other work runs on the machine (the worker-process ones above all) are not
comparable with those of an idle one.
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from boardkit.envs import make_env

from ..config_model import GAMES
from . import kit

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.benchmark", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=None,
                   help="seconds per measurement (default 1.5; 0.3 with --quick)")
    p.add_argument("--repeats", type=int, default=None,
                   help="interleaved repeats (default 5; 3 with --quick)")
    p.add_argument("--game", required=True, choices=GAMES,
                   help="the game's registry name (got: A Game of Thrones)")
    p.add_argument("--players", type=int, nargs="+", default=None,
                   help="player counts: the env's num_players option (default: the game's "
                   "own, AGoT: every count of the ruleset, 3 4 5 6 in 2e, 3 4 5 in 1e; a game "
                   "without: the options' count)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an env option of the game, e.g. ruleset=1e or num_cards=8 "
                   "(repeatable; the value read as JSON where it is)")
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
    result = _run(p, args, seconds, repeats, states)
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = args.out / f"benchmark-{stamp}.json"
    path.write_text(json.dumps(result, indent=1))
    print(kit.table(result))
    print(f"written: {path}")
    return 0


def _run(p: argparse.ArgumentParser, args: argparse.Namespace, seconds: float, repeats: int,
         states: int) -> dict[str, Any]:
    """The game's run (:mod:`.kit`), its env options from ``--option``; a bad option or player
    count stops before any measurement."""
    options: dict[str, Any] = {}
    for item in args.option:
        key, eq, value = item.partition("=")
        if not eq or not key:
            p.error(f"--option {item!r}: expected KEY=VALUE, e.g. num_cards=8")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    players = sorted(set(args.players)) if args.players else None
    try:
        configs = kit.player_configs(args.game, options, players)
    except (TypeError, ValueError, KeyError) as e:
        p.error(f"{args.game} env {options}: {e}")
    for config in configs.values():
        try:
            make_env(args.game, **config)
        except (TypeError, ValueError) as e:
            p.error(f"{args.game} env {config}: {e}")
    return kit.run(args.game, options, players, seconds, repeats, args.games, states,
                   args.seed)
