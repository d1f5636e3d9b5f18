"""SuperSuit: examples/supersuit_vec_env.py runs (a Box observation with finite bounds,
SuperSuit's observation wrappers on it, SuperSuit's vector env over the parallel env)."""

from __future__ import annotations

import numpy as np
import pytest
from example_helpers import load_example

pytest.importorskip("supersuit", reason="pip install -e '.[supersuit]'")

import supersuit as ss  # noqa: E402
from pettingzoo.test import parallel_api_test  # noqa: E402

import got_env  # noqa: E402


def test_vector_env_steps_with_legal_actions_across_game_ends():
    example = load_example("supersuit_vec_env")
    out = example.run(steps=300, num_games=2, seed=0)
    size = got_env.raw_env().encoder.size + example.NUM_ACTIONS
    assert out["obs_shape"] == (6, 2 * size)  # 2 games x 3 houses, 2 stacked frames
    assert out["observation_space"].high.max() == 1.0  # normalized by the finite bounds
    assert out["done_slots"] >= 6 and out["done_slots"] % 3 == 0  # houses end together
    assert out["wins"] == out["done_slots"] // 3  # the final rewards come through


def test_box_view_holds_the_features_and_the_mask():
    example = load_example("supersuit_vec_env")
    env = example.box_observation(got_env.env(num_players=3))
    env.reset(seed=0)
    raw = env.unwrapped
    obs = env.observe(raw.agent_selection)
    space = env.observation_space(raw.agent_selection)
    assert np.isfinite(space.high).all() and space.contains(obs)
    assert np.flatnonzero(obs[-example.NUM_ACTIONS:]).tolist() == raw.legal_actions()
    assert np.array_equal(obs[:raw.encoder.size], raw.observe(raw.agent_selection)["observation"])


def test_wrapped_parallel_env_passes_pettingzoo_parallel_api_test():
    example = load_example("supersuit_vec_env")
    parallel_api_test(example.wrap(got_env.parallel_env(num_players=3, max_rounds=1)),
                      num_cycles=200)


def test_wrapped_aec_env_plays_games_in_its_space():
    """The same wrappers on the turn-based AEC env. (PettingZoo's api_test would step action 0
    in its action-flexibility check, since a Box observation carries no ``action_mask`` key.)"""
    example = load_example("supersuit_vec_env")
    env = example.wrap(got_env.env(num_players=3, max_rounds=1))
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    games = 0
    for _ in range(300):
        obs, _, term, trunc, _ = env.last()
        assert env.observation_space(env.agent_selection).contains(obs)
        if term or trunc:
            env.step(None)
            if not env.agents:
                games += 1
                env.reset(seed=games)
            continue
        env.step(int(example.masked_random_actions(obs[None], rng)[0]))
    assert games >= 2


def test_black_death_takes_the_box_view():
    """black_death_v3 refused the Dict observation; it takes the Box one (the example leaves it
    out: SuperSuit 3.11's black_death_v3 reports done only when terminated *and* truncated)."""
    example = load_example("supersuit_vec_env")
    env = ss.black_death_v3(example.box_observation(got_env.parallel_env(num_players=3)))
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    agents = list(env.possible_agents)
    for _ in range(20):
        actions = example.masked_random_actions(np.stack([obs[a] for a in agents]), rng)
        obs, *_ = env.step(dict(zip(agents, actions.tolist(), strict=True)))
    assert set(obs) == set(agents)
