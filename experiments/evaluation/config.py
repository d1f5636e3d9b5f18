"""The evaluation suite's config: the YAML file's keys as a typed section
(experiments.config_model), then the checks across keys (the candidate and the opponents
resolved, each line-up the game's seat count, the seeds inside the range reserved for
evaluation, enough games a line-up) into the :class:`SuiteConfig` the games are played from."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from agents import AgentSpec

from ..config_files import ConfigError, read_config
from ..config_model import (
    MAX_WORKERS,
    Field,
    Folder,
    Game,
    Int,
    Section,
    Text,
    parse_section,
    schema,
)
from ..tournament.config import (
    FOLDER_NAME,
    FORBIDDEN_ENV,
    Config,
    canonical_agents,
    check_agent,
    check_game_env,
    check_name,
    file_sha256,
)

#: The deal seeds every suite draws from, and no training code by default: imitation's games
#: are ``seed * 1,000,000 + g`` (its evaluations ``+ 500,000``), the trainer's games count up
#: from its seed and its evaluations start at ``seed + 1,000,003``, the pipeline's final
#: evaluation at 7,000,000. A suite whose seeds leave this range is refused.
EVAL_SEEDS = range(900_000, 1_000_000)
#: The fewest games a line-up may have unless the config lowers ``min_games`` (a smoke test):
#: the issue's bar for a figure.
MIN_GAMES = 300
#: The name the candidate's seat has in the records (``lineup``, ``seats``, ``winner_agent``).
CANDIDATE = "candidate"


@schema
class SeedRange:
    """The deal seeds, set in the file: ``first``, ``first + 1``, ..., ``count`` of them."""

    first: Int = Field(ge=0)
    count: Int = Field(ge=1, le=10_000)


@schema
class SuiteFile:
    """The keys of a suite config file, as written (:mod:`experiments.evaluate` says each).
    ``candidate``, ``opponents`` and ``lineups`` are judged by :func:`parse_suite`."""

    game: Game
    name: Text | None = None            # default: the config file's name
    out: Folder = Path("runs/eval")
    env: dict[Text, Any] | None = None
    candidate: Any = None               # default candidate; --candidate replaces it
    opponents: Any = None               # name -> agent spec
    lineups: Any = None                 # line-up name -> opponent names, num_players - 1
    seeds: Section[SeedRange]
    min_games: Int = Field(MIN_GAMES, ge=1)
    workers: Int = Field(1, ge=0, le=MAX_WORKERS)


@dataclass(frozen=True)
class SuiteConfig:
    """A checked suite for one candidate. ``tournament`` is the same games as a tournament
    config (agents ``candidate`` plus the opponents, one line-up per suite line-up with the
    candidate in seat 0): the suite plays through the tournament's machinery."""

    name: str
    label: str                           # the candidate's run folder: <out>/<name>/<label>
    game: str
    env: dict[str, Any]
    candidate: Any                       # the candidate's spec as written (JSON-able)
    opponents: dict[str, Any]
    lineups: dict[str, tuple[str, ...]]  # line-up name -> opponents, seats 1..n-1
    seeds: tuple[int, ...]
    houses: tuple[str, ...]
    workers: int
    tournament: Config = field(compare=False, repr=False)

    @property
    def run_dir(self) -> Path:
        return self.tournament.run_dir

    @property
    def num_players(self) -> int:
        return len(self.houses)

    def identity(self) -> dict[str, Any]:
        """What the games of a run folder depend on: a rerun with any of it changed is refused."""
        return json.loads(json.dumps({
            "game": self.game, "env": self.env,
            "candidate": canonical_agents({CANDIDATE: self.candidate})[CANDIDATE],
            "opponents": canonical_agents(self.opponents),
            "lineups": {k: list(v) for k, v in self.lineups.items()},
            "seeds": [self.seeds[0], len(self.seeds)],
            "checkpoints": self.tournament.checkpoints}))


def parse_candidate(text: str) -> Any:
    """``--candidate``: a registry name (``heuristic_v2``), ``module:Class``, or a YAML/JSON
    mapping (``{checkpoint: runs/x/agent.pt}``), as the config's ``candidate`` key takes."""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConfigError(f"--candidate {text!r} is neither an agent name nor a YAML mapping "
                          f"({e})") from None
    return text if value is None or isinstance(value, (int, float, bool)) else value


def candidate_label(raw: Any, spec: AgentSpec) -> str:
    """A folder name for the candidate: its registry name; a checkpoint's folder and stem
    (``run0-agent``); else ``candidate-`` and a digest of its canonical spec."""
    if isinstance(raw, str) and FOLDER_NAME.fullmatch(raw):
        return raw
    if spec.checkpoint is not None:
        path = Path(spec.checkpoint)
        label = f"{path.parent.name}-{path.stem}" if path.parent.name else path.stem
        label = re.sub(r"[^A-Za-z0-9._-]", "_", label).lstrip("._-")
        if label:
            return label
    digest = hashlib.sha256(json.dumps(spec.to_dict(), sort_keys=True).encode()).hexdigest()
    return f"candidate-{digest[:10]}"


def _seeds(file: SuiteFile, n: int) -> tuple[int, ...]:
    first, count = file.seeds.first, file.seeds.count
    if first < EVAL_SEEDS.start or first + count > EVAL_SEEDS.stop:
        raise ConfigError(f"seeds {first}..{first + count - 1} overlap the seeds training "
                          f"uses: a suite's seeds must lie in {EVAL_SEEDS.start:,}.."
                          f"{EVAL_SEEDS.stop - 1:,} (experiments.evaluation.config.EVAL_SEEDS)")
    if count * n < file.min_games:
        raise ConfigError(f"seeds.count: too few seeds: {count} seed(s) x {n} seatings = "
                          f"{count * n} games a line-up, fewer than min_games {file.min_games}")
    return tuple(range(first, first + count))


def _lineups(raw: Any, opponents: dict[str, Any], n: int) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, dict) or not raw:
        raise ConfigError("lineups must be a non-empty mapping: line-up name -> the opponents' "
                          f"names ({n - 1} for the game's {n} seats)")
    lineups = {}
    for key, names in raw.items():
        if not isinstance(key, str) or not key.strip():
            raise ConfigError(f"lineups: a line-up must be named by a string, got {key!r}")
        if not isinstance(names, list) or not all(isinstance(a, str) for a in names):
            raise ConfigError(f"lineups.{key} must be a list of opponent names, got {names!r}")
        if len(names) != n - 1:
            raise ConfigError(f"lineups.{key} has {len(names)} opponent(s) but the game has "
                              f"{n} seats: a line-up names {n - 1} (the candidate takes the "
                              f"other)")
        unknown = [a for a in names if a not in opponents]
        if unknown:
            raise ConfigError(f"lineups.{key} names unknown opponents {unknown}; opponents: "
                              f"{list(opponents)}")
        lineups[key] = tuple(names)
    return lineups


def parse_suite(raw: Any, *, default_name: str = "suite", candidate: Any = None,
                label: str | None = None, workers: int | None = None,
                out: str | Path | None = None) -> SuiteConfig:
    """Validate a suite mapping (as read from YAML) with the command line's overrides
    (``candidate``: a spec that replaces the file's)."""
    if isinstance(raw, dict):
        over = {"candidate": candidate, "workers": workers,
                "out": None if out is None else str(out)}
        raw = {**raw, **{k: v for k, v in over.items() if v is not None}}
    file = parse_section(SuiteFile, raw)
    name = check_name(file.name if file.name is not None else default_name)
    env, probe = check_game_env(file.game, file.env, forbidden=FORBIDDEN_ENV)
    houses = tuple(probe.possible_agents)
    n = len(houses)
    if file.candidate is None:
        raise ConfigError("candidate: no candidate (give one in the file or --candidate SPEC)")
    cand_raw, cand_spec = check_agent(CANDIDATE, file.candidate)
    if not isinstance(file.opponents, dict) or not file.opponents:
        raise ConfigError("opponents must be a non-empty mapping: name -> agent spec")
    if CANDIDATE in file.opponents:
        raise ConfigError(f"opponents: {CANDIDATE!r} is the candidate's name; name the "
                          f"opponent otherwise")
    checked = {a: check_agent(f"opponents.{a}", s) for a, s in file.opponents.items()}
    opponents = {a: r for a, (r, _) in checked.items()}
    lineups = _lineups(file.lineups, opponents, n)
    seeds = _seeds(file, n)
    label = check_name(label if label is not None else candidate_label(cand_raw, cand_spec))

    agents = {CANDIDATE: cand_raw, **opponents}
    specs = {CANDIDATE: cand_spec, **{a: s for a, (_, s) in checked.items()}}
    used = {a for lu in lineups.values() for a in lu} | {CANDIDATE}
    checkpoints = {a: file_sha256(s.checkpoint_path()) for a, s in specs.items()
                   if a in used and s.checkpoint is not None}
    tournament = Config(name=label, out=file.out / name, env=dict(env), agents=agents,
                        lineups=tuple((CANDIDATE, *lu) for lu in lineups.values()),
                        games=len(seeds) * n, seed=0, workers=file.workers, houses=houses,
                        game=file.game, specs=specs, checkpoints=checkpoints, time_seats=True)
    return SuiteConfig(name=name, label=label, game=file.game, env=dict(env), candidate=cand_raw,
                       opponents=opponents, lineups=lineups, seeds=seeds, houses=houses,
                       workers=file.workers, tournament=tournament)


def load_suite(path: str | Path, **overrides: Any) -> SuiteConfig:
    """Read and validate a suite's YAML file (its name by default the file's stem); every
    error is a ConfigError naming the file."""
    return read_config(path, lambda raw: parse_suite(raw, default_name=Path(path).stem,
                                                     **overrides))
