"""The teacher's games, played through the kit's AEC env, and its decisions recorded compactly.

Each recorded decision keeps the acting seat's observation, its action mask, the teacher's
action, the game it came from (so that a held-out split is by game, never by decision, and
positions of one game do not leak across it) and the acting player's share of the win at the
end (:func:`boardkit.outcome.win_shares`), the value target.

The decisions are stored compactly (:mod:`.dataset`). Games are played one after another and
kept as per-game chunks that are joined once at the end, chunk by chunk, so memory peaks at the
dataset plus one game.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from agents import make_agent
from agents.base import begin_game, end_game
from boardkit.envs import make_env
from boardkit.outcome import win_shares

from .config import ImitateConfig, source_mismatch
from .dataset import Dataset, compact_dtype

#: Game g is played from seed ``seed * GAME_SEED_STRIDE + g``: two configs' seeds never share
#: a game as long as they play fewer games than this.
GAME_SEED_STRIDE = 1_000_000


def load_for(cfg: ImitateConfig, path: str | Path) -> Dataset:
    """``data.load``'s dataset, refused (a ``ValueError`` naming the first key that differs)
    unless it was recorded under ``cfg``'s collection: a fit must know what it learns from."""
    data = Dataset.load(path)
    why = source_mismatch(cfg, data.source)
    if why:
        raise ValueError(f"{path}: {why}")
    return data


def _join(chunks: list[np.ndarray], dtype: np.dtype) -> np.ndarray:
    """The chunks stacked, each freed once copied (peak: the result plus one chunk)."""
    total = sum(len(c) for c in chunks)
    out = np.empty((total, *chunks[0].shape[1:]), dtype) if chunks else np.empty(0, dtype)
    at = 0
    while chunks:
        c = chunks.pop(0)
        out[at:at + len(c)] = c
        at += len(c)
    return out


def play_game(env: Any, decide: Callable[[str, np.ndarray, np.ndarray, dict], int]
              ) -> dict[str, float]:
    """One game of the AEC ``env`` (already reset) to its end, ``decide(agent, observation,
    mask, info) -> action`` asked at every decision; each player's final reward, as ``last()``
    gives it at the end (the loop's dead steps clear ``env.rewards`` after)."""
    ended: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            ended[agent] = float(reward)
            env.step(None)
            continue
        env.step(int(decide(agent, observation["observation"], observation["action_mask"],
                            info)))
    return ended


#: Plays a recorded seat in a DAgger round: ``policy(observation, mask) -> action``.
Policy = Callable[[np.ndarray, np.ndarray], int]


def collect(cfg: ImitateConfig, progress: Callable[[int, int], None] | None = None,
            policy: Policy | None = None, games: int | None = None, first: int = 0
            ) -> Dataset:
    """Play ``games`` games (``cfg.data.games`` by default), game indices from ``first``, and
    record the teacher's decisions in the recorded seats; each game from its own seed (its
    index's), every agent seeded from the run's seed, so that the same config records the
    same dataset. With ``policy`` (a DAgger round) the recorded seats play its action while
    the teacher's, asked at the same decision, is the label. ``progress(game, decisions)``
    after each game."""
    env = make_env(cfg.game, **cfg.env)
    agents = list(env.possible_agents)
    recorded = set(cfg.data.seats if cfg.data.seats is not None else agents)
    space = env.observation_space(agents[0])["observation"]
    dtype = compact_dtype(space.low, space.high)
    num_actions = int(env.action_space(agents[0]).n)
    action_dtype = np.int16 if num_actions <= np.iinfo(np.int16).max else np.int32
    base = cfg.seed * GAME_SEED_STRIDE
    players: dict[str, Any] = {}
    for h, a in enumerate(agents):
        spec = cfg.teacher if a in recorded or cfg.data.others is None else cfg.data.others
        players[a] = make_agent(spec, env=env, seed=base + 7919 * (h + 1))
    obs_c: list[np.ndarray] = []
    mask_c: list[np.ndarray] = []
    act_c: list[np.ndarray] = []
    val_c: list[np.ndarray] = []
    game_c: list[np.ndarray] = []
    count = 0
    count_games = cfg.data.games if games is None else games
    for g in range(first, first + count_games):
        env.reset(seed=base + g)
        for p in players.values():
            begin_game(p)
        obs_g, mask_g, act_g, who = [], [], [], []

        def decide(agent: str, obs: np.ndarray, mask: np.ndarray, info: dict,
                   obs_g: list = obs_g, mask_g: list = mask_g, act_g: list = act_g,
                   who: list = who) -> int:
            nonlocal dtype, obs_c
            action = int(players[agent].act(obs, mask, info))
            if agent not in recorded:
                return action
            if dtype != np.float32 and not np.array_equal(obs.astype(dtype), obs):
                dtype = np.dtype(np.float32)  # a value the bounds did not promise
                obs_c = [c.astype(np.float32) for c in obs_c]
            obs_g.append(obs.astype(dtype))
            mask_g.append(np.packbits(mask.astype(bool)))
            act_g.append(action)
            who.append(agent)
            return action if policy is None else int(policy(obs, mask))

        ended = play_game(env, decide)
        scores = env.rules.outcome(env.game)
        if scores is None:
            raise RuntimeError(f"game {g} ended without an outcome (truncated?)")
        shares = win_shares(scores)
        for a, p in players.items():
            end_game(p, ended.get(a, 0.0), env.infos.get(a, {}))
        if act_g:
            obs_c.append(np.stack(obs_g))
            mask_c.append(np.stack(mask_g))
            act_c.append(np.asarray(act_g, action_dtype))
            index = {a: env.rules.player_index(env.game, a) for a in agents}
            final = ({a: shares[index[a]] for a in agents} if cfg.data.value == "share"
                     else {a: ended.get(a, 0.0) for a in agents})
            val_c.append(np.asarray([final[a] for a in who], np.float32))
            game_c.append(np.full(len(act_g), g, np.int32))
            count += len(act_g)
        if progress is not None:
            progress(g + 1 - first, count)
    if not act_c:
        raise RuntimeError("the teacher's games recorded no decision")
    return Dataset(obs=_join(obs_c, dtype), masks=_join(mask_c, np.dtype(np.uint8)),
                   actions=_join(act_c, np.dtype(action_dtype)),
                   values=_join(val_c, np.dtype(np.float32)),
                   games=_join(game_c, np.dtype(np.int32)), num_actions=num_actions,
                   num_games=count_games,
                   source=(cfg.collection() if policy is None and first == 0 and games is None
                           else None))
