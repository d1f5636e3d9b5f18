"""SuperSuit: the observation as one bounded Box, SuperSuit's observation wrappers on it, and
SuperSuit's vector env over the parallel env.

    pip install torch==2.13.0 -e '.[supersuit]'
    python examples/supersuit_vec_env.py --steps 300
    python examples/supersuit_vec_env.py --game wotr --steps 300      # War of the Ring

SuperSuit's observation wrappers (``flatten_v0``, ``normalize_obs_v0``, ``dtype_v0``,
``frame_stack_v1``, ``black_death_v3``) want a ``Box`` observation with finite bounds, not
PettingZoo's ``{"observation", "action_mask"}`` Dict. :func:`box_observation` makes one with
SuperSuit's own ``observation_lambda_v0``: the feature vector (bounds ``[0, encoder.high]``)
followed by the action mask as 0/1 floats (bounds ``[0, 1]``), so the mask survives every wrapper
(normalizing leaves it unchanged; with ``frame_stack_v1`` the newest frame is last, so the
current mask is always the last ``N`` entries: AGoT's 1725, War of the Ring's 869). The parallel
env (the kit's :class:`boardkit.parallel.KitParallelEnv` over the game's env, which
``got_env.parallel_env`` is: one decision a step, only the acting house's action is played) then
goes through ``pettingzoo_env_to_vec_env_v1`` (one vector slot per house) and
``concat_vec_envs_v1`` (several games, ``num_cpus=0``: in this process).

``black_death_v3`` takes the Box view too, but is left out: every house ends at the same step,
so there is no dead agent to blank, and SuperSuit 3.11's ``black_death_v3`` says "done" only
when every agent is terminated *and* truncated (fixed upstream, SuperSuit pull request 265, not
in a release yet), so over a game that ends it drops the final rewards and adds an empty step.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
import supersuit as ss
from gymnasium import spaces

from boardkit.envs import make_env
from boardkit.parallel import KitParallelEnv

NUM_ACTIONS = 1725  # AGoT's action space's size: the mask is the last NUM_ACTIONS entries
#: the options of a short game of each game (several end within a smoke test); a game not
#: listed plays with its env's defaults
SHORT = {"got": {"num_players": 3, "max_rounds": 2}, "wotr": {"max_turns": 2}}


def parallel_env(game: str = "got", **options: Any) -> KitParallelEnv:
    """The parallel env of any game on the kit, by its registry name (the metadata of its AEC
    env, as the game's own ``parallel_env`` class gives it)."""
    env = KitParallelEnv(make_env(game, **options))
    env.metadata = {**env.aec.metadata, "is_parallelizable": True}
    return env


def _to_box(observation: dict[str, np.ndarray], space: spaces.Space,
            agent: str | None = None) -> np.ndarray:
    return np.concatenate([observation["observation"],
                           observation["action_mask"].astype(np.float32)])


def _box_space(space: spaces.Dict, agent: str | None = None) -> spaces.Box:
    features, mask = space["observation"], space["action_mask"]
    low = np.concatenate([features.low, mask.low.astype(np.float32)])
    high = np.concatenate([features.high, mask.high.astype(np.float32)])
    return spaces.Box(low, high, dtype=np.float32)


def box_observation(env: Any) -> Any:
    """The AEC or parallel env with ``Box(float32, (F + N,))`` observations: features, then the
    action mask (finite bounds throughout, as SuperSuit's wrappers need)."""
    return ss.observation_lambda_v0(env, _to_box, _box_space)


def wrap(env: Any, frames: int = 2) -> Any:
    """The observation wrappers a SuperSuit pipeline typically chains, on the Box observation:
    flatten, normalize to [0, 1] by the bounds, float32, and stack ``frames`` frames."""
    env = box_observation(env)
    env = ss.flatten_v0(env)
    env = ss.normalize_obs_v0(env)
    env = ss.dtype_v0(env, np.float32)
    return ss.frame_stack_v1(env, frames)


def make_vec_env(num_games: int = 2, num_players: int | None = None, frames: int = 2,
                 game: str = "got", **options: Any) -> Any:
    """``num_games`` parallel games as one gymnasium-style vector env of
    ``num_games * num_players`` slots (one per house of each game)."""
    if num_players is not None:
        options["num_players"] = num_players
    elif "num_players" in SHORT.get(game, {}):  # AGoT: 3 players unless told
        options.setdefault("num_players", SHORT[game]["num_players"])
    env = wrap(parallel_env(game, **options), frames)
    vec = ss.pettingzoo_env_to_vec_env_v1(env)
    return ss.concat_vec_envs_v1(vec, num_games, num_cpus=0, base_class="gymnasium")


def masked_random_actions(obs: np.ndarray, rng: np.random.Generator,
                          num_actions: int = NUM_ACTIONS) -> np.ndarray:
    """A legal action for each slot whose mask (the last ``num_actions`` entries, the game's
    action space size) is not empty, 0 for the others (houses not to act: their actions are
    ignored)."""
    masks = obs[:, -num_actions:] > 0.5
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def run(steps: int = 300, num_games: int = 2, num_players: int | None = None, seed: int = 0,
        game: str = "got", **options: Any) -> dict[str, Any]:
    """Step the vector env ``steps`` times with random legal actions (games reset as they
    end); returns the shapes, the steps and the number of slots that finished a game."""
    options = {**SHORT.get(game, {}), **options}  # short random games, so that several end
    if num_players is not None:
        options["num_players"] = num_players
    vec = make_vec_env(num_games, game=game, **options)
    num_actions = int(vec.action_space.n)
    rng = np.random.default_rng(seed)
    obs, _ = vec.reset(seed=seed)
    assert np.isfinite(vec.observation_space.high).all()
    shape = obs.shape
    done_slots = wins = 0
    for _ in range(steps):
        obs, rewards, terminated, truncated, _ = vec.step(masked_random_actions(obs, rng,
                                                                                num_actions))
        done = np.logical_or(terminated, truncated)
        done_slots += int(done.sum())
        wins += int((rewards[done] == 1.0).sum())
    vec.close()
    return {"steps": steps, "obs_shape": shape, "observation_space": vec.observation_space,
            "done_slots": done_slots, "wins": wins}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--players", type=int, default=None, help="AGoT: players (default 3)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--game", default="got", help="the game's registry name: got, wotr, ...")
    args = p.parse_args(argv)
    print(run(args.steps, args.games, args.players, args.seed, game=args.game))


if __name__ == "__main__":
    main()
