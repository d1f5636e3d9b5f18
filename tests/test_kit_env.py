"""The kit's AEC env base (boardkit.aec.KitEnv) as a game other than AGoT gets it: Goofspiel on
the same mechanism as AGoT's env (order enforcing, legal sampling, reward schemes, truncation,
infos, illegal-action errors, render modes, clone, observe_into), the one IllegalActionError
class, and the public ``turn_info`` the batched API rebuilds infos with."""

from __future__ import annotations

import numpy as np
import pytest

import boardkit
import goofspiel
import got_env
from boardkit.aec import ENV_OPTIONS, KitEnv, decode_table, max_steps_option
from boardkit.order import OrderEnforcing
from boardkit.rewards import end_rewards
from boardkit.spaces import LegalActions
from boardkit.vector_shard import rebuilds_infos
from goofspiel import GAME


def played(env: KitEnv, seed: int, rng: np.random.Generator) -> None:
    """A random masked game on the raw env, to its end (or truncation)."""
    env.reset(seed=seed)
    while not (any(env.terminations.values()) or any(env.truncations.values())):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)
                                               ["action_mask"]))))


def test_agot_and_goofspiel_envs_are_the_kits_env():
    for raw in (got_env.raw_env(num_players=3), goofspiel.raw_env(num_players=3)):
        assert isinstance(raw, KitEnv)
        assert isinstance(raw.action_space(raw.possible_agents[0]), LegalActions)
    agot = got_env.raw_env()
    assert agot.game_name == "got" and agot.rules is boardkit.games.get("got")
    assert isinstance(got_env.env(), OrderEnforcing) and isinstance(goofspiel.env(),
                                                                    OrderEnforcing)
    # the names got_env.env had stay there, the same objects
    from got_env.env import LegalActions as L
    from got_env.env import OrderEnforcing as O
    from got_env.env import end_rewards as R

    assert (O, L, R) == (OrderEnforcing, LegalActions, end_rewards)


def test_one_illegal_action_error_for_every_game():
    from got_env.engine import IllegalActionError
    from got_env.engine.decision import IllegalActionError as FromDecision

    assert IllegalActionError is FromDecision is boardkit.IllegalActionError
    env = goofspiel.raw_env(num_players=2, num_cards=4)
    env.reset(seed=0)
    hand = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError, match=r"action 7 for agent player_0 is outside"):
        env.step(7)
    with pytest.raises(IllegalActionError, match=r"not an action index"):
        env.step(1.0)
    assert hand.all()  # every card is legal at first: play one, then it is gone
    env.step(2)
    env.step(0)  # player 1 bids; the reveal: player 0 to bid again, card 3 played
    with pytest.raises(IllegalActionError, match=r"action 2 \(bid 3\) is not legal for bid of "
                                                 r"player_0"):
        env.step(2)
    with pytest.raises(ValueError):  # still a ValueError, as before
        env.step(2)
    assert env.steps == 2 and env.agent_selection == "player_0"


@pytest.mark.parametrize("scheme", ["zero_sum", "rank"])
def test_goofspiel_pays_the_kits_reward_schemes(scheme):
    rng = np.random.default_rng(1)
    for seed in range(4):
        env = goofspiel.raw_env(num_players=3, num_cards=5, reward=scheme)
        played(env, seed, rng)
        info = env.infos["player_0"]
        ranking, drawn = info["ranking"], info.get("draw", [])
        assert info["outcome"] == "end" and info["winner"] == ranking[0]
        shares = end_rewards(scheme, 3, max(1, len(drawn)))
        assert env.rewards == {a: shares[ranking.index(a)] for a in env.possible_agents}
        assert abs(sum(env.rewards.values())) < 1e-9
    with pytest.raises(ValueError, match="reward must be one of"):
        goofspiel.raw_env(reward="castles")  # AGoT's own scheme


def test_goofspiel_truncates_with_its_standing_and_no_reward():
    env = goofspiel.raw_env(num_players=2, num_cards=5, max_cycles=4)
    assert env.max_steps == 4
    played(env, 0, np.random.default_rng(0))
    assert env.steps == 4 and all(env.truncations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    points = env.game.points
    info = env.infos["player_1"]
    assert info["outcome"] == "truncated" and "draw" not in info
    assert info["ranking"] == sorted(env.possible_agents, key=lambda a: -points[int(a[-1])])
    with pytest.raises(ValueError, match="another name for max_steps"):
        goofspiel.raw_env(max_steps=3, max_cycles=4)


def test_goofspiel_infos_name_the_decision_and_the_idle_agents_have_none():
    env = goofspiel.raw_env(num_players=3, num_cards=4)
    env.reset(seed=2)
    assert env.infos == {"player_0": {"decision": "bid", "num_legal": 4},
                         "player_1": {}, "player_2": {}}
    env.step(0)
    assert env.infos == {"player_0": {}, "player_1": {"decision": "bid", "num_legal": 4},
                         "player_2": {}}
    assert env.turn_info(GAME.pending(env.game).kind, 3) == {"decision": "bid",
                                                             "num_legal": 3}


def test_legal_sampling_clone_and_observe_into():
    env = goofspiel.raw_env(num_players=2, num_cards=6)
    env.reset(seed=3)
    env.step(int(env.action_space("player_0").sample()))
    for _ in range(20):  # player 1's legal actions: all six; player 0 is not to act
        assert env.action_space("player_1").sample() in env.legal_actions()
    twin = env.clone()
    twin.step(0)
    assert env.steps == 1 and twin.steps == 2 and GAME.digest(env.game) != GAME.digest(twin.game)
    obs = np.full(env.encoder.size, 9, np.float32)
    mask = np.full(env.codec.size, 9, np.int8)
    env.observe_into("player_0", obs, mask)
    seen = env.observe("player_0")
    assert np.array_equal(obs, seen["observation"]) and not mask.any()
    with pytest.raises(KeyError, match="unknown agent"):
        env.observe("player_9")


def test_render_modes():
    env = goofspiel.raw_env(num_players=2, num_cards=3, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    with pytest.raises(ValueError, match="render_mode must be one of"):
        goofspiel.raw_env(render_mode="rgb_array")  # Goofspiel has no picture


def test_the_batched_api_rebuilds_infos_only_for_numbered_kinds():
    """``turn_info`` is public on every env; a batch sends infos as two numbers only where the
    kinds are numbers (AGoT's), in either of AGoT's info formats."""
    assert not rebuilds_infos(goofspiel.raw_env())
    for fmt in ("numeric", "text"):
        env = got_env.raw_env(num_players=3, info_format=fmt)
        env.reset(seed=0)
        d = env.game.pending
        assert rebuilds_infos(env)
        assert env.turn_info(int(d.kind), len(d.options)) == env.infos[env.agent_selection]
        assert env.turn_info(d.kind, len(d.options)) == env.infos[env.agent_selection]


def test_env_options_and_tables():
    assert set(ENV_OPTIONS) == {"reward", "max_steps", "max_cycles", "render_mode",
                                "info_format"}
    with pytest.raises(TypeError, match="unknown env option"):
        KitEnv(GAME, {"num_players": 2}, colour="red")
    assert max_steps_option({}) is None and max_steps_option({"max_cycles": 5}) == 5
    with pytest.raises(KeyError):
        max_steps_option({"max_steps": 0}, KeyError)
    codec = GAME.codec(GAME.new_state(0, {"num_cards": 4}))
    assert decode_table(codec) == (0, 1, 2, 3)
    agot = got_env.raw_env(num_players=3)
    assert decode_table(agot.codec) is agot.codec.actions
