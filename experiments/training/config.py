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
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from experiments import config_files
from experiments.config_model import (
    BACKENDS,
    bounded,
    game_field,
    key_names,
    parse_section,
    parse_value,
)

#: Seeds are those numpy's and torch's generators both take.
MAX_SEED = 2**32 - 1
LEAGUE_KINDS = ("current", "snapshots", "heuristic", "random")
LR_SCHEDULES = ("constant", "linear")
#: Env options training does not take: its games run to the end, unrendered.
FORBIDDEN_ENV = {"max_steps": "training games are played to the end (use max_rounds)",
                 "render_mode": "training games are not rendered"}

#: A training config that cannot be run; the message names the key (every experiment's error).
ConfigError = config_files.ConfigError


@dataclass(frozen=True)
class RolloutConfig:
    num_games: int = bounded(24, minimum=1)   #: games stepped in lockstep
    steps: int = bounded(128, minimum=1)      #: lockstep steps per update (num_games * steps)
    workers: int = bounded(2, minimum=0)      #: rollout worker processes (0: in this process)
    #: "local" (processes) or "ray" (Ray actors; the 'ray' extra)
    backend: str = bounded("local", choices=BACKENDS)


@dataclass(frozen=True)
class PPOConfig:
    gamma: float = bounded(0.99, above=0, maximum=1)   #: discount per decision of one house
    gae_lambda: float = bounded(0.95, minimum=0, maximum=1)
    clip: float = bounded(0.2, above=0)     #: the clipped objective's epsilon
    epochs: int = bounded(4, minimum=1)     #: passes over each rollout
    minibatch: int = bounded(512, minimum=1)   #: decisions per gradient step
    lr: float = bounded(3e-4, above=0)
    #: "linear" decays to lr_final_fraction * lr at the last update
    lr_schedule: str = bounded("linear", choices=LR_SCHEDULES)
    lr_final_fraction: float = bounded(0.1, minimum=0)
    entropy: float = bounded(0.01, minimum=0)   #: entropy bonus coefficient
    value_coef: float = bounded(0.5, minimum=0)
    max_grad_norm: float = bounded(0.5, above=0)
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
    snapshot_every: int = bounded(20, minimum=1)   #: updates between snapshots in the league
    max_snapshots: int = bounded(10, minimum=1)    #: the oldest is dropped beyond this


@dataclass(frozen=True)
class EvalConfig:
    every: int = bounded(25, minimum=1)   #: updates between evaluations (and at the end)
    games: int = bounded(60, minimum=0)   #: per opponent, a multiple of num_players
    opponents: tuple[str, ...] = ("random", "heuristic")
    greedy: bool = False       #: evaluate the most probable action instead of sampling
    workers: int = bounded(0, minimum=0)  #: evaluation games' worker processes (0: here)


@dataclass(frozen=True)
class TrainConfig:
    game: str = game_field()   #: the game trained on (experiments.config_model.GAMES)
    name: str = "ppo_selfplay"
    out: str = "runs/train"
    seed: int = bounded(0, minimum=0, maximum=MAX_SEED)
    updates: int = bounded(200, minimum=1)   #: the budget: PPO updates (each one rollout)
    env: dict[str, Any] = field(default_factory=lambda: {"num_players": 3, "max_rounds": 10})
    network: dict[str, Any] = field(default_factory=lambda: {"kind": "mlp",
                                                             "hidden": [128, 128]})
    rollout: RolloutConfig = field(default_factory=RolloutConfig)
    ppo: PPOConfig = field(default_factory=PPOConfig)
    shaping: ShapingConfig = field(default_factory=ShapingConfig)
    league: LeagueConfig = field(default_factory=LeagueConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    checkpoint_every: int = bounded(25, minimum=1)  #: updates between checkpoints (and at end)
    tensorboard: bool = True
    progress: bool = True

    @property
    def num_players(self) -> int:
        """The env's ``num_players``, else the ruleset's default (its largest player count):
        the one default of got_env.engine.options, read here when asked (the config module
        itself stays free of the game, so that ``train --help`` is quick)."""
        if self.env.get("num_players") is not None:
            return int(self.env["num_players"])
        from got_env.engine import default_num_players

        return default_num_players(self.env)

    @property
    def run_dir(self) -> Path:
        return Path(self.out) / self.name

    def as_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["eval"]["opponents"] = list(self.eval.opponents)
        if d["game"] == "got":  # the only game: as before the key, so older checkpoints resume
            del d["game"]
        return d


def _sections() -> dict[str, type]:
    """The config's sections (ppo, rollout, ...): its fields that are dataclasses."""
    return {name: tp for name, tp in typing.get_type_hints(TrainConfig).items()
            if dataclasses.is_dataclass(tp)}


def parse_config(raw: Any, **overrides: Any) -> TrainConfig:
    """A checked :class:`TrainConfig` from a YAML mapping; ``overrides`` (``updates``, ``out``,
    ``name``, ``backend``, ``seed``; None: keep) are the command line's, named by their option
    (``--name``) in errors."""
    cfg = parse_section(TrainConfig, {} if raw is None else raw)
    hints = typing.get_type_hints(TrainConfig)
    fields = {f.name: f for f in dataclasses.fields(TrainConfig)}
    values = {name: parse_value(hints[name], overrides[name], f"--{name}",
                                dict(fields[name].metadata))
              for name in ("updates", "out", "name", "seed") if overrides.get(name) is not None}
    cfg = dataclasses.replace(cfg, **values)
    if overrides.get("backend") is not None:
        backend = parse_value(str, overrides["backend"], "--backend", {"choices": BACKENDS})
        cfg = dataclasses.replace(cfg, rollout=dataclasses.replace(cfg.rollout, backend=backend))
    check(cfg)
    return cfg


def check(cfg: TrainConfig) -> None:
    """What no single key's type and range say, with the key in the message: the env and the
    network build, the league's weights, the evaluations fit the houses."""
    config_files.check_env(cfg.env, forbidden=FORBIDDEN_ENV)
    check_network(cfg.network)
    weights = cfg.league.weights
    unknown = set(weights) - set(LEAGUE_KINDS)
    if unknown:
        raise ConfigError(f"league.weights: unknown kind(s) {key_names(unknown)} (known: "
                          f"{list(LEAGUE_KINDS)})")
    if any(isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w)
           or w < 0 for w in weights.values()) or sum(weights.values()) <= 0:
        raise ConfigError(f"league.weights: expected non-negative finite numbers, not all zero, "
                          f"got {weights}")
    if cfg.eval.games % cfg.num_players:
        raise ConfigError(f"eval.games: must be a multiple of env.num_players "
                          f"({cfg.num_players}) so that every house is played as often, got "
                          f"{cfg.eval.games}")
    bad = [o for o in cfg.eval.opponents if o not in ("random", "heuristic")]
    if bad:
        raise ConfigError(f"eval.opponents: unknown {bad} (known: random, heuristic)")


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
    sections = _sections()
    lines = []
    for f in dataclasses.fields(TrainConfig):
        if f.name in sections:
            head = f"{f.name}:"
            text = ", ".join(g.name for g in dataclasses.fields(sections[f.name]))
        else:
            shown = yaml.safe_dump(getattr(base, f.name), default_flow_style=True,
                                   sort_keys=False).strip().removesuffix("\n...").strip()
            head, text = f.name, f"default {shown}"
        lines.append(textwrap.fill(text, width=79, initial_indent=f"  {head:<17} ",
                                   subsequent_indent=" " * 20))
    return "\n".join(lines)


def load_config(path: str | Path, **overrides: Any) -> TrainConfig:
    """Read and check a YAML training config; every error names the file (and the key). The
    file is read as every experiment's config is (:func:`experiments.config_files.read_config`)."""
    return config_files.read_config(path, lambda raw: parse_config(raw, **overrides))
