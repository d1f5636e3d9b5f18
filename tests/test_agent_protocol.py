"""The Agent protocol: scripts call the optional reset() and observe_end() around each game."""

import got_env
from agents import RandomAgent
from agents.base import Agent
from experiments.play import play_game


class Recorder(RandomAgent):
    def __init__(self, seed):
        super().__init__(seed)
        self.calls = []

    def reset(self):
        self.calls.append("reset")

    def observe_end(self, reward, info):
        self.calls.append(("end", reward, info["winner"]))


def test_reset_and_observe_end_are_called_once_per_game():
    env = got_env.raw_env(num_players=3, max_rounds=1)
    agents = {h: Recorder(seed=i) for i, h in enumerate(env.possible_agents)}
    assert all(isinstance(a, Agent) for a in agents.values())
    play_game(env, agents, seed=0)
    winner = env.ruleset.houses[env.game.outcome.winner].id
    for house, agent in agents.items():
        assert agent.calls[0] == "reset" and len(agent.calls) == 2
        _, reward, named = agent.calls[1]
        assert env.possible_agents[named] == winner  # numeric infos: the winner's index
        assert reward == (1.0 if house == winner else -0.5)
