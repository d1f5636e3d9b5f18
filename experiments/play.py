"""The main job: play one full game between agents named in a YAML config and report it.

    python -m experiments.play                     # configs/play.yaml: 6 heuristic_v2 agents
    python -m experiments.play --config my.yaml --seed 3

Prints the winner, each seat's final score (AGoT: the castles and strongholds each house holds)
and the rounds played; saves the game record in ``out`` (JSON replayable with
``boardkit.records.GameRecord``, every game's) and, for a game that draws
one (AGoT), a PNG of the final board; with ``--replay`` (or the config's ``replay: true``) also
``out/replay.html``, the game's replay page (experiments.replay, docs/replay.md).

Config (YAML), every key optional:

    game: got                               # the game's registry name: got (the default),
    #                                       # goofspiel (configs/goofspiel_play.yaml)
    env: {num_players: 6, max_rounds: 10}   # options of the game's env (got_env.raw_env:
    #                                       # ruleset: 1e, ...; goofspiel: num_cards)
    seed: 0                                 # the game's; the agent of seat i gets seed + i
    agents: {default: heuristic_v2, stark: random}   # house (or default) -> agent spec
    out: runs/play                          # the record and the board picture go here
    replay: false                           # also write <out>/replay.html

An agent spec is a registry name (``heuristic``, ``heuristic_v2``, ``random``, ``ismcts``,
``ppo``), ``my_pkg.my_agents:GreedyAgent``, ``path/to/file.py:Class``, a mapping ``{name: ...,
kwargs: {...}}`` or a checkpoint (``{checkpoint: path/to/file.pt}``); see docs/agents.md.
Without ``agents`` every house is ``random``. A config that cannot be read or holds a bad value
stops before the game with one line naming the file and the key, and exit code 2.

The game: its env comes from :func:`boardkit.envs.make_env`, its seats ("houses" above) from the
env's ``possible_agents``, its result, record, replay page and board picture from the
tournament's game hooks (:mod:`experiments.game_hooks`; AGoT's:
``got_env.tools.tournament``), so this module names no game.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from agents import AgentSpecError, make_agent
from agents.base import begin_game, end_game
from boardkit import games
from boardkit.envs import make_env

from . import game_hooks
from .config_files import ConfigError, check_env, exit_config_error, read_config
from .config_model import MAX_SEED, Bool, Field, Folder, Game, Int, Text, parse_section, schema

DEFAULT_CONFIG = Path(__file__).resolve().parent.parent / "configs" / "play.yaml"


@schema
class PlayFile:
    """The keys of a play config file; ``agents`` is judged as :func:`build_agents` builds
    them (it needs the env's houses)."""

    game: Game                         # required: any game of the registry (boardkit.games)
    env: dict[Text, Any] | None = None
    seed: Int = Field(0, ge=0, le=MAX_SEED)
    agents: Any = None
    out: Folder = Path("runs/play")
    replay: Bool = False


def parse_config(raw: Any) -> dict[str, Any]:
    """The config with every key checked and filled in (``game``, ``env``, ``seed``,
    ``agents``, ``out``, ``replay``), so that a bad value stops before the game and names its
    key; ``game`` must be given."""
    file = parse_section(PlayFile, raw)
    env, _ = check_env(file.env, game=file.game)
    return {"game": file.game, "env": env, "seed": file.seed, "agents": file.agents,
            "out": file.out, "replay": file.replay}


def load_config(path: str | Path) -> dict[str, Any]:
    """Read and check a play config; every error is a ConfigError naming the file."""
    return read_config(path, parse_config)


def build_agents(env: Any, spec: dict[str, Any] | None,
                 seed: int) -> dict[str, Any]:
    """One agent per house from the config's ``agents`` mapping: house -> agent spec (any form of
    ``agents.AgentSpec``: ``heuristic``, ``my_pkg.mod:Class``, ``{name: ..., kwargs: ...}``,
    ``{checkpoint: ...}``), ``default`` for every house not listed. The agent of seat ``i`` gets
    ``seed + i`` and the env where its constructor takes them."""
    if spec is not None and not isinstance(spec, dict):
        raise ValueError(f"agents must be a mapping of house -> agent spec, got {spec!r}")
    spec = dict(spec or {"default": "random"})
    default = spec.pop("default", "random")
    unknown = set(spec) - set(env.possible_agents)
    if unknown:
        raise ValueError(f"agents for houses not in play: {sorted(unknown)}")
    seated = {}
    for seat, house in enumerate(env.possible_agents):
        key = house if house in spec else "default"
        try:
            seated[house] = make_agent(spec.get(house, default), env=env, seed=seed + seat)
        except AgentSpecError as e:
            raise AgentSpecError(f"agents.{key}: {e}") from e
    return seated


def play_game(env: Any, agents: dict[str, Any], seed: int) -> None:
    """One full game through the AEC API; agents' optional reset/observe_end are called."""
    env.reset(seed=seed)
    for agent in agents.values():
        begin_game(agent)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            end_game(agents[agent], reward, info)
            action = None
        else:
            action = agents[agent].act(obs["observation"], obs["action_mask"], info)
        env.step(action)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.play", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", default=str(DEFAULT_CONFIG),
                   help="YAML config (default: configs/play.yaml, a 6-player, 10-round game of "
                   "heuristic_v2 agents); its keys are above")
    p.add_argument("--seed", type=int, default=None, help="overrides the config's seed")
    p.add_argument("--out", default=None, help="overrides the config's output folder")
    p.add_argument("--no-picture", action="store_true", help="skip the PNG of the board")
    p.add_argument("--replay", action="store_true", help="also write the replay page "
                   "<out>/replay.html (docs/replay.md)")
    args = p.parse_args(argv)
    if args.seed is not None and args.seed < 0:
        p.error(f"--seed must be >= 0, got {args.seed}")
    try:
        cfg = load_config(args.config)
        seed = args.seed if args.seed is not None else cfg["seed"]
        env = make_env(cfg["game"], **cfg["env"])
        try:
            agents = build_agents(env, cfg["agents"], seed)
        except ValueError as e:   # a bad spec, or a constructor that refused its arguments
            raise ConfigError(f"{args.config}: {e}") from None
    except ConfigError as e:
        exit_config_error(p, e)
    start = time.perf_counter()
    play_game(env, agents, seed)
    elapsed = time.perf_counter() - start
    report(cfg["game"], env, agents, seed, elapsed)
    out = Path(args.out) if args.out else cfg["out"]
    save_outputs(cfg["game"], env, seed, out, picture=not args.no_picture,
                 replay=args.replay or cfg["replay"])
    return 0


def report(game: str, env: Any, agents: dict[str, Any], seed: int, elapsed: float) -> None:
    """Print the finished game: its length, the winner (or the draw) and each seat's score,
    best first (the result of :func:`experiments.game_hooks.result`)."""
    rules = games.get(game)
    result = game_hooks.result(game, env)

    def name(player: int) -> str:
        return rules.player_name(env.game, player)

    print(f"{env.num_players}-player game, seed {seed}: {game_hooks.decisions(game, env)} "
          f"decisions in {elapsed:.1f} s, {rules.round(env.game)} rounds")
    if result.draw:  # 1e spec 12: the tie-breaks left these houses equal
        print(f"draw: {', '.join(name(h) for h in result.draw)} ({result.reason})")
    elif result.reason == "truncated":  # cut off at a limit of its options: no winner
        print(f"no winner, ahead: {name(result.ranking[0])} ({result.reason})")
    else:
        print(f"winner: {name(result.ranking[0])} ({result.reason})")
    label = game_hooks.score_label(game)
    for h in result.ranking:
        kind = type(agents[name(h)]).__name__
        print(f"  {name(h):<10} {result.scores[h]:g} {label}  ({kind})")


def save_outputs(game: str, env: Any, seed: int, out: Path, *, picture: bool = True,
                 replay: bool = False) -> None:
    """The game record ``game-<seed>.json``, the final board ``board-<seed>.png`` (a game with
    a picture hook) and the replay page ``replay.html`` in ``out``, each named as written."""
    out.mkdir(parents=True, exist_ok=True)
    game_hooks.save_record(game, env, out / f"game-{seed}.json")
    print(f"game record: {out / f'game-{seed}.json'}")
    if picture:
        path = game_hooks.save_picture(game, env, out / f"board-{seed}.png")
        if path is not None:
            print(f"final board: {out / f'board-{seed}.png'}")
    if replay:
        figures = game_hooks.write_replay(game, env, out / "replay.html",
                                          f"{game_hooks.replay_title(game)}: game {seed}")
        print(f"replay: {out / 'replay.html'} ({figures['bytes'] / 1e6:.1f} MB, "
              f"{figures['seconds']:.1f} s)")


if __name__ == "__main__":
    sys.exit(main())
