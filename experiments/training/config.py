"""The training config: one YAML file, read into frozen dataclasses and checked before any game
is played, so that a typo or an out-of-range value fails at once with the key's name.

Every key, its default and its meaning is in ``configs/ppo_selfplay.yaml`` (the shipped
config); a config may give only the keys it changes. The budget is counted in updates, not in
minutes, so that a config trains the same network on any machine (the wall time is logged).
"""

from __future__ import annotations

import dataclasses
import math
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from experiments import config_files

BACKENDS = ("local", "ray")
#: Seeds are those numpy's and torch's generators both take.
MAX_SEED = 2**32 - 1
LEAGUE_KINDS = ("current", "snapshots", "heuristic", "random")
LR_SCHEDULES = ("constant", "linear")


class ConfigError(config_files.ConfigError):
    """A training config that cannot be run; the message names the key."""


@dataclass(frozen=True)
class RolloutConfig:
    num_games: int = 24        #: games stepped in lockstep
    steps: int = 128           #: lockstep steps per update (num_games * steps decisions)
    workers: int = 2           #: rollout worker processes (0: step the games in this process)
    backend: str = "local"     #: "local" (processes) or "ray" (Ray actors; the 'ray' extra)


@dataclass(frozen=True)
class PPOConfig:
    gamma: float = 0.99        #: discount per decision of the same house
    gae_lambda: float = 0.95
    clip: float = 0.2          #: the clipped objective's epsilon
    epochs: int = 4            #: passes over each rollout
    minibatch: int = 512       #: decisions per gradient step
    lr: float = 3e-4
    lr_schedule: str = "linear"   #: "linear" decays to lr_final_fraction * lr at the last update
    lr_final_fraction: float = 0.1
    entropy: float = 0.01      #: entropy bonus coefficient
    value_coef: float = 0.5
    max_grad_norm: float = 0.5
    normalize_advantages: bool = True


@dataclass(frozen=True)
class ShapingConfig:
    """Potential-based shaping from the house's own observation (docs/training.md): ``Phi =
    castles * castles_held / castles_to_win + supply * supply_level / 6``; 0 turns it off."""

    castles: float = 1.0
    supply: float = 0.0


@dataclass(frozen=True)
class LeagueConfig:
    """Who sits at the other seats of a training game, drawn per game with these weights:
    ``current`` (self-play: every house is the learner), ``snapshots`` (a past copy of the
    learner), ``heuristic``, ``random``; the learner then plays one house, drawn at random."""

    weights: dict[str, float] = field(default_factory=lambda: {
        "current": 0.3, "snapshots": 0.2, "heuristic": 0.1, "random": 0.4})
    snapshot_every: int = 20   #: updates between snapshots added to the league
    max_snapshots: int = 10    #: the oldest is dropped beyond this


@dataclass(frozen=True)
class EvalConfig:
    every: int = 25            #: updates between evaluations (and at the end)
    games: int = 60            #: per opponent, a multiple of num_players (houses rotated)
    opponents: tuple[str, ...] = ("random", "heuristic")
    greedy: bool = False       #: evaluate the most probable action instead of sampling
    workers: int = 0           #: evaluation games' worker processes (0: in this process)


@dataclass(frozen=True)
class TrainConfig:
    name: str = "ppo_selfplay"
    out: str = "runs/train"
    seed: int = 0
    updates: int = 200         #: the budget: PPO updates (each one rollout)
    env: dict[str, Any] = field(default_factory=lambda: {"num_players": 3, "max_rounds": 10})
    network: dict[str, Any] = field(default_factory=lambda: {"kind": "mlp",
                                                             "hidden": [128, 128]})
    rollout: RolloutConfig = field(default_factory=RolloutConfig)
    ppo: PPOConfig = field(default_factory=PPOConfig)
    shaping: ShapingConfig = field(default_factory=ShapingConfig)
    league: LeagueConfig = field(default_factory=LeagueConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    checkpoint_every: int = 25  #: updates between checkpoints (and at the end)
    tensorboard: bool = True
    progress: bool = True

    @property
    def num_players(self) -> int:
        return int(self.env.get("num_players", 6))

    @property
    def run_dir(self) -> Path:
        return Path(self.out) / self.name

    def as_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["eval"]["opponents"] = list(self.eval.opponents)
        return d


_SECTIONS = {"rollout": RolloutConfig, "ppo": PPOConfig, "shaping": ShapingConfig,
             "league": LeagueConfig, "eval": EvalConfig}


def _names(keys: Iterable[Any]) -> list[Any]:
    """Keys in order for a message; YAML keys may mix types (``1:`` and ``lr:``), which
    ``sorted`` alone cannot compare."""
    return sorted(keys, key=lambda k: (type(k).__name__ != "int", str(k)))


def _section(cls: type, raw: Any, key: str) -> Any:
    if raw is None:
        return cls()
    if not isinstance(raw, dict):
        raise ConfigError(f"{key}: expected a mapping, got {raw!r}")
    names = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(raw) - set(names)
    if unknown:
        raise ConfigError(f"{key}: unknown key(s) {_names(unknown)} (known: {sorted(names)})")
    values = {}
    for name, value in raw.items():
        default = getattr(cls(), name)
        values[name] = _typed(value, default, f"{key}.{name}")
    return cls(**values)


def _typed(value: Any, default: Any, key: str) -> Any:
    """``value`` checked against the type of the default it replaces (a bool is not an
    integer, a string of digits is not a number)."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{key}: expected true or false, got {value!r}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{key}: expected an integer, got {value!r}")
        return value
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(
                value):
            raise ConfigError(f"{key}: expected a finite number, got {value!r}")
        return float(value)
    if isinstance(default, str):
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{key}: expected a non-empty string, got {value!r}")
        return value
    if isinstance(default, tuple):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{key}: expected a list of names, got {value!r}")
        return tuple(value)
    if isinstance(default, dict):
        if not isinstance(value, dict):
            raise ConfigError(f"{key}: expected a mapping, got {value!r}")
        return dict(value)
    return value


def _positive(value: int | float, key: str, minimum: float = 1) -> None:
    if value < minimum:
        raise ConfigError(f"{key}: must be at least {minimum}, got {value!r}")


def parse_config(raw: Any, **overrides: Any) -> TrainConfig:
    """A checked :class:`TrainConfig` from a YAML mapping; ``overrides`` (``updates``, ``out``,
    ``name``, ``backend``, ``seed``; None: keep) are the command line's."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(f"a training config must be a mapping, got {type(raw).__name__}")
    top = {f.name: f for f in dataclasses.fields(TrainConfig)}
    unknown = set(raw) - set(top)
    if unknown:
        raise ConfigError(f"unknown key(s) {_names(unknown)} (known: {sorted(top)})")
    base = TrainConfig()
    values: dict[str, Any] = {}
    for name, value in raw.items():
        if name in _SECTIONS:
            values[name] = _section(_SECTIONS[name], value, name)
        else:
            values[name] = _typed(value, getattr(base, name), name)
    for name in ("updates", "out", "name", "seed"):
        if overrides.get(name) is not None:
            values[name] = _typed(overrides[name], getattr(base, name), f"--{name}")
    cfg = dataclasses.replace(base, **values)
    if overrides.get("backend") is not None:
        cfg = dataclasses.replace(cfg, rollout=dataclasses.replace(
            cfg.rollout, backend=overrides["backend"]))
    check(cfg)
    return cfg


def check(cfg: TrainConfig) -> None:
    """Every range and choice of the config, with the key in the message."""
    check_env(cfg.env)
    check_network(cfg.network)
    _positive(cfg.seed, "seed", 0)
    if cfg.seed > MAX_SEED:
        raise ConfigError(f"seed: must be at most {MAX_SEED}, got {cfg.seed}")
    _positive(cfg.updates, "updates")
    _positive(cfg.checkpoint_every, "checkpoint_every")
    _positive(cfg.rollout.num_games, "rollout.num_games")
    _positive(cfg.rollout.steps, "rollout.steps")
    _positive(cfg.rollout.workers, "rollout.workers", 0)
    if cfg.rollout.backend not in BACKENDS:
        raise ConfigError(f"rollout.backend: must be one of {BACKENDS}, got "
                          f"{cfg.rollout.backend!r}")
    p = cfg.ppo
    if not 0 < p.gamma <= 1 or not 0 <= p.gae_lambda <= 1:
        raise ConfigError(f"ppo.gamma must lie in (0, 1] and ppo.gae_lambda in [0, 1], got "
                          f"{p.gamma} and {p.gae_lambda}")
    for key in ("clip", "lr", "max_grad_norm"):
        if getattr(p, key) <= 0:
            raise ConfigError(f"ppo.{key}: must be positive, got {getattr(p, key)}")
    for key in ("entropy", "value_coef", "lr_final_fraction"):
        if getattr(p, key) < 0:
            raise ConfigError(f"ppo.{key}: must not be negative, got {getattr(p, key)}")
    _positive(p.epochs, "ppo.epochs")
    _positive(p.minibatch, "ppo.minibatch")
    if p.lr_schedule not in LR_SCHEDULES:
        raise ConfigError(f"ppo.lr_schedule: must be one of {LR_SCHEDULES}, got "
                          f"{p.lr_schedule!r}")
    weights = cfg.league.weights
    unknown = set(weights) - set(LEAGUE_KINDS)
    if unknown:
        raise ConfigError(f"league.weights: unknown kind(s) {_names(unknown)} (known: "
                          f"{list(LEAGUE_KINDS)})")
    if any(isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w)
           or w < 0 for w in weights.values()) or sum(weights.values()) <= 0:
        raise ConfigError(f"league.weights: expected non-negative finite numbers, not all zero, "
                          f"got {weights}")
    _positive(cfg.league.snapshot_every, "league.snapshot_every")
    _positive(cfg.league.max_snapshots, "league.max_snapshots")
    _positive(cfg.eval.every, "eval.every")
    _positive(cfg.eval.games, "eval.games", 0)
    if cfg.eval.games % cfg.num_players:
        raise ConfigError(f"eval.games: must be a multiple of env.num_players "
                          f"({cfg.num_players}) so that every house is played as often, got "
                          f"{cfg.eval.games}")
    bad = [o for o in cfg.eval.opponents if o not in ("random", "heuristic")]
    if bad:
        raise ConfigError(f"eval.opponents: unknown {bad} (known: random, heuristic)")
    _positive(cfg.eval.workers, "eval.workers", 0)


def check_env(env: dict[str, Any]) -> None:
    """The ``env`` options are ones ``got_env.raw_env`` takes: ``num_players`` an integer (it
    sizes the evaluations), then the env itself judges the rest (its message names the
    option), so that a bad option fails here and not in a rollout worker."""
    if "max_steps" in env or "render_mode" in env:
        raise ConfigError("env: a mapping of got_env.raw_env options (not max_steps or "
                          "render_mode)")
    players = env.get("num_players", 6)
    if isinstance(players, bool) or not isinstance(players, int):
        raise ConfigError(f"env.num_players: expected an integer, got {players!r}")
    bad = [k for k in env if not isinstance(k, str)]
    if bad:
        raise ConfigError(f"env: option names must be strings, got {_names(bad)}")
    from got_env import raw_env  # the games: only once a config is being checked

    try:
        raw_env(**env)
    except (ValueError, TypeError) as e:  # OptionError is a ValueError
        raise ConfigError(f"env: {e}") from None


def check_network(network: dict[str, Any]) -> None:
    """The ``network`` spec is one :func:`agents.ppo.build_network` builds."""
    from agents.ppo import check_network_spec  # torch: only once a config is being checked

    try:
        check_network_spec(network)
    except ValueError as e:  # its messages name the key (network.hidden: ...)
        raise ConfigError(str(e)) from None


def config_outline() -> str:
    """The config's keys, one line each, for ``--help``: a value with its default, a section
    with its keys. Read off the dataclasses, so that it never disagrees with the parser."""
    base = TrainConfig()
    lines = []
    for f in dataclasses.fields(TrainConfig):
        if f.name in _SECTIONS:
            head = f"{f.name}:"
            text = ", ".join(g.name for g in dataclasses.fields(_SECTIONS[f.name]))
        else:
            shown = yaml.safe_dump(getattr(base, f.name), default_flow_style=True,
                                   sort_keys=False).strip().removesuffix("\n...").strip()
            head, text = f.name, f"default {shown}"
        lines.append(textwrap.fill(text, width=79, initial_indent=f"  {head:<17} ",
                                   subsequent_indent=" " * 20))
    return "\n".join(lines)


def load_config(path: str | Path, **overrides: Any) -> TrainConfig:
    """Read and check a YAML training config; every error names the file (and the key). The
    file is read as every experiment's config is (:func:`experiments.config_files.read_yaml`)."""
    try:
        raw = config_files.read_yaml(path)
    except config_files.ConfigError as e:
        raise ConfigError(str(e)) from None
    try:
        return parse_config(raw, **overrides)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None
