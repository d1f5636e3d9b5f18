"""The information-set MCTS agent (agents/ismcts.py): legal play in whole games at tiny budgets,
the search finding an immediately winning March, search reading the game only through
determinize, the rollout-policy adapters, registration and the experiment script."""

from __future__ import annotations

import numpy as np
import pytest

import got_env
from agents import REGISTRY, ISMCTSAgent, RandomAgent, make_agent
from agents.ismcts import (
    ISMCTS,
    ObservationPolicy,
    evaluate,
    random_policy,
)
from got_env import engine
from got_env.engine import DecisionKind, apply, scenario
from got_env.engine.determinize import determinize
from got_env.game import material

# Lannister holds six castles: Lannisport (home), Riverrun and Seagard with units, Harrenhal,
# Crackclaw Point and The Reach with power tokens (as in tests/test_victory.py).
SIX_CASTLES_UNITS = {"lannisport": "F", "riverrun": "F", "seagard": "F"}
SIX_CASTLES_TOKENS = {"harrenhal": "lannister", "crackclaw-point": "lannister",
                      "the-reach": "lannister"}
MARCH_KINDS = (DecisionKind.MARCH_TO_RESOLVE, DecisionKind.MARCH_MOVE,
               DecisionKind.LEAVE_POWER_TOKEN)


def play_env(env, agents, seed) -> None:
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        action = None if term or trunc else agents[agent].act(obs["observation"],
                                                              obs["action_mask"], info)
        env.step(action)  # the env raises on an illegal action


# -- legal play ---------------------------------------------------------------------------------


def test_full_game_every_seat_tiny_budget():
    """Three plain ISMCTS agents (3 simulations, random rollouts of 8 decisions, uniform
    determinizations) play a whole 3-player game."""
    env = got_env.env(num_players=3)  # wrapped: the agents reach the game through .unwrapped
    agents = {h: ISMCTSAgent(env=env, simulations=3, per_option=None, rollout="random",
                             prior=None, model=None, widening=None, max_decisions=8, seed=i)
              for i, h in enumerate(env.possible_agents)}
    play_env(env, agents, seed=0)
    game = env.unwrapped.game
    assert game.outcome is not None
    search = agents["stark"].search  # the budget: 3 visits at the root, reused ones included
    assert search.last_root.visits >= 3 and search.last_iterations <= 3


def test_full_game_with_tides_and_observation_policy():
    """One ISMCTS seat with rollouts and prior by an observation agent (random agent through
    the adapter), a time budget, Tides of Battle, 4 players."""
    env = got_env.raw_env(num_players=4, tides_of_battle=True, max_rounds=4)
    seat = env.possible_agents[1]
    agents = {h: RandomAgent(seed=i) for i, h in enumerate(env.possible_agents)}
    agents[seat] = ISMCTSAgent(env=env, simulations=2, seconds=0.5, rollout="random",
                               prior="random", model="random", widening=1.0, max_decisions=6,
                               seed=3)
    play_env(env, agents, seed=1)
    assert env.game.outcome is not None


def test_default_agent_heuristic_guided_plays_legally():
    """The default agent (heuristic rollouts, prior and model of the other houses) at a tiny
    budget, 2 rounds."""
    pytest.importorskip("got_env.agents.heuristic")
    env = got_env.raw_env(num_players=3, max_rounds=2)
    agents = {h: RandomAgent(seed=i) for i, h in enumerate(env.possible_agents)}
    agents["lannister"] = make_agent("ismcts", env=env, simulations=2, max_decisions=6, seed=0)
    assert agents["lannister"].search.model is not None
    play_env(env, agents, seed=2)
    assert env.game.outcome is not None


# -- strength -----------------------------------------------------------------------------------


def winning_march_position():
    """6 players, March step: Lannister (six castles) has Marches in The Twins (two Footmen,
    next to the empty Moat Cailin, a castle: the 7th) and in Stoney Sept; the Greyjoys hold
    Seagard's neighbour Flint's Finger. Taking Moat Cailin wins at once (R22.2, R5.3)."""
    return scenario.build({
        "start": "marches",
        "units": {"lannister": {**SIX_CASTLES_UNITS, "the-twins": "FF", "stoney-sept": "FF"},
                  "greyjoy": {"flints-finger": "F"}},
        "power_tokens": SIX_CASTLES_TOKENS,
        "orders": {"the-twins": "march-0", "stoney-sept": "march-0"},
    })


def play_march(state, choose) -> bool:
    """Let ``choose(state)`` play Lannister's March decisions; True if Lannister has won."""
    lannister = state.ruleset.house("lannister")
    while state.pending is not None and state.pending.player == lannister \
            and state.pending.kind in MARCH_KINDS:
        apply(state, choose(state))
    return state.outcome is not None and state.outcome.winner == lannister \
        and state.outcome.reason == "seven-castles"


def test_finds_the_winning_march_more_often_than_random():
    """R22.2: with 40 simulations ISMCTS takes the 7th castle (Moat Cailin) in every trial;
    random play of the same decisions does so far less often."""
    start = winning_march_position()
    lannister = start.ruleset.house("lannister")
    assert start.pending.kind == DecisionKind.MARCH_TO_RESOLVE
    rng = np.random.default_rng(0)
    random_wins = sum(play_march(start.clone(), lambda s: random_policy(s, s.pending, rng))
                      for _ in range(300)) / 300
    trials = 8
    wins = 0
    for seed in range(trials):
        search = ISMCTS(game="got", simulations=40, seed=seed)
        wins += play_march(start.clone(), lambda s, m=search: m.search(s, lannister))
    assert random_wins < 0.5
    assert wins / trials >= 0.875 > random_wins + 0.3


# -- information ------------------------------------------------------------------------------


def hidden_position():
    """3 players, Planning: the first house has placed its orders (hidden from the second)."""
    rng = np.random.default_rng(4)
    state = engine.start_game(3, seed=4)
    first = state.pending.player
    while state.pending.player == first:
        d = state.pending
        apply(state, d.options[int(rng.integers(len(d.options)))])
    return state


@pytest.mark.parametrize("widening,model", [(None, None), (1.0, random_policy)])
def test_search_depends_only_on_the_information_set(widening, model):
    """Two true states the deciding house cannot tell apart (the other house's hidden orders,
    deck orders and generator differ) give the same search, move and statistics."""
    state = hidden_position()
    house = state.pending.player
    other = determinize(state, house, 123)
    assert not np.array_equal(state.orders, other.orders) or \
        not np.array_equal(state.westeros_decks, other.westeros_decks)
    results = []
    for s in (state, other):
        m = ISMCTS(game="got", simulations=25, seed=9, widening=widening, prior=random_policy,
                   model=model)
        action = m.search(s, house)
        stats = sorted((k, ch.visits, round(ch.total, 9)) for k, ch in m.last_root.children.items())
        results.append((action, stats))
    assert results[0] == results[1]


def test_subtree_reused_for_the_next_order_placement():
    """D-20 asked again at once: the second search starts from the subtree of the first move
    (its visits count towards the budget); without reuse it starts afresh."""
    state = hidden_position()
    house = state.pending.player
    m = ISMCTS(game="got", simulations=30, prior=random_policy, widening=1.0, seed=1)
    action = m.search(state, house)
    chosen = m.last_root.children[(house, action)]
    before = chosen.visits
    assert before > 1
    apply(state, action)
    assert state.pending.player == house and state.pending.kind == DecisionKind.PLACE_ORDERS
    m.search(state, house)
    assert m.last_root is chosen and chosen.visits == 30
    assert m.last_iterations == 30 - before
    fresh = ISMCTS(game="got", simulations=30, reuse=False, seed=1)
    fresh.search(state, house)
    assert fresh.last_iterations == 30


def test_search_leaves_the_true_state_alone():
    state = hidden_position()
    before = state.clone()
    ISMCTS(game="got", simulations=10, seed=0).search(state, state.pending.player)
    assert state == before


def test_search_refuses_another_houses_decision():
    state = hidden_position()
    other = next(int(h) for h in np.flatnonzero(state.in_play) if h != state.pending.player)
    with pytest.raises(ValueError):
        ISMCTS(game="got", simulations=1).search(state, other)


# -- pieces -----------------------------------------------------------------------------------


def test_budget_prior_and_widening():
    """``per_option`` caps the iterations by the number of options; the prior's choice is the
    first child; progressive widening keeps the root to 1 + sqrt(visits) children."""
    state = hidden_position()
    house = state.pending.player
    n = len(state.pending.options)
    assert n > 5
    m = ISMCTS(game="got", simulations=100, per_option=1, seed=0)
    m.search(state, house)
    assert m.last_iterations == n
    last = lambda s, d, r: d.options[-1]  # noqa: E731
    m = ISMCTS(game="got", simulations=9, prior=last, widening=1.0, seed=0)
    m.search(state, house)
    keys = list(m.last_root.children)
    assert keys[0] == (house, state.pending.options[-1])
    assert len(keys) == 3 and m.last_root.visits == 9
    m = ISMCTS(game="got", simulations=9, seed=0)
    m.search(state, house)
    assert len(m.last_root.children) == 9  # without widening: a new child every iteration
    with pytest.raises(ValueError):
        ISMCTS(game="got", simulations=None, seconds=None)
    with pytest.raises(ValueError):
        ISMCTS(game="got", horizon="week")



def test_evaluate_shares_and_terminal_reward():
    state = engine.start_game(3, seed=0)
    r = evaluate(state, game="got")
    assert r.shape == (6,) and abs(r.sum() - 1) < 1e-9
    assert (r[~state.in_play] == 0).all() and (r[state.in_play] > 0).all()
    assert (material(state)[~state.in_play] == 0).all()
    s = winning_march_position()
    play_march(s, lambda st: ("area", st.ruleset.area("the-twins"))
               if st.pending.kind == DecisionKind.MARCH_TO_RESOLVE
               else ("move", 0, st.ruleset.area("moat-cailin")))
    assert s.outcome is not None
    r = evaluate(s, game="got")
    assert r[s.outcome.winner] == 1 and r.sum() == 1


class RecordingAgent:
    """An observation agent built with ``env=``: checks it sees the simulated game."""

    instances: list[RecordingAgent] = []

    def __init__(self, env, seed=None):
        self.env = env
        self.games = {}  # id -> the game itself, kept alive so that no id is reused
        RecordingAgent.instances.append(self)

    def act(self, observation, action_mask, info):
        game = self.env.unwrapped.game
        assert np.array_equal(observation, self.env.unwrapped.encoder.encode(
            game, game.pending.player))
        assert info["decision"] == game.pending.kind.label
        self.games[id(game)] = game
        return int(np.flatnonzero(action_mask)[0])


def test_observation_policy_adapter_gives_env_view_of_the_simulation():
    state = hidden_position()
    RecordingAgent.instances.clear()
    policy = ObservationPolicy(state.ruleset, 3, factory=RecordingAgent, seed=0, game="got")
    m = ISMCTS(game="got", simulations=5, policy=policy, seed=0)
    action = m.search(state, state.pending.player)
    assert action in state.pending.options
    assert 1 <= len(RecordingAgent.instances) <= 3  # one agent per house, built on first use
    games = set().union(*(a.games.keys() for a in RecordingAgent.instances))
    assert id(state) not in games and len(games) >= 5  # a fresh sample per simulation
    with pytest.raises(ValueError):
        ObservationPolicy(state.ruleset, 3, game="got")


def test_registered_and_seated_with_the_env():
    from experiments.play import build_agents

    assert REGISTRY["ismcts"] is ISMCTSAgent
    env = got_env.raw_env(num_players=3)
    agent = make_agent("ismcts", env=env, simulations=2)
    assert agent.env is env
    seated = build_agents(env, {"default": {"name": "random"},
                                "stark": {"name": "ismcts", "simulations": 2}}, seed=0)
    assert isinstance(seated["stark"], ISMCTSAgent) and seated["stark"].env is env
    assert isinstance(seated["lannister"], RandomAgent)
    with pytest.raises(ValueError):
        ISMCTSAgent(env=env, simulations=None, seconds=None)
    with pytest.raises(ValueError):
        ISMCTSAgent(env=env, rollout="no-such-agent")


def test_the_ismcts_vs_heuristic_config_plays(tmp_path):
    """configs/ismcts_vs_heuristic.yaml (what experiments/ismcts_vs_heuristic.py did): 30 games
    from seed 100, one IS-MCTS with its defaults against two heuristics, houses rotated; one
    game of it played with a tiny search."""
    from pathlib import Path

    import yaml

    from experiments.tournament.config import load_config, parse_config
    from experiments.tournament.plan import make_plan
    from experiments.tournament.run import run_tournament

    path = Path(__file__).resolve().parent.parent / "configs" / "ismcts_vs_heuristic.yaml"
    cfg = load_config(path, out=tmp_path)
    assert (cfg.games, cfg.seed, cfg.num_players) == (30, 100, 3)
    assert cfg.lineups == (("ismcts", "heuristic", "heuristic"),)
    assert cfg.agent_spec("ismcts").kwargs == {}    # the agent's defaults
    assert {s.houses[0] for s in make_plan(cfg)[:3]} == set(cfg.houses)   # rotated
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    raw["env"]["max_rounds"] = 1
    raw["agents"]["ismcts"] = {"name": "ismcts", "kwargs": {
        "simulations": 1, "rollout": "random", "prior": None, "model": None}}
    tiny = parse_config(raw, games=1, workers=1, out=tmp_path)
    report = run_tournament(tiny, progress=False, log=lambda _: None)
    assert report.played == 1 and report.results["agents"]["ismcts"]["seats"] == 1


def test_defaults_follow_the_games_default_policy():
    """``rollout``/``prior``/``model`` default to the game's ``default_policy`` (docs/kit.md):
    AGoT's heuristic, so AGoT searches as before; Goofspiel names none, so the defaults need no
    agent of its own (random rollouts, no prior, no model), and a whole game plays legally."""
    import goofspiel
    from agents.ismcts import default_policy
    from boardkit import games

    assert default_policy(games.get("got")) == "heuristic"
    assert default_policy(games.get("goofspiel")) is None
    env = goofspiel.env(num_players=2, num_cards=5)
    agent = ISMCTSAgent(env=env, simulations=8, seed=0)
    assert agent.search.prior is None and agent.search.model is None
    agents = {"player_0": agent, "player_1": RandomAgent(seed=1)}
    env.reset(seed=4)
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else agents[name].act(obs["observation"],
                                                              obs["action_mask"], {}))
    assert games.get("goofspiel").outcome(env.unwrapped.game) is not None
