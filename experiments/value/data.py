"""The value tool's games and what it records of them, in shards.

Each game of the config's agents (seat s of game g: ``agents[(g + s) % len(agents)]``, each
agent made afresh for the game from the game's seed, so that a game's rows do not depend on
which games were played before it in the process) is played through the kit's AEC env. At the
first decision of every round (AGoT's rounds, War of the Ring's turns: ``Game.round``), before
it is made, every seat's observation is recorded (``env.observe``: the input a network of that
seat reads), with the round, the seat's baseline features (the game's plugin piece,
``baseline_features``) and, once the game is over, the seat's share of the win
(:func:`boardkit.outcome.win_shares` of ``Game.outcome``; γ = 1, no discount). A game cut at a
round or turn limit has no outcome: its shares are those of the rules' standing
(``Game.standing``: the leader takes the win, leaders tied share it), and its rows say so
(``ended`` 0).

Shards: ``data.chunk`` games each, ``shard_<first game>.npz`` in the run folder's ``shards/``,
written whole (to a temporary name, then renamed) as each chunk finishes, so that a stopped run
resumes at the first missing shard and a larger ``data.games`` adds shards to the same folder.
Every shard records its collection (:meth:`ValueConfig.collection`); a folder of another
collection is refused, never mixed.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents import make_agent
from agents.base import begin_game, end_game
from boardkit import games
from boardkit.envs import make_env
from boardkit.outcome import win_shares
from experiments.imitation.data import play_game
from experiments.imitation.dataset import compact_dtype

from .config import ValueConfig

#: The arrays of a shard, one row per (round, seat).
ROW_ARRAYS = ("obs", "games", "players", "rounds", "targets", "features", "ended")


@dataclass
class Rows:
    """Recorded rows: a seat's observation at a round's start and what is known of it."""

    obs: np.ndarray        #: [N, obs_size], the compact dtype of the observation space
    games: np.ndarray      #: [N] int32, the game's index (its seed is first_seed + index)
    players: np.ndarray    #: [N] int8, the seat's player index (``Game.player_index``)
    rounds: np.ndarray     #: [N] int16, ``Game.round`` when recorded
    targets: np.ndarray    #: [N] float32, the seat's final share of the win
    features: np.ndarray   #: [N, k] float32, the game's baseline features
    ended: np.ndarray      #: [N] bool, the game ended by the rules (else cut: standing)

    def __len__(self) -> int:
        return int(self.targets.shape[0])

    def take(self, rows: np.ndarray) -> Rows:
        return Rows(*(getattr(self, k)[rows] for k in ROW_ARRAYS))


def shard_dir(cfg: ValueConfig) -> Path:
    return cfg.run_dir / "shards"


def shard_path(cfg: ValueConfig, first: int) -> Path:
    return shard_dir(cfg) / f"shard_{first:06d}.npz"


def play_chunk(cfg: ValueConfig, first: int, count: int) -> Rows:
    """Games ``first .. first + count - 1`` played and recorded."""
    env = make_env(cfg.game, **cfg.env)
    rules = env.rules
    piece = games.plugin(cfg.game)
    features_of = piece.hook("value", "baseline_features")
    specs = cfg.agent_specs()
    seats = list(env.possible_agents)
    space = env.observation_space(seats[0])["observation"]
    dtype = compact_dtype(space.low, space.high)
    parts: list[Rows] = []
    for g in range(first, first + count):
        seed = cfg.data.first_seed + g
        players = {a: make_agent(specs[(g + s) % len(specs)], env=env, seed=seed * 16 + s)
                   for s, a in enumerate(seats)}
        env.reset(seed=seed)
        for p in players.values():
            begin_game(p)
        obs, who, rounds, feats = [], [], [], []
        last = [None]

        def decide(agent: str, observation: np.ndarray, mask: np.ndarray, info: dict,
                   obs: list = obs, who: list = who, rounds: list = rounds, feats: list = feats,
                   last: list = last, players: dict = players) -> int:
            r = rules.round(env.game)
            if r != last[0]:  # a round's first decision: every seat, before it is made
                last[0] = r
                for a in seats:
                    o = env.observe(a)["observation"]
                    if not np.array_equal(o.astype(dtype), o):
                        raise ValueError(f"{cfg.game}: an observation outside its space's "
                                         f"integer bounds (stored as {dtype})")
                    i = rules.player_index(env.game, a)
                    obs.append(o.astype(dtype))
                    who.append(i)
                    rounds.append(r)
                    feats.append(np.asarray(features_of(env.game, i), np.float32))
            return int(players[agent].act(observation, mask, info))

        ended = play_game(env, decide)
        scores = rules.outcome(env.game)
        shares = win_shares(scores if scores is not None else rules.standing(env.game))
        for a, p in players.items():
            end_game(p, ended.get(a, 0.0), env.infos.get(a, {}))
        if not obs:
            raise RuntimeError(f"game {g} (seed {seed}) recorded no round")
        n = len(obs)
        parts.append(Rows(obs=np.stack(obs), games=np.full(n, g, np.int32),
                          players=np.asarray(who, np.int8), rounds=np.asarray(rounds, np.int16),
                          targets=shares[np.asarray(who)].astype(np.float32),
                          features=np.stack(feats), ended=np.full(n, scores is not None)))
    return Rows(*(np.concatenate([getattr(p, k) for p in parts]) for k in ROW_ARRAYS))


def save_shard(path: Path, rows: Rows, source: dict[str, Any]) -> None:
    """One compressed ``.npz``, written to a temporary name and renamed: a shard on disk is
    always whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **{k: getattr(rows, k) for k in ROW_ARRAYS},
                        source=np.array(json.dumps(source, sort_keys=True)))
    os.replace(tmp, path)


def _open(path: Path, keys: tuple[str, ...]) -> dict[str, Any]:
    """The arrays ``keys`` of a shard file; one that is not a shard is a ``ValueError`` naming
    it and what is wrong."""
    try:
        with np.load(path, allow_pickle=False) as f:
            missing = [k for k in keys if k not in f.files]
            if missing:
                raise ValueError(f"{path}: not a value shard (no {', '.join(missing)})")
            out = {k: f[k] for k in keys}
        out["source"] = json.loads(str(out["source"]))
        return out
    except (OSError, EOFError, ValueError) as e:  # not a zip, a pickle, bad JSON: all named
        text = str(e)
        raise ValueError(text if text.startswith(str(path)) else
                         f"{path}: not a readable value shard ({text})") from None


def load_shard(path: Path) -> tuple[Rows, dict[str, Any]]:
    """A shard's rows and collection."""
    data = _open(path, (*ROW_ARRAYS, "source"))
    return Rows(*(data[k] for k in ROW_ARRAYS)), data["source"]


def check_folder(cfg: ValueConfig) -> None:
    """Refuse a shard folder recorded under another collection (named key and values)."""
    want = json.loads(json.dumps(cfg.collection()))
    for path in sorted(shard_dir(cfg).glob("shard_*.npz")):
        got = _open(path, ("source",))["source"]
        for key, value in want.items():
            if got.get(key) != value:
                raise ValueError(f"{path}: recorded with {key}={got.get(key)!r}, this config "
                                 f"has {value!r}: use another name or out")
        return


def collect(cfg: ValueConfig, progress: Callable[[str], None] | None = None) -> int:
    """Play and write every shard of ``data.games`` not yet on disk; the number written."""
    check_folder(cfg)
    chunk, written, start = cfg.data.chunk, 0, time.perf_counter()
    todo = [f for f in range(0, cfg.data.games, chunk) if not shard_path(cfg, f).exists()]
    for first in todo:
        count = min(chunk, cfg.data.games - first)
        rows = play_chunk(cfg, first, count)
        save_shard(shard_path(cfg, first), rows, cfg.collection())
        written += 1
        if progress is not None:
            spent = time.perf_counter() - start
            done = sum(min(chunk, cfg.data.games - f) for f in todo[:written])
            progress(f"games {first}-{first + count - 1}: {len(rows)} rows; {done} games in "
                     f"{spent:.0f} s ({spent / done:.2f} s a game)")
    return written


def load_rows(cfg: ValueConfig) -> Rows:
    """Every row of games ``0 .. data.games - 1``, from the shards; a missing shard is a
    ``FileNotFoundError`` saying to run the data stage."""
    check_folder(cfg)
    parts = []
    for first in range(0, cfg.data.games, cfg.data.chunk):
        path = shard_path(cfg, first)
        if not path.exists():
            raise FileNotFoundError(f"{path}: missing (games {first} and up are not recorded):"
                                    f" run `python -m experiments.value data` first")
        parts.append(load_shard(path)[0])
    return Rows(*(np.concatenate([getattr(p, k) for p in parts]) for k in ROW_ARRAYS))
