"""The imitation config: one YAML file read into frozen dataclasses by the experiments' one
config layer (:mod:`experiments.config_model`), so that an unknown key or a bad value is a
one-line error naming the file and the key, before any game is played.

Every key and its default is in ``configs/imitate_v2.yaml``; docs/imitation.md explains them.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import field
from pathlib import Path
from typing import Any

from agents import make_agent
from experiments import config_files
from experiments.config_model import (
    MAX_COUNT,
    MAX_GAMES,
    MAX_SEED,
    Bool,
    Field,
    Float,
    Game,
    Int,
    Names,
    Section,
    Text,
    one_of,
    parse_key,
    parse_section,
    schema,
)
from experiments.training.config import Device, check_device, check_network

from .dataset import source_of

ConfigError = config_files.ConfigError
#: The value targets of ``data.value``.
ValueTarget = one_of(("share", "reward"))
#: Env options an imitation run does not take: its games must end, so that every decision has
#: an outcome to learn the value from (AGoT: bound the game with ``max_rounds`` instead).
FORBIDDEN_ENV = {"max_steps": "imitation games are played to the end (use max_rounds)",
                 "max_cycles": "imitation games are played to the end (use max_rounds)",
                 "render_mode": "imitation games are not rendered"}


@schema
class DataConfig:
    games: Int = Field(200, ge=2, le=MAX_GAMES)   #: teacher games played (some are held out)
    #: the seats whose decisions are recorded (env agent names); none: every seat
    seats: Names | None = None
    #: who plays the seats not recorded (an agent spec); none: the teacher
    others: Any = None
    save: Bool = True          #: write the dataset to the run folder (dataset.npz)
    #: a dataset.npz an earlier run saved, fitted instead of playing the games; its recorded
    #: collection (game, env, teacher, seats, others, value, seed, games) must be this config's
    load: Text | None = None
    #: the value target: "share" (the acting player's share of the win, 0..1) or "reward" (its
    #: final reward in the env's scheme, e.g. zero_sum's +1 / -1/(n-1): what PPO's returns are)
    value: ValueTarget = "share"


@schema
class TrainSection:
    holdout: Float = Field(0.1, gt=0, le=0.5)   #: fraction of games held out
    epochs: Int = Field(10, ge=1, le=10_000)    #: passes over the training decisions
    minibatch: Int = Field(256, ge=1, le=MAX_COUNT)   #: decisions per Adam step
    lr: Float = Field(1e-3, gt=0, le=1)
    value_coef: Float = Field(0.5, ge=0, le=100)   #: weight of the value loss (MSE on win share)
    max_grad_norm: Float = Field(1.0, gt=0, le=1e6)
    threads: Int = Field(1, ge=1, le=256)      #: torch CPU threads (1: reproducible, polite)


@schema
class DaggerSection:
    """DAgger (Ross et al., 2011): after the first fit, ``rounds`` rounds of ``games`` games
    in which the network (sampling) plays the recorded seats while the teacher, asked at the
    same decisions, gives the labels; each round's decisions join the training data and the
    network trains ``epochs`` more epochs on all of it. A copy trained on the teacher's own
    positions alone errs where the teacher never goes; these rounds teach it there."""

    rounds: Int = Field(0, ge=0, le=1000)     #: DAgger rounds (0: plain imitation)
    games: Int = Field(100, ge=1, le=MAX_GAMES)   #: games per round
    epochs: Int = Field(2, ge=1, le=10_000)   #: epochs over all the data after each round


@schema
class EvalSection:
    #: games of the imitated policy in one seat against the teacher in the others, seats
    #: rotated (a multiple of the player count); 0: no evaluation
    games: Int = Field(0, ge=0, le=MAX_GAMES)
    greedy: Bool = True        #: play the most probable action (the teacher's, if learnt)


@schema
class ImitateConfig:
    game: Game   #: the game (required: a registry name)
    name: Text = "imitate_v2"
    out: Text = "runs/imitate"
    seed: Int = Field(0, ge=0, le=MAX_SEED)   #: games, split, torch
    teacher: Any = "heuristic_v2"   #: an agent spec (agents.make_agent)
    env: dict[Text, Any] = field(default_factory=lambda: {"num_players": 3, "max_rounds": 10})
    network: dict[Text, Any] = field(default_factory=lambda: {"kind": "mlp",
                                                              "hidden": [128, 128]})
    data: Section[DataConfig] = field(default_factory=DataConfig)
    train: Section[TrainSection] = field(default_factory=TrainSection)
    dagger: Section[DaggerSection] = field(default_factory=DaggerSection)
    eval: Section[EvalSection] = field(default_factory=EvalSection)
    #: where the network and its batches live while it is fitted ("auto": cuda when there is
    #: one); the games (the data, DAgger's, the evaluation's) are played on the CPU
    device: Device = "cpu"

    @property
    def run_dir(self) -> Path:
        return Path(self.out) / self.name

    def collection(self) -> dict[str, Any]:
        """What decides the recorded decisions (not the network nor the fit): a dataset saved
        by one config can be fitted by another only if the two agree on all of it."""
        d = self.as_dict()
        data = {k: d["data"][k] for k in ("seats", "others", "value", "games")}
        return {"game": d["game"], "env": d["env"], "teacher": d["teacher"], "seed": d["seed"],
                **{f"data.{k}": v for k, v in data.items()}}

    def as_dict(self) -> dict[str, Any]:
        """Plain data (lists, not tuples) for config.yaml and the checkpoint."""
        d = dataclasses.asdict(self)
        if d["data"]["seats"] is not None:
            d["data"]["seats"] = list(d["data"]["seats"])
        if self.device == "cpu":  # as before the key: an older checkpoint's config matches
            del d["device"]
        return d


def source_mismatch(cfg: ImitateConfig, source: dict[str, Any] | None) -> str | None:
    """Why a dataset recorded under ``source`` is not ``cfg``'s collection, or None."""
    if source is None:
        return "it records no collection (saved before data.load existed): collect it again"
    want = json.loads(json.dumps(cfg.collection()))
    for key, value in want.items():
        if source.get(key) != value:
            return f"recorded with {key}={source.get(key)!r}, this config has {value!r}"
    return None


def _check_load(cfg: ImitateConfig) -> None:
    """``data.load`` names a dataset recorded under this config's collection."""
    path = cfg.data.load
    try:
        why = source_mismatch(cfg, source_of(path))
    except (OSError, ValueError) as e:  # missing, not an .npz, a bad source
        raise ConfigError(f"data.load: {path}: {config_files.one_line(str(e))}") from None
    if why:
        raise ConfigError(f"data.load: {path}: {why}")


def check(cfg: ImitateConfig) -> None:
    """What no single key says, with the key in the message: the env builds, the seats are
    its agents, the teacher and the others build on it, the network builds for the game, the
    evaluation fits the table."""
    _, probe = config_files.check_env(cfg.env, forbidden=FORBIDDEN_ENV, game=cfg.game)
    agents = list(probe.possible_agents)
    if cfg.data.seats is not None:
        bad = [s for s in cfg.data.seats if s not in agents]
        if bad or not cfg.data.seats:
            raise ConfigError(f"data.seats: {bad or 'empty'} not among the env's agents "
                              f"{agents}")
    check_network(cfg.network, cfg.game)
    check_device(cfg.device)
    if cfg.data.load is not None:
        _check_load(cfg)
    for key, spec in (("teacher", cfg.teacher), ("data.others", cfg.data.others)):
        if spec is None:
            if key == "teacher":
                raise ConfigError("teacher must be an agent spec, got None")
            continue
        try:
            make_agent(spec, env=probe, seed=0)
        except (ValueError, TypeError) as e:  # AgentSpecError is a ValueError
            raise ConfigError(f"{key}: {config_files.one_line(str(e))}") from None
    if cfg.eval.games % len(agents):
        raise ConfigError(f"eval.games: must be a multiple of the player count "
                          f"({len(agents)}) so that every seat is played as often, got "
                          f"{cfg.eval.games}")


def parse_config(raw: Any, **overrides: Any) -> ImitateConfig:
    """A checked :class:`ImitateConfig` from a YAML mapping; ``overrides`` (``out``, ``name``;
    None: keep) are the command line's."""
    cfg = parse_section(ImitateConfig, raw)
    given = {k: parse_key(ImitateConfig, k, v, f"--{k}") for k, v in overrides.items()
             if v is not None}
    cfg = dataclasses.replace(cfg, **given)
    check(cfg)
    return cfg


def load_config(path: str | Path, **overrides: Any) -> ImitateConfig:
    """Read and check a YAML imitation config; every error names the file (and the key)."""
    return config_files.read_config(path, lambda raw: parse_config(raw, **overrides))
