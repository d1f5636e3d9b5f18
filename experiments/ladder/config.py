"""The ladder's config: rungs (agent specs by name), pairwise matches, and each match as a
tournament config (experiments.tournament.config.Config), so that the tournament plays, records and
resumes its games."""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents import AgentSpec, AgentSpecError
from boardkit.envs import make_env

from .. import game_hooks
from ..config_files import ConfigError, check_env, read_config
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
    Names,
    Text,
    parse_key,
    parse_section,
    schema,
)
from ..tournament import config as tournament_config

DEFAULT_CONFIG = Path(__file__).resolve().parents[2] / "configs" / "ladder.yaml"
MATCHES_DIR = "matches"


@schema
class LadderFile:
    """The keys of a ladder config file, as written; ``rungs`` and ``pairs`` are judged by
    :func:`parse_config` (a rung holds an agent spec, a pair names rungs)."""

    game: Game                          # required: any game of the registry (boardkit.games)
    name: Text | None = None            # default: the config file's name
    out: Folder = Path("runs/ladder")
    env: dict[Text, Any] | None = None
    rungs: Any = None
    pairs: list[Any] | None = None
    games: Int = Field(30, ge=1, le=MAX_GAMES)
    seed: Int = Field(0, ge=0, le=MAX_SEED)
    workers: Int = Field(0, ge=0, le=MAX_WORKERS)
    backend: Backend = "local"


@schema
class RungKeys:
    """The keys of a rung mapping that are the ladder's, not the agent spec's."""

    optional: Bool = False
    requires: Any = None                # a file path or a list of them
    games: Int | None = Field(None, ge=1, le=MAX_GAMES)


@schema
class PairFile:
    """One entry of ``pairs``: the games per line-up of one pair's match."""

    rungs: Names
    games: Int = Field(ge=1, le=MAX_GAMES)


@dataclass(frozen=True)
class Rung:
    name: str
    spec: Any                   # the agent spec as written, without the rung keys (JSON-able)
    optional: bool = False
    requires: tuple[str, ...] = ()   # files an optional rung needs (missing: it is skipped)
    games: int | None = None    # games per line-up of its matches (the smaller of two wins)


@dataclass(frozen=True)
class Match:
    a: str                      # the earlier rung in the config
    b: str
    tournament: tournament_config.Config        # line-ups [a, b, b, ...] and [b, a, a, ...]

    @property
    def name(self) -> str:
        return self.tournament.name

    @property
    def games(self) -> int:
        return self.tournament.games


@dataclass(frozen=True)
class LadderConfig:
    name: str
    out: Path
    env: dict[str, Any]
    houses: tuple[str, ...]
    max_rounds: int                          # 0: the game has no round limit
    rungs: tuple[Rung, ...]                  # the rungs that play, in config order
    skipped: tuple[tuple[str, str], ...]     # (rung, why) of optional rungs left out
    matches: tuple[Match, ...]
    games: int
    seed: int
    workers: int
    backend: str
    only: tuple[str, ...] | None = None
    notes: tuple[str, ...] = ()
    game: str = field(kw_only=True)          # the game played (experiments.config_model.GAMES)

    @property
    def run_dir(self) -> Path:
        return self.out / self.name

    @property
    def num_players(self) -> int:
        return len(self.houses)

    @property
    def rung_names(self) -> list[str]:
        return [r.name for r in self.rungs]

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "name": self.name, "out": str(self.out), "env": self.env,
                "houses": list(self.houses), "seed": self.seed, "games": self.games,
                "workers": self.workers, "backend": self.backend,
                "rungs": {r.name: r.spec for r in self.rungs},
                "skipped": [{"rung": r, "why": w} for r, w in self.skipped],
                "only": list(self.only) if self.only else None,
                "matches": [{"name": m.name, "rungs": [m.a, m.b], "games_per_lineup": m.games,
                             "lineups": [list(lu) for lu in m.tournament.lineups],
                             "seed": m.tournament.seed} for m in self.matches]}


def match_seed(seed: int, a: str, b: str) -> int:
    """A match's tournament seed: from the ladder's seed and the two rung names alone, so that
    adding or removing a rung leaves the other matches (and their run folders) as they are."""
    crc = [zlib.crc32(a.encode()), zlib.crc32(b.encode())]
    return int(np.random.SeedSequence([seed, *crc]).generate_state(1, np.uint32)[0])


def lineups(a: str, b: str, n: int) -> list[list[str]]:
    """Each rung alone against n - 1 copies of the other."""
    return [[a] + [b] * (n - 1), [b] + [a] * (n - 1)]


def _required_files(spec: Any, requires: tuple[str, ...]) -> list[Path]:
    """The files an optional rung needs: ``requires``, else its spec's checkpoint, else for the
    registry's ``ppo`` (which plays the shipped checkpoint) that checkpoint."""
    if requires:
        return [Path(p).expanduser() for p in requires]
    parsed = AgentSpec.parse(spec)
    if parsed.checkpoint is not None:
        return [Path(parsed.checkpoint).expanduser()]
    if parsed.name == "ppo" and "checkpoint" not in parsed.kwargs:
        from agents.ppo import SHIPPED_CHECKPOINT  # torch: only for a ppo rung

        return [SHIPPED_CHECKPOINT]
    return []


def _parse_rung(name: Any, raw: Any) -> Rung:
    if (not isinstance(name, str) or not tournament_config.FOLDER_NAME.fullmatch(name)
            or "__" in name):
        raise ConfigError(f"rungs: a rung name must be a folder name (letters, digits, . _ -, "
                          f"no '__'), got {name!r}")
    key = f"rungs.{name}"
    if raw is None:
        raise ConfigError(f"{key}: no agent spec (a registry name such as 'random', "
                          f"'module:Class', or a mapping with 'name', 'kwargs', 'checkpoint')")
    if isinstance(raw, str):
        return Rung(name, raw)
    if not isinstance(raw, dict):
        raise ConfigError(f"{key}: an agent spec is a name or a mapping, got {raw!r}")
    raw = dict(raw)
    own = parse_section(RungKeys, {k: raw.pop(k) for k in ("optional", "requires", "games")
                                   if k in raw}, key)
    req = [own.requires] if isinstance(own.requires, str) else own.requires
    if req is not None and (not isinstance(req, list) or not req
                            or not all(isinstance(p, str) and p for p in req)):
        raise ConfigError(f"{key}.requires must be a file path or a list of them, got {req!r}")
    return Rung(name, raw, own.optional, tuple(req or ()), own.games)


def _check_rung(rung: Rung, env: dict[str, Any], game: str) -> None:
    """Check the spec and build the agent once for a fresh game, so that an unknown name, bad
    kwargs or an unknown rollout policy fail before any game is played."""
    key = f"rungs.{rung.name}"
    try:
        spec = AgentSpec.parse(rung.spec).check()
        spec.build(env=make_env(game, **env), seed=0)
    except AgentSpecError as e:
        raise ConfigError(f"{key}: {e}") from None
    except Exception as e:  # the agent's own constructor failed in another way
        raise ConfigError(f"{key}: building the agent failed: {type(e).__name__}: {e}") from None


def parse_config(raw: Any, *, default_name: str = "ladder", games: int | None = None,
                 workers: int | None = None, out: str | Path | None = None,
                 name: str | None = None, backend: str | None = None,
                 only: list[str] | None = None) -> LadderConfig:
    """Validate a ladder config (as read from YAML) with the command line's overrides; every
    error names its key."""
    overrides = {"workers": workers, "name": name, "backend": backend,
                 "out": None if out is None else str(out)}
    if isinstance(raw, dict):
        raw = {**raw, **{k: v for k, v in overrides.items() if v is not None}}
    file = parse_section(LadderFile, raw)
    name = tournament_config.check_name(file.name if file.name is not None else default_name)
    out, seed, workers = file.out, file.seed, file.workers
    backend = tournament_config.check_ray(file.backend)

    env, probe = check_env(file.env, forbidden=tournament_config.FORBIDDEN_ENV, game=file.game)
    houses = tuple(probe.possible_agents)
    max_rounds = game_hooks.max_rounds(file.game, probe)
    n = len(houses)

    default_games = file.games
    if games is not None:
        games = parse_key(LadderFile, "games", games, "--games")

    rungs_raw = file.rungs
    if not isinstance(rungs_raw, dict) or len(rungs_raw) < 2:
        raise ConfigError("rungs must be a mapping of at least two rungs: name -> agent spec "
                          "(plus optional, requires, games)")
    rungs: list[Rung] = []
    skipped: list[tuple[str, str]] = []
    for rname, rraw in rungs_raw.items():
        rung = _parse_rung(rname, rraw)
        if rung.optional:
            try:
                missing = [p for p in _required_files(rung.spec, rung.requires)
                           if not p.is_file()]
            except AgentSpecError as e:
                raise ConfigError(f"rungs.{rname}: {e}") from None
            if missing:
                skipped.append((rname, "optional rung skipped: "
                                + ", ".join(f"{p} not found" for p in missing)))
                continue
        rungs.append(rung)

    if only is not None:
        names = list(dict.fromkeys(only))
        known = {r.name for r in rungs}
        for o in names:
            if o in dict(skipped):
                raise ConfigError(f"--only names {o!r}, which is skipped ({dict(skipped)[o]})")
            if o not in known:
                raise ConfigError(f"--only names {o!r}, not a rung; rungs: {sorted(known)}")
        if len(names) < 2:
            raise ConfigError(f"--only needs at least two rungs, got {names}")
        rungs = [r for r in rungs if r.name in names]
    if len(rungs) < 2:
        raise ConfigError(f"fewer than two rungs to play ({[r.name for r in rungs]}; "
                          f"skipped: {dict(skipped)})")
    for rung in rungs:
        _check_rung(rung, env, file.game)

    pair_games: dict[frozenset[str], int] = {}
    for i, p in enumerate(file.pairs or []):
        key = f"pairs[{i}]"
        pair = parse_section(PairFile, p, key)
        pr = list(pair.rungs)
        if len(pr) != 2 or len(set(pr)) != 2:
            raise ConfigError(f"{key}.rungs must be two different rung names, got {pr!r}")
        bad = [a for a in pr if a not in rungs_raw]
        if bad:
            raise ConfigError(f"{key}.rungs names unknown rungs {bad}; rungs: {list(rungs_raw)}")
        if frozenset(pr) in pair_games:
            raise ConfigError(f"{key}: the pair {pr} is given twice")
        pair_games[frozenset(pr)] = pair.games

    matches: list[Match] = []
    notes: list[str] = []
    for i, ra in enumerate(rungs):
        for rb in rungs[i + 1:]:
            if games is not None:
                g = games
            elif frozenset((ra.name, rb.name)) in pair_games:
                g = pair_games[frozenset((ra.name, rb.name))]
            else:
                caps = [r.games for r in (ra, rb) if r.games is not None]
                g = min(caps) if caps else default_games
            mraw = {"game": file.game, "name": f"{ra.name}__{rb.name}",
                    "out": str(out / name / MATCHES_DIR),
                    "env": dict(env), "agents": {ra.name: ra.spec, rb.name: rb.spec},
                    "lineups": lineups(ra.name, rb.name, n), "games": g,
                    "seed": match_seed(seed, ra.name, rb.name), "workers": workers}
            try:
                tcfg = tournament_config.parse_config(mraw, backend=backend)
            except ConfigError as e:
                raise ConfigError(f"match {ra.name} vs {rb.name}: {e}") from None
            notes += [note for note in tcfg.notes if note not in notes]
            matches.append(Match(ra.name, rb.name, tcfg))
    return LadderConfig(name=name, out=out, env=dict(env), houses=houses, max_rounds=max_rounds,
                        rungs=tuple(rungs), skipped=tuple(skipped), matches=tuple(matches),
                        games=games if games is not None else default_games, seed=seed,
                        workers=workers, backend=backend,
                        only=tuple(only) if only is not None else None, notes=tuple(notes),
                        game=file.game)


def load_config(path: str | Path, **overrides: Any) -> LadderConfig:
    """Read and validate a YAML ladder config (run folder name by default the file's stem);
    ``overrides``: games, workers, out, name, backend, only. Every error is a ConfigError naming
    the file."""
    return read_config(path, lambda raw: parse_config(raw, default_name=Path(path).stem,
                                                      **overrides))
