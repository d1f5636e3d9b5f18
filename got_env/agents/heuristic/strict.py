"""What a heuristic does when one of its own rules fails: a decision kind without a rule, or a
rule that picks an action the mask does not allow.

A game must go on, so by default the agent plays a safe fallback (the first legal action, or
"done"/"nothing") and warns, once per agent and decision kind. Under test that would hide the
bug, so with the environment variable :data:`STRICT_ENV` set to ``1`` the agent raises
:class:`HeuristicRuleError` instead. It is an environment variable, not a setting of the agent,
so that worker processes (tournaments, batched games) inherit it; the agent reads it when it is
built (or unpickled). ``tests/conftest.py`` sets it for the whole suite."""

from __future__ import annotations

import os
import warnings

from got_env.engine.decision import DecisionKind

#: The environment variable that makes heuristics raise on their own errors.
STRICT_ENV = "GOT_ENV_STRICT_AGENTS"
#: The values of :data:`STRICT_ENV` that turn strictness on (any case).
TRUE_VALUES = ("1", "true", "yes", "on")


class HeuristicRuleError(RuntimeError):
    """A heuristic's own rule failed (raised only when :data:`STRICT_ENV` is set)."""


class HeuristicFallbackWarning(RuntimeWarning):
    """A heuristic's own rule failed and it played a fallback action instead."""


def strict_from_env() -> bool:
    """Whether :data:`STRICT_ENV` asks for strict agents now."""
    return os.environ.get(STRICT_ENV, "").strip().lower() in TRUE_VALUES


class Fallbacks:
    """One agent's handling of its failed rules: raise when strict, else warn once per
    decision kind (the agent still plays)."""

    def __init__(self, agent: str):
        self.agent = agent
        self.strict = strict_from_env()
        self.warned: set[DecisionKind] = set()

    def failed(self, kind: DecisionKind, error: str) -> None:
        """Report that the rule for ``kind`` failed with ``error``: raise if strict, else warn
        (the first time for this kind) and return, so that the caller plays its fallback."""
        message = f"{self.agent}: {kind.label}: {error}"
        if self.strict:
            raise HeuristicRuleError(f"{message} ({STRICT_ENV} is set)")
        if kind not in self.warned:
            self.warned.add(kind)
            warnings.warn(f"{message}; a fallback action is played instead (set {STRICT_ENV}=1 "
                          f"to raise)", HeuristicFallbackWarning, stacklevel=3)
