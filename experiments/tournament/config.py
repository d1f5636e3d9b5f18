"""The tournament's config: the YAML file's keys as a typed section (checked by
experiments.config_model), then the checks across keys (line-ups against agents and seats, every
agent spec resolved, checkpoints hashed) into the :class:`Config` the games are played from."""

from __future__ import annotations

import hashlib
import importlib.util
import itertools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents import AgentSpec, AgentSpecError
from boardkit.envs import make_env
from boardkit.vector_ray import RAY_MISSING

from ..config_files import ConfigError, read_config
from ..config_model import (
    MAX_GAMES,
    MAX_SEED,
    MAX_WORKERS,
    Backend,
    Bool,
    Field,
    Folder,
    Game,
    Int,
    Text,
    parse_section,
    schema,
)

DEFAULT_CONFIG = Path(__file__).resolve().parents[2] / "configs" / "tournament.yaml"
#: Env options a tournament does not take: games are always played to the end, unrendered.
FORBIDDEN_ENV = {"max_steps": "tournament games are played to the end (use max_rounds)",
                 "render_mode": "tournament games are not rendered"}
#: A run folder's name: one path component.
FOLDER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


@schema
class TournamentFile:
    """The keys of a tournament config file, as written; :func:`parse_config` makes a
    :class:`Config` of them. ``agents``, ``lineups`` and ``round_robin`` are judged there (their
    checks need the agents and the seats)."""

    game: Game                          # required: any game of the registry (boardkit.games)
    name: Text | None = None            # default: the config file's name
    out: Folder = Path("runs/tournament")
    env: dict[Text, Any] | None = None
    agents: Any = None
    lineups: Any = None
    round_robin: Any = False
    games: Int | None = Field(None, ge=1, le=MAX_GAMES)   # per line-up; default: num_players
    seed: Int = Field(0, ge=0, le=MAX_SEED)
    workers: Int = Field(1, ge=0, le=MAX_WORKERS)
    backend: Backend = "local"
    replays: Bool = False


@dataclass(frozen=True)
class Config:
    name: str
    out: Path
    env: dict[str, Any]
    agents: dict[str, Any]              # name -> agent spec as written (JSON-able)
    lineups: tuple[tuple[str, ...], ...]
    games: int
    seed: int
    workers: int
    houses: tuple[str, ...]             # the houses in play, in data order
    backend: str = "local"              # how games run (BACKENDS); not part of their identity
    game: str = field(kw_only=True, compare=False)   # the game played (GAMES): required
    notes: tuple[str, ...] = field(default=(), compare=False)
    #: write each game's replay page (experiments.replay) to <run_dir>/replays; not part of the
    #: games' identity.
    replays: bool = field(default=False, compare=False)
    #: time each seat's ``act`` calls into the record's ``seat_seconds`` (the evaluation suite
    #: asks for it); not part of the games' identity.
    time_seats: bool = field(default=False, compare=False)
    #: name -> the checked spec, resolved (a checkpoint-only spec knows its class): what games
    #: are built from, in the main process and in workers.
    specs: dict[str, AgentSpec] = field(default_factory=dict, compare=False)
    #: name -> SHA-256 of the agent's checkpoint file, for agents with one.
    checkpoints: dict[str, str] = field(default_factory=dict)

    @property
    def num_players(self) -> int:
        return len(self.houses)

    @property
    def run_dir(self) -> Path:
        return self.out / self.name

    @property
    def agent_names(self) -> list[str]:
        """The agents that sit in some line-up, in config order."""
        used = {a for lu in self.lineups for a in lu}
        return [a for a in self.agents if a in used]

    def identity(self) -> dict[str, Any]:
        """What the games of a run folder depend on besides their line-up and seed (the
        checkpoints' digests only where there are any, so older run folders still match)."""
        ident = {"env": self.env, "agents": self.agents, "seed": self.seed}
        if self.checkpoints:
            ident["checkpoints"] = self.checkpoints
        return ident

    def agent_spec(self, name: str) -> AgentSpec:
        """The agent's checked spec (parsed again for a Config built by hand without specs)."""
        spec = self.specs.get(name)
        return spec if spec is not None else AgentSpec.parse(self.agents[name])

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "out": str(self.out), "env": self.env, "agents": self.agents,
                "lineups": [list(lu) for lu in self.lineups], "games": self.games,
                "seed": self.seed, "workers": self.workers, "backend": self.backend,
                "houses": list(self.houses), "game": self.game,
                **({"replays": True} if self.replays else {})}


def check_agent(where: str, raw: Any) -> tuple[Any, AgentSpec]:
    """The spec as written (JSON-able, for config.json) and checked and resolved, or a
    ConfigError naming the key path ``where`` (``agents.x``) and what is wrong with its spec."""
    if raw is None:
        raise ConfigError(f"{where}: no spec (a registry name such as 'random', "
                          f"'module:Class', or a mapping with 'name', 'kwargs', 'checkpoint')")
    try:
        spec = AgentSpec.parse(raw).check()
    except AgentSpecError as e:
        raise ConfigError(f"{where}: {e}") from e
    if isinstance(raw, AgentSpec):
        raw = raw.to_dict()
    elif isinstance(raw, dict):
        raw = dict(raw)
    return raw, spec


def file_sha256(path: Path) -> str:
    """A file's SHA-256, read in blocks (a checkpoint's, to tell a changed one)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def canonical_agents(agents: Any) -> Any:
    """The agents mapping with each spec in its canonical form, for comparing run folders;
    a spec that does not parse is kept as written."""
    if not isinstance(agents, dict):
        return agents
    out = {}
    for name, raw in agents.items():
        try:
            out[name] = AgentSpec.parse(raw).to_dict()
        except AgentSpecError:
            out[name] = raw
    return json.loads(json.dumps(out))


def round_robin_lineups(names: list[str], n: int) -> list[tuple[str, ...]]:
    """Every combination of ``n`` of ``names``; with fewer names than seats, every multiset of
    size ``n`` that uses each name at least once (repetition only as needed)."""
    if len(names) >= n:
        return list(itertools.combinations(names, n))
    return [c for c in itertools.combinations_with_replacement(names, n) if set(c) == set(names)]


def check_name(name: Any) -> str:
    """A run folder name (the tournament's and the ladder's): one path component."""
    if not isinstance(name, str) or not FOLDER_NAME.fullmatch(name):
        raise ConfigError(f"name must be a folder name (letters, digits, . _ -), got {name!r}")
    return name


def check_ray(backend: str) -> str:
    """For ``backend: ray``, the package must be installed: checked before any game."""
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise ConfigError(f"backend: ray: {RAY_MISSING}")
    return backend


def check_game_env(game: str, value: Any, key: str = "env",
                   forbidden: dict[str, str] | None = None) -> tuple[dict[str, Any], Any]:
    """The ``env`` mapping of the game's env options (none: the defaults) and a throw-away env
    of them (:func:`boardkit.envs.make_env`), so that a bad option fails before any game and
    the caller learns the seats (``possible_agents``); ``forbidden``: option -> why the caller
    does not take it."""
    env = {} if value is None else value
    if not isinstance(env, dict):
        raise ConfigError(f"{key} must be a mapping of {game} env options, got {env!r}")
    for option, why in (forbidden or {}).items():
        if option in env:
            raise ConfigError(f"{key}.{option} is not allowed: {why}")
    try:
        return dict(env), make_env(game, **env)
    except (TypeError, ValueError) as e:   # AGoT's OptionError is a ValueError
        raise ConfigError(f"{key}: {e}") from None


def _lineups(file: TournamentFile, agents: dict[str, Any], n: int) -> list[tuple[str, ...]]:
    """The line-ups: as listed (each n known agents), or every round-robin combination."""
    lineups_raw, rr = file.lineups, file.round_robin
    if lineups_raw is not None and rr not in (False, None):
        raise ConfigError("give either lineups or round_robin, not both")
    if rr not in (False, None):
        if rr is True:
            pool = list(agents)
        elif isinstance(rr, list) and rr and all(isinstance(a, str) for a in rr):
            pool = list(dict.fromkeys(rr))
        else:
            raise ConfigError(f"round_robin must be true or a list of agent names, got {rr!r}")
        missing = [a for a in pool if a not in agents]
        if missing:
            raise ConfigError(f"round_robin names unknown agents {missing}; "
                              f"agents: {list(agents)}")
        return round_robin_lineups(pool, n)
    if not isinstance(lineups_raw, list) or not lineups_raw:
        raise ConfigError("lineups must be a non-empty list of lists of agent names "
                          "(or set round_robin: true)")
    lineups = []
    for i, lu in enumerate(lineups_raw):
        if not isinstance(lu, list) or not all(isinstance(a, str) for a in lu):
            raise ConfigError(f"lineups[{i}] must be a list of agent names, got {lu!r}")
        if len(lu) != n:
            raise ConfigError(f"lineups[{i}] {lu} has {len(lu)} agents but the game has "
                              f"num_players={n} seats")
        bad = [a for a in lu if a not in agents]
        if bad:
            raise ConfigError(f"lineups[{i}] names unknown agents {bad}; "
                              f"agents: {list(agents)}")
        lineups.append(tuple(lu))
    return lineups


def parse_config(raw: Any, *, default_name: str = "tournament", games: int | None = None,
                 workers: int | None = None, out: str | Path | None = None,
                 name: str | None = None, backend: str | None = None) -> Config:
    """Validate a config mapping (as read from YAML) with optional command-line overrides."""
    overrides = {"games": games, "workers": workers, "name": name, "backend": backend,
                 "out": None if out is None else str(out)}
    if isinstance(raw, dict):
        raw = {**raw, **{k: v for k, v in overrides.items() if v is not None}}
    file = parse_section(TournamentFile, raw)
    notes: list[str] = []
    name = check_name(file.name if file.name is not None else default_name)

    env, probe = check_game_env(file.game, file.env, forbidden=FORBIDDEN_ENV)
    houses = tuple(probe.possible_agents)
    n = len(houses)

    if not isinstance(file.agents, dict) or not file.agents:
        raise ConfigError("agents must be a non-empty mapping: name -> agent spec (a registry "
                          "name such as 'random', 'module:Class', or {name: ..., kwargs: ...})")
    for a in file.agents:
        if not isinstance(a, str) or not a.strip():
            raise ConfigError(f"agents must be named by non-empty strings, got {a!r}")
    checked = {a: check_agent(f"agents.{a}", spec) for a, spec in file.agents.items()}
    agents = {a: r for a, (r, _) in checked.items()}
    specs = {a: s for a, (_, s) in checked.items()}
    lineups = _lineups(file, agents, n)
    unused = [a for a in agents if not any(a in lu for lu in lineups)]
    if unused:
        notes.append(f"agents in no line-up (left out of the results): {unused}")

    games = file.games if file.games is not None else n
    if games % n:
        notes.append(f"games per line-up ({games}) is not a multiple of num_players ({n}): "
                     f"agents do not play every house equally often")
    used = {a for lu in lineups for a in lu}
    checkpoints = {a: file_sha256(s.checkpoint_path()) for a, s in specs.items()
                   if a in used and s.checkpoint is not None}
    return Config(name=name, out=file.out, env=dict(env), agents=agents, lineups=tuple(lineups),
                  games=games, seed=file.seed, workers=file.workers, houses=houses,
                  backend=check_ray(file.backend), game=file.game, notes=tuple(notes),
                  replays=file.replays, specs=specs,
                  checkpoints=checkpoints)


def load_config(path: str | Path, **overrides: Any) -> Config:
    """Read and validate a YAML config (run folder name by default the file's stem);
    ``overrides``: games, workers, out, name, backend. Every error is a ConfigError naming the
    file."""
    return read_config(path, lambda raw: parse_config(raw, default_name=Path(path).stem,
                                                      **overrides))
