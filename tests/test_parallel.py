"""The parallel API (got_env.parallel): PettingZoo's parallel tests, max_cycles, the round-robin
AEC view, and what aec_to_parallel does with each AEC env."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test
from pettingzoo.utils.conversions import aec_to_parallel

import got_env
import got_env.parallel


def masked_random(obs: dict, rng: np.random.Generator) -> dict[str, int]:
    """One legal action for the house with a mask, any index for the others (ignored)."""
    return {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any()
            else 0 for a, o in obs.items()}


def test_pettingzoo_parallel_api_test():
    parallel_api_test(got_env.parallel_env(num_players=3, max_rounds=1), num_cycles=400)


def test_pettingzoo_parallel_seed_test():
    parallel_seed_test(lambda: got_env.parallel_env(num_players=4), num_cycles=100)


def test_pettingzoo_max_cycles_test():
    """The module has what max_cycles_test wants: ``parallel_env(max_cycles=...)`` truncates
    after that many parallel steps, and ``env`` (the round-robin view) asks every house once a
    cycle, so each is asked max_cycles times and stepped once more when done."""
    max_cycles_test(got_env.parallel)


def test_round_robin_view_passes_the_aec_api_test():
    api_test(got_env.parallel.env(num_players=3, max_rounds=1), num_cycles=300)


def test_aec_to_parallel_of_the_round_robin_view_gives_the_parallel_env():
    par = aec_to_parallel(got_env.parallel.env(num_players=3, max_steps=40))
    assert isinstance(par, got_env.parallel_env)
    assert par.aec.max_steps == 40


def test_aec_to_parallel_refuses_the_turn_based_env():
    """The turn-based env asks only the house to act (the same house many times in a row), not
    each house once per cycle, so PettingZoo's generic converter would be wrong: it refuses
    (``is_parallelizable`` is False), and got_env.parallel_env is the parallel API."""
    assert got_env.env().metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(got_env.env(num_players=3))


def test_parallel_steps_are_the_aec_decisions():
    """Same seed, same actions: the parallel env's observations, rewards and game are the AEC
    env's; only ``actions[acting]`` counts."""
    par = got_env.parallel_env(num_players=3, max_rounds=1)
    aec = got_env.raw_env(num_players=3, max_rounds=1)
    obs, infos = par.reset(seed=7)
    aec.reset(seed=7)
    rng = np.random.default_rng(7)
    steps = 0
    while par.agents:
        acting = par.acting
        assert infos["stark"]["acting"] == par.possible_agents.index(acting)
        assert acting == aec.agent_selection
        for a in par.agents:
            assert np.array_equal(obs[a]["observation"], aec.observe(a)["observation"])
            assert obs[a]["action_mask"].any() == (a == acting)
        actions = masked_random(obs, rng)
        aec.step(actions[acting])
        obs, rewards, term, trunc, infos = par.step(actions)
        assert rewards == {a: aec.rewards[a] for a in rewards}
        steps += 1
    assert steps == len(aec.record.actions) and par.aec.game == aec.game
    assert all(term.values()) and sum(rewards.values()) == pytest.approx(0.0)
    assert infos["stark"]["acting"] == -1 and infos["stark"]["outcome"] in (1, 2)


def test_text_infos_name_the_acting_house():
    par = got_env.parallel_env(num_players=3, info_format="text", max_steps=3)
    obs, infos = par.reset(seed=0)
    assert infos["stark"]["acting"] == par.acting and isinstance(par.acting, str)
    rng = np.random.default_rng(0)
    for _ in range(3):
        obs, _, _, trunc, infos = par.step(masked_random(obs, rng))
    assert all(trunc.values()) and not par.agents
    assert infos["stark"]["acting"] is None and infos["stark"]["outcome"] == "truncated"


def test_missing_action_for_the_acting_house_is_a_clear_error():
    par = got_env.parallel_env(num_players=3)
    par.reset(seed=0)
    with pytest.raises(KeyError, match="the house to act"):
        par.step({})
