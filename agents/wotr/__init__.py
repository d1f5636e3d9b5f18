"""War of the Ring agents: the rule-based heuristic (:mod:`agents.wotr.heuristic`) and its agent
class (:mod:`agents.wotr.agent`)."""
