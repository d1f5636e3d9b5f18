"""The v1 heuristic agent: it decodes the observation (:mod:`.view`) and hands each decision to
the rule for its kind, found in the table :attr:`HeuristicAgent.HANDLERS` (DecisionKind ->
function, gathered from the modules of each part of the round). A subclass changes play by
updating that table and the few hooks (:meth:`HeuristicAgent._view`,
:meth:`HeuristicAgent._evaluate_march`, :attr:`HeuristicAgent.PLANNER`), as v2 does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from got_env.engine.decision import Action, DecisionKind

from . import (
    bidding,
    combat,
    consolidate,
    house_cards,
    marches,
    mustering,
    orders,
    raids,
    raven,
    westeros,
    wildlings,
)
from .choices import default
from .marches import MarchPlan, evaluate_march
from .orders import OrderPlanner
from .ruleset import check_observation, resolve_ruleset
from .strict import Fallbacks
from .view import _View, tables_for

#: A rule: (agent, decoded observation, legal actions) -> the action to play.
Handler = Callable[["HeuristicAgent", _View, list[Action]], Action]
#: What an agent's pickled state leaves out: rebuilt on load (shared tables, the strict switch
#: read again in the new process).
_REBUILT = ("t", "_fallbacks")
#: Keys of states pickled by older versions that mean nothing now.
_OBSOLETE = ("_ruleset_named",)


class HeuristicAgent:
    """Plays every decision kind with a small, explainable rule (:mod:`got_env.agents.heuristic`).

    The agent remembers a little between decisions (the order plan of a Planning phase, the
    moves of a March in progress, which influence track is being bid on, the power before a
    wildling bid); :meth:`reset` forgets it."""

    #: The rule for each decision kind (every kind has one; v2 updates a copy).
    HANDLERS: ClassVar[dict[DecisionKind, Handler]] = {
        **westeros.HANDLERS, **mustering.HANDLERS, **bidding.HANDLERS, **wildlings.HANDLERS,
        **orders.HANDLERS, **raven.HANDLERS, **raids.HANDLERS, **marches.HANDLERS,
        **combat.HANDLERS, **house_cards.HANDLERS, **consolidate.HANDLERS,
    }
    #: Plans the orders of a Planning phase (D-20).
    PLANNER: ClassVar[type[OrderPlanner]] = OrderPlanner

    def __init__(self, seed: int | None = None, ruleset: str | None = None, env: Any = None):
        """``seed`` is accepted like every agent's, but the rules are deterministic.

        ``ruleset`` ("2e", "1e"): the game's edition; without it, the ruleset of ``env`` (the
        game's env, which agent specs pass); without either, "2e". An observation of another
        ruleset raises ValueError (:func:`.ruleset.check_observation`)."""
        del seed
        self.ruleset = resolve_ruleset(ruleset, env)
        self._bind()
        self.reset()

    def _bind(self) -> None:
        """What is rebuilt rather than stored: the ruleset's shared tables, and the strict
        switch (:mod:`.strict`), read now from the environment."""
        self.t = tables_for(self.ruleset)
        self._fallbacks = Fallbacks(type(self).__name__)

    def __getstate__(self) -> dict[str, Any]:
        """Its memory of the game only: the ruleset's tables are rebuilt (shared) on load, so
        that a trainer checkpoint holding many heuristic seats stays small."""
        return {k: v for k, v in self.__dict__.items() if k not in _REBUILT}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update({k: v for k, v in state.items() if k not in _OBSOLETE})
        self._bind()

    def reset(self) -> None:
        """Forget the memory of the previous game."""
        self._order_plan: tuple[Any, dict[int, tuple]] | None = None
        self._march: dict[str, Any] | None = None
        self._last_kind: DecisionKind | None = None
        self._bid_track = 0
        self._wildling_snapshot: tuple[np.ndarray, float] | None = None

    def observe_end(self, *args: Any, **kwargs: Any) -> None:
        """End of a game: nothing to learn, just forget."""
        self.reset()

    # -- entry point ----------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask: this agent is not to act")
        check_observation(type(self).__name__, self.ruleset, self.t.encoder.size,
                          observation.shape[-1])
        actions = [self.t.decode[i] for i in legal]
        vw = self._view(observation)
        kind = self._kind(info, vw)
        handler = self.HANDLERS.get(kind)
        if handler is None:
            self._fallbacks.failed(kind, "no rule for this decision kind")
            handler = _default
        action = handler(self, vw, actions) if len(actions) > 1 else actions[0]
        self._last_kind = kind
        index = self.t.codec.encode(action)
        if not action_mask[index]:  # a bug in a rule must never make an illegal move
            self._fallbacks.failed(kind, f"the rule chose {action!r}, which the mask does not "
                                         f"allow")
            return int(legal[0])
        return int(index)

    @staticmethod
    def _kind(info: dict[str, Any], vw: _View) -> DecisionKind:
        label = info.get("decision") if info else None
        if isinstance(label, str) and label:  # info_format="text": "D-20 PLACE_ORDERS"
            return DecisionKind(int(label[2:4]))
        if label:  # the env's default numeric infos: the kind's id (0: no decision)
            return DecisionKind(int(label))
        return DecisionKind(int(np.argmax(vw.v["decision_kind"])) + 1)

    # -- hooks ----------------------------------------------------------------------------------
    def _view(self, observation: np.ndarray) -> _View:
        """The decoded observation every rule reads (a subclass may read more from it)."""
        return _View(self.t, observation)

    def _evaluate_march(self, vw: _View, src: int, moves: list[Action] | None,
                        claimed: set[int] | frozenset = frozenset(), planning: bool = False
                        ) -> MarchPlan:
        """The plan of a March from ``src`` (:func:`.marches.evaluate_march`), which the order
        planning and the marches both follow."""
        return evaluate_march(vw, src, moves, claimed, planning)

    def _plan_orders(self, vw: _View, areas: list[int]) -> dict[int, tuple]:
        """The orders of ``areas`` (area -> token key), by :attr:`PLANNER`."""
        return self.PLANNER(self, vw, areas).run()


def _default(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """The fallback of a decision kind without a rule (:func:`.choices.default`)."""
    return default(vw, actions)
