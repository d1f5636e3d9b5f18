"""War of the Ring agents: the rule-based heuristic (:mod:`wotr_env.agents.heuristic`) and its agent
class (:mod:`wotr_env.agents.agent`)."""
