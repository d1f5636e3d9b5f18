"""The run folder's games: ``games.jsonl`` read back (a line cut short by an interruption
dropped), matched against the plan, and a folder of another tournament refused, so that a rerun
resumes exactly the games that are missing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from boardkit.games import saved_game

from ..config_files import ConfigError
from .config import Config, canonical_agents
from .plan import GameSpec

GAMES_FILE = "games.jsonl"
RECORD_FIELDS = ("lineup_index", "game", "lineup", "houses", "seats", "seed", "agent_seeds",
                 "ranking", "ranks", "castles", "winner", "winner_agent", "reason", "rounds")


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
    """Refuse a run folder whose games were played with another game, env options, agents or
    seed."""
    saved = cfg.run_dir / "config.json"
    games = cfg.run_dir / GAMES_FILE
    if not (saved.exists() and games.exists() and games.stat().st_size):
        return
    try:
        old = json.loads(saved.read_text())
    except (OSError, json.JSONDecodeError):
        return
    old["game"] = saved_game(old)   # a folder saved before the key: see saved_game
    now = {**json.loads(json.dumps(cfg.identity())), "game": cfg.game}
    diff = [k for k in now if (canonical_agents(old.get(k)) != canonical_agents(now[k])
                               if k == "agents" else old.get(k) != now[k])]
    if diff:
        detail = "; ".join(f"{k}: was {old.get(k)!r}, now {now[k]!r}" for k in diff)
        raise ConfigError(f"{cfg.run_dir} holds games of another tournament ({detail}); use "
                          f"another name (--name) or out folder, or delete that folder")
