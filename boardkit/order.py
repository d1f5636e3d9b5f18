"""PettingZoo's order-enforcing guard (reset before step, ...) with direct paths for the agent
loop, for every env on the kit (:class:`boardkit.aec.KitEnv`: AGoT's, Goofspiel's).

The guard is what ``got_env.env()`` and ``goofspiel.env()`` return; its speed matters, since a
random or heuristic agent's loop spends a fair part of each step in it (docs/speed.md, "Little
bookkeeping per step").
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

_log = wrappers.order_enforcing.EnvLogger


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing guard with direct paths for what the agent loop does at every
    step: the inherited ``last()`` reads six attributes, and ``agent_iter``'s ``next()`` and
    ``step()`` read ``agents`` and ``agent_selection``, each through two layers of
    ``__getattr__``; here ``last()``, ``step()`` and the iterator ask the raw env, and
    ``agents`` and ``agent_selection`` are properties (same checks, same errors and warnings,
    same values)."""

    def last(self, observe: bool = True) -> tuple:
        if not self._has_reset:
            _log.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            _log.error_step_before_reset()
        self._has_updated = True
        if not self.env.agents:
            _log.warn_step_after_terminated_truncated()
        else:
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AgentIterable:
        if not self._has_reset:
            _log.error_agent_iter_before_reset()
        return AgentIterable(self, max_iter)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection

    def __str__(self) -> str:
        return str(self.env)


class AgentIterable(wrappers.order_enforcing.AECOrderEnforcingIterable):
    """``OrderEnforcing.agent_iter()``: PettingZoo's order-enforcing iterable, whose iterator
    reads the raw env directly."""

    def __iter__(self) -> AgentIterator:
        return AgentIterator(self.env, self.max_iter)


class AgentIterator(wrappers.order_enforcing.AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing iterator (the same stop rule and the same "call step() or
    reset()" assertion), reading ``agents`` and ``agent_selection`` from the raw env."""

    def __next__(self) -> str:
        guard = self.env
        raw = guard.env
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert guard._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        guard._has_updated = False
        return raw.agent_selection
