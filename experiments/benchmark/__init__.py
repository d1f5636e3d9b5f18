"""Speed of got_env (and of any other game of the kit: ``--game``), measured so that the figures
can be trusted and compared across runs.

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
  a uniform choice among ``d.options`` with a numpy Generator), whole games/s, and the
  decisions per random game (the two over the same whole games);
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
    python -m experiments.benchmark --game goofspiel --option num_cards=8 --players 2 3
    python -m experiments.benchmark --game wotr --quick      # War of the Ring, whole games

Games: ``--game got`` (the default) measures AGoT exactly as before the benchmark took other
games (:mod:`.got`: its engine, env, encoder and codec directly, its ``--ruleset`` and player
counts), so that the figures of older and newer commits compare. Any other game of the registry
is measured through what every game gives (:mod:`.kit`): its env (``boardkit.envs.make_env``,
with the ``--option`` values), the protocol (``new_state``, ``pending``, ``apply``, ``clone``,
``encoder``, ``codec``) and ``VectorGames(game=...)``; the same figures under the same names.
:mod:`.common` holds what both share.

The JSON holds the machine, the versions, the load average before and after, the options, and
for every figure all repeats with the median, min and max (and the ratios' medians). The load
average is printed too: figures taken while other work runs on the machine (the worker-process
ones above all) are not comparable with those of an idle one.
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from got_env.data.loader import RULESETS

from ..config_model import GAMES
from . import kit
from .common import (
    CLASSIC,
    ROWS,
    VECTOR,
    BatchRun,
    Figure,
    Figures,
    aec_rate,
    classic_envs,
    machine_info,
    micro_us,
    uniform_legal,
    versions,
)
from .got import (
    PLAYERS,
    Sample,
    VectorRun,
    cold_encode,
    encode_in_play_us,
    engine_rate,
    one_repeat,
    player_counts,
    run,
    sample_states,
    table,
)

__all__ = ["CLASSIC", "PLAYERS", "ROWS", "VECTOR", "BatchRun", "Figure", "Figures", "Sample",
           "VectorRun", "aec_rate", "classic_envs", "cold_encode", "encode_in_play_us",
           "engine_rate", "kit", "machine_info", "main", "micro_us", "one_repeat", "run",
           "sample_states", "table", "uniform_legal", "versions"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.benchmark", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=None,
                   help="seconds per measurement (default 1.5; 0.3 with --quick)")
    p.add_argument("--repeats", type=int, default=None,
                   help="interleaved repeats (default 5; 3 with --quick)")
    p.add_argument("--game", default="got", choices=GAMES,
                   help="the game's registry name (default got, A Game of Thrones)")
    p.add_argument("--ruleset", default="2e", choices=RULESETS,
                   help="2e (default) or 1e, the 1st edition (AGoT only)")
    p.add_argument("--players", type=int, nargs="+", default=None,
                   help="player counts (AGoT, default: every count of the ruleset: 3 4 5 6 in "
                   "2e, 3 4 5 in 1e; another game: its num_players option, default its "
                   "default)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an env option of a game other than AGoT, e.g. num_cards=8 "
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
    if args.game == "got":
        result, show = _got(p, args, seconds, repeats, states), table
    else:
        result, show = _kit(p, args, seconds, repeats, states), kit.table
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = args.out / f"benchmark-{stamp}.json"
    path.write_text(json.dumps(result, indent=1))
    print(show(result))
    print(f"written: {path}")
    return 0


def _got(p: argparse.ArgumentParser, args: argparse.Namespace, seconds: float, repeats: int,
         states: int) -> dict[str, Any]:
    """AGoT's run (:mod:`.got`): its ruleset's player counts, checked."""
    if args.option:
        p.error("--option: for a game other than AGoT (AGoT's options: --ruleset, --players)")
    counts = player_counts(args.ruleset)
    players = sorted(set(args.players if args.players is not None else counts))
    if not set(players) <= set(counts) or not set(players) <= set(PLAYERS):
        p.error(f"--players: ruleset {args.ruleset} is played by {list(counts)} players, got "
                f"{players}")
    return run(players, seconds, repeats, args.games, states, args.seed, ruleset=args.ruleset)


def _kit(p: argparse.ArgumentParser, args: argparse.Namespace, seconds: float, repeats: int,
         states: int) -> dict[str, Any]:
    """Any other game's run (:mod:`.kit`), its env options from ``--option``; a bad option or
    player count stops before any measurement."""
    if args.ruleset != "2e":
        p.error(f"--ruleset: A Game of Thrones' option, not {args.game}'s")
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
    for config in kit.player_configs(args.game, options, players).values():
        try:
            kit.make_env(args.game, **config)
        except (TypeError, ValueError) as e:
            p.error(f"{args.game} env {config}: {e}")
    return kit.run(args.game, options, players, seconds, repeats, args.games, states,
                   args.seed)
