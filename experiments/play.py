"""The main job: play one full game between agents named in a YAML config and report it.

    python -m experiments.play                     # configs/play.yaml
    python -m experiments.play --config my.yaml --seed 3

Prints the winner, the castles and strongholds each house holds and the rounds played; saves the
game record (JSON, replayable with got_env.GameRecord) and a PNG of the final board in ``out``.
"""

from __future__ import annotations

import argparse
import inspect
import sys
import time
from pathlib import Path
from typing import Any

import yaml

import got_env
from agents import REGISTRY, make_agent
from agents.base import begin_game, end_game
from got_env.engine import OptionError

DEFAULT_CONFIG = Path(__file__).resolve().parent.parent / "configs" / "play.yaml"


def load_config(path: str | Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        cfg = yaml.safe_load(f) or {}
    if not isinstance(cfg, dict):
        raise ValueError(f"{path}: a config is a mapping")
    unknown = set(cfg) - {"env", "seed", "agents", "out"}
    if unknown:
        raise ValueError(f"{path}: unknown keys {sorted(unknown)}")
    return cfg


def build_agents(env: got_env.raw_env, spec: dict[str, Any], seed: int) -> dict[str, Any]:
    spec = dict(spec or {"default": {"name": "random"}})
    default = spec.pop("default", {"name": "random"})
    unknown = set(spec) - set(env.possible_agents)
    if unknown:
        raise ValueError(f"agents for houses not in play: {sorted(unknown)}")
    seated = {}
    for seat, house in enumerate(env.possible_agents):
        kw = dict(spec.get(house, default))
        name = kw.pop("name")
        kw.setdefault("seed", seed + seat)
        if "env" in _parameters(REGISTRY.get(name)):  # search agents simulate from the env
            kw["env"] = env
        seated[house] = make_agent(name, **kw)
    return seated


def _parameters(cls: Any) -> dict[str, Any]:
    """The constructor's parameters of an agent class ({} if unknown or not inspectable)."""
    try:
        return dict(inspect.signature(cls).parameters) if cls is not None else {}
    except (TypeError, ValueError):
        return {}


def play_game(env: got_env.raw_env, agents: dict[str, Any], seed: int) -> None:
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
    p.add_argument("--config", default=str(DEFAULT_CONFIG))
    p.add_argument("--seed", type=int, default=None, help="overrides the config's seed")
    p.add_argument("--out", default=None, help="overrides the config's output folder")
    p.add_argument("--no-picture", action="store_true", help="skip the PNG of the board")
    args = p.parse_args(argv)
    try:
        cfg = load_config(args.config)
        seed = args.seed if args.seed is not None else int(cfg.get("seed", 0))
        env = got_env.raw_env(**(cfg.get("env") or {}))
        agents = build_agents(env, cfg.get("agents"), seed)
    except (OSError, ValueError, OptionError) as e:
        p.error(str(e))
    start = time.perf_counter()
    play_game(env, agents, seed)
    elapsed = time.perf_counter() - start
    game, rs = env.game, env.ruleset
    outcome = game.outcome
    vp = game.victory_points()
    print(f"{env.num_players}-player game, seed {seed}: {len(env.record.actions)} decisions in "
          f"{elapsed:.1f} s, {game.round} rounds")
    print(f"winner: {rs.houses[outcome.winner].id} ({outcome.reason})")
    for h in outcome.ranking:
        name = rs.houses[h].id
        kind = type(agents[name]).__name__
        print(f"  {name:<10} {int(vp[h])} castles/strongholds  ({kind})")
    out = Path(args.out or cfg.get("out", "runs/play"))
    out.mkdir(parents=True, exist_ok=True)
    env.record.save(out / f"game-{seed}.json")
    print(f"game record: {out / f'game-{seed}.json'}")
    if not args.no_picture:
        from got_env.render import save_board_png

        save_board_png(game, out / f"board-{seed}.png")
        print(f"final board: {out / f'board-{seed}.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
