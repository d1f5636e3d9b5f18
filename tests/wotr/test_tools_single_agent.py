"""War of the Ring's single-agent Gymnasium env (issue 28 item 5): the kit's
:class:`boardkit.single_agent.SingleAgentEnv`, registered as ``wotr_env/WarOfTheRing-v0``, one
side learning against opponents named by agent spec; Gymnasium's ``check_env`` passes."""

from __future__ import annotations

import traceback
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import wotr_env.wrappers as W
from agents import RandomAgent
from boardkit.decision import IllegalActionError
from boardkit.single_agent import SingleAgentEnv as KitSingleAgentEnv

SIDES = ["free_peoples", "shadow"]


def assert_no_warnings(fn) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("kind", ["dict", "flat", "normalized"])
def test_check_env_passes_for_every_observation_kind(kind):
    # Gymnasium's any-action contract (check_env steps an action drawn before its reset)
    env = gymnasium.make(W.ENV_ID, max_turns=2, obs=kind, illegal_action="random")
    assert_no_warnings(lambda: check_env(env.unwrapped, skip_render_check=True))


def test_check_env_with_the_default_illegal_action():
    # as AGoT's (docs/wrappers.md): check_step_determinism steps an action sampled *before* its
    # seeded reset, legal in the state the previous checks left; where it is not legal in the
    # seeded start, the default refuses it there, and only there (every other check passes)
    env = gymnasium.make(W.ENV_ID, seat="shadow", max_turns=2)
    assert env.unwrapped.illegal_action == "raise"
    env.unwrapped.action_space.seed(0)  # the actions check_env samples: the same every run
    try:
        assert_no_warnings(lambda: check_env(env.unwrapped, skip_render_check=True))
    except IllegalActionError as err:
        frames = [f.name for f in traceback.extract_tb(err.__traceback__)]
        assert "check_step_determinism" in frames, frames


def test_registered_id_and_module_prefixed_make():
    assert W.ENV_ID == "wotr_env/WarOfTheRing-v0" and W.ENV_ID in gymnasium.registry
    env = gymnasium.make("wotr_env.wrappers:wotr_env/WarOfTheRing-v0", max_turns=1,
                         opponents="random", render_mode="ansi")
    raw = env.unwrapped
    assert isinstance(raw, W.SingleAgentEnv) and isinstance(raw, KitSingleAgentEnv)
    assert raw.game_name == "wotr" and raw.seats == SIDES
    assert raw.action_space.n == raw.aec.action_space("shadow").n
    obs, info = env.reset(seed=0)
    assert obs["observation"].shape == raw.aec.observation_space("shadow")["observation"].shape
    assert "turn 1" in env.render()


def play_out(env, seed: int, rng: np.random.Generator) -> tuple[list, float, dict, bool]:
    obs, info = env.reset(seed=seed)
    seen, total = [(env.learner, obs["observation"].copy())], 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        seen.append(action)
        if terminated or truncated:
            return seen, total, info, truncated


def test_a_seeded_game_is_the_same_game_and_the_side_rotates():
    env = W.SingleAgentEnv(max_turns=1, info_strings=True)
    a = play_out(env, 4, np.random.default_rng(0))
    b = play_out(env, 4, np.random.default_rng(0))
    assert a[0][0][0] == b[0][0][0] and np.array_equal(a[0][0][1], b[0][0][1])
    assert a[0][1:] == b[0][1:]
    seats = set()
    env.reset(seed=1)
    for _ in range(3):
        seats.add(env.learner)
        env.reset()
    assert seats == set(SIDES)
    _, total, info, truncated = a
    assert truncated and total == 0.0  # cut off at max_turns: no reward, the standing in infos
    assert info["outcome_name"] == "truncated" and info["rank"] in (0, 1)
    assert info["ranking_names"][info["rank"]] == info["seat_name"]
    assert info["seat"] == SIDES.index(info["seat_name"])


def test_opponents_by_spec_object_and_mapping():
    spec = W.SingleAgentEnv(seat="free_peoples", max_turns=1,
                            opponents={"name": "random"})
    spec.reset(seed=0)
    assert type(spec._agents["shadow"]).__name__ == "RandomAgent"
    given = RandomAgent(seed=3)
    obj = W.SingleAgentEnv(seat="shadow", max_turns=1, opponents={"free_peoples": given})
    obj.reset(seed=0)
    assert obj._agents["free_peoples"] is given and obj.learner == "shadow"
    with pytest.raises(ValueError, match="bad opponent 'no_such_agent'"):
        W.SingleAgentEnv(opponents="no_such_agent")
    with pytest.raises(ValueError, match="unknown seat 'mordor'"):
        W.SingleAgentEnv(seat="mordor")


def test_an_illegal_action_raises_by_default_and_is_replaced_on_request():
    env = W.SingleAgentEnv(seat="free_peoples", max_turns=1)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal for free_peoples"):
        env.step(illegal)
    env = W.SingleAgentEnv(seat="free_peoples", max_turns=1, illegal_action="random",
                           illegal_penalty=-0.5)
    env.reset(seed=0)
    _, reward, *_, info = env.step(illegal)
    assert info["illegal_action"] == 1 and reward == -0.5


def test_the_heuristic_as_opponent():
    """Optional: the game's heuristic by its registry name."""
    pytest.importorskip("wotr_env.agents.heuristic", reason="the War of the Ring heuristic is not "
                        "written yet")
    env = W.SingleAgentEnv(seat="free_peoples", max_turns=1, opponents="wotr_heuristic")
    *_, truncated = play_out(env, 2, np.random.default_rng(1))
    assert truncated
