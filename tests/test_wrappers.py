"""got_env.wrappers: the single-agent Gymnasium env, observation options and reward shaping."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import got_env
from agents import RandomAgent
from got_env.engine import IllegalActionError, OptionError
from got_env.wrappers import (
    ENV_ID,
    OBS_KINDS,
    AECObservationWrapper,
    ObservationTransform,
    PotentialShaping,
    PotentialShapingWrapper,
    SingleAgentEnv,
)


def first_legal(obs: object, mask: np.ndarray, info: dict) -> int:
    """A plain callable opponent: the lowest legal index."""
    return int(np.flatnonzero(mask)[0])


def play(env: SingleAgentEnv, seed: int, policy_seed: int = 0,
         max_steps: int = 100_000) -> list[tuple]:
    """One episode with a seeded random masked learner; (obs, reward, term, trunc, info) per
    step, the reset as the first entry."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    out = [(obs, 0.0, False, False, info)]
    for _ in range(max_steps):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        out.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            return out
    raise AssertionError("episode did not end")


def assert_no_warnings(fn: object) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    assert not caught, [str(w.message) for w in caught]


# -- Gymnasium API ------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", OBS_KINDS)
def test_check_env_passes_for_every_observation_kind(kind):
    # Gymnasium's any-action contract (check_env steps an action drawn before its reset)
    env = gymnasium.make(ENV_ID, num_players=3, obs=kind, illegal_action="random")
    # the render modes are made and rendered once (through the spec); the rest per kind
    assert_no_warnings(lambda: check_env(env.unwrapped, skip_render_check=kind != "dict"))


@pytest.mark.parametrize("num_players", [3, 4, 5, 6])
def test_check_env_with_the_default_illegal_action(num_players):
    # docs/wrappers.md: check_step_determinism steps an action sampled *before* its seeded reset
    # (drawn legal in the state the previous check left); at 3 players that action happens to be
    # legal in the seeded start too, at 4-6 it is not and the default refuses it
    env = gymnasium.make(ENV_ID, num_players=num_players)
    assert env.unwrapped.illegal_action == "raise"
    if num_players == 3:
        assert_no_warnings(lambda: check_env(env.unwrapped, skip_render_check=True))
        return
    with pytest.raises(IllegalActionError) as err:
        check_env(env.unwrapped, skip_render_check=True)
    assert "check_step_determinism" in [f.name for f in err.traceback]


def test_registered_id_and_module_prefixed_make():
    assert ENV_ID in gymnasium.registry
    env = gymnasium.make("got_env.wrappers:got_env/GameOfThrones-v0", num_players=4,
                         house="stark", obs="flat")
    obs, info = env.reset(seed=0)
    assert env.unwrapped.learner == "stark" and obs in env.observation_space
    assert env.get_wrapper_attr("action_masks")().sum() == info["num_legal"] > 0


def test_masks_equal_the_aec_mask_of_the_learner():
    env = SingleAgentEnv(num_players=3, max_rounds=2, obs="dict")
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=3)
    while True:
        aec = env.aec
        assert aec.agent_selection == env.learner
        expected = aec.observe(env.learner)["action_mask"]
        assert expected.any()
        np.testing.assert_array_equal(env.action_masks(), expected.astype(bool))
        np.testing.assert_array_equal(obs["action_mask"], expected)
        np.testing.assert_array_equal(info["action_mask"], expected)
        assert info["num_legal"] == expected.sum()
        assert info["decision"] == int(aec.game.pending.kind)
        assert env.action_masks()[env.action_space.sample()]  # sampling is legal
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(expected))))
        if terminated or truncated:
            break
    assert not env.action_masks().any() and not obs["action_mask"].any()


class Recorder:
    """An opponent with the Agent protocol that checks it is asked only for its own decisions."""

    def __init__(self, env: SingleAgentEnv, seed: int):
        self.env, self.rng = env, np.random.default_rng(seed)
        self.houses: list[str] = []
        self.calls: list[str] = []

    def reset(self) -> None:
        self.calls.append("reset")

    def observe_end(self, reward: float, info: dict) -> None:
        self.calls.append("end")

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict) -> int:
        aec = self.env.aec
        house = aec.agent_selection
        assert house != self.env.learner
        np.testing.assert_array_equal(action_mask, aec.observe(house)["action_mask"])
        np.testing.assert_array_equal(observation, aec.observe(house)["observation"])
        self.houses.append(house)
        return int(self.rng.choice(np.flatnonzero(action_mask)))


def test_opponents_act_only_for_their_own_decisions_and_the_game_ends():
    env = SingleAgentEnv(num_players=3, house="lannister")
    recorders = [Recorder(env, 0), Recorder(env, 1)]
    env = SingleAgentEnv(num_players=3, house="lannister", opponents=recorders)
    for r in recorders:
        r.env = env
    steps = play(env, seed=11)
    _, _, terminated, truncated, info = steps[-1]
    assert terminated and not truncated
    assert info["outcome"] in (1, 2) and info["rank"] in (0, 1, 2)  # seven castles, last round
    # the list seats opponents in table order after the learner
    assert set(recorders[0].houses) == {"baratheon"} and set(recorders[1].houses) == {"stark"}
    assert len(steps) - 1 + sum(len(r.houses) for r in recorders) == len(env.aec.record.actions)
    for r in recorders:
        assert r.calls == ["reset", "end"]
    assert sum(s[1] for s in steps) == env.aec._cumulative_rewards["lannister"] == pytest.approx(
        1.0 if info["rank"] == 0 else -0.5)


def test_plain_callable_and_house_mapping_opponents():
    env = SingleAgentEnv(num_players=3, max_rounds=1, house="stark",
                         opponents={"lannister": first_legal, "baratheon": "random"})
    steps = play(env, seed=0)
    assert steps[-1][2]
    env = SingleAgentEnv(num_players=4, max_rounds=1, opponents=RandomAgent(seed=3))
    assert play(env, seed=1)[-1][2]


def test_registry_opponents_are_built_each_game_with_the_env():
    SingleAgentEnv(num_players=3, opponents="heuristic")  # checked when the env is built
    SingleAgentEnv(num_players=3, opponents=["heuristic", {"name": "random"}])
    env = SingleAgentEnv(num_players=3, opponents="random")
    env.reset(seed=0)
    built = dict(env._agents)
    assert {type(a).__name__ for a in built.values()} == {"RandomAgent"}
    env.reset(seed=0)
    assert all(a is not built[h] for h, a in env._agents.items())


def test_rotation_changes_the_learning_house_and_is_seeded():
    def learners(seed: int, games: int = 6) -> list[str]:
        env = SingleAgentEnv(num_players=3, max_rounds=1)
        out = []
        for g in range(games):
            env.reset(seed=seed if g == 0 else None)
            out.append(env.learner)
        return out

    seq = learners(7)
    # a different house at every reset
    assert all(a != b for a, b in zip(seq, seq[1:], strict=False))
    assert set(seq[:3]) == {"stark", "lannister", "baratheon"}
    assert learners(7) == seq
    assert len({learners(s, 1)[0] for s in range(12)}) > 1  # the start depends on the seed
    fixed = SingleAgentEnv(num_players=3, house="baratheon")
    for s in range(3):
        fixed.reset(seed=s)
        assert fixed.learner == "baratheon"
    fixed.reset(options={"house": "stark"})
    assert fixed.learner == "stark"


def test_a_seeded_reset_is_deterministic():
    a = play(SingleAgentEnv(num_players=4, max_rounds=2, obs="flat"), seed=5)
    b = play(SingleAgentEnv(num_players=4, max_rounds=2, obs="flat"), seed=5)
    assert len(a) == len(b)
    for (oa, ra, ta, ua, ia), (ob, rb, tb, ub, ib) in zip(a, b, strict=True):
        np.testing.assert_array_equal(oa, ob)
        assert (ra, ta, ua) == (rb, tb, ub)
        assert ia.keys() == ib.keys()
    c = play(SingleAgentEnv(num_players=4, max_rounds=2, obs="flat"), seed=6)
    assert len(c) != len(a) or any(not np.array_equal(x[0], y[0])
                                   for x, y in zip(a, c, strict=False))


def test_infos_are_numbers_with_the_same_keys_unless_strings_are_asked_for():
    steps = play(SingleAgentEnv(num_players=3, max_rounds=1), seed=2)
    keys = steps[0][4].keys()
    for *_, info in steps:
        assert info.keys() == keys
        for key, value in info.items():
            assert isinstance(value, (int, float, np.ndarray)), (key, value)
    end = steps[-1][4]
    assert end["outcome"] == 2 and end["decision"] == 0  # last-round (max_rounds=1)
    assert sorted(end["ranking"].tolist()) == [0, 1, 2] and end["winner"] == end["ranking"][0]
    env = SingleAgentEnv(num_players=3, max_rounds=1, info_strings=True)
    steps = play(env, seed=2)
    assert steps[0][4]["decision_name"].startswith("D-") and steps[0][4]["house_name"] in (
        "stark", "lannister", "baratheon")
    assert steps[-1][4]["outcome_name"] == "last-round"
    assert steps[-1][4]["winner_name"] == steps[-1][4]["ranking_names"][0]


def test_truncation_by_max_steps():
    steps = play(SingleAgentEnv(num_players=3, max_steps=40), seed=0)
    _, reward, terminated, truncated, info = steps[-1]
    assert truncated and not terminated and reward == 0.0
    assert info["outcome"] == 3  # truncated


def test_illegal_actions_are_replaced_and_flagged_or_raise():
    env = SingleAgentEnv(num_players=3, illegal_action="random", illegal_penalty=-0.1)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, _, _, info = env.step(illegal)
    assert info["illegal_action"] == 1 and reward == pytest.approx(-0.1)
    _, _, _, _, info = env.step(np.int64(np.flatnonzero(env.action_masks())[0]))
    assert info["illegal_action"] == 0
    for bad in (1.0, True, -1, 1725, "3"):
        with pytest.raises(IllegalActionError, match="action"):
            env.step(bad)
    strict = SingleAgentEnv(num_players=3)  # the default
    strict.reset(seed=0)
    illegal = int(np.flatnonzero(~strict.action_masks())[0])
    with pytest.raises(IllegalActionError, match=f"action {illegal} "):
        strict.step(illegal)


def test_step_after_the_end_asks_for_reset():
    env = SingleAgentEnv(num_players=3, max_rounds=1)
    play(env, seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


# -- observation options ------------------------------------------------------------------------
def test_normalized_observations_lie_in_the_unit_interval():
    flat = play(SingleAgentEnv(num_players=3, max_rounds=3, obs="flat"), seed=4)
    norm_env = SingleAgentEnv(num_players=3, max_rounds=3, obs="normalized")
    norm = play(norm_env, seed=4)
    high = norm_env.aec.encoder.high
    for (f, *_), (n, *_) in zip(flat, norm, strict=True):
        assert n.dtype == np.float32 and n in norm_env.observation_space
        assert n.min() >= 0.0 and n.max() <= 1.0
        np.testing.assert_allclose(n, f / high, rtol=1e-6)
    assert max(n.max() for n, *_ in norm) > 0.5


def test_structured_observation_shapes_and_content():
    env = SingleAgentEnv(num_players=3, max_rounds=1, obs="structured")
    enc, rs = env.aec.encoder, env.aec.ruleset
    t = env.transform
    A = rs.num_areas
    k = sum(p.size // A for p in enc.layout if p.shape[0] == A)
    obs, _ = env.reset(seed=0)
    assert obs["areas"].shape == (A, k) and env.observation_space["areas"].shape == (A, k)
    assert obs["globals"].shape == (enc.size - A * k,)
    assert obs["adjacency"].shape == (A, A)
    np.testing.assert_array_equal(obs["adjacency"], rs.adjacency.astype(np.float32))
    assert obs in env.observation_space
    vector = env.aec.observe(env.learner)["observation"]
    np.testing.assert_array_equal(t.flatten(obs), vector)  # nothing added, nothing dropped
    units = enc.views(vector)["units"].reshape(A, -1)
    np.testing.assert_array_equal(obs["areas"][:, t.area_columns["units"]], units)
    np.testing.assert_array_equal(obs["globals"][t.global_columns["power"]],
                                  enc.views(vector)["power"])
    assert sum(s.stop - s.start for s in t.area_columns.values()) == k


@pytest.mark.parametrize("kind", OBS_KINDS)
def test_aec_observation_wrapper(kind):
    env = AECObservationWrapper(got_env.env(num_players=3, max_rounds=1), obs=kind)
    env.reset(seed=0)
    agents = {h: RandomAgent(i) for i, h in enumerate(env.possible_agents)}
    for agent in env.agent_iter(60):
        obs, _, term, trunc, info = env.last()
        assert obs in env.observation_space(agent)
        np.testing.assert_array_equal(obs["action_mask"],
                                      env.unwrapped.observe(agent)["action_mask"])
        env.step(None if term or trunc else agents[agent].act(None, obs["action_mask"], info))


@pytest.mark.parametrize("wrap", ["structured", "normalized", "shaping"])
def test_aec_wrappers_pass_pettingzoo_api_test(wrap):
    env = got_env.env(num_players=3, max_rounds=1)
    env = (PotentialShapingWrapper(env) if wrap == "shaping"
           else AECObservationWrapper(env, obs=wrap))
    with warnings.catch_warnings():
        # its advice on agent names and observation types, and its module's deprecation notice
        warnings.simplefilter("ignore")
        from pettingzoo.test import api_test

        api_test(env, num_cycles=100)


def test_transform_is_reusable_on_a_plain_vector():
    rs = got_env.raw_env(num_players=3).ruleset
    t = ObservationTransform("normalized", rs)
    vector = t.encoder.high.copy()
    np.testing.assert_array_equal(t(vector, np.zeros(1725, np.int8)), np.ones_like(vector))


# -- shaping ------------------------------------------------------------------------------------
def discounted(rewards: list[float], gamma: float) -> float:
    return sum(gamma**t * r for t, r in enumerate(rewards))


@pytest.mark.parametrize("gamma", [1.0, 0.9])
@pytest.mark.parametrize("max_steps", [None, 60])
def test_single_agent_shaping_is_potential_based(gamma, max_steps):
    """Shaped return = unshaped return + gamma**T * Phi(s_T) - Phi(s_0) on the same game, with
    Phi(s_T) = 0 when the game ended: the same constant for every policy."""
    opts = {"num_players": 3, "max_rounds": 3, "max_steps": max_steps}
    plain = play(SingleAgentEnv(**opts), seed=9)
    shaping = PotentialShaping(castles=1.0, supply=0.5, gamma=gamma)
    shaped = play(SingleAgentEnv(shaping=shaping, **opts), seed=9)
    assert len(plain) == len(shaped)
    for p, s in zip(plain, shaped, strict=True):
        np.testing.assert_array_equal(p[0]["observation"], s[0]["observation"])
    r_plain = [s[1] for s in plain[1:]]
    r_shaped = [s[1] for s in shaped[1:]]
    phi_0, phi_T = shaped[0][4]["potential"], shaped[-1][4]["potential"]
    T = len(r_shaped)
    assert phi_0 > 0
    terminated = shaped[-1][2]
    assert terminated == (max_steps is None) and (phi_T == 0.0) == terminated
    assert discounted(r_shaped, gamma) == pytest.approx(
        discounted(r_plain, gamma) + gamma**T * phi_T - phi_0, abs=1e-9)
    assert [s[1] - s[4]["shaping"] for s in shaped[1:]] == pytest.approx(r_plain, abs=1e-12)
    if gamma == 1.0 and terminated:  # the sums differ by the start's potential only
        assert sum(r_shaped) == pytest.approx(sum(r_plain) - phi_0, abs=1e-9)


def play_aec(env: object, seed: int) -> dict[str, list[float]]:
    """Random play on an AEC env; per house, the reward ``last()`` shows at each of its turns
    (the first is before any action) and at its final, done turn."""
    env.reset(seed=seed)
    agents = {h: RandomAgent(i) for i, h in enumerate(env.possible_agents)}
    seen: dict[str, list[float]] = {h: [] for h in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        seen[agent].append(reward)
        env.step(None if term or trunc else agents[agent].act(None, obs["action_mask"], info))
    return seen


@pytest.mark.parametrize("gamma", [1.0, 0.95])
def test_aec_shaping_is_potential_based_per_house(gamma):
    shaping = PotentialShaping(gamma=gamma)
    plain = play_aec(got_env.env(num_players=3, max_rounds=2), seed=1)
    wrapped = PotentialShapingWrapper(got_env.env(num_players=3, max_rounds=2), shaping)
    # each house's Phi at its first decision (the start of its own episode)
    first: dict[str, float] = {}
    raw = wrapped.unwrapped
    original = raw._select_agent

    def note() -> None:
        original()
        house = raw.agent_selection
        if raw.game.pending is not None and house not in first:
            first[house] = shaping.phi(raw.game, raw.ruleset.house(house))

    raw._select_agent = note
    shaped = play_aec(wrapped, seed=1)
    for house in plain:
        p, s = plain[house], shaped[house]
        assert len(p) == len(s) and p[0] == s[0] == 0.0
        g_plain, g_shaped = discounted(p[1:], gamma), discounted(s[1:], gamma)
        assert g_shaped == pytest.approx(g_plain - first[house], abs=1e-9), house


def test_default_is_unshaped_and_shaping_specs():
    env = SingleAgentEnv(num_players=3)
    assert env.shaping is None
    assert SingleAgentEnv(num_players=3, shaping=True).shaping == PotentialShaping()
    s = SingleAgentEnv(num_players=3, shaping={"supply": 0.0, "gamma": 1.0}).shaping
    assert (s.castles, s.supply, s.gamma) == (1.0, 0.0, 1.0)
    custom = PotentialShaping(potential=lambda state, house: 2.0, gamma=1.0)
    steps = play(SingleAgentEnv(num_players=3, max_rounds=1, shaping=custom), seed=0)
    assert steps[0][4]["potential"] == 2.0 and steps[1][4]["shaping"] == pytest.approx(0.0)


# -- errors -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "match"), [
    ({"house": "martell"}, "'martell'.*3-player"),
    ({"house": "nobody"}, "'nobody'"),
    ({"obs": "pixels"}, "'pixels'"),
    ({"opponents": "nope"}, "'nope'"),
    ({"opponents": RandomAgent}, "RandomAgent.*instance"),
    ({"opponents": 42}, "42"),
    ({"opponents": ["random"]}, "list of 1, expected 2"),
    ({"opponents": ["random", "nope2"]}, "'nope2'.*opponent 1"),
    ({"opponents": {"stark": "random", "lannister": "random"}}, "baratheon"),
    ({"opponents": {"stark": "random", "martell": "random"}}, "martell"),
    ({"shaping": {"gamma": 2.0}}, "gamma.*2.0"),
    ({"shaping": {"castle": 1.0}}, "'castle'"),
    ({"shaping": "castles!"}, "castles!"),
    ({"illegal_action": "ignore"}, "'ignore'"),
    ({"num_players": 7}, "7"),
])
def test_bad_options_raise_errors_naming_the_value(options, match):
    with pytest.raises(ValueError, match=match):
        SingleAgentEnv(**{"num_players": 3, **options})


def test_bad_reset_options_name_the_value():
    env = SingleAgentEnv(num_players=3)
    with pytest.raises(OptionError, match="'tyrell'"):
        env.reset(options={"house": "tyrell"})
    with pytest.raises(OptionError, match="'colour'"):
        env.reset(options={"colour": "red"})


def test_bad_aec_wrapper_options():
    with pytest.raises(ValueError, match="'pixels'"):
        AECObservationWrapper(got_env.env(num_players=3), obs="pixels")
    with pytest.raises(ValueError, match="None"):
        PotentialShapingWrapper(got_env.env(num_players=3), None)
