"""The v1 heuristic agent, kept importable here (``from agents.heuristic import
HeuristicAgent``). Its code lives in :mod:`agents.got.heuristic`, the package of AGoT's own
agents: one module per part of the round, the agent class in :mod:`agents.got.heuristic.agent`.
"""

from agents.got.heuristic import HeuristicAgent, env_ruleset

__all__ = ["HeuristicAgent", "env_ruleset"]
