"""The plan search (agents/plan_search.py) plays every registered game through the protocol and
the game's own search piece (or the defaults: every decision a plan start, the horizon the
seat's next decision): the first decisions of a game of each variant, one plan-search seat
(2 plans, 1 rollout, a one-decision horizon to keep it short) among random seats, every action
legal (the env raises otherwise)."""

from __future__ import annotations

from agents import RandomAgent
from agents.plan_search import PlanSearchAgent
from boardkit.envs import make_env

from .play import options_of

STEPS = 60


def test_plan_search_plays_legally(case):
    name, variant = case
    env = make_env(name, **options_of(name, variant))
    env.reset(seed=5)
    first = env.possible_agents[0]
    agents = {a: RandomAgent(seed=i) for i, a in enumerate(env.possible_agents)}
    agents[first] = PlanSearchAgent(env=env, plans=2, rollouts=1, horizon=1, seed=0)
    searched = 0
    for agent in env.agent_iter(STEPS):
        obs, _, term, trunc, info = env.last()
        action = None if term or trunc else agents[agent].act(obs["observation"],
                                                              obs["action_mask"], info)
        searched += agent == first and action is not None
        env.step(action)
    assert searched > 0
