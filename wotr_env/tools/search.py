"""War of the Ring's piece of the plan search (:mod:`agents.plan_search`): which decisions start
a plan, where a plan ends, and whose plans are searched.

A side commits to a turn's course where it allocates the Hunt (the Shadow, WD-06) and where it
chooses its first action die of the turn (WD-07); a plan runs to the end of the turn
(``game.round`` is the turn), where the standing (victory points, corruption, progress) or a
learned value scores it. The heuristic has no temperature: its plans differ by the seed of its
determinizations, and the search also tries the other first actions (the other dice).
"""

from __future__ import annotations

from wotr_env.engine.decision import WD, Decision
from wotr_env.engine.state import WotrState

#: The agent kind whose plans are searched, and that plays the other side in the rollouts.
BASE_POLICY = "wotr_heuristic"
#: A plan runs to the end of the turn.
HORIZON = "round"
#: The heuristic takes no options: its seed alone makes a candidate.
BASE_OPTIONS: dict[str, object] = {}
CANDIDATE_OPTIONS: dict[str, object] = {}
#: Fill the candidates up with the other first actions (the other dice faces, a pass, a ring).
WIDEN = True

#: What a side's use of an action die leaves in the log (turn, event, side, ...).
_DIE_USED = frozenset({"die-action", "pass", "elven-ring"})


def plan_start(state: WotrState, decision: Decision) -> bool:
    """Whether ``decision`` starts a plan: the Hunt allocation, or the side's first choice of
    an action die this turn (the public log shows no die of its used this turn)."""
    if decision.kind == WD.HUNT_ALLOCATION:
        return True
    if decision.kind != WD.CHOOSE_DIE:
        return False
    for entry in reversed(state.log):
        if entry[0] != state.turn:
            break
        if entry[1] in _DIE_USED and entry[2] == decision.player:
            return False
    return True
