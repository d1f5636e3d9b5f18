"""The plan-level search agent (agents/plan_search.py): legal play in all three games, a move that
depends only on the seat's information set, commitment to the chosen plan, the value hook (its
own and IS-MCTS's), options refused by name, determinism under a seed, the games' pieces."""

from __future__ import annotations

import numpy as np
import pytest

import got_env
from agents import REGISTRY, AgentSpecError, RandomAgent, make_agent
from agents.ismcts import ISMCTS, value_reward
from agents.plan_search import PlanSearchAgent, search_piece
from boardkit import envs, games
from got_env import engine
from got_env.engine import DecisionKind, apply
from got_env.engine.determinize import determinize


def play(env, agents, seed, until=None):
    """Play ``env`` from ``reset(seed)`` with ``agents`` (name -> agent) to the end, or until
    ``until(env)`` holds before an agent acts."""
    env.reset(seed=seed)
    for name in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        if until is not None and until(env):
            return
        env.step(agents[name].act(obs["observation"], obs["action_mask"], info))


def v2_seats(env, seed=0):
    return {h: REGISTRY["heuristic_v2"](env=env, seed=seed + i)
            for i, h in enumerate(env.possible_agents)}


# -- legal play in every game --------------------------------------------------------------------


def test_agot_game_plays_legally():
    """One plan-search seat (2 plans, 1 rollout) against two v2 in a 2-round 3-player game: the
    env raises on an illegal action; plan starts were searched."""
    env = got_env.env(num_players=3, max_rounds=2)
    agents = v2_seats(env)
    agents["stark"] = PlanSearchAgent(env=env, plans=2, rollouts=1, seed=0)
    play(env, agents, seed=1)
    assert env.unwrapped.game.outcome is not None
    assert agents["stark"].searches > 0


def test_goofspiel_game_plays_legally_with_the_defaults():
    """Goofspiel has no search piece: every decision a plan start, random play the base policy,
    the horizon the seat's next decision (the others' answers played)."""
    piece = search_piece(games.get("goofspiel"))
    assert piece.horizon == 1 and piece.base_policy is None
    env = envs.make_env("goofspiel", num_players=2, num_cards=5)
    agent = PlanSearchAgent(env=env, plans=3, rollouts=2, seed=0)
    assert agent.base_kind == "random" and agent.horizon == 1
    play(env, {"player_0": agent, "player_1": RandomAgent(seed=1)}, seed=3)
    assert env.unwrapped.game.pending is None
    assert agent.searches >= 3


def test_wotr_plays_legally():
    """War of the Ring, 2 turns, one plan-search side (2 plans, 1 rollout) against the heuristic:
    its piece starts plans at the Hunt allocation and the first die of a turn."""
    env = envs.make_env("wotr", ruleset="2e", max_turns=2)
    piece = search_piece(games.get("wotr"))
    assert piece.base_policy == "wotr_heuristic" and piece.horizon == "round" and piece.widen
    seats = env.possible_agents
    agents = {seats[0]: PlanSearchAgent(env=env, plans=2, rollouts=1, seed=0),
              seats[1]: REGISTRY["wotr_heuristic"](env=env, seed=1)}
    play(env, agents, seed=2)
    assert agents[seats[0]].searches > 0


def test_a_whole_game_is_the_same_under_the_same_seed():
    """Goofspiel, 3 players, twice from the same seeds: the same actions; another seed of the
    search: other actions somewhere."""
    def actions(search_seed):
        env = envs.make_env("goofspiel", num_players=3, num_cards=5)
        agents = {a: RandomAgent(seed=i) for i, a in enumerate(env.possible_agents)}
        agents["player_1"] = PlanSearchAgent(env=env, plans=4, rollouts=3, seed=search_seed)
        played = []
        env.reset(seed=11)
        for name in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            a = None if term or trunc else agents[name].act(obs["observation"],
                                                            obs["action_mask"], info)
            played.append(a)
            env.step(a)
        return played

    assert actions(1) == actions(1)
    assert any(actions(s) != actions(1) for s in (2, 3, 4))


# -- the search ---------------------------------------------------------------------------------


def hidden_position():
    """3 players, Planning: the first house has placed its orders (hidden from the second, whose
    first order placement, a plan start, is pending)."""
    rng = np.random.default_rng(4)
    state = engine.start_game(3, seed=4)
    first = state.pending.player
    while state.pending.player == first:
        d = state.pending
        apply(state, d.options[int(rng.integers(len(d.options)))])
    return state


def searcher(**kw):
    """A small search; temperature 3, since v2's first-round orders vary little at its default
    noise (1: one distinct plan in this position)."""
    env = got_env.raw_env(num_players=3)
    return PlanSearchAgent(env=env, **{"plans": 3, "rollouts": 2, "seed": 5, "temperature": 3.0,
                                       **kw})


def test_agot_piece_starts_plans_where_v2_commits():
    state = hidden_position()
    piece = search_piece(games.get("got"))
    assert piece.base_policy == "heuristic_v2" and piece.horizon == "round"
    assert state.pending.kind == DecisionKind.PLACE_ORDERS
    assert piece.plan_start(state, state.pending)          # the house's first placement
    apply(state, state.pending.options[0])
    assert state.pending.kind == DecisionKind.PLACE_ORDERS
    assert not piece.plan_start(state, state.pending)      # its second


def test_search_depends_only_on_the_information_set():
    """Two true states the deciding house cannot tell apart (the other house's hidden orders,
    deck orders and generator differ) give the same candidates, means and choice."""
    state = hidden_position()
    house = state.pending.player
    other = determinize(state, house, 123)
    assert not np.array_equal(state.orders, other.orders) or \
        not np.array_equal(state.westeros_decks, other.westeros_decks)
    results = []
    for s in (state, other):
        agent = searcher()
        chosen = agent.search(s, house)
        results.append((chosen, agent.last_candidates, agent.last_means))
    assert results[0] == results[1]
    assert len(results[0][1]) > 1 and len(results[0][2]) == len(results[0][1])


def test_search_leaves_the_true_state_alone_and_is_seeded():
    state = hidden_position()
    before = state.clone()
    a, b = searcher(), searcher()
    assert a.search(state, state.pending.player) == b.search(state, state.pending.player)
    assert a.last_means == b.last_means
    assert state == before
    c = searcher(seed=6)
    c.search(state, state.pending.player)
    assert c.last_candidates != a.last_candidates   # other seeds, other plans


def test_candidates_are_distinct_plans_and_candidate_zero_is_v2_at_temperature_zero():
    state = hidden_position()
    agent = searcher(plans=4)
    agent.search(state, state.pending.player)
    cands = agent.last_candidates
    assert cands[0].options == {"temperature": 0.0} and cands[0].first is None
    assert all(c.options == {"temperature": 3.0} for c in cands[1:])
    sample = agent.game.clone(state)
    signatures = [agent._signature(sample, state.pending.player, c) for c in cands]
    assert len(set(signatures)) == len(signatures)


def test_commits_to_the_chosen_plan():
    """After choosing candidate k (here the last one: the rollouts are rigged to favour it), the
    seat's next decisions of the plan are candidate k's own (an agent of its seed and options,
    fed the same observations), until the round ends or another plan starts."""
    env = got_env.raw_env(num_players=3)
    seats = v2_seats(env)
    piece = search_piece(games.get("got"))
    house = "lannister"
    play(env, seats, seed=7, until=lambda e: e.agent_selection == house
         and e.game.pending.kind == DecisionKind.PLACE_ORDERS)
    agent = PlanSearchAgent(env=env, plans=4, rollouts=1, seed=3, temperature=3.0)
    agent._rollout = lambda s, seat, c, seed: float(agent.last_candidates.index(c))
    shadow = None
    compared = 0
    start_round = env.game.round
    for name in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc or env.game.round != start_round:
            break
        if name != house:
            env.step(seats[name].act(obs["observation"], obs["action_mask"], info))
            continue
        if shadow is not None and piece.plan_start(env.game, env.game.pending) \
                and env.game.pending.options and len(env.game.pending.options) > 1:
            break                                   # a new plan starts here
        action = agent.act(obs["observation"], obs["action_mask"], info)
        if shadow is None:
            k = agent.last_choice
            assert k == len(agent.last_candidates) - 1 > 0
            chosen = agent.last_candidates[k]
            shadow = REGISTRY["heuristic_v2"](env=env, seed=chosen.seed, **chosen.options)
        assert action == shadow.act(obs["observation"], obs["action_mask"], info)
        compared += 1
        env.step(action)
    assert compared >= 2


def test_value_function_scores_the_rollouts():
    """``value=``: a callable on the seats' observations scores every rollout cut at the horizon
    (here: all seats equal, so every candidate's mean is 1/3 and candidate 0 is kept)."""
    calls = []

    def value(observations):
        calls.append(observations.shape)
        return np.ones(len(observations))

    state = hidden_position()
    agent = searcher(value=value)
    chosen = agent.search(state, state.pending.player)
    assert calls and all(shape[0] == 3 for shape in calls)
    assert agent.last_means == pytest.approx([1 / 3] * len(agent.last_candidates))
    assert chosen == agent.last_candidates[0]


def test_value_reward_shares_and_the_ended_game():
    state = hidden_position()
    seats = np.flatnonzero(state.in_play)
    reward = value_reward(state, lambda obs: np.arange(1.0, len(obs) + 1), "got")
    assert reward[seats] == pytest.approx(np.arange(1.0, 4.0) / 6) and reward.sum() == 1
    with pytest.raises(ValueError, match="one finite number per observation"):
        value_reward(state, lambda obs: np.ones(2), "got")


def test_ismcts_uses_the_value_hook_and_keeps_its_default():
    calls = []

    def value(observations):
        calls.append(len(observations))
        return np.ones(len(observations))

    state = hidden_position()
    house = state.pending.player
    m = ISMCTS(game="got", simulations=12, seed=1, value=value)
    m.search(state, house)
    assert calls
    means = [ch.mean for ch in m.last_root.children.values() if ch.visits]
    assert means == pytest.approx([1 / 3] * len(means))
    default = ISMCTS(game="got", simulations=12, seed=1)
    assert default.value is None
    default.search(state, house)
    assert any(ch.mean != pytest.approx(1 / 3) for ch in default.last_root.children.values()
               if ch.visits)


# -- options and registration --------------------------------------------------------------------


@pytest.mark.parametrize("kwargs,named", [
    ({"plans": 0}, "plans"), ({"rollouts": -1}, "rollouts"), ({"plans": 2.5}, "plans"),
    ({"temperature": -1.0}, "temperature"), ({"horizon": "turn"}, "horizon"),
    ({"horizon": 0}, "horizon"), ({"value": 5}, "value"), ({"base": "no-such-agent"}, "base"),
    ({"widen": "yes"}, "widen"),
])
def test_bad_options_refused_naming_them(kwargs, named):
    with pytest.raises(ValueError, match=named):
        PlanSearchAgent.check_options(kwargs)
    with pytest.raises(ValueError, match=named):
        PlanSearchAgent(env=got_env.raw_env(num_players=3), **kwargs)
    with pytest.raises(AgentSpecError, match=named):
        make_agent({"name": "plan_search", "kwargs": kwargs}, env=got_env.raw_env(num_players=3))


def test_registered_and_seated_with_the_env():
    assert REGISTRY["plan_search"] is PlanSearchAgent
    env = got_env.raw_env(num_players=3)
    agent = make_agent({"name": "plan_search", "kwargs": {"plans": 2, "rollouts": 1}}, env=env)
    assert isinstance(agent, PlanSearchAgent) and agent.env is env
    assert agent.base_kind == "heuristic_v2"


def test_value_checkpoint_path_needs_the_loader():
    """A path is read by agents.value.load_value (the value branch's loader); without it, a clear
    error naming the path."""
    import importlib.util

    if importlib.util.find_spec("agents.value") is not None:
        pytest.skip("the value loader is installed")
    with pytest.raises(ValueError, match="value.pt"):
        PlanSearchAgent(env=got_env.raw_env(num_players=3), value="value.pt")


def test_the_config_plays(tmp_path):
    """configs/plan_search_vs_v2.yaml: 300 games from seed 3900, plan_search against two v2,
    houses rotated; one game of it played at 1 round with a tiny search."""
    from pathlib import Path

    import yaml

    from experiments.tournament.config import load_config, parse_config
    from experiments.tournament.run import run_tournament

    path = Path(__file__).resolve().parent.parent / "configs" / "plan_search_vs_v2.yaml"
    cfg = load_config(path, out=tmp_path)
    assert (cfg.games, cfg.seed, cfg.num_players) == (300, 3900, 3)
    assert cfg.lineups == (("plan_search", "v2", "v2"),)
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    raw["env"]["max_rounds"] = 1
    raw["agents"]["plan_search"]["kwargs"] = {"plans": 2, "rollouts": 1}
    tiny = parse_config(raw, games=1, workers=1, out=tmp_path)
    report = run_tournament(tiny, progress=False, log=lambda _: None)
    assert report.played == 1 and report.results["agents"]["plan_search"]["seats"] == 1
