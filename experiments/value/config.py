"""The value tool's config: one YAML file read by the experiments' one config layer
(:mod:`experiments.config_model`), so that a bad key is a one-line error naming it before any
game is played. Every key and its default is in ``configs/value/agot.yaml``; docs/value.md
explains them."""

from __future__ import annotations

import dataclasses
from dataclasses import field
from pathlib import Path
from typing import Any

from agents import make_agent
from agents.value import DEVICES
from boardkit import games
from experiments import config_files
from experiments.config_model import (
    MAX_COUNT,
    MAX_GAMES,
    Field,
    Float,
    Game,
    Int,
    Names,
    Section,
    Text,
    one_of,
    parse_section,
    schema,
)

ConfigError = config_files.ConfigError
#: The evaluation suite's seeds start here (docs/evaluation.md): no value game is played from
#: one, so that a value is never fitted on a game it may later be measured in.
EVALUATION_SEEDS = 900_000
Device = one_of(DEVICES)


@schema
class DataSection:
    games: Int = Field(2000, ge=1, le=MAX_GAMES)   #: games recorded (train, validation, held out)
    chunk: Int = Field(50, ge=1, le=MAX_GAMES)   #: games per shard (a shard is written whole)
    #: game g is played from seed ``first_seed + g`` (below the evaluation's 900_000, above
    #: the imitation's and the trainer's defaults, which start at 0)
    first_seed: Int = Field(700_000, ge=0, le=EVALUATION_SEEDS)
    #: agent specs; seat s of game g is played by ``agents[(g + s) % len(agents)]``; none: the
    #: game's own (its plugin's value piece, ``DEFAULT_AGENTS``)
    agents: Names | None = None


@schema
class FitSection:
    hidden: tuple[Int, ...] = (128, 64)   #: the MLP's hidden layer widths
    epochs: Int = Field(30, ge=1, le=10_000)   #: most passes over the training rows
    patience: Int = Field(3, ge=1, le=10_000)   #: epochs without a better validation loss
    minibatch: Int = Field(256, ge=1, le=MAX_COUNT)
    lr: Float = Field(1e-3, gt=0, le=1)
    weight_decay: Float = Field(1e-4, ge=0, le=1)   #: AdamW's
    validation: Float = Field(0.1, gt=0, lt=0.5)   #: share of games for early stopping
    holdout: Float = Field(0.2, gt=0, lt=0.5)   #: share of games only the report reads
    seed: Int = Field(0, ge=0, le=2**31 - 1)   #: the split, the initial weights, the shuffles
    threads: Int = Field(1, ge=1, le=256)   #: torch CPU threads (1: reproducible, polite)
    device: Device = "cpu"   #: "cuda" is refused when torch has no CUDA


@schema
class ReportSection:
    #: the rounds' buckets by their first round: [1, 3, 5] reports rounds 1-2, 3-4, 5 and
    #: later; none: every round on its own
    buckets: tuple[Int, ...] | None = None


@schema
class ValueConfig:
    game: Game   #: the game (required: a registry name)
    name: Text = "value"
    out: Text = "runs/value"   #: the run folder is ``out/name`` (shards, fit, report)
    env: dict[Text, Any] = field(default_factory=dict)   #: the env's options
    #: where the fitted value is saved (none: ``out/name/value.pt``)
    checkpoint: Text | None = None
    data: Section[DataSection] = field(default_factory=DataSection)
    fit: Section[FitSection] = field(default_factory=FitSection)
    report: Section[ReportSection] = field(default_factory=ReportSection)

    @property
    def run_dir(self) -> Path:
        return Path(self.out) / self.name

    @property
    def checkpoint_path(self) -> Path:
        return Path(self.checkpoint) if self.checkpoint else self.run_dir / "value.pt"

    def agent_specs(self) -> tuple[str, ...]:
        """The agents that play the games: ``data.agents`` or the game's defaults."""
        if self.data.agents is not None:
            return tuple(self.data.agents)
        return tuple(games.plugin(self.game).hook("value", "DEFAULT_AGENTS"))

    def collection(self) -> dict[str, Any]:
        """What decides a shard's rows (not the fit): a run extends a shard folder only if
        it agrees on all of it."""
        return {"game": self.game, "env": dict(self.env), "chunk": self.data.chunk,
                "first_seed": self.data.first_seed, "agents": list(self.agent_specs())}

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def check(cfg: ValueConfig) -> None:
    """What no single key says: the game has a value piece, the env builds, the agents build
    on it, the seeds stay below the evaluation's, the shares leave training games."""
    if games.plugin(cfg.game).value is None:
        raise ConfigError(f"game: {cfg.game!r} gives no value piece (its plugin's `value`): "
                          f"the tool has no baseline for it")
    _, probe = config_files.check_env(cfg.env, game=cfg.game)
    if not cfg.agent_specs():
        raise ConfigError("data.agents: empty")
    for spec in cfg.agent_specs():
        try:
            make_agent(spec, env=probe, seed=0)
        except (ValueError, TypeError) as e:  # AgentSpecError is a ValueError
            raise ConfigError(f"data.agents: {config_files.one_line(str(e))}") from None
    if cfg.data.games % cfg.data.chunk:
        raise ConfigError(f"data.games: a multiple of data.chunk ({cfg.data.chunk}), so that "
                          f"every shard is whole and more games add shards, got "
                          f"{cfg.data.games}")
    if cfg.data.first_seed + cfg.data.games > EVALUATION_SEEDS:
        raise ConfigError(f"data: games from seed {cfg.data.first_seed} to "
                          f"{cfg.data.first_seed + cfg.data.games - 1} reach the evaluation "
                          f"seeds ({EVALUATION_SEEDS} and up)")
    if not cfg.fit.hidden or min(cfg.fit.hidden) < 1:
        raise ConfigError(f"fit.hidden: positive widths, got {list(cfg.fit.hidden)}")
    buckets = cfg.report.buckets
    if buckets is not None and (not buckets or list(buckets) != sorted(set(buckets))):
        raise ConfigError(f"report.buckets: increasing first rounds, got {list(buckets)}")


def parse_config(raw: Any) -> ValueConfig:
    cfg = parse_section(ValueConfig, raw)
    check(cfg)
    return cfg


def load_config(path: str | Path) -> ValueConfig:
    """Read and check a YAML value config; every error names the file (and the key)."""
    return config_files.read_config(path, parse_config)
