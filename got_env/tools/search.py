"""AGoT's piece of the plan search (:mod:`agents.plan_search`): which decisions start a plan,
where a plan ends, and whose plans are searched.

A plan is heuristic_v2 playing our house with one seed and temperature; v2 decides a round's
orders and a March at once, so a plan is searched where v2 commits to one (issue 39): the first
order placement of a round (D-20), each influence bid (D-06) and each house card (D-32, D-34),
and it runs to the end of the round (``game.round`` changes), where the material standing or a
learned value scores it.
"""

from __future__ import annotations

from boardkit.protocol import Decision
from got_env.engine.decision import DecisionKind
from got_env.engine.state import GameState

#: The agent kind whose plans are searched, and that plays the other houses in the rollouts.
BASE_POLICY = "heuristic_v2"
#: A plan runs to the end of the round.
HORIZON = "round"
#: Candidate 0: v2 without its noise (its most likely plan); the others: v2 with this much noise
#: and a seed each (v2's own temperature is 0.2: 89% of its order placements agree across seeds).
BASE_OPTIONS = {"temperature": 0.0}
CANDIDATE_OPTIONS = {"temperature": 1.0}
#: Where v2's plans are too alike (a house card: 94% the same across seeds), the candidates are
#: filled up with the other options (each followed by v2): :func:`widen`.
_WIDEN = frozenset({DecisionKind.INFLUENCE_BID, DecisionKind.HOUSE_CARD,
                    DecisionKind.REPLACEMENT_CARD})

#: Decisions that start a plan whenever they come (D-20 only at its first placement).
_EVERY_TIME = frozenset({DecisionKind.INFLUENCE_BID, DecisionKind.HOUSE_CARD,
                         DecisionKind.REPLACEMENT_CARD})


def widen(state: GameState, decision: Decision) -> bool:
    """Whether the search tries the other options of ``decision`` too (a bid, a house card);
    an order placement keeps v2's plans only (one order is a piece of a round's plan)."""
    return decision.kind in _WIDEN


def plan_start(state: GameState, decision: Decision) -> bool:
    """Whether ``decision`` starts a plan: an influence bid, a house card, or the deciding
    house's first order placement of the round (none of its areas has an order yet: its own
    orders, which it knows)."""
    kind = decision.kind
    if kind in _EVERY_TIME:
        return True
    if kind != DecisionKind.PLACE_ORDERS:
        return False
    order_at = state.orders.item
    return all(order_at(area) < 0 for area in state.areas_occupied_by(decision.player))
