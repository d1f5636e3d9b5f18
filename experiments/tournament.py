"""A round-robin tournament between agents: line-ups of agents play N games each, houses rotated,
in parallel worker processes or Ray tasks; win rates, castles, ranks and openskill ratings per
agent and house.

    python -m experiments.tournament --config configs/tournament.yaml
    python -m experiments.tournament --config configs/tournament.yaml --games 30 --workers 8
    python -m experiments.tournament --config configs/tournament.yaml --backend ray

Config (YAML)::

    name: heuristic_vs_random    # run folder <out>/<name> (default: the config file's name)
    out: runs/tournament         # parent of the run folder
    env: {num_players: 3, max_rounds: 10, tides_of_battle: false}  # options of got_env.raw_env
    #                            # (ruleset: 1e for the 1st edition, 3-5 players)
    agents:                      # name -> agent spec (docs/agents.md)
      random: random             # a registry name: random, heuristic, ismcts
      heuristic: {type: heuristic}          # the older mapping form (type or name, flat kwargs)
      mcts: {name: ismcts, kwargs: {simulations: 20}}
      mine: my_pkg.my_agents:GreedyAgent    # any importable module, or path/to/file.py:Class
      ppo: {name: my_pkg.ppo:PPOAgent, checkpoint: runs/ppo/last.pt}
    lineups:                     # each: num_players agent names, one per seat (repeats allowed)
      - [heuristic, random, random]
    # round_robin: true          # instead of lineups: every combination of the agents (or of
    #                            # the listed names), with repetition only where fewer than seats
    games: 30                    # games per line-up
    seed: 0                      # every game's seed and agents' seeds derive from it
    workers: 0                   # parallel processes; 0 = one per CPU
    backend: local               # local: a process pool here; ray: each game a Ray task
    # replays: true              # also <run folder>/replays/game-<lineup>-<game>.html per game
    #                            # played (experiments.replay, docs/replay.md)

A config that cannot be read (missing, not UTF-8, not YAML) or holds a bad value stops before any
game with one line naming the file and the key, and exit code 2.

Backends: ``local`` plays the games in ``workers`` processes of this machine (in this process for
``workers: 1``). ``ray`` (the ``ray`` extra: ``pip install -e '.[ray]'``) submits each game as a
Ray remote task (``play_spec``, one CPU each) and records every game as it completes; ``workers``
then caps the games in flight (0: no cap, Ray spreads them over every CPU of its cluster). Ray is
started locally unless this process is already connected or ``RAY_ADDRESS`` names a cluster
(whose workers must be able to import this project and the agents' modules). A game plays the
same either way (its seeds come from the plan), so both backends write the same records, bar the
``seconds`` each took, and a run folder can be resumed with either.

Houses: in game g of a line-up, seat i plays house ``houses[(i + g) % num_players]``, so over
``num_players`` games every agent of a line-up plays every house. Agents are built fresh for each
game from their spec (``agents.make_agent``); an agent whose constructor (or ``from_checkpoint``)
takes ``env`` gets the game's raw env and one that takes ``seed`` (not fixed in the config) gets a
seed derived from the game's. Every spec is checked before the first game (its module imported,
its class found, its kwargs bound, its checkpoint found); worker processes import the agent's
module themselves, so it must be importable there: on ``sys.path`` (which spawned workers inherit
from the main process) or given as a file path.

Draws (1e spec 12: the 1st edition's tie-breaks can leave houses equal): the record of a drawn
game has ``draw`` (the houses sharing it), each of its k houses is credited 1/k of a win in every
table and ranks first for the ratings (:mod:`experiments.ratings`).

Run folder: ``games.jsonl`` (one line per finished game, appended as games finish),
``config.json`` (the effective config), ``results.json``, ``results.csv``, ``win_rates.png``,
``ratings.png``, ``houses.png``. A rerun with the same config plays only the games missing from
``games.jsonl`` (so an interrupted tournament resumes; a larger ``--games`` extends one), then
recomputes every result from ``games.jsonl``. A run folder whose games were played with other env
options, agent specs (compared in their canonical form, so ``random`` and ``{type: random}`` are
the same agent), seed or checkpoint contents (SHA-256 of each checkpoint file) is refused.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import csv
import functools
import hashlib
import importlib.util
import itertools
import json
import multiprocessing
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import got_env
from agents import AgentSpec, AgentSpecError, make_agent
from got_env.vector import BACKENDS
from got_env.vector_ray import RAY_MISSING

from .config_files import (
    ConfigError,
    check_bool,
    check_env,
    check_int,
    check_keys,
    check_mapping,
    check_path,
    exit_config_error,
    read_config,
)
from .play import play_game
from .ratings import agent_wins, as_number, summarize

DEFAULT_CONFIG = Path(__file__).resolve().parent.parent / "configs" / "tournament.yaml"
CONFIG_KEYS = ("name", "out", "env", "agents", "lineups", "round_robin", "games", "seed",
               "workers", "backend", "replays")
#: Env options a tournament does not take: games are always played to the end, unrendered.
FORBIDDEN_ENV = {"max_steps": "tournament games are played to the end (use max_rounds)",
                 "render_mode": "tournament games are not rendered"}
GAMES_FILE = "games.jsonl"
RECORD_FIELDS = ("lineup_index", "game", "lineup", "houses", "seats", "seed", "agent_seeds",
                 "ranking", "ranks", "castles", "winner", "winner_agent", "reason", "rounds")


class GameFailed(RuntimeError):
    """A game raised; the message names the game, its line-up, houses and seed."""


# -- config ------------------------------------------------------------------------------------
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
    notes: tuple[str, ...] = field(default=(), compare=False)
    #: write each game's replay page (experiments.replay) to <run_dir>/replays; not part of the
    #: games' identity.
    replays: bool = field(default=False, compare=False)
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
                "houses": list(self.houses), **({"replays": True} if self.replays else {})}


def _check_agent(name: str, raw: Any) -> tuple[Any, AgentSpec]:
    """The spec as written (JSON-able, for config.json) and checked and resolved, or a
    ConfigError naming the agent and what is wrong with its spec."""
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"agents must be named by non-empty strings, got {name!r}")
    if raw is None:
        raise ConfigError(f"agents.{name}: no spec (a registry name such as 'random', "
                          f"'module:Class', or a mapping with 'name', 'kwargs', 'checkpoint')")
    try:
        spec = AgentSpec.parse(raw).check()
    except AgentSpecError as e:
        raise ConfigError(f"agents.{name}: {e}") from e
    if isinstance(raw, AgentSpec):
        raw = raw.to_dict()
    elif isinstance(raw, dict):
        raw = dict(raw)
    return raw, spec


def _sha256(path: Path) -> str:
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


def parse_config(raw: Any, *, default_name: str = "tournament", games: int | None = None,
                 workers: int | None = None, out: str | Path | None = None,
                 name: str | None = None, backend: str | None = None) -> Config:
    """Validate a config mapping (as read from YAML) with optional command-line overrides."""
    check_keys(check_mapping(raw, "a tournament config"), CONFIG_KEYS)
    notes: list[str] = []

    name = name if name is not None else raw.get("name", default_name)
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
        raise ConfigError(f"name must be a folder name (letters, digits, . _ -), got {name!r}")
    out = Path(out) if out is not None else check_path(raw.get("out", "runs/tournament"), "out")

    env, probe = check_env(raw.get("env"), forbidden=FORBIDDEN_ENV)
    houses = tuple(probe.possible_agents)
    n = len(houses)

    agents_raw = raw.get("agents")
    if not isinstance(agents_raw, dict) or not agents_raw:
        raise ConfigError("agents must be a non-empty mapping: name -> agent spec (a registry "
                          "name such as 'random', 'module:Class', or {name: ..., kwargs: ...})")
    checked = {a: _check_agent(a, spec) for a, spec in agents_raw.items()}
    agents = {a: r for a, (r, _) in checked.items()}
    specs = {a: s for a, (_, s) in checked.items()}

    lineups_raw, rr = raw.get("lineups"), raw.get("round_robin", False)
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
        lineups = round_robin_lineups(pool, n)
    else:
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
    unused = [a for a in agents if not any(a in lu for lu in lineups)]
    if unused:
        notes.append(f"agents in no line-up (left out of the results): {unused}")

    games = check_int(games if games is not None else raw.get("games", n), "games", 1)
    if games % n:
        notes.append(f"games per line-up ({games}) is not a multiple of num_players ({n}): "
                     f"agents do not play every house equally often")
    seed = check_int(raw.get("seed", 0), "seed", 0)
    workers = check_int(workers if workers is not None else raw.get("workers", 1), "workers", 0)
    backend = check_backend(backend if backend is not None else raw.get("backend", "local"))
    replays = check_bool(raw.get("replays", False), "replays")
    used = {a for lu in lineups for a in lu}
    checkpoints = {a: _sha256(s.checkpoint_path()) for a, s in specs.items()
                   if a in used and s.checkpoint is not None}
    return Config(name=name, out=out, env=dict(env), agents=agents, lineups=tuple(lineups),
                  games=games, seed=seed, workers=workers, houses=houses, backend=backend,
                  notes=tuple(notes), replays=replays,
                  specs=specs, checkpoints=checkpoints)


def check_backend(backend: Any) -> str:
    """The ``backend`` key (the tournament's and the ladder's): one of :data:`BACKENDS`, and for
    ``ray`` the package installed, checked before any game is played."""
    if backend not in BACKENDS:
        raise ConfigError(f"backend must be one of {list(BACKENDS)} (local: worker processes "
                          f"here, ray: Ray tasks), got {backend!r}")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise ConfigError(f"backend: ray: {RAY_MISSING}")
    return backend


def load_config(path: str | Path, **overrides: Any) -> Config:
    """Read and validate a YAML config (run folder name by default the file's stem);
    ``overrides``: games, workers, out, name, backend. Every error is a ConfigError naming the
    file."""
    return read_config(path, lambda raw: parse_config(raw, default_name=Path(path).stem,
                                                      **overrides))


# -- the plan ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSpec:
    lineup_index: int
    game: int
    lineup: tuple[str, ...]
    houses: tuple[str, ...]     # the house of each seat
    seed: int
    agent_seeds: tuple[int, ...]

    @property
    def key(self) -> tuple[int, int]:
        return self.lineup_index, self.game


def make_plan(cfg: Config) -> list[GameSpec]:
    """Every game of the tournament, game index first (so that any prefix is balanced across
    line-ups). Seeds derive from (config seed, line-up index, game index) alone."""
    n = cfg.num_players
    plan = []
    for g in range(cfg.games):
        for li, lineup in enumerate(cfg.lineups):
            houses = tuple(cfg.houses[(i + g) % n] for i in range(n))
            state = np.random.SeedSequence([cfg.seed, li, g]).generate_state(n + 1, np.uint32)
            plan.append(GameSpec(li, g, lineup, houses, int(state[0]),
                                 tuple(int(s) for s in state[1:])))
    return plan


# -- playing one game (in a worker process) ----------------------------------------------------
def build_agent(spec: Any, env: got_env.raw_env, seed: int) -> Any:
    """An agent from its spec (any form agents.AgentSpec reads); ``env`` and ``seed`` are
    passed where the constructor takes them (``seed`` only when the spec does not fix it)."""
    return make_agent(spec, env=env, seed=seed)


def play_spec(env_options: dict[str, Any], agent_specs: dict[str, Any],
              spec: GameSpec, replays: str | None = None) -> dict[str, Any]:
    """Play one game of the plan; returns its record (a line of games.jsonl). ``agent_specs``:
    name -> spec (an AgentSpec, or any form it parses); it is pickled to worker processes.
    ``replays``: a folder to write the game's replay page to (``game-<lineup>-<game>.html``)."""
    try:
        env = got_env.raw_env(**env_options)
        seats = zip(spec.lineup, spec.houses, spec.agent_seeds, strict=True)
        seated = {house: build_agent(agent_specs[agent], env, aseed)
                  for agent, house, aseed in seats}
        start = time.perf_counter()
        play_game(env, seated, spec.seed)
        seconds = time.perf_counter() - start
        game, rs = env.game, env.ruleset
        if game.outcome is None:
            raise RuntimeError("the game stopped without an outcome")
        ranking = [rs.houses[h].id for h in game.outcome.ranking]
        vp = game.victory_points()
        if replays is not None:
            from .replay import write_replay

            write_replay(env.record, Path(replays) / f"game-{spec.lineup_index}-{spec.game}.html",
                         title=f"got_env replay: line-up {spec.lineup_index} "
                               f"{list(spec.lineup)}, game {spec.game}")
    except Exception as e:
        raise GameFailed(f"game {spec.game} of line-up {spec.lineup_index} {list(spec.lineup)} "
                         f"(houses {list(spec.houses)}, seed {spec.seed}) failed: "
                         f"{type(e).__name__}: {e}") from e
    place = {h: i + 1 for i, h in enumerate(ranking)}
    drawn = {"draw": [rs.houses[h].id for h in game.outcome.draw]} if game.outcome.draw else {}
    for h in drawn.get("draw", ()):
        place[h] = 1   # every house of a draw ranks first (experiments.ratings)
    return {"lineup_index": spec.lineup_index, "game": spec.game,
            "lineup": list(spec.lineup), "houses": list(spec.houses),
            "seats": dict(zip(spec.houses, spec.lineup, strict=True)),
            "seed": spec.seed, "agent_seeds": list(spec.agent_seeds),
            "ranking": ranking, "ranks": [place[h] for h in spec.houses],
            "castles": {h: int(vp[rs.house(h)]) for h in spec.houses},
            "winner": ranking[0], "winner_agent": spec.lineup[spec.houses.index(ranking[0])],
            "reason": game.outcome.reason, "rounds": int(game.round),
            "decisions": len(env.record.actions), "seconds": round(seconds, 3), **drawn}


# -- the run folder ----------------------------------------------------------------------------
def read_games(path: Path) -> list[dict[str, Any]]:
    """The records of games.jsonl. A last line cut short by an interruption is dropped (and cut
    from the file, so that appending stays clean); any other bad line is an error."""
    if not path.exists():
        return []
    data = path.read_bytes()
    lines = data.split(b"\n")
    records: list[dict[str, Any]] = []
    offset = keep = 0
    for i, line in enumerate(lines):
        if line.strip():
            try:
                rec = json.loads(line)
                if not isinstance(rec, dict) or any(k not in rec for k in RECORD_FIELDS):
                    raise ValueError("not a game record")
            except ValueError as e:
                if i == len(lines) - 1:   # no newline after it: a write cut short
                    break
                raise ConfigError(f"{path} line {i + 1} is not a game record ({e}); fix or "
                                  f"remove that line") from None
            records.append(rec)
        offset += len(line) + 1
        keep = min(offset, len(data))
    if keep < len(data) or (keep and not data.endswith(b"\n")):
        with open(path, "r+b") as f:
            f.truncate(keep)
            if keep and data[keep - 1:keep] != b"\n":
                f.seek(keep)
                f.write(b"\n")
    return records


def match_games(records: list[dict[str, Any]], plan: list[GameSpec],
                path: Path) -> tuple[dict[tuple[int, int], dict[str, Any]], int]:
    """The recorded games of the plan by key, and how many records lie outside the plan. A record
    whose line-up, houses or seed differ from the plan's game raises ConfigError."""
    by_key = {s.key: s for s in plan}
    done: dict[tuple[int, int], dict[str, Any]] = {}
    extra = 0
    for rec in records:
        key = (rec["lineup_index"], rec["game"])
        spec = by_key.get(key)
        if spec is None:
            extra += 1
            continue
        if (tuple(rec["lineup"]) != spec.lineup or tuple(rec["houses"]) != spec.houses
                or rec["seed"] != spec.seed):
            raise ConfigError(
                f"{path}: game {key[1]} of line-up {key[0]} was played as {rec['lineup']} at "
                f"{rec['houses']} with seed {rec['seed']}, but the config now plans "
                f"{list(spec.lineup)} at {list(spec.houses)} with seed {spec.seed}: the run "
                f"folder holds another tournament; use another name (--name) or out folder")
        done.setdefault(key, rec)
    return done, extra


def check_run_dir(cfg: Config) -> None:
    """Refuse a run folder whose games were played with other env options, agents or seed."""
    saved = cfg.run_dir / "config.json"
    games = cfg.run_dir / GAMES_FILE
    if not (saved.exists() and games.exists() and games.stat().st_size):
        return
    try:
        old = json.loads(saved.read_text())
    except (OSError, json.JSONDecodeError):
        return
    now = json.loads(json.dumps(cfg.identity()))
    diff = [k for k in now if (canonical_agents(old.get(k)) != canonical_agents(now[k])
                               if k == "agents" else old.get(k) != now[k])]
    if diff:
        detail = "; ".join(f"{k}: was {old.get(k)!r}, now {now[k]!r}" for k in diff)
        raise ConfigError(f"{cfg.run_dir} holds games of another tournament ({detail}); use "
                          f"another name (--name) or out folder, or delete that folder")


# -- results -----------------------------------------------------------------------------------
def compute_results(cfg: Config, records: list[dict[str, Any]]) -> dict[str, Any]:
    """Every statistic, from game records of this config's plan (in plan order)."""
    stats = summarize(records, cfg.agent_names, cfg.houses)
    lineups = []
    for li, lu in enumerate(cfg.lineups):
        recs = [r for r in records if r["lineup_index"] == li]
        wins = {a: as_number(sum(agent_wins(r, a) for r in recs)) for a in dict.fromkeys(lu)}
        lineups.append({"lineup": list(lu), "games": len(recs), "wins": wins})
    return {"name": cfg.name, "num_players": cfg.num_players, "games": stats["games"],
            "games_per_lineup": cfg.games, "env": cfg.env,
            "agent_specs": {a: cfg.agents[a] for a in cfg.agent_names},
            "rating_model": "openskill PlackettLuce (mu 25, sigma 25/3) over each game's final "
                            "ranking, games in plan order (game index, then line-up)",
            "agents": stats["agents"], "houses": stats["houses"], "lineups": lineups}


CSV_FIELDS = ("kind", "agent", "house", "seats", "wins", "win_rate", "win_ci95_low",
              "win_ci95_high", "avg_castles", "avg_rank", "mu", "sigma", "ordinal")


def csv_rows(results: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Long format: one row per agent, per house and per agent at each house."""
    def row(kind: str, agent: str, house: str, t: dict[str, Any]) -> dict[str, Any]:
        r = {"kind": kind, "agent": agent, "house": house,
             "seats": t.get("seats", t.get("games")), "wins": t["wins"],
             "win_rate": t["win_rate"], "win_ci95_low": t["win_ci95"][0],
             "win_ci95_high": t["win_ci95"][1], "avg_castles": t["avg_castles"],
             "avg_rank": t["avg_rank"], "mu": "", "sigma": "", "ordinal": ""}
        if "rating" in t:
            r.update({k: t["rating"][k] for k in ("mu", "sigma", "ordinal")})
        return r

    for a, t in results["agents"].items():
        yield row("agent", a, "", t)
    for h, t in results["houses"].items():
        yield row("house", "", h, t)
    for a, t in results["agents"].items():
        for h, cell in t["by_house"].items():
            yield row("agent_house", a, h, cell)


def write_results(cfg: Config, results: dict[str, Any]) -> list[Path]:
    from .tournament_plots import save_plots

    run_dir = cfg.run_dir
    (run_dir / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    with open(run_dir / "results.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        w.writerows(csv_rows(results))
    plots = save_plots(results, run_dir)
    return [run_dir / "results.json", run_dir / "results.csv", *plots]


def format_table(results: dict[str, Any]) -> str:
    lines = [f"{'agent':<16}{'seats':>6}{'wins':>6}  {'win rate [95% CI]':<22}{'castles':>8}"
             f"{'rank':>6}  {'mu ± sigma':<14}"]
    for a, t in results["agents"].items():
        lo, hi = t["win_ci95"]
        rate = f"{t['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]" if t["seats"] else "-"
        rt = t["rating"]
        lines.append(f"{a:<16}{t['seats']:>6}{t['wins']:>6g}  {rate:<22}"
                     f"{(t['avg_castles'] or 0):>8.2f}{(t['avg_rank'] or 0):>6.2f}  "
                     f"{rt['mu']:.2f} ± {rt['sigma']:.2f}")
    lines.append(f"{'house':<16}{'games':>6}{'wins':>6}  {'win rate [95% CI]':<22}{'castles':>8}"
                 f"{'rank':>6}")
    for h, t in results["houses"].items():
        lo, hi = t["win_ci95"]
        rate = f"{t['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]" if t["games"] else "-"
        lines.append(f"{h:<16}{t['games']:>6}{t['wins']:>6g}  {rate:<22}"
                     f"{(t['avg_castles'] or 0):>8.2f}{(t['avg_rank'] or 0):>6.2f}")
    return "\n".join(lines)


# -- running -----------------------------------------------------------------------------------
@dataclass
class RunReport:
    run_dir: Path
    planned: int
    reused: int        # games of the plan already in games.jsonl
    played: int        # games played by this run
    ignored: int       # records in games.jsonl outside the plan
    results: dict[str, Any]
    files: list[Path]


def _run_games(cfg: Config, specs: list[GameSpec], workers: int,
               on_result: Callable[[dict[str, Any]], None]) -> None:
    """Play ``specs`` on ``cfg.backend``, each record to ``on_result`` as its game finishes:
    ``workers`` processes here (1: in this process), or Ray tasks, at most ``workers`` in flight
    (0: as many as Ray will run)."""
    agents = {a: cfg.agent_spec(a) for a in cfg.agent_names}
    replays = str(cfg.run_dir / "replays") if cfg.replays else None
    if cfg.backend == "ray":
        _run_ray_tasks(cfg.env, agents, specs, workers, on_result, replays)
        return
    if workers <= 1:
        for spec in specs:
            on_result(play_spec(cfg.env, agents, spec, replays))
        return
    ctx = multiprocessing.get_context("spawn")   # no fork of a process with threads (tqdm)
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
    try:
        futures = [pool.submit(play_spec, cfg.env, agents, s, replays) for s in specs]
        for fut in cf.as_completed(futures):
            on_result(fut.result())
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


@functools.cache
def _remote_play_spec(ray: Any) -> Any:
    """:func:`play_spec` as a Ray remote function, made once per process (a new ``ray.remote``
    exports the function to the cluster again)."""
    return ray.remote(play_spec)


def _run_ray_tasks(env: dict[str, Any], agents: dict[str, AgentSpec], specs: list[GameSpec],
                   limit: int, on_result: Callable[[dict[str, Any]], None],
                   replays: str | None = None) -> None:
    """Each game a Ray remote task, its record to ``on_result`` as soon as it completes (so that
    an interrupted run keeps every finished game); at most ``limit`` tasks in flight (0: all at
    once, Ray queues them on its CPUs). A failed game raises GameFailed naming it, and the games
    not yet done are cancelled."""
    from got_env.vector_ray import init_ray

    ray = init_ray()
    task = _remote_play_spec(ray)
    env_ref, agents_ref = ray.put(env), ray.put(agents)  # sent once, not once per game
    queue = list(reversed(specs))
    pending: dict[Any, GameSpec] = {}
    try:
        while queue or pending:
            while queue and (not limit or len(pending) < limit):
                spec = queue.pop()
                pending[task.remote(env_ref, agents_ref, spec, replays)] = spec
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                spec = pending.pop(ref)
                try:
                    record = ray.get(ref)
                except ray.exceptions.RayError as e:
                    cause = getattr(e, "cause", None)
                    if isinstance(cause, GameFailed):  # play_spec's own error: it names the game
                        raise GameFailed(str(cause)) from e
                    raise GameFailed(f"game {spec.game} of line-up {spec.lineup_index} "
                                     f"{list(spec.lineup)} (seed {spec.seed}) failed in Ray: "
                                     f"{type(e).__name__}: {e}") from e
                on_result(record)
    finally:
        for ref in pending:  # after an error or an interrupt: no game left running for nothing
            ray.cancel(ref)


def run_tournament(cfg: Config, *, progress: bool = True,
                   log: Callable[[str], None] = print) -> RunReport:
    """Play the games of ``cfg`` missing from its run folder, then recompute and write every
    result. Each finished game is appended to games.jsonl at once."""
    run_dir = cfg.run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    check_run_dir(cfg)
    games_path = run_dir / GAMES_FILE
    plan = make_plan(cfg)
    done, extra = match_games(read_games(games_path), plan, games_path)
    (run_dir / "config.json").write_text(json.dumps({**cfg.identity(), **cfg.as_dict()},
                                                    indent=2) + "\n")
    for note in cfg.notes:
        log(f"note: {note}")
    missing = [s for s in plan if s.key not in done]
    reused = len(plan) - len(missing)
    if cfg.backend == "ray":  # workers caps the games in flight; 0: Ray runs what it can
        workers = min(cfg.workers, len(missing))
        where = " as Ray tasks" + (f", at most {workers} at once" if workers else "")
    else:
        workers = min(cfg.workers or os.cpu_count() or 1, max(1, len(missing)))
        where = f" on {workers} worker(s)"
    log(f"tournament {cfg.name}: {len(cfg.lineups)} line-up(s) x {cfg.games} games = "
        f"{len(plan)} games; {reused} already in {games_path}, {len(missing)} to play"
        + (where if missing else ""))
    if extra:
        log(f"note: {extra} record(s) in {games_path} lie outside this plan and are left out")

    from tqdm import tqdm

    wins = {a: sum(agent_wins(rec, a) for rec in done.values()) for a in cfg.agent_names}
    bar = tqdm(total=len(plan), initial=reused, unit="game", desc=cfg.name,
               disable=not progress or not missing, dynamic_ncols=True)

    played = 0

    def on_result(rec: dict[str, Any]) -> None:
        nonlocal played
        with open(games_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")
            f.flush()
            os.fsync(f.fileno())
        done[(rec["lineup_index"], rec["game"])] = rec
        played += 1
        for a in wins:
            wins[a] += agent_wins(rec, a)
        bar.update(1)
        bar.set_postfix_str(" ".join(f"{a}:{as_number(w):g}" for a, w in wins.items()),
                            refresh=False)

    try:
        _run_games(cfg, missing, workers, on_result)
    finally:
        bar.close()
    records = [done[s.key] for s in plan]
    results = compute_results(cfg, records)
    files = write_results(cfg, results)
    return RunReport(run_dir, len(plan), reused, played, extra, results, files)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m experiments.tournament", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", default=str(DEFAULT_CONFIG), help="YAML config (default: "
                   "configs/tournament.yaml)")
    p.add_argument("--games", type=int, default=None, help="games per line-up (overrides the "
                   "config)")
    p.add_argument("--workers", type=int, default=None, help="worker processes, 0 = one per "
                   "CPU (overrides the config)")
    p.add_argument("--out", default=None, help="parent folder of the run folder (overrides "
                   "the config)")
    p.add_argument("--backend", choices=BACKENDS, default=None, help="local: worker processes "
                   "here; ray: each game a Ray task, needs the 'ray' extra (overrides the config)")
    p.add_argument("--name", default=None, help="run folder name (overrides the config)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    try:
        cfg = load_config(args.config, games=args.games, workers=args.workers, out=args.out,
                          name=args.name, backend=args.backend)
    except ConfigError as e:
        exit_config_error(p, e)
    start = time.perf_counter()
    try:
        report = run_tournament(cfg, progress=not args.no_progress)
    except ConfigError as e:
        exit_config_error(p, e)
    except KeyboardInterrupt:
        print(f"\ninterrupted: finished games are in {cfg.run_dir / GAMES_FILE}; rerun the same "
              f"command to play the rest", file=sys.stderr)
        return 130
    except (GameFailed, cf.process.BrokenProcessPool) as e:
        print(f"error: {e}\nfinished games are in {cfg.run_dir / GAMES_FILE}; rerun to resume",
              file=sys.stderr)
        return 1
    print(f"played {report.played} game(s) in {time.perf_counter() - start:.1f} s; results "
          f"from {report.results['games']} games:")
    print(format_table(report.results))
    print(f"written to {report.run_dir}: " + ", ".join(f.name for f in report.files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
