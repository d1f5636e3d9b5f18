"""The v2 heuristic agent, kept importable here (``from agents.heuristic_v2 import
HeuristicV2Agent``). Its code lives in :mod:`agents.got.heuristic.v2`, beside v1's in
:mod:`agents.got.heuristic`.
"""

from agents.got.heuristic import HeuristicV2Agent

__all__ = ["HeuristicV2Agent"]
