"""Baseline agents. Every agent implements :class:`agents.base.Agent`."""

from .base import Agent
from .heuristic import HeuristicAgent
from .ismcts import ISMCTSAgent
from .random_agent import RandomAgent

REGISTRY = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "ismcts": ISMCTSAgent,  # ismcts needs env= (see play.py)
}


def make_agent(name: str, **kwargs):
    """Build an agent by its registry name (as used in configs/)."""
    try:
        cls = REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; known: {sorted(REGISTRY)}") from None
    return cls(**kwargs)


__all__ = ["REGISTRY", "Agent", "HeuristicAgent", "ISMCTSAgent", "RandomAgent", "make_agent"]
