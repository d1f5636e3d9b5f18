"""The training config: one YAML file, read into frozen dataclasses and checked before any game
is played, so that a typo or an out-of-range value fails at once with the key's name.

Every key, its default and its meaning is in ``configs/ppo_selfplay.yaml`` (the shipped
config); a config may give only the keys it changes. The budget is counted in updates, not in
minutes, so that a config trains the same network on any machine (the wall time is logged).
"""

from __future__ import annotations

import dataclasses
import textwrap
import typing
from dataclasses import field
from pathlib import Path
from typing import Any

import yaml

from boardkit.rewards import REWARD_SCHEMES
from experiments import config_files
from experiments.config_model import (
    MAX_BATCH,
    MAX_COUNT,
    MAX_GAMES,
    MAX_SEED,
    MAX_WORKERS,
    Backend,
    Bool,
    Field,
    Float,
    Game,
    Int,
    Names,
    Section,
    Text,
    fields_of,
    key_names,
    one_of,
    parse_key,
    parse_section,
    schema,
    sections_of,
)

from .game_hooks import BASELINES, baseline, default_num_players, opponent_spec, shaping_weights

LEAGUE_KINDS = ("current", "snapshots", "heuristic", "random")
#: The league's kinds that are not an opponent agent (the learner itself, its snapshots).
SELF_KINDS = ("current", "snapshots")
LR_SCHEDULES = ("constant", "linear")
LRSchedule = one_of(LR_SCHEDULES)
#: What ``ppo.gamma`` and ``ppo.gae_lambda`` discount per: each decision of a house (as before
#: issue 39), or each round of the game (``Game.round``: AGoT's round, War of the Ring's turn).
DISCOUNTS = ("decision", "round")
DiscountPer = one_of(DISCOUNTS)
#: What a truncated game (the env cut it before the rules ended it) is worth to each house at
#: its cut: nothing (as before issue 39), the value of its final observation, or the reward the
#: env's scheme would pay if the game had ended as the rules' standing ranks it.
TRUNCATIONS = ("zero", "value", "standing")
Truncation = one_of(TRUNCATIONS)
#: Where the network and its batches live: the CPU, a CUDA GPU, or CUDA when there is one.
DEVICES = ("cpu", "cuda", "auto")
Device = one_of(DEVICES)
#: Env options training does not take: its games run to the end, unrendered.
FORBIDDEN_ENV = {"max_steps": "training games are played to the end (use max_rounds)",
                 "render_mode": "training games are not rendered"}

#: A training config that cannot be run; the message names the key (every experiment's error).
ConfigError = config_files.ConfigError


@schema
class RolloutConfig:
    num_games: Int = Field(24, ge=1, le=MAX_BATCH)   #: games stepped in lockstep
    steps: Int = Field(128, ge=1, le=100_000)   #: lockstep steps per update (num_games * steps)
    workers: Int = Field(2, ge=0, le=MAX_WORKERS)   #: rollout worker processes (0: here)
    #: "local" (processes) or "ray" (Ray actors; the 'ray' extra)
    backend: Backend = "local"
    #: the league's agent opponents (heuristics, random, agent specs) played inside the batched
    #: API's shards (worker processes) instead of this process: every row the learner's
    seats_in_workers: Bool = False


@schema
class PPOConfig:
    gamma: Float = Field(0.99, gt=0, le=1)   #: discount per decision of one house
    gae_lambda: Float = Field(0.95, ge=0, le=1)
    clip: Float = Field(0.2, gt=0, le=1)     #: the clipped objective's epsilon
    epochs: Int = Field(4, ge=1, le=1000)    #: passes over each rollout
    minibatch: Int = Field(512, ge=1, le=MAX_COUNT)   #: decisions per gradient step
    lr: Float = Field(3e-4, gt=0, le=1)
    #: "linear" decays to lr_final_fraction * lr at the last update
    lr_schedule: LRSchedule = "linear"
    lr_final_fraction: Float = Field(0.1, ge=0, le=1)
    entropy: Float = Field(0.01, ge=0, le=10)   #: entropy bonus coefficient
    value_coef: Float = Field(0.5, ge=0, le=100)
    max_grad_norm: Float = Field(0.5, gt=0, le=1e6)
    normalize_advantages: Bool = True
    #: "decision": gamma and lambda apply per decision of a house; "round": per round of the
    #: game (between two decisions of one round the discount is 1; with gamma 1 the return is
    #: the final outcome), docs/training.md
    discount_per: DiscountPer = "decision"
    #: a truncated game's cut: "zero" (no reward, no bootstrap: the default, as every run
    #: before), "value" (bootstrap from the value of each house's final observation) or
    #: "standing" (the reward of the rules' standing at the cut)
    truncation: Truncation = "zero"


@schema
class ShapingConfig:
    """Potential-based shaping from the house's own observation (docs/training.md): AGoT's
    ``Phi = castles * castles_held / castles_to_win + supply * supply_level / 6`` (its training
    hooks, :mod:`got_env.tools.training`), War of the Ring's from progress, corruption and
    points (:mod:`wotr_env.tools.training`); 0 turns a term off. A game's config may set only
    its own game's weights (the others are 0); a game without a potential has none."""

    castles: Float = Field(1.0, ge=-100, le=100)
    supply: Float = Field(0.0, ge=-100, le=100)
    #: War of the Ring's (:mod:`wotr_env.tools.training`): the Ring-bearers' way down the
    #: Mordor Track, their Corruption, the victory points' margin (the Free Peoples gain from
    #: the Track and lose from Corruption, the Shadow the reverse)
    progress: Float = Field(0.0, ge=-100, le=100)
    corruption: Float = Field(0.0, ge=-100, le=100)
    points: Float = Field(0.0, ge=-100, le=100)


#: The shaping weights added by issue 39 (War of the Ring's), left out of a config's plain data
#: at 0, so that an older run's checkpoint still matches its config.
SHAPING_SINCE_39 = ("progress", "corruption", "points")

#: A league weight: a finite number >= 0.
Weight = Float


@schema
class LeagueConfig:
    """Who sits at the other seats of a training game, drawn per game with these weights:
    ``current`` (self-play: every house is the learner), ``snapshots`` (a past copy of the
    learner), ``heuristic``, ``random``, or any opponent the config's ``agents`` names (or an
    agent registry name, ``module:Class``); the learner then plays one house, drawn at
    random."""

    #: kind -> weight (any key: an unknown kind is named by :func:`check`)
    weights: dict[Any, Weight] = field(default_factory=lambda: {
        "current": 0.3, "snapshots": 0.2, "heuristic": 0.1, "random": 0.4})
    snapshot_every: Int = Field(20, ge=1, le=MAX_COUNT)   #: updates between snapshots
    max_snapshots: Int = Field(10, ge=1, le=1000)    #: the oldest is dropped beyond this
    #: the seats (env agent names) the learner may play against a drawn opponent, and plays in
    #: the evaluations (rotated); none: every seat (drawn at random, rotated)
    learner_seats: Names | None = None


@schema
class EvalConfig:
    every: Int = Field(25, ge=1, le=MAX_COUNT)   #: updates between evaluations (and at the end)
    games: Int = Field(60, ge=0, le=MAX_GAMES)   #: per opponent, a multiple of num_players
    opponents: Names = ("random", "heuristic")
    greedy: Bool = False       #: evaluate the most probable action instead of sampling
    workers: Int = Field(0, ge=0, le=MAX_WORKERS)  #: evaluation games' workers (0: here)
    #: the opponents' seats played inside the batched API's shards (the learner's forward
    #: passes alone in this process); greedy evaluations play the same games either way
    seats_in_workers: Bool = False


@schema
class InitConfig:
    """Where the network starts (issue 26: PPO fine-tuning from imitated weights, as DipNet
    and piKL do): ``checkpoint``, a PPO agent file (``agent.pt``, e.g. of
    ``experiments.imitate``) whose network (same spec as ``network:``) is loaded before the
    first update; ``kl``, the weight of KL(policy || the checkpoint's policy) on each
    minibatch, which keeps the fine-tuned policy near the imitated one, decaying linearly to 0
    over ``kl_decay_updates`` updates (0: constant); without a checkpoint, a network with a
    prior (``network.prior``) takes the KL toward the prior's own policy (its network output
    zero: the prior's choice at probability sigmoid(prior_bonus)), piKL's anchor;
    ``value_warmup``, the first updates in
    which only the value head learns (the imitated policy is not pushed around by advantages
    of an untrained value)."""

    checkpoint: Text | None = None
    kl: Float = Field(0.0, ge=0, le=1000)
    kl_decay_updates: Int = Field(0, ge=0, le=MAX_COUNT)
    value_warmup: Int = Field(0, ge=0, le=MAX_COUNT)

    def kl_coef(self, update: int) -> float:
        """The KL weight of update number ``update`` (0-based)."""
        if self.kl_decay_updates == 0:
            return self.kl
        return self.kl * max(0.0, 1.0 - update / self.kl_decay_updates)


@schema
class TrainConfig:
    game: Game   #: the game trained on (required: experiments.config_model.GAMES)
    name: Text = "ppo_selfplay"
    out: Text = "runs/train"
    seed: Int = Field(0, ge=0, le=MAX_SEED)
    updates: Int = Field(200, ge=1, le=MAX_COUNT)   #: the budget: PPO updates (each a rollout)
    env: dict[Text, Any] = field(default_factory=lambda: {"num_players": 3, "max_rounds": 10})
    network: dict[Text, Any] = field(default_factory=lambda: {"kind": "mlp",
                                                              "hidden": [128, 128]})
    rollout: Section[RolloutConfig] = field(default_factory=RolloutConfig)
    ppo: Section[PPOConfig] = field(default_factory=PPOConfig)
    shaping: Section[ShapingConfig] = field(default_factory=ShapingConfig)
    league: Section[LeagueConfig] = field(default_factory=LeagueConfig)
    eval: Section[EvalConfig] = field(default_factory=EvalConfig)
    init: Section[InitConfig] = field(default_factory=InitConfig)
    #: opponents by name: agent specs (agents.make_agent) league.weights and eval.opponents
    #: may name besides heuristic and random
    agents: dict[Text, Any] = field(default_factory=dict)
    checkpoint_every: Int = Field(25, ge=1, le=MAX_COUNT)  #: updates between checkpoints
    #: where the network and its update batches live ("auto": cuda when there is one); the
    #: games and the rollout's forward passes stay on the CPU
    device: Device = "cpu"
    tensorboard: Bool = True
    progress: Bool = True

    @property
    def num_players(self) -> int:
        """The env's ``num_players``, else the game's default (AGoT: the ruleset's largest
        player count, the one default of got_env.engine.options), read here when asked (the
        game's plugin is loaded then, not for ``train --help``)."""
        if self.env.get("num_players") is not None:
            return int(self.env["num_players"])
        return default_num_players(self.game, self.env)

    @property
    def run_dir(self) -> Path:
        return Path(self.out) / self.name

    def as_dict(self) -> dict[str, Any]:
        """The config as plain data, which :func:`parse_config` reads back to an equal one
        (a trainer checkpoint holds it; a resumed run's must be equal, but for updates and
        out)."""
        d = dataclasses.asdict(self)
        d["eval"]["opponents"] = list(self.eval.opponents)
        if not d["agents"]:     # likewise: no opponent specs, as before the key
            del d["agents"]
        if not self.eval.seats_in_workers:  # likewise: as before the key
            del d["eval"]["seats_in_workers"]
        if self.init == InitConfig():  # likewise: trained from scratch, as before the section
            del d["init"]
        for key in SHAPING_SINCE_39:  # likewise: as before War of the Ring's weights
            if not d["shaping"][key]:
                del d["shaping"][key]
        for key in ("discount_per", "truncation"):  # likewise: as before issue 39's keys
            if d["ppo"][key] == PPOConfig.__dataclass_fields__[key].default:
                del d["ppo"][key]
        if d["league"]["learner_seats"] is None:
            del d["league"]["learner_seats"]
        else:
            d["league"]["learner_seats"] = list(d["league"]["learner_seats"])
        if self.device == "cpu":
            del d["device"]
        return d

    @property
    def opponents(self) -> tuple[str, ...]:
        """Every opponent name the league may draw (weight above 0) or the evaluation plays,
        in order, without the league's own kinds (current, snapshots)."""
        names = [k for k, w in self.league.weights.items() if k not in SELF_KINDS and w]
        return tuple(dict.fromkeys([*names, *self.eval.opponents]))


def parse_config(raw: Any, checkpoint_exists: bool = True, **overrides: Any) -> TrainConfig:
    """A checked :class:`TrainConfig` from a YAML mapping; ``overrides`` (``updates``, ``out``,
    ``name``, ``backend``, ``seed``; None: keep) are the command line's, named by their option
    (``--name``) in errors. ``checkpoint_exists=False`` leaves ``init.checkpoint``'s file
    unchecked (a pipeline's imitation stage has yet to write it)."""
    cfg = parse_section(TrainConfig, raw)
    values = {name: parse_key(TrainConfig, name, overrides[name], f"--{name}")
              for name in ("updates", "out", "name", "seed") if overrides.get(name) is not None}
    cfg = dataclasses.replace(cfg, **values)
    if overrides.get("backend") is not None:
        backend = parse_key(RolloutConfig, "backend", overrides["backend"], "--backend")
        cfg = dataclasses.replace(cfg, rollout=dataclasses.replace(cfg.rollout, backend=backend))
    cfg = _shaping_of_the_game(cfg, raw)
    check(cfg, checkpoint_exists)
    return cfg


def _shaping_of_the_game(cfg: TrainConfig, raw: Any) -> TrainConfig:
    """``cfg`` with the weights its game's potential does not read at 0 (so that the run's
    config.yaml says so); ConfigError when its config sets one anyway."""
    own = shaping_weights(cfg.game)
    given = (raw or {}).get("shaping") if isinstance(raw, dict) else None
    foreign = [k for k, v in given.items() if k not in own and v] \
        if isinstance(given, dict) else []
    if foreign and not own:
        raise ConfigError(f"shaping: game {cfg.game!r} has no shaping potential (AGoT's is "
                          f"castles and supply): leave the section out")
    if foreign:
        raise ConfigError(f"shaping: {foreign} are not weights of game {cfg.game!r}'s "
                          f"potential (its: {list(own)})")
    zeros = {k: 0.0 for k in fields_of(ShapingConfig) if k not in own}
    return dataclasses.replace(cfg, shaping=dataclasses.replace(cfg.shaping, **zeros))


def check(cfg: TrainConfig, checkpoint_exists: bool = True) -> None:
    """What no single key's type and range say, with the key in the message: the env and the
    network build, the league's weights, the evaluations fit the houses."""
    _, probe = config_files.check_env(cfg.env, forbidden=FORBIDDEN_ENV, game=cfg.game)
    check_network(cfg.network, cfg.game)
    check_device(cfg.device)
    seats = cfg.league.learner_seats
    if seats is not None:
        agents = list(probe.possible_agents)
        bad = [s for s in seats if s not in agents]
        if bad or not seats or len(set(seats)) != len(seats):
            raise ConfigError(f"league.learner_seats: {bad or list(seats)} must be distinct "
                              f"agents of the env {agents}")
    scheme = getattr(probe, "reward_scheme", "zero_sum")
    if cfg.ppo.truncation == "standing" and scheme not in REWARD_SCHEMES:
        raise ConfigError(f"ppo.truncation: 'standing' pays the env's reward scheme for the "
                          f"standing's ranking, which scheme {scheme!r} does not give (the "
                          f"kit's: {list(REWARD_SCHEMES)}); use 'value'")
    if cfg.init.kl > 0 and cfg.init.checkpoint is None and cfg.network.get("prior") is None:
        raise ConfigError("init.kl: a KL term needs the policy to stay near: give "
                          "init.checkpoint (or a network.prior, whose policy it then is)")
    if checkpoint_exists and cfg.init.checkpoint is not None \
            and not Path(cfg.init.checkpoint).is_file():
        raise ConfigError(f"init.checkpoint: no such file {cfg.init.checkpoint!r}")
    reserved = sorted(set(cfg.agents) & set(LEAGUE_KINDS))
    if reserved:
        raise ConfigError(f"agents: {reserved} name the league's own kinds or baselines; give "
                          f"the opponent another name")
    weights = cfg.league.weights
    unknown = [k for k in weights if k not in LEAGUE_KINDS and not _opponent_name(cfg, k)]
    if unknown:
        raise ConfigError(f"league.weights: unknown kind(s) {key_names(unknown)} (known: "
                          f"{list(LEAGUE_KINDS)})")
    if any(w < 0 for w in weights.values()) or sum(weights.values()) <= 0:
        raise ConfigError(f"league.weights: expected non-negative finite numbers, not all zero, "
                          f"got {weights}")
    if cfg.eval.games % cfg.num_players:
        raise ConfigError(f"eval.games: must be a multiple of env.num_players "
                          f"({cfg.num_players}) so that every house is played as often, got "
                          f"{cfg.eval.games}")
    bad = [o for o in cfg.eval.opponents if o in SELF_KINDS or (
        o not in ("random", "heuristic") and not _opponent_name(cfg, o))]
    if bad:
        raise ConfigError(f"eval.opponents: unknown {bad} (known: random, heuristic, the "
                          f"config's agents, agent registry names, 'module:Class')")
    check_opponents(cfg, probe)


def _opponent_name(cfg: TrainConfig, name: Any) -> bool:
    """``name`` can stand for an opponent agent: the config's ``agents`` names it, or it is an
    agent registry name or a ``module:Class`` (which :func:`check_opponents` then builds)."""
    if not isinstance(name, str):
        return False
    if name in cfg.agents or ":" in name:
        return True
    from agents import REGISTRY  # the agents: not for train --help (tests/test_train_cli.py)

    return name in REGISTRY


def check_opponents(cfg: TrainConfig, probe: Any) -> None:
    """Build every opponent the run can meet once, on the config's env, so that a bad spec or
    a game without a heuristic fails now, naming the key, not in the middle of a run. AGoT's
    own baselines are built by its hooks (they always build)."""
    for name in cfg.opponents:
        if name in BASELINES and baseline(cfg.game, name, 0, cfg.env) is not None:
            continue
        key = f"agents.{name}" if name in cfg.agents else f"opponent {name!r}"
        try:
            from agents import make_agent  # the agents: not for train --help

            make_agent(opponent_spec(cfg.game, name, cfg.agents), env=probe, seed=0)
        except ValueError as e:  # AgentSpecError, or a game without a heuristic
            raise ConfigError(f"{key}: {config_files.one_line(str(e))}") from None


def check_device(device: str, key: str = "device") -> None:
    """``device: cuda`` needs a GPU torch can use: ConfigError naming the key otherwise."""
    if device != "cuda":
        return
    import torch  # only when a config asks for a GPU

    if not torch.cuda.is_available():
        raise ConfigError(f"{key}: 'cuda' asked for, but torch.cuda.is_available() is False on "
                          f"this machine (torch {torch.__version__}): use 'cpu' or 'auto'")


def check_network(network: dict[str, Any], game: str) -> None:
    """The ``network`` spec is one :func:`agents.ppo.build_network` builds for ``game``."""
    from agents.ppo import check_network_spec, game_networks  # torch: once a config is checked

    try:
        check_network_spec(network)
    except ValueError as e:  # its messages name the key (network.hidden: ...)
        raise ConfigError(str(e)) from None
    if network.get("kind", "mlp") != "mlp" and game_networks(game) is None:
        raise ConfigError(f"network.kind: {network['kind']!r} is built on a game's board "
                          f"layout, which game {game!r} does not give (use kind: mlp)")


def config_outline() -> str:
    """The config's keys, one line each, for ``--help``: a value with its default (or what a
    required key takes), a section with its keys. Read off the schema, so that it never
    disagrees with the parser."""
    sections = sections_of(TrainConfig)
    lines = []
    for name, f in fields_of(TrainConfig).items():
        if name in sections:
            head = f"{name}:"
            text = ", ".join(fields_of(sections[name]))
        elif f.is_required():
            head, text = name, f"required: one of {list(typing.get_args(f.annotation))}"
        else:
            default = f.get_default(call_default_factory=True)
            shown = yaml.safe_dump(default, default_flow_style=True,
                                   sort_keys=False).strip().removesuffix("\n...").strip()
            head, text = name, f"default {shown}"
        lines.append(textwrap.fill(text, width=79, initial_indent=f"  {head:<17} ",
                                   subsequent_indent=" " * 20))
    return "\n".join(lines)


def load_config(path: str | Path, checkpoint_exists: bool = True, **overrides: Any
                ) -> TrainConfig:
    """Read and check a YAML training config; every error names the file (and the key). The
    file is read as every experiment's config is (:func:`experiments.config_files.read_config`)."""
    return config_files.read_config(
        path, lambda raw: parse_config(raw, checkpoint_exists, **overrides))
