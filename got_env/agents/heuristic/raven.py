"""Planning phase, the Messenger Raven (D-21..D-23): after the orders are revealed, its holder
may swap one order or look at the top wildling card."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from got_env.engine.decision import Action, DecisionKind

from .choices import choice
from .view import _View

if TYPE_CHECKING:
    from .agent import Handler, HeuristicAgent

K = DecisionKind


def raven_use(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-21: looking at the wildling card is free information; swaps are not worth the
    risk of breaking the plan."""
    if choice("look-at-wildling-card") in actions:
        return choice("look-at-wildling-card")
    return choice("nothing")


def raven_swap(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-22: turn a Consolidate Power next to a rival into a Defense, else the first swap
    offered to a stronger token of the same kind."""
    t = vw.t
    threat = vw.threats()
    for a in actions:
        if a[0] == "order" and t.tok_type[a[2]] == "defense" and threat[a[1]] > 0:
            return a
    return max(actions, key=lambda a: t.tok_bonus[a[2]] if a[0] == "order" else -9)


def raven_look(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-23: keep a harmless card on top (Silence at the Wall, or any card when we hold the
    most power and would win its reward); bury the others."""
    known = np.flatnonzero(vw.v["wildling_top_known"] > 0)
    card = vw.t.wildling_ids[int(known[0])] if known.size else ""
    richest = all(vw.power[0] >= vw.power[r] for r in vw.rivals)
    if card == "silence-at-the-wall" or richest:
        return choice("keep-on-top")
    return choice("put-on-bottom")


HANDLERS: dict[DecisionKind, Handler] = {
    K.RAVEN_USE: raven_use,
    K.RAVEN_SWAP: raven_swap,
    K.RAVEN_LOOK: raven_look,
}
